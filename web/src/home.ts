// The home page: the games as cards (their start drawn small, their name
// and line, Play, Rules, Analyse), a new-game form, the games this
// browser holds seats in and the games waiting for a player.

import { request, type CatalogGame, type Created, type Game, type Invite, type LobbyGame, type Seat } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { lang, t, tn } from "./i18n";
import { lobbySection } from "./lobby";
import { me } from "./players";
import { drawPreviews } from "./preview";
import { lastGame, orderedGames, quickPlay, rememberGame } from "./quickplay";
import * as browserSeats from "./seats";
import { topGameBox } from "./tv";
import { andList, reasonText, sideName, tagline } from "./words";

// DatedGame is a game as GET /api/games/{id} writes it, with its dates.
type DatedGame = Game & { created?: string; updated?: string };

type SeatChoice = "me" | "friend" | "invite" | "open" | `ai:level=${number}`;

const seatChoices: [SeatChoice, string][] = [
  ["me", t("home.seat.me")],
  ["friend", t("home.seat.friend")],
  ["invite", t("home.seat.invite")],
  ["open", t("home.seat.open")],
  ...[1, 2, 3, 4, 5, 6].map((l): [SeatChoice, string] => [`ai:level=${l}`, t("home.seat.ai", { Level: l })]),
];

const clocks: [string, string][] = [
  ["", t("home.clock.none")],
  ["clock:3m+2s", t("home.clock.fischer", { Minutes: 3, Seconds: 2 })],
  ["clock:5m+3s", t("home.clock.fischer", { Minutes: 5, Seconds: 3 })],
  ["clock:15m+10s", t("home.clock.fischer", { Minutes: 15, Seconds: 10 })],
  ["days:1", tn("home.clock.days", 1)],
  ["days:3", tn("home.clock.days", 3)],
];

// nameOf is a game's name for people, its id while the catalog has none.
const nameOf = (c: CatalogGame | undefined, id: string) => c?.name ?? id;

export async function homePage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  root.replaceChildren(siteHeader(h("h1", {}, t("home.title"))), message);
  let catalog: CatalogGame[];
  let who: string | null;
  try {
    [catalog, who] = await Promise.all([request<CatalogGame[]>("GET", "/api/catalog"), me()]);
  } catch (e) {
    message.textContent = (e as Error).message;
    return;
  }
  catalog = orderedGames(catalog);
  const form = newGameForm(catalog, message, requestedGame(catalog) ?? lastGame(catalog) ?? "pommel", !!who);
  const cards = gameCards(catalog, form);
  const newGame = h("section", { class: "new-game-box", id: "new-game", "aria-labelledby": "new-game-title" }, h("h2", { id: "new-game-title" }, t("home.new_game")), form);
  const mine = myGames(catalog);
  // The top game leads the side column; on a phone it follows "Play now".
  const side = h("div", { class: "home-side" }, topGameBox(), newGame, mine, openGames(catalog, message));
  // "Play now" leads the page; then the lobby, for a player signed in;
  // a visitor's page goes on with the games and a new game, the lobby
  // under the form.
  const lobby = lobbySection(catalog, who, side, (waiting) => leaveOut(mine, waiting));
  if (!who) newGame.after(lobby.section);
  root.append(h("main", { class: "home" }, quickPlay(catalog, message, lobby.pairing), ...(who ? [lobby.section] : []),
    h("section", { class: "games", "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, t("home.games")), cards), side));
  if (requestedGame(catalog)) form.scrollIntoView({ block: "start" });
  void drawPreviews(catalog, (id) => cards.querySelector<HTMLElement>(`li[data-game="${CSS.escape(id)}"] .preview-box`));
}

// requestedGame is the game the page's ?game= names (a rules page's Play
// link), if the server plays it; any other value is ignored.
function requestedGame(catalog: CatalogGame[]): string | undefined {
  const id = new URLSearchParams(location.search).get("game");
  return catalog.some((c) => c.id === id) ? id! : undefined;
}

// gameCards lists the games, each a card whose Play chooses it in form.
function gameCards(catalog: CatalogGame[], form: HTMLFormElement): HTMLElement {
  const list = h("ul", { class: "catalog game-cards" });
  for (const c of catalog) {
    const play = h("a", { href: `/?game=${encodeURIComponent(c.id)}`, class: "play button", "data-game": c.id }, t("home.card.play"));
    play.addEventListener("click", (ev) => {
      ev.preventDefault();
      chooseGame(form, c.id);
    });
    const players = tn("home.card.players", c.players);
    list.append(h("li", { class: "game-card", "data-game": c.id },
      h("span", { class: "preview-box" }),
      h("div", { class: "card-text" },
        h("h3", {}, nameOf(c, c.id)),
        h("p", { class: "tagline" }, tagline(c.id, c.tagline ?? c.summary)),
        h("p", { class: "players" }, `${players}: ${c.seats.map(sideName).join(", ")}`)),
      h("p", { class: "card-actions" }, play,
        h("a", { href: `/rules/${c.id}`, class: "rules", "data-game": c.id, "aria-label": t("home.card.rules_label", { Game: nameOf(c, c.id) }) }, t("home.card.rules")),
        h("a", { href: `/analysis/${c.id}`, class: "analyse", "data-game": c.id, "aria-label": t("home.card.analyse_label", { Game: nameOf(c, c.id) }) }, t("home.card.analyse")))));
  }
  return list;
}

// chooseGame picks id in the form, brings the form into view and puts
// the keyboard on it.
function chooseGame(form: HTMLFormElement, id: string): void {
  const select = form.querySelector<HTMLSelectElement>("select#game")!;
  select.value = id;
  select.dispatchEvent(new Event("change"));
  history.replaceState(null, "", `/?game=${encodeURIComponent(id)}`);
  form.scrollIntoView({ behavior: "smooth", block: "start" });
  select.focus({ preventScroll: true });
}

// shownGames bounds how many of "My games" are read, one GET each.
const shownGames = 20;

// myGames lists the games this browser holds seats in, each with its
// name, opponents, whose turn it is and when it last changed, read one
// GET per game.
function myGames(catalog: CatalogGame[]): HTMLElement {
  const ids = browserSeats.myGames().slice(0, shownGames);
  const list = h("ul", { class: "my-games" });
  const section = h("section", { class: "my-games-box", "aria-labelledby": "my-games-title" }, h("h2", { id: "my-games-title" }, t("home.mine.title")), list);
  if (ids.length === 0) section.append(h("p", { class: "none" }, t("home.mine.none")));
  else section.classList.add("has-games");
  for (const id of ids) {
    const link = h("a", { href: `/play/${id}` }, id);
    const who = h("span", { class: "opponents" });
    const state = h("span", { class: "state" }, "…");
    const when = h("time", { class: "when" });
    list.append(h("li", { "data-game": id }, link, who, state, when));
    request<DatedGame>("GET", `/api/games/${id}`).then((g) => {
      const held = Object.keys(browserSeats.tokens(id)).map(Number);
      link.textContent = nameOf(catalog.find((c) => c.id === g.game), g.game);
      link.href = `/play/${id}${held.length ? `?seat=${held.includes(g.toMove) ? g.toMove : held[0]}` : ""}`;
      who.textContent = opponents(g.seats, held);
      state.textContent = whoseTurn(g, held);
      if (!g.result && held.includes(g.toMove)) state.classList.add("mine");
      const changed = g.updated ?? g.created;
      if (changed) {
        when.dateTime = changed;
        when.textContent = ago(new Date(changed));
        when.title = new Date(changed).toLocaleString(lang());
      }
    }, (e: Error) => { state.textContent = e.message; });
  }
  return section;
}

// leaveOut hides from "My games" the games "Your turn" lists, so that a
// game is listed once; the box goes when nothing is left in it.
function leaveOut(mine: HTMLElement, waiting: string[]): void {
  const items = [...mine.querySelectorAll<HTMLElement>("ul.my-games > li[data-game]")];
  for (const li of items) li.hidden = waiting.includes(li.dataset.game!);
  mine.hidden = items.length > 0 && items.every((li) => li.hidden);
}

// opponents names the seats of a game not held here.
function opponents(seats: Seat[], held: number[]): string {
  const others = seats.filter((s) => !held.includes(s.seat));
  if (others.length === 0) return t("home.mine.yourself");
  return t("home.mine.against", { Players: others.map((s) => `${playerName(s)} (${sideName(s.side)})`).join(` ${t("words.and_word")} `) });
}

// playerName says who sits in a seat: the name given, the computer's
// level, or what kind of player.
function playerName(s: Seat): string {
  if (s.name) return s.name;
  if (s.open) return t("home.player.open");
  const level = /^ai:.*level=(\d+)/.exec(s.player);
  if (level) return t("home.player.ai", { Level: level[1] });
  if (s.player.startsWith("ai") || s.player === "random") return t("home.player.computer");
  return t("home.player.person");
}

// whoseTurn says a game's state for a person holding seats.
function whoseTurn(g: Game, held: number[]): string {
  if (g.result) return g.result.winners.length ? t("home.state.won", { Winners: g.result.winners.map((w) => sideName(g.seats[w].side)).join(` ${t("words.and_word")} `), Reason: reasonText(g.result.reason) }) : t("home.state.drawn", { Reason: reasonText(g.result.reason) });
  const side = sideName(g.seats[g.toMove].side);
  return held.includes(g.toMove) ? t("home.state.yours", { Side: side }) : t("home.state.to_move", { Side: side });
}

// ago writes how long ago t was, in the largest whole unit, or its date
// once it is over a week old.
function ago(then: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (s < 60) return t("home.ago.now");
  if (s < 3600) return t("home.ago.minutes", { Count: Math.floor(s / 60) });
  if (s < 86400) return t("home.ago.hours", { Count: Math.floor(s / 3600) });
  if (s < 7 * 86400) return t("home.ago.days", { Count: Math.floor(s / 86400) });
  return then.toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" });
}

// openGames lists the games with open seats, each with a Join button that
// takes the seat and opens the game at it.
function openGames(catalog: CatalogGame[], message: HTMLElement): HTMLElement {
  const list = h("ul", { class: "open-games" });
  const section = h("section", { class: "open-games-box", "aria-labelledby": "open-games-title" }, h("h2", { id: "open-games-title" }, t("home.open.title")), list);
  request<{ open: LobbyGame[] }>("GET", "/api/games").then((lobby) => {
    if (lobby.open.length === 0) list.append(h("li", { class: "none" }, t("home.open.none")));
    for (const g of lobby.open) {
      const name = nameOf(catalog.find((c) => c.id === g.game), g.game);
      const li = h("li", { "data-game": g.id }, h("strong", {}, name), " ", h("a", { href: g.url, "aria-label": t("home.open.watch_label", { Game: name }) }, t("home.open.watch")));
      for (const s of g.seats.filter((s) => s.open)) {
        const b = h("button", { type: "button", class: "join", "data-game": g.id, "data-seat": String(s.seat) }, t("home.open.join", { Side: sideName(s.side) }));
        b.addEventListener("click", () => join(g.id, s.seat, b, message));
        li.append(" ", b);
      }
      list.append(li);
    }
  }, (e: Error) => { message.textContent = e.message; });
  return section;
}

async function join(id: string, seat: number, button: HTMLButtonElement, message: HTMLElement): Promise<void> {
  button.disabled = true;
  try {
    const inv = await request<Invite>("POST", `/api/games/${id}/join`, { seat });
    browserSeats.saveToken(id, inv.seat, inv.token);
    location.href = `/play/${id}?seat=${inv.seat}`;
  } catch (e) {
    message.textContent = (e as Error).message;
    button.disabled = false;
  }
}

// field is a labelled control, the label above it.
function field(label: HTMLLabelElement, control: HTMLElement, ...help: Node[]): HTMLElement {
  return h("p", { class: "field" }, label, control, ...help);
}

function select(name: string, label: string, options: [string, string][], value = ""): [HTMLLabelElement, HTMLSelectElement] {
  const s = h("select", { name, id: name });
  for (const [v, text] of options) {
    const o = h("option", { value: v }, text);
    if (v === value) o.selected = true;
    s.append(o);
  }
  return [h("label", { for: name }, label), s];
}

function newGameForm(catalog: CatalogGame[], message: HTMLElement, chosen?: string, signedIn = false): HTMLFormElement {
  const form = h("form", { class: "new-game" });
  const [gameLabel, gameSelect] = select("game", t("home.form.game"), catalog.map((c) => [c.id, nameOf(c, c.id)]), chosen);
  const summary = h("p", { class: "summary", id: "game-summary" });
  gameSelect.setAttribute("aria-describedby", "game-summary");
  const seats = h("fieldset", { class: "seats" });
  const options = h("div", { class: "options" });
  const [clockLabel, clockSelect] = select("clock", t("home.form.clock"), clocks);
  const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: t("home.form.fen_placeholder") });
  const more = h("details", { class: "more" }, h("summary", {}, t("home.form.more")),
    options, field(h("label", { for: "fen" }, t("home.form.fen")), fen));
  const submit = h("button", { type: "submit", class: "create" }, t("home.form.start"));
  // Take-backs are allowed unless turned off here: against the computer
  // a casual game takes a move back at once; between people the other
  // player agrees.
  const takebacks = h("p", { class: "field takebacks-choice" },
    h("label", { for: "takebacks" }, h("input", { type: "checkbox", name: "takebacks", id: "takebacks", checked: "" }), t("home.form.takebacks")),
    h("small", {}, t("home.form.takebacks_help")));
  form.append(field(gameLabel, gameSelect), summary, seats, field(clockLabel, clockSelect), takebacks, more);
  // A player signed in plays as their account, and may play the AI's
  // levels rated (each level is an account with its rating).
  if (signedIn) form.append(h("p", { class: "field rated-choice" }, h("label", {}, h("input", { type: "checkbox", name: "rated", id: "rated" }), t("home.form.rated")),
    h("small", {}, t("home.form.rated_help"))));
  form.append(submit);
  const fill = () => fillDetails(summary, seats, options, catalog.find((c) => c.id === gameSelect.value)!);
  gameSelect.addEventListener("change", fill);
  fill();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    try {
      location.href = await create(form, catalog.find((c) => c.id === gameSelect.value)!);
    } catch (e) {
      message.textContent = (e as Error).message;
      submit.disabled = false;
    }
  });
  return form;
}

// fillDetails shows the chosen game's summary, a choice of player for
// each of its seats, named by side, and its options.
function fillDetails(summary: HTMLElement, seats: HTMLElement, options: HTMLElement, c: CatalogGame): void {
  summary.textContent = tagline(c.id, c.tagline ?? c.summary);
  seats.replaceChildren(h("legend", {}, t("home.form.seats")));
  c.seats.forEach((side, i) => {
    const [label, s] = select(`seat${i}`, sideName(side), seatChoices, i === 0 ? "me" : "ai:level=1");
    seats.append(field(label, s));
  });
  options.replaceChildren();
  for (const o of c.options) {
    const id = `option-${o.key}`;
    let input: HTMLElement;
    if (o.values && o.values.length) {
      input = select(id, o.key, o.values.map((v) => [v, v]), o.default)[1];
    } else {
      input = h("input", { type: "number", id, name: id, min: String(o.min), max: String(o.max), value: o.default });
    }
    input.setAttribute("aria-describedby", `${id}-help`);
    options.append(field(h("label", { for: id }, o.key), input, h("small", { id: `${id}-help`, lang: "en" }, o.help)));
  }
}

async function create(form: HTMLFormElement, c: CatalogGame): Promise<string> {
  const data = new FormData(form);
  const choices = c.seats.map((_, i) => String(data.get(`seat${i}`)) as SeatChoice);
  const options: Record<string, string> = {};
  for (const o of c.options) {
    const v = String(data.get(`option-${o.key}`) ?? "");
    if (v !== "" && v !== o.default) options[o.key] = v;
  }
  const body: Record<string, unknown> = { game: c.id, options, seats: choices.map((s) => (s.startsWith("ai:") || s === "open" ? s : "human")) };
  const fen = String(data.get("fen") ?? "").trim();
  if (fen) body.fen = fen;
  const clock = String(data.get("clock") ?? "");
  if (clock.startsWith("clock:")) body.clock = clock.slice(6);
  if (clock.startsWith("days:")) body.days = Number(clock.slice(5));
  if (data.get("rated")) body.rated = true;
  if (!data.get("takebacks")) body.takebacks = false;
  const made = await request<Created>("POST", "/api/games", body);
  rememberGame(c.id);
  let mySeat = -1;
  for (const inv of made.seats) {
    const choice = choices[inv.seat];
    if (choice === "invite") {
      browserSeats.saveInvite(made.id, inv.seat, inv.url);
      continue;
    }
    browserSeats.saveToken(made.id, inv.seat, inv.token);
    if (mySeat < 0 || (choice === "me" && choices[mySeat] !== "me")) mySeat = inv.seat;
  }
  return mySeat >= 0 ? `/play/${made.id}?seat=${mySeat}` : made.url;
}
