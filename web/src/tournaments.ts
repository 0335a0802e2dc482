// The tournaments' pages, a script of their own (static/tournaments.js,
// loaded in place of app.js, so that the other pages do not carry them):
// /tournaments, the list in three parts and the form that makes one, and
// /tournaments/{id}, a tournament kept current by its socket, which
// sends a player to their game when they are paired.

import { request, type CatalogGame, type CatalogOption } from "./api";
import { siteHeader } from "./chrome";
import { h, replaceKeepingFocus } from "./dom";
import { fixed, lang, t, tn } from "./i18n";
import { clockText, me, profileLink, signInLink, type SeekClock } from "./players";
import { applyTheme } from "./theme";

interface Summary {
  id: string;
  name: string;
  kind: string;
  game: string;
  state: string;
  control?: { initial: number; increment: number; days: number };
  rated: boolean;
  rounds?: number;
  minutes?: number;
  invite?: boolean;
  starts?: number;
  started?: number;
  ended?: number;
  round: number;
  winner?: string;
}

interface Line {
  rank: number;
  name: string;
  rating: number;
  score: number;
  tiebreaks: number[];
  points?: number[];
  fire?: boolean;
  games: number;
  withdrawn?: boolean;
  paused?: boolean;
  berserk?: boolean;
}

interface Board {
  board: number;
  id: string;
  seats: string[];
  result: string;
  berserk?: boolean[];
}

interface Tournament extends Omit<Summary, "rounds"> {
  creator: string;
  minRating?: number;
  maxRating?: number;
  totalRounds?: number;
  ends?: number;
  now: number;
  standings: Line[];
  rounds: { round: number; games: Board[] }[];
  podium: string[];
  you?: Line;
  playing?: string;
}

const arena = "arena"; // i18n-ignore: the API's kind
const kinds = [arena, "swiss", "roundrobin"];
const kindNames: Record<string, string> = { arena: t("tournament.kind.arena"), swiss: t("tournament.kind.swiss"), roundrobin: t("tournament.kind.roundrobin") };
const kindName = (k: string) => kindNames[k] ?? k;
const stateNames: Record<string, string> = { created: t("tournament.state.created"), running: t("tournament.state.running"), finished: t("tournament.state.finished") };
const rulesTexts: Record<string, string> = { arena: t("tournament.rules_text.arena"), swiss: t("tournament.rules_text.swiss"), roundrobin: t("tournament.rules_text.roundrobin") };


// gameNames are the catalog's games by id, read once.
let catalog: Promise<CatalogGame[]> | null = null;
const games = () => (catalog ??= request<CatalogGame[]>("GET", "/api/catalog"));
const gameName = (list: CatalogGame[], id: string) => list.find((c) => c.id === id)?.name ?? id;

// clockOf is the API's clock as a seek's: days, or initial and increment.
const clockOf = (c?: Summary["control"]): SeekClock => !c ? null : c.days ? { days: c.days } : { initial: c.initial, increment: c.increment };

const when = (ms: number) => new Date(ms).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });

// --- The list ---

async function listPage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  const main = h("main", { class: "tournaments" });
  root.replaceChildren(siteHeader(h("h1", {}, t("chrome.nav.tournaments"))), message, main);
  try {
    const [list, cat, who] = await Promise.all([request<Record<string, Summary[]>>("GET", "/api/tournaments"), games(), me()]);
    main.append(who ? createBox(cat) : h("p", { class: "hint" }, signInLink(t("tournament.sign_in"))));
    const parts: [string, string][] = [["running", t("tournament.part.running")], ["upcoming", t("tournament.part.upcoming")], ["finished", t("tournament.state.finished")]];
    for (const [part, title] of parts) {
      const items = list[part] ?? [];
      main.append(h("section", { class: `tournament-part ${part}`, "aria-labelledby": `part-${part}` },
        h("h2", { id: `part-${part}` }, title),
        items.length ? h("ul", { class: "tournament-list" }, ...items.map((s) => listItem(s, cat))) : h("p", { class: "none" }, t("tournament.none"))));
    }
  } catch (e) {
    message.textContent = (e as Error).message;
  }
}

function listItem(s: Summary, cat: CatalogGame[]): HTMLElement {
  return h("li", { class: "tournament-item", "data-id": s.id },
    h("a", { href: `/tournaments/${s.id}`, class: "tournament-name" }, s.name),
    h("span", { class: "tournament-facts" }, facts(s, cat)),
    h("span", { class: "tournament-when" }, whenText(s)));
}

// facts are a tournament's kind, game, clock and mode in one line.
function facts(s: Omit<Summary, "rounds">, cat: CatalogGame[]): string {
  return [kindName(s.kind), gameName(cat, s.game), clockText(clockOf(s.control)), s.rated ? t("lobby.rated") : t("lobby.casual")].join(" · ");
}

// whenText is where a listed tournament stands: its start, its time left
// or round, its winner.
function whenText(s: Summary): string {
  if (s.state === "finished") return s.winner ? t("tournament.winner", { Name: s.winner }) : t("tournament.state.finished");
  if (s.state === "running") {
    if (s.kind === arena && s.started && s.minutes) return t("tournament.ends_at", { When: when(s.started + s.minutes * 60000) });
    return s.rounds ? t("tournament.round_of", { Round: s.round, Total: s.rounds }) : t("tournament.round", { Round: s.round });
  }
  return s.starts ? t("tournament.starts_at", { When: when(s.starts) }) : t("tournament.by_hand");
}

// createBox is the form that makes a tournament; a refusal is the API's
// message, shown in the form.
function createBox(cat: CatalogGame[]): HTMLElement {
  const field = (id: string, label: string, input: HTMLElement, help = "") =>
    h("p", { class: "field", "data-field": id }, h("label", { for: `t-${id}` }, label), input, ...(help ? [h("small", {}, help)] : []));
  const num = (id: string, value: string, min: string, max: string, step = "1") =>
    h("input", { id: `t-${id}`, name: id, type: "number", value, min, max, step, inputmode: step === "1" ? "numeric" : "decimal" });
  const radio = (name: string, value: string, label: string, checked = false) =>
    h("label", {}, h("input", checked ? { type: "radio", name, value, checked: "" } : { type: "radio", name, value }), label);
  const game = h("select", { id: "t-game", name: "game" }, ...cat.map((c) => h("option", c.id === "pommel" ? { value: c.id, selected: "" } : { value: c.id }, c.name)));
  const options = h("div", { class: "seek-options" });
  const fillOptions = () => options.replaceChildren(...(cat.find((c) => c.id === game.value)?.options ?? []).map(optionField));
  game.addEventListener("change", fillOptions);
  fillOptions();
  const days = h("select", { id: "t-days", name: "days" }, ...[1, 2, 3, 5, 7, 14].map((d) => h("option", { value: String(d) }, tn("players.days", d))));
  const at = h("input", { id: "t-at", name: "at", type: "datetime-local" });
  const message = h("p", { class: "message", role: "alert" });
  const form = h("form", { class: "seek-form tournament-form" },
    field("name", t("tournament.name"), h("input", { id: "t-name", name: "name", maxlength: "60", autocomplete: "off" })),
    h("fieldset", { class: "inline" }, h("legend", {}, t("tournament.form.kind")), ...kinds.map((k, i) => radio("kind", k, kindName(k), i === 0))),
    field("game", t("lobby.game"), game),
    h("details", { class: "more" }, h("summary", {}, t("lobby.form.options")), options),
    h("fieldset", { class: "inline" }, h("legend", {}, t("lobby.form.clock")), radio("clock", "fischer", t("lobby.kind.realtime"), true), radio("clock", "days", t("lobby.kind.correspondence"))),
    h("div", { class: "clock-fields", "data-clock": "fischer" }, field("initial", t("lobby.form.minutes"), num("initial", "3", "0.5", "180", "0.5")), field("increment", t("lobby.form.increment"), num("increment", "2", "0", "60"))),
    h("div", { class: "clock-fields", "data-clock": "days", hidden: "" }, field("days", t("lobby.form.per_move"), days)),
    field("minutes", t("tournament.form.minutes"), num("minutes", "30", "1", "720")),
    field("rounds", t("tournament.rounds_field"), num("rounds", "5", "1", "15")),
    h("fieldset", { class: "inline" }, h("legend", {}, t("lobby.form.mode")), radio("rated", "true", t("lobby.rated"), true), radio("rated", "false", t("lobby.casual"))),
    h("fieldset", { class: "inline" }, h("legend", {}, t("tournament.form.start")), radio("start", "hand", t("tournament.form.by_hand"), true), radio("start", "at", t("tournament.form.at"))),
    field("at", t("tournament.form.when"), at),
    h("p", { class: "field takebacks-choice" }, h("label", {}, h("input", { type: "checkbox", name: "invite", id: "t-invite" }), t("tournament.form.invite"))),
    h("div", { class: "clock-fields" }, field("min", t("tournament.form.min_rating"), num("min", "0", "0", "4000")), field("max", t("tournament.form.max_rating"), num("max", "0", "0", "4000"))),
    message,
    h("button", { type: "submit", class: "create-tournament" }, t("tournament.form.create")));
  const show = () => {
    const data = new FormData(form);
    const kind = data.get("kind");
    form.querySelectorAll<HTMLElement>("[data-clock]").forEach((f) => { f.hidden = f.dataset.clock !== data.get("clock"); });
    (form.querySelector("[data-field=minutes]") as HTMLElement).hidden = kind !== arena;
    (form.querySelector("[data-field=rounds]") as HTMLElement).hidden = kind !== "swiss";
    (form.querySelector("[data-field=at]") as HTMLElement).hidden = data.get("start") !== "at";
  };
  form.addEventListener("change", show);
  show();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const kind = String(data.get("kind"));
    const n = (name: string) => Number(data.get(name) ?? 0);
    const chosen: Record<string, string> = {};
    for (const o of cat.find((c) => c.id === game.value)?.options ?? []) {
      const v = String(data.get(`seek-option-${o.key}`) ?? "");
      if (v !== "" && v !== o.default) chosen[o.key] = v;
    }
    const body: Record<string, unknown> = {
      name: String(data.get("name") ?? "").trim(), kind, game: game.value, options: chosen, rated: data.get("rated") === "true",
      clock: data.get("clock") === "days" ? { days: n("days") } : { initial: Math.round(n("initial") * 60), increment: n("increment") },
      invite: !!data.get("invite"), minRating: n("min"), maxRating: n("max"),
    };
    if (kind === arena) body.minutes = n("minutes");
    if (kind === "swiss") body.rounds = n("rounds");
    if (data.get("start") === "at") body.start = at.value ? new Date(at.value).toISOString() : "-";
    message.textContent = "";
    try {
      const made = await request<{ url: string }>("POST", "/api/tournaments", body);
      location.assign(made.url);
    } catch (e) {
      message.textContent = (e as Error).message;
    }
  });
  return h("details", { class: "seek-box tournament-create" }, h("summary", {}, t("tournament.form.title")), form);
}

function optionField(o: CatalogOption): HTMLElement {
  const id = `seek-option-${o.key}`;
  const input = o.values?.length
    ? h("select", { id, name: id }, ...o.values.map((v) => h("option", v === o.default ? { value: v, selected: "" } : { value: v }, v)))
    : h("input", { id, name: id, type: "number", min: String(o.min), max: String(o.max), value: o.default });
  return h("p", { class: "field" }, h("label", { for: id }, o.key), input, h("small", { lang: "en" }, o.help));
}

// --- One tournament ---

interface Page {
  id: string;
  me: string | null;
  cat: CatalogGame[];
  v: Tournament | null;
  skew: number; // the server's clock less this one's
  main: HTMLElement;
  message: HTMLElement;
  countdown: HTMLElement;
  retry: number;
}

async function tournamentPage(root: HTMLElement): Promise<void> {
  const id = decodeURIComponent(location.pathname.split("/")[2] ?? "");
  const message = h("p", { class: "message", role: "alert" });
  const main = h("main", { class: "tournament" });
  const title = h("h1", {}, t("chrome.nav.tournaments"));
  root.replaceChildren(siteHeader(title), message, main);
  const [cat, who] = await Promise.all([games().catch(() => []), me()]);
  const page: Page = { id, me: who, cat, v: null, skew: 0, main, message, countdown: h("p", { class: "countdown", "aria-live": "off" }), retry: 0 };
  try {
    show(page, await request<Tournament>("GET", `/api/tournaments/${encodeURIComponent(id)}`));
  } catch (e) {
    message.textContent = (e as Error).message;
    return;
  }
  title.textContent = page.v!.name;
  document.title = `${page.v!.name} (arbiter)`; // i18n-ignore: the site's name
  live(page);
  setInterval(() => tick(page), 1000);
}

// live keeps the page current from the tournament's socket, opened again
// a moment after it closes.
function live(page: Page): void {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/tournaments/${encodeURIComponent(page.id)}/ws`);
  ws.onopen = () => { page.main.dataset.live = "true"; page.retry = 0; };
  ws.onmessage = (ev) => show(page, JSON.parse(String(ev.data)) as Tournament);
  ws.onclose = () => {
    page.main.dataset.live = "false";
    page.retry = Math.min(page.retry + 1, 10);
    setTimeout(() => live(page), 1000 * page.retry);
  };
}

// show draws view v, and sends the player to their new game.
function show(page: Page, v: Tournament): void {
  page.v = v;
  page.skew = v.now - Date.now();
  replaceKeepingFocus(page.main, ...draw(page, v));
  tick(page);
  if (v.playing) void goPlay(page.id, v.playing);
}

// goPlay opens the player's game, once for each game: a player who comes
// back to the tournament during it stays. The game is made a moment after
// its pairing is stored: it is read before the page goes.
async function goPlay(id: string, game: string): Promise<void> {
  const key = `tournament-sent:${id}`; // i18n-ignore: a storage key
  if (localStorage.getItem(key) === game) return;
  localStorage.setItem(key, game);
  for (let i = 0; i < 20; i++) {
    if (await request("GET", `/api/games/${game}`).then(() => true, () => false)) {
      location.assign(`/play/${game}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

// tick writes the countdown: to the start, to an arena's end, or the
// round.
function tick(page: Page): void {
  const v = page.v;
  if (!v) return;
  const now = Date.now() + page.skew;
  const left = (to: number) => {
    const s = Math.max(0, Math.round((to - now) / 1000));
    const hms = s >= 3600 ? [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60] : [Math.floor(s / 60), s % 60];
    return hms.map((n, i) => (i ? String(n).padStart(2, "0") : String(n))).join(":");
  };
  let text = t("tournament.state.finished");
  if (v.state === "created") text = v.starts ? t("tournament.starts_in", { Left: left(v.starts) }) : t("tournament.by_hand");
  else if (v.state === "running" && v.kind === arena && v.ends) text = t("tournament.ends_in", { Left: left(v.ends) });
  else if (v.state === "running") text = v.totalRounds ? t("tournament.round_of", { Round: v.round, Total: v.totalRounds }) : t("tournament.round", { Round: v.round });
  if (page.countdown.textContent !== text) page.countdown.textContent = text;
}

function draw(page: Page, v: Tournament): HTMLElement[] {
  const out: HTMLElement[] = [
    h("section", { class: "tournament-head", "aria-labelledby": "tournament-facts" },
      h("p", { class: "tournament-facts", id: "tournament-facts" }, facts(v, page.cat)),
      h("p", { class: "tournament-state" }, stateNames[v.state] ?? v.state, " · ", t("tournament.by", { Name: v.creator }),
        ...(v.invite ? [" · ", t("tournament.invite_only")] : []),
        ...(v.minRating || v.maxRating ? [" · ", t("tournament.bounds", { Min: v.minRating ?? 0, Max: v.maxRating || "∞" })] : [])),
      page.countdown, actions(page, v)),
  ];
  if (v.podium.length && v.state === "finished") {
    out.push(h("section", { class: "podium", "aria-labelledby": "podium-title" }, h("h2", { id: "podium-title" }, t("tournament.podium")),
      h("ol", {}, ...v.podium.map((n) => h("li", {}, profileLink(n))))));
  }
  out.push(h("section", { class: "standings", "aria-labelledby": "standings-title" }, h("h2", { id: "standings-title" }, t("tournament.standings")), table(v)));
  out.push(roundsBox(v));
  out.push(h("section", { class: "tournament-rules", "aria-labelledby": "rules-title" }, h("h2", { id: "rules-title" }, t("tournament.rules")),
    h("p", {}, rulesTexts[v.kind] ?? ""),
    h("p", {}, h("a", { href: `/api/tournaments/${encodeURIComponent(v.id)}/games.pdn`, download: `${v.id}.pdn` }, t("tournament.pdn")))));
  return out;
}

// actions are the buttons the viewer may press: join, withdraw, pause
// and berserk (an arena's), start (its creator).
function actions(page: Page, v: Tournament): HTMLElement {
  const box = h("div", { class: "tournament-actions" });
  if (!page.me) {
    if (v.state !== "finished") box.append(signInLink(t("tournament.sign_in")));
    return box;
  }
  const button = (cls: string, label: string, path: string, body?: unknown, pressed?: boolean) => {
    const b = h("button", pressed === undefined ? { type: "button", class: cls } : { type: "button", class: cls, "aria-pressed": String(pressed) }, label);
    b.addEventListener("click", async () => {
      page.message.textContent = "";
      try {
        await request("POST", `/api/tournaments/${encodeURIComponent(v.id)}/${path}`, body);
        show(page, await request<Tournament>("GET", `/api/tournaments/${encodeURIComponent(v.id)}`));
      } catch (e) {
        page.message.textContent = (e as Error).message;
      }
    });
    return b;
  };
  const playing = v.you && !v.you.withdrawn;
  const open = v.state === "created" || v.state === "running" && v.kind === arena;
  if (open && !playing) box.append(button("join primary", t("tournament.join"), "join"));
  if (playing && v.state !== "finished") {
    if (v.kind === arena) {
      box.append(button("berserk", t("tournament.berserk"), "berserk", { on: !v.you!.berserk }, !!v.you!.berserk));
      if (v.state === "running") box.append(button("pause", t("tournament.pause"), "pause", { on: !v.you!.paused }, !!v.you!.paused));
    }
    box.append(button("withdraw", t("tournament.withdraw"), "withdraw"));
  }
  if (v.state === "created" && v.creator === page.me) box.append(button("start", t("tournament.start"), "start"));
  if (v.playing) box.append(h("a", { href: `/play/${v.playing}`, class: "button primary your-game" }, t("tournament.your_game")));
  return box;
}

// table is the standings: rank, player, score, and the tie-breaks of a
// Swiss or round-robin, or an arena's points game by game and its fire.
function table(v: Tournament): HTMLElement {
  if (!v.standings.length) return h("p", { class: "none" }, t("tournament.no_players"));
  const isArena = v.kind === arena;
  const heads = [t("leaderboard.rank"), t("leaderboard.player"), t("tournament.score"),
    ...(isArena ? [t("tournament.sequence")] : [t("tournament.buchholz"), t("tournament.sonneborn")]), t("leaderboard.games")];
  const num = (x: number) => (Number.isInteger(x) ? String(x) : fixed(x, 1));
  return h("div", { class: "table-box", tabindex: "0", role: "region", "aria-labelledby": "standings-title" },
    h("table", { class: "ranks tournament-table" },
      h("thead", {}, h("tr", {}, ...heads.map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, ...v.standings.map((s) => h("tr", { "data-name": s.name, class: s.name === v.you?.name ? "you" : "" },
        h("td", { class: "rank" }, String(s.rank)),
        h("td", { class: "name" }, profileLink(s.name),
          ...(s.fire ? [h("span", { class: "fire", title: t("tournament.fire"), "aria-label": t("tournament.fire") }, "🔥")] : []),
          ...(s.withdrawn ? [h("small", {}, ` ${t("tournament.withdrawn")}`)] : s.paused ? [h("small", {}, ` ${t("tournament.paused")}`)] : [])),
        h("td", { class: "score" }, num(s.score)),
        ...(isArena ? [h("td", { class: "sequence" }, (s.points ?? []).join(" "))] : s.tiebreaks.slice(0, 2).map((x) => h("td", { class: "tiebreak" }, num(x)))),
        h("td", { class: "games" }, String(s.games)))))));
}

// roundsBox lists the rounds and their games, the newest first.
function roundsBox(v: Tournament): HTMLElement {
  const box = h("section", { class: "rounds", "aria-labelledby": "rounds-title" }, h("h2", { id: "rounds-title" }, t("leaderboard.games")));
  if (!v.rounds.length) box.append(h("p", { class: "none" }, t("tournament.no_games")));
  for (const r of [...v.rounds].reverse()) {
    box.append(h("h3", {}, t("tournament.round", { Round: r.round })), h("ul", { class: "round-games" }, ...r.games.map((g) => {
      const who = g.seats.map((n, i) => `${n}${g.berserk?.[i] ? " ⚡" : ""}`).join(" – ");
      const result = g.result === "*" ? t("tournament.playing") : g.result === "bye" ? t("tournament.bye") : g.result;
      return h("li", { "data-game": g.id }, g.id ? h("a", { href: `/games/${g.id}` }, who) : h("span", {}, who), " ", h("span", { class: "result" }, result));
    })));
  }
  return box;
}

// Drawn once every function and constant above is defined.
applyTheme();
const root = document.getElementById("app");
if (root && document.body.dataset.page === "tournament") void tournamentPage(root);
else if (root) void listPage(root);
