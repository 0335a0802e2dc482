// The lobby on the home page: quick pairing, a form to create a seek
// (or challenge a player by name), the open seeks live from the lobby's
// websocket (real-time and correspondence ones in two lists, newest
// first, filtered by game, older ones a page at a time), the games
// waiting for the player's move and the live games to watch. A visitor
// sees the seeks without the buttons, and a link to sign in.

import { request, type CatalogGame, type CatalogOption, type LobbyGame, type Seat } from "./api";
import { showTurns } from "./chrome";
import { pageNotice } from "./notices";
import { h } from "./dom";
import { t, tn, tParts } from "./i18n";
import { botTag, clockText, opponentNode, profileLink, ratingText, signInLink, type Seek, type SeekClock, type SeekKind } from "./players";

interface Lobby {
  me: string | null;
  catalog: CatalogGame[];
  seeks: Seek[]; // the socket's: the first page of each kind, every game
  shown: Seek[]; // the first page of each kind of the game filtered (the socket's for every game)
  older: Record<SeekKind, Seek[]>; // the pages "More" brought
  ended: Record<SeekKind, boolean>; // "More" found no more
  lists: Record<SeekKind, HTMLElement>;
  more: Record<SeekKind, HTMLButtonElement>;
  filter: HTMLSelectElement; // the game the lists show, "" for every game
  message: HTMLElement;
  announce: HTMLElement;
  game: HTMLSelectElement; // the game the quick buttons seek
  turns: HTMLElement | null;
  onTurns: (ids: string[]) => void; // told the games waiting for the player
  known: Set<string>; // the seeks shown, to announce the new challenges
  turnCount: number; // the games waiting, last told (-1: not yet), for a hidden tab's notice
}

// LobbyParts are the lobby and, for a player signed in, its quick pairing,
// which the home page shows in its first box.
export interface LobbyParts {
  section: HTMLElement;
  pairing: HTMLElement | null;
}

// quickClocks are the quick-pairing buttons' time controls.
const quickClocks: [string, SeekClock][] = [["3+2", { initial: 180, increment: 2 }], ["10+5", { initial: 600, increment: 5 }], ["1 day", { days: 1 }]];

const nameOf = (lobby: Lobby, id: string) => lobby.catalog.find((c) => c.id === id)?.name ?? id;

// The lists of seeks, and the server's page of one kind: a full page may
// have more after it.
const seekKinds: [SeekKind, string][] = [["realtime", t("lobby.kind.realtime")], ["correspondence", t("lobby.kind.correspondence")]];
// noSeeks say that a kind has no seeks.
const noSeeks: Record<SeekKind, string> = { realtime: t("lobby.none.realtime"), correspondence: t("lobby.none.correspondence") };
const seekPage = 50;

// lobbySection is the lobby; the side's boxes (the games waiting for the
// player, the live games) are appended to side; onTurns is told the games
// waiting for the player's move, each time they are read.
export function lobbySection(catalog: CatalogGame[], me: string | null, side: HTMLElement, onTurns: (ids: string[]) => void = () => {}): LobbyParts {
  const lobby: Lobby = {
    me, catalog, seeks: [], shown: [], older: { realtime: [], correspondence: [] }, ended: { realtime: false, correspondence: false },
    lists: { realtime: seekList("realtime"), correspondence: seekList("correspondence") },
    more: { realtime: h("button", { type: "button", class: "more-seeks", hidden: "" }, t("lobby.more")), correspondence: h("button", { type: "button", class: "more-seeks", hidden: "" }, t("lobby.more")) },
    filter: h("select", { id: "seek-filter" }, h("option", { value: "" }, t("lobby.every_game")), ...catalog.map((c) => h("option", { value: c.id }, c.name))),
    message: h("p", { class: "message", role: "alert" }), announce: h("p", { class: "sr-only", "aria-live": "polite" }),
    game: h("select", { id: "quick-game" }, ...catalog.map((c) => h("option", c.id === "pommel" ? { value: c.id, selected: "" } : { value: c.id }, c.name))),
    turns: null, onTurns, known: new Set(), turnCount: -1,
  };
  let pairing: HTMLElement | null = null;
  const section = h("section", { class: `lobby${me ? " wide" : ""}`, "aria-labelledby": "lobby-title" }, h("h2", { id: "lobby-title" }, t("lobby.title")));
  if (me) {
    pairing = quickPairing(lobby);
    section.append(h("div", { class: "lobby-controls" }, seekForm(lobby)));
    lobby.turns = h("ul", { class: "turn-list" });
    side.prepend(h("section", { class: "your-turn-box", id: "your-turn", "aria-labelledby": "your-turn-title" },
      h("h2", { id: "your-turn-title" }, t("lobby.your_turn")), lobby.turns));
    void readTurns(lobby);
  } else {
    section.append(h("p", { class: "lobby-visitor" }, ...tParts("lobby.visitor", { SignIn: signInLink(t("lobby.sign_in")), SignUp: h("a", { href: "/signup" }, t("lobby.sign_up")) })));
  }
  section.append(h("div", { class: "lobby-seeks" }, lobby.message,
    h("div", { class: "seeks-head" }, h("h3", { id: "seeks-title" }, t("lobby.open_seeks")), h("span", { class: "seek-filter" }, h("label", { for: "seek-filter" }, t("lobby.game")), lobby.filter)),
    ...seekKinds.map(([kind, title]) => h("section", { class: "seek-kind", "aria-labelledby": `seeks-${kind}` },
      h("h4", { id: `seeks-${kind}` }, title), lobby.lists[kind], lobby.more[kind])),
    lobby.announce));
  lobby.filter.addEventListener("change", () => {
    lobby.older = { realtime: [], correspondence: [] };
    lobby.ended = { realtime: false, correspondence: false };
    void readShown(lobby);
  });
  for (const [kind] of seekKinds) lobby.more[kind].addEventListener("click", () => void moreSeeks(lobby, kind));
  side.append(liveGames(lobby));
  showSeeks(lobby);
  follow(lobby, 0);
  return { section, pairing };
}

// follow keeps the seeks live over the lobby's websocket, reconnecting
// after a drop; the server says when a seek of the player's starts.
function follow(lobby: Lobby, retry: number): void {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
  ws.onopen = () => { retry = 0; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "seeks") {
      lobby.seeks = msg.seeks ?? [];
      for (const [kind] of seekKinds) lobby.lists[kind].dataset.live = "true"; // the seeks shown are the server's, and follow it
      void readShown(lobby);
    } else if (msg.type === "started") {
      pageNotice("accepted", t("lobby.notice.accepted"), `/play/${msg.game}`);
      location.assign(`/play/${msg.game}`);
    } else if (msg.type === "turn") {
      if (lobby.turnCount >= 0 && msg.count > lobby.turnCount) pageNotice("turn", t("lobby.notice.turn"), "/#your-turn");
      lobby.turnCount = msg.count;
      showTurns(msg.count);
      void readTurns(lobby);
    }
  };
  ws.onclose = () => {
    for (const [kind] of seekKinds) delete lobby.lists[kind].dataset.live;
    setTimeout(() => follow(lobby, Math.min(retry + 1, 5)), 500 * (retry + 1));
  };
}

function seekList(kind: SeekKind): HTMLElement {
  return h("ul", { class: "seeks", "data-kind": kind, "aria-labelledby": `seeks-${kind}` });
}

// readShown shows the first pages of the game filtered: the socket's
// seeks for every game, else the server's list of that game, read again
// whenever the socket says the seeks changed.
async function readShown(lobby: Lobby): Promise<void> {
  const game = lobby.filter.value;
  if (game === "") {
    lobby.shown = lobby.seeks;
  } else {
    const list = await request<Seek[]>("GET", `/api/seeks?game=${encodeURIComponent(game)}`).catch(() => null);
    if (!list || lobby.filter.value !== game) return;
    lobby.shown = list;
  }
  showSeeks(lobby);
}

// moreSeeks brings the next page of one kind, after the oldest shown.
async function moreSeeks(lobby: Lobby, kind: SeekKind): Promise<void> {
  const shown = kindSeeks(lobby, kind);
  const last = shown[shown.length - 1];
  if (!last) return;
  const game = lobby.filter.value;
  lobby.more[kind].disabled = true;
  try {
    const page = await request<Seek[]>("GET", `/api/seeks?kind=${kind}&before=${encodeURIComponent(last.cursor)}` + (game ? `&game=${encodeURIComponent(game)}` : ""));
    if (lobby.filter.value !== game) return;
    lobby.older[kind].push(...page);
    lobby.ended[kind] = page.length < seekPage;
    showSeeks(lobby);
  } catch (e) {
    lobby.message.textContent = (e as Error).message;
  } finally {
    lobby.more[kind].disabled = false;
  }
}

// kindSeeks are the seeks of one kind shown, newest first: the first
// page, then the older pages brought (less those the first page has).
function kindSeeks(lobby: Lobby, kind: SeekKind): Seek[] {
  const first = lobby.shown.filter((s) => s.kind === kind);
  const ids = new Set(first.map((s) => s.id));
  return [...first, ...lobby.older[kind].filter((s) => !ids.has(s.id))];
}

// showSeeks draws the open seeks of each kind: the player and their
// rating, the game, the clock, rated or casual, and what this player may
// do. A challenge to the player comes first, marked, and is announced.
function showSeeks(lobby: Lobby): void {
  const known = new Set<string>();
  for (const [kind] of seekKinds) {
    const seeks = kindSeeks(lobby, kind).sort((a, b) => Number(b.to === lobby.me && !!lobby.me) - Number(a.to === lobby.me && !!lobby.me));
    const list = lobby.lists[kind];
    list.replaceChildren(...seeks.map((s) => seekRow(lobby, s)));
    if (seeks.length === 0) list.append(h("li", { class: "none" }, noSeeks[kind] + (lobby.me ? " " + t("lobby.none.make") : "")));
    lobby.more[kind].hidden = lobby.ended[kind] || seeks.length < seekPage;
    for (const s of seeks) {
      if (lobby.me && s.to === lobby.me && !lobby.known.has(s.id)) {
        lobby.announce.textContent = t("lobby.challenged", { Name: s.by, Game: nameOf(lobby, s.game), Clock: clockText(s.clock) });
        pageNotice("challenge", lobby.announce.textContent, "/");
      }
      known.add(s.id);
    }
  }
  lobby.known = known;
}

function seekRow(lobby: Lobby, s: Seek): HTMLElement {
  const mine = s.by === lobby.me;
  const toMe = !!lobby.me && s.to === lobby.me;
  const joined = lobby.me !== null && s.joined.includes(lobby.me);
  const li = h("li", { class: `seek${toMe ? " challenge" : ""}${mine ? " mine" : ""}`, "data-seek": s.id, "data-game": s.game },
    h("span", { class: "who" }, profileLink(s.by), " ", h("span", { class: "rating" }, ratingText(s.rating, s.provisional))),
    h("span", { class: "game" }, nameOf(lobby, s.game)),
    h("span", { class: "clock" }, clockText(s.clock)),
    h("span", { class: "mode" }, s.rated ? t("lobby.rated") : t("lobby.casual")));
  const notes: (Node | string)[] = [];
  if (toMe) notes.push(h("strong", {}, t("lobby.to_you")));
  else if (s.to) notes.push(t("lobby.to") + " ", ...botTag(s.toBot), profileLink(s.to));
  if (s.seats > 2) notes.push(t("lobby.of", { Joined: s.joined.length + 1, Seats: s.seats }) + (s.joined.length ? ": " : ""), ...s.joined.flatMap((n, i) => [i ? ", " : "", profileLink(n)]));
  if (Object.keys(s.options ?? {}).length) notes.push(" " + Object.entries(s.options).map(([k, v]) => `${k}=${v}`).join(" "));
  if (!s.takebacks) notes.push(h("span", { class: "no-takebacks" }, " " + t("lobby.no_takebacks")));
  li.append(h("span", { class: "notes" }, ...notes));
  const what = t("lobby.what", { Name: s.by, Mode: s.rated ? t("lobby.what_rated") : t("lobby.what_casual"), Game: nameOf(lobby, s.game), Clock: clockText(s.clock) }) + (s.takebacks ? "" : ", " + t("lobby.no_takebacks"));
  if (mine) li.append(action(t("lobby.cancel"), "cancel", what, () => request("DELETE", `/api/seeks/${s.id}`), lobby));
  else if (joined) li.append(h("span", { class: "waiting" }, t("lobby.joined_waiting")));
  else if (lobby.me && (!s.to || toMe)) li.append(action(toMe ? t("lobby.accept") : t("lobby.play"), "accept", what, () => accept(lobby, s.id), lobby));
  return li;
}

// action is a seek's button, named by its word and the seek ("Play:
// bob's rated Pommel, 3+2"); a refusal shows in the lobby's message.
function action(label: string, cls: string, what: string, run: () => Promise<unknown>, lobby: Lobby): HTMLButtonElement {
  const b = h("button", { type: "button", class: cls, "aria-label": `${label}: ${what}` }, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    lobby.message.textContent = "";
    try {
      await run();
    } catch (e) {
      lobby.message.textContent = (e as Error).message;
      b.disabled = false;
    }
  });
  return b;
}

// accept takes a seek: its game starts (the page goes there), or a
// three-player seek waits for its last player.
async function accept(lobby: Lobby, id: string): Promise<void> {
  const out = await request<{ game?: string; joined?: string[] }>("POST", `/api/seeks/${id}/accept`);
  if (out.game) location.assign(`/play/${out.game}`);
  else lobby.announce.textContent = t("lobby.joined");
}

// quickPairing seeks a rated game at a common clock in one click, or
// takes the same seek someone else has open.
function quickPairing(lobby: Lobby): HTMLElement {
  const buttons = quickClocks.map(([label, clock]) => {
    const b = h("button", { type: "button", class: "quick", "data-clock": label }, clockText(clock));
    b.addEventListener("click", async () => {
      lobby.message.textContent = "";
      const same = lobby.seeks.find((s) => s.game === lobby.game.value && s.rated && s.takebacks && !s.to && s.by !== lobby.me &&
        JSON.stringify(s.clock) === JSON.stringify(clock) && Object.keys(s.options ?? {}).length === 0 && !s.joined.includes(lobby.me!));
      try {
        if (same) await accept(lobby, same.id);
        else await request("POST", "/api/seeks", { game: lobby.game.value, options: {}, rated: true, clock });
      } catch (e) {
        lobby.message.textContent = (e as Error).message;
      }
    });
    return b;
  });
  return h("div", { class: "quick-pairing" },
    h("p", { class: "field" }, h("label", { for: "quick-game" }, t("lobby.quick")), lobby.game),
    h("div", { class: "quick-buttons" }, ...buttons));
}

// seekForm makes a seek of any game, options and clock, rated or not,
// with take-backs or not, open to all or a challenge to one player.
function seekForm(lobby: Lobby): HTMLElement {
  const game = h("select", { id: "seek-game", name: "game" }, ...lobby.catalog.map((c) => h("option", { value: c.id }, c.name)));
  const options = h("div", { class: "seek-options" });
  const fillOptions = () => options.replaceChildren(...(lobby.catalog.find((c) => c.id === game.value)?.options ?? []).map(optionField));
  game.addEventListener("change", fillOptions);
  fillOptions();
  const radio = (name: string, value: string, label: string, checked = false) =>
    h("label", {}, h("input", checked ? { type: "radio", name, value, checked: "" } : { type: "radio", name, value }), label);
  const minutes = h("input", { id: "seek-minutes", name: "minutes", type: "number", min: "0", max: "180", step: "0.5", value: "10", inputmode: "decimal" });
  const increment = h("input", { id: "seek-increment", name: "increment", type: "number", min: "0", max: "180", value: "5", inputmode: "numeric" });
  const days = h("select", { id: "seek-days", name: "days" }, ...[1, 2, 3, 5, 7, 14].map((d) => h("option", { value: String(d) }, tn("players.days", d))));
  const to = h("input", { id: "seek-to", name: "to", autocomplete: "off", autocapitalize: "off", spellcheck: "false", maxlength: "20", placeholder: t("lobby.anyone") });
  const form = h("form", { class: "seek-form" },
    h("p", { class: "field" }, h("label", { for: "seek-game" }, t("lobby.game")), game),
    h("fieldset", { class: "inline" }, h("legend", {}, t("lobby.form.mode")), radio("rated", "true", t("lobby.rated"), true), radio("rated", "false", t("lobby.casual"))),
    h("fieldset", { class: "inline" }, h("legend", {}, t("lobby.form.clock")), radio("kind", "fischer", t("lobby.kind.realtime"), true), radio("kind", "days", t("lobby.kind.correspondence")), radio("kind", "none", t("players.unlimited"))),
    h("div", { class: "clock-fields", "data-kind": "fischer" },
      h("p", { class: "field" }, h("label", { for: "seek-minutes" }, t("lobby.form.minutes")), minutes),
      h("p", { class: "field" }, h("label", { for: "seek-increment" }, t("lobby.form.increment")), increment)),
    h("div", { class: "clock-fields", "data-kind": "days", hidden: "" }, h("p", { class: "field" }, h("label", { for: "seek-days" }, t("lobby.form.per_move")), days)),
    h("p", { class: "field takebacks-choice" }, h("label", {}, h("input", { type: "checkbox", name: "takebacks", id: "seek-takebacks", checked: "" }), t("lobby.form.takebacks")),
      h("small", {}, t("lobby.form.takebacks_help"))),
    h("details", { class: "more" }, h("summary", {}, t("lobby.form.options")), options),
    h("p", { class: "field" }, h("label", { for: "seek-to" }, t("lobby.form.to")), to),
    h("button", { type: "submit", class: "create-seek" }, t("lobby.form.create")));
  form.addEventListener("change", () => {
    const kind = new FormData(form).get("kind");
    form.querySelectorAll<HTMLElement>(".clock-fields").forEach((f) => { f.hidden = f.dataset.kind !== kind; });
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const kind = data.get("kind");
    const clock: SeekClock = kind === "fischer" ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : kind === "days" ? { days: Number(days.value) } : null;
    const chosen: Record<string, string> = {};
    for (const o of lobby.catalog.find((c) => c.id === game.value)?.options ?? []) {
      const v = String(data.get(`seek-option-${o.key}`) ?? "");
      if (v !== "" && v !== o.default) chosen[o.key] = v;
    }
    const body: Record<string, unknown> = { game: game.value, options: chosen, rated: data.get("rated") === "true", clock };
    if (!data.get("takebacks")) body.takebacks = false;
    if (to.value.trim()) body.to = to.value.trim();
    lobby.message.textContent = "";
    try {
      await request("POST", "/api/seeks", body);
      const box = form.parentElement as HTMLDetailsElement;
      box.open = false;
      box.querySelector("summary")?.focus();
      lobby.announce.textContent = body.to ? t("lobby.sent", { Name: String(body.to) }) : t("lobby.created");
      to.value = "";
    } catch (e) {
      lobby.message.textContent = (e as Error).message;
    }
  });
  return h("details", { class: "seek-box" }, h("summary", {}, t("lobby.form.title")), form);
}

function optionField(o: CatalogOption): HTMLElement {
  const id = `seek-option-${o.key}`;
  const input = o.values?.length
    ? h("select", { id, name: id }, ...o.values.map((v) => h("option", v === o.default ? { value: v, selected: "" } : { value: v }, v)))
    : h("input", { id, name: id, type: "number", min: String(o.min), max: String(o.max), value: o.default });
  return h("p", { class: "field" }, h("label", { for: id }, o.key), input, h("small", { lang: "en" }, o.help));
}

interface TurnGame {
  id: string;
  game: string;
  opponents: string[];
  opponentAccounts?: boolean[];
  since: string;
}

// readTurns lists the games waiting for the player's move, the oldest
// wait first, and counts them in the header and the window's title.
async function readTurns(lobby: Lobby): Promise<void> {
  if (!lobby.turns) return;
  const games = await request<TurnGame[]>("GET", "/api/account/turn").catch(() => null);
  if (!games) return;
  showTurns(games.length);
  lobby.onTurns(games.map((g) => g.id));
  lobby.turns.replaceChildren(...games.map((g) => h("li", { "data-game": g.id },
    h("a", { href: `/play/${g.id}` }, nameOf(lobby, g.game)), " ",
    h("span", { class: "opponents" }, ...g.opponents.flatMap((_, i) => [i ? ", " : t("lobby.vs") + " ", opponentNode(g, i)])))));
  if (games.length === 0) lobby.turns.append(h("li", { class: "none" }, t("lobby.no_turn")));
}

// liveGames lists the games being played now, to watch.
function liveGames(lobby: Lobby): HTMLElement {
  const list = h("ul", { class: "live-games" });
  request<{ live?: LobbyGame[] }>("GET", "/api/games?live=1").then((all) => {
    const live = all.live ?? [];
    list.append(...live.slice(0, 10).map((g) => h("li", { "data-game": g.id },
      h("a", { href: g.url, "aria-label": t("lobby.watch_label", { Game: nameOf(lobby, g.game), Players: g.seats.map(seatWho).join(` ${t("lobby.vs")} `) }) }, nameOf(lobby, g.game)),
      h("span", { class: "opponents" }, g.seats.map(seatWho).join(` ${t("lobby.vs")} `)))));
    if (live.length === 0) list.append(h("li", { class: "none" }, t("lobby.no_live")));
  }, () => {});
  return h("section", { class: "live-games-box", "aria-labelledby": "live-title" }, h("h2", { id: "live-title" }, t("lobby.watch")), list);
}

// seatWho names a seat's player in the live games: the account and its
// rating, the name given, the AI's level, or "anonymous".
function seatWho(s: Seat & { account?: string; rating?: number; bot?: boolean }): string {
  const level = /^ai:level=(\d+)$/.exec(s.player);
  if (level) return t("lobby.ai", { Level: level[1] });
  if (s.account) return (s.bot ? t("players.bot") + " " : "") + (s.rating ? `${s.account} (${Math.round(s.rating)})` : s.account);
  return s.name ?? (s.open ? t("lobby.open_seat") : t("lobby.anonymous"));
}
