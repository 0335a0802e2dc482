// The game page: /games/{id} for spectators, /play/{id}?seat=N#token=...
// for a seat. It draws the game from GET /api/games/{id} and its position,
// follows it over the websocket, and plays the moves clicked, dragged or
// typed. Around the board: a strip per player (name, clock, whose turn,
// the AI thinking), the moves by turn, the controls, and at the end the
// result with a rematch.

import { ApiError, request, type Created, type Effects, type Game, type Geometry, type Position, type Seat } from "./api";
import { animateMove, attachPointer, drawBoard } from "./board";
import { siteHeader } from "./chrome";
import { confirmInPage } from "./confirm";
import { copyButton, h, replaceKeepingFocus } from "./dom";
import { choices, click, emptySelection, matching, parseMove, swapMove, targets, type ParsedMove, type Selection } from "./entry";
import { recentPaths } from "./lastmoves";
import { botTag, change, profileLink, ratingText } from "./players";
import * as browserSeats from "./seats";
import { lastMoverAmong, moveEnds, nextTurn, ownsTop, premoveOutcome, type Premove } from "./premoves";
import { takenBy } from "./material";
import { menuButton, type MenuButton } from "./menu";
import { pageNotice } from "./notices";
import { muted, setMuted, Sounds } from "./sound";
import { turnRows } from "./turns";
import { askReview, keepPolling, markMoves, moveOf, noReview, readReview, reviewPanel, type ReviewMove, type ReviewState } from "./review";
import { drawArrows } from "./arrows";
import { Chat } from "./chat";
import { Conditional } from "./conditional";
import { fixed, t, tn } from "./i18n";
import { kingName, resultText, sideName } from "./words";

interface Page {
  id: string;
  game: Game | null;
  pos: Position | null;
  start: Record<string, string> | null; // the stacks the game started with, which the material taken counts from
  geo: Geometry | null;
  viewSeat: number; // the seat whose side of the board is at the bottom
  viewPly: number | null; // an earlier position shown, or null for the live one
  sel: Selection;
  taking: string[]; // the cells whose pieces the move being built takes
  message: string;
  landed: string | null; // where a move the clicks completed landed, if not on the cell clicked last
  busy: boolean;
  ws: WebSocket | null;
  retry: number;
  shown: number; // counts calls of show, so that a stale position is dropped
  effects: Map<number, Effects>; // what the move of each ply did, as the socket told
  anim: Effects | null; // the move to animate when the board is next drawn
  clockAt: number; // when the server sent the clock of page.game (performance.now)
  received: WeakMap<Game, number>; // when each state of the game came from the server
  flagAsked: number; // the version for which a flag fall was asked about
  offline: boolean; // the socket closed: reconnecting
  heard: number; // the last ply announced and sounded, -1 before the first read
  ended: boolean; // the game's end was announced
  sounds: Sounds;
  you: number; // the seat the session's cookie holds, -1 for none
  tournament: string; // the tournament that paired the game, "" for none
  reread: boolean; // a rated game's end was read again for its ratings
  endClosed: boolean; // the player closed the result's banner to see the board
  drawAnswer: string; // the AI's answer to this browser's draw offer, until the next move
  arrival: string; // "Black joined the game.": an invite was opened, until the next move
  arrivalHeard: string; // the arrival announced to screen readers
  premoveFrom: string | null; // the piece of a premove being set
  premove: Premove | null; // the premove set, until its turn comes
  present: Set<number> | null; // the seats whose page is open, as the socket last said; null while it is closed
  review: ReviewState; // the computer review of a finished game
  chat: Chat; // the game's chat rooms
  cond: Conditional; // the conditional moves of a correspondence game
  redraw: () => void;
}

// What a game view says of accounts: rated or not, the seat the cookie
// holds ("you"), each seat's account and rating, and once a rated game
// ended, each seat's rating change.
type AccountGame = Game & { rated?: boolean; you?: number; ratings?: { seat: number; before: number; after: number; rd: number }[]; tournament?: string };
type AccountSeat = Seat & { account?: string; rating?: number; provisional?: boolean; bot?: boolean };
const seatOf = (g: Game, seat: number) => g.seats[seat] as AccountSeat;

export function gamePage(root: HTMLElement): void {
  const parts = location.pathname.split("/");
  const page: Page = {
    id: decodeURIComponent(parts[2] ?? ""), game: null, pos: null, start: null, geo: null, viewSeat: -1, viewPly: null, sel: emptySelection, taking: [],
    message: "", landed: null, busy: false, ws: null, retry: 0, shown: 0, effects: new Map(), anim: null, clockAt: 0, received: new WeakMap(), flagAsked: 0, offline: false,
    heard: -1, ended: false, sounds: new Sounds(), you: -1, tournament: "", reread: false, endClosed: false, drawAnswer: "", arrival: "", arrivalHeard: "",
    premoveFrom: null, premove: null, present: null, review: noReview(), redraw: () => {},
    chat: new Chat(decodeURIComponent(parts[2] ?? "")),
    cond: new Conditional(decodeURIComponent(parts[2] ?? ""), () => page.redraw(), (text) => { page.message = text; }),
  };
  takeToken(page);
  const ui = layout(root, page.chat.root, page.cond.root);
  typedEntry(ui.typed, (move) => actions.play(move));
  const refresh = () => render(page, ui, actions);
  page.redraw = refresh;
  const actions: Actions = {
    cell: (cell) => onCell(page, cell, refresh),
    takeback: () => askTakeback(page, refresh),
    clearPremove: () => setPremove(page, "", refresh),
    play: (move) => play(page, move, refresh),
    command: (path, body) => command(page, path, body, refresh),
    step: (to) => step(page, to, refresh),
    drag: (from, to) => onDrag(page, from, to, refresh),
    rematch: () => rematch(page, refresh),
    askReview: () => requestReview(page, refresh),
  };
  attachPointer(ui.svg, { tap: actions.cell, drag: actions.drag });
  setInterval(() => tickClocks(page, ui, refresh), 100);
  matchMedia(phoneQuery).addEventListener("change", refresh); // the phone's bar comes and goes
  document.addEventListener("keydown", (ev) => onKey(page, ev, actions));
  load(page, refresh).then(() => {
    void page.chat.load();
    connect(page, refresh);
    arrive(page);
    void readPremove(page, refresh);
  });
}

// onKey steps through the moves: ← and → a move, Home to the start, End
// back to the live position. Keys typed into a field are the field's.
function onKey(page: Page, ev: KeyboardEvent, act: Actions): void {
  const t = ev.target;
  if (!page.game || t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const shown = page.viewPly ?? page.game.ply;
  const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: page.game.ply }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  act.step(to);
}

// arrive tells the server that the players of the seats this browser
// holds are here, once per seat, so that the other players see an invite
// opened ("Black joined the game.") before its first move.
function arrive(page: Page): void {
  const g = page.game;
  if (!g || g.result) return;
  for (const [seat, token] of Object.entries(browserSeats.tokens(page.id))) {
    if (g.seats[Number(seat)] && !g.seats[Number(seat)].arrived) void request("POST", `/api/games/${page.id}/arrive`, undefined, token).catch(() => {});
  }
}

// takeToken keeps the token of an invite link and takes it out of the
// address bar, so that it is not shown on a shared screen.
function takeToken(page: Page): void {
  const seat = Number(new URLSearchParams(location.search).get("seat") ?? "NaN");
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (token && Number.isInteger(seat)) {
    browserSeats.saveToken(page.id, seat, token);
    history.replaceState(null, "", location.pathname + location.search);
  }
}

interface Actions {
  cell(cell: string): void;
  takeback(): void;
  clearPremove(): void;
  play(move: string): void;
  command(path: string, body: unknown): void;
  step(ply: number): void;
  drag(from: string, to: string): void;
  rematch(): void;
  askReview(): void;
}

interface UI {
  title: HTMLElement;
  svg: SVGSVGElement;
  above: HTMLElement; // the strips of the players at the top of the board
  below: HTMLElement; // the strip of the player at the bottom
  status: HTMLElement;
  notice: HTMLElement;
  message: HTMLElement;
  end: HTMLElement;
  offer: HTMLElement; // a draw offered to this browser, or the AI's answer to its own
  choices: HTMLElement;
  nav: HTMLElement;
  moves: HTMLElement;
  controls: HTMLElement;
  bar: HTMLElement; // a phone's bar at the bottom of the screen: the steps, draw, resign
  typed: HTMLFormElement;
  links: HTMLElement; // the invites still to send
  menu: MenuButton; // "⋯": the spectators' link, the record, the analysis, the rules
  announce: HTMLElement;
  review: HTMLElement; // the computer review of a finished game, under the board
}

// typedEntry lets a player type a move in the notation; the server
// judges it, and its message says why a move is refused.
function typedEntry(form: HTMLFormElement, play: (move: string) => void): void {
  const input = h("input", { id: "typed-move", name: "move", autocomplete: "off", spellcheck: "false", autocapitalize: "off" });
  form.append(h("label", { for: "typed-move" }, t("game.typed.label")), input, h("button", { type: "submit" }, t("game.typed.play")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const move = input.value.trim().toLowerCase();
    if (move) play(move);
    input.value = "";
  });
}

function layout(root: HTMLElement, chat: HTMLElement, cond: HTMLElement): UI {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const ui: UI = {
    title: h("h1"), svg,
    above: h("div", { class: "players above" }), below: h("div", { class: "players below" }),
    status: h("p", { class: "status" }), notice: h("p", { class: "notice" }),
    message: h("p", { class: "message", role: "alert" }), end: h("section", { class: "end banner", "aria-label": t("game.result_label") }),
    offer: h("div", { class: "offer banner", role: "status" }),
    choices: h("div", { class: "choices" }),
    nav: h("div", { class: "nav" }), moves: h("div", { class: "moves", role: "list", "aria-label": t("game.moves_label") }),
    controls: h("div", { class: "controls" }), bar: h("div", { class: "play-bar" }), typed: h("form", { class: "typed" }),
    links: h("div", { class: "links" }), menu: menuButton("⋯", t("game.menu")),
    announce: h("p", { class: "sr-only", "aria-live": "polite" }),
    review: h("section", { class: "review", "aria-label": t("game.review_label") }),
  };
  // The draw offers and the result are banners over the board, where
  // the player looks, on a phone as on a desktop.
  const boardBox = h("div", { class: "board-box" });
  boardBox.append(svg, ui.offer, ui.end);
  root.replaceChildren(
    siteHeader(ui.title),
    h("main", { class: "game" },
      h("section", { class: "board-area", "aria-label": t("game.board_area") }, ui.above, boardBox, ui.below, ui.review),
      ui.bar,
      h("aside", { class: "side" }, ui.status, ui.notice, ui.message, ui.choices, ui.typed, h("div", { class: "tools" }, ui.controls, ui.menu.root), cond,
        h("section", { class: "move-list", "aria-label": t("game.moves_label") }, h("h2", {}, t("game.moves")), ui.nav, ui.moves), chat, ui.links)),
    ui.announce,
  );
  return ui;
}

// heldSeats are the seats this browser plays: those whose tokens it
// holds, and the seat of the account signed in.
function heldSeats(page: Page): number[] {
  const held = Object.keys(browserSeats.tokens(page.id)).map(Number);
  if (page.you >= 0 && !held.includes(page.you)) held.push(page.you);
  return held.sort();
}

// actingSeat is the seat this browser moves for now: the seat to move when
// it holds that seat's token (a friend at this screen included), else -1.
function actingSeat(page: Page): number {
  const g = page.game;
  if (!g || g.result) return -1;
  return browserSeats.tokens(page.id)[g.toMove] || page.you === g.toMove ? g.toMove : -1;
}

// tokenFor is the token to send a command with: the acting seat's, else
// the seat viewed from, else any held; none for the account's seat,
// which the cookie carries.
function tokenFor(page: Page): string | undefined {
  const t = browserSeats.tokens(page.id);
  const seat = actingSeat(page);
  if (seat >= 0 || page.you >= 0) return t[seat];
  return t[page.viewSeat] ?? Object.values(t)[0];
}

// canSend says whether this browser may send the game's commands: with a
// token, or with the cookie of a seated account.
function canSend(page: Page): boolean {
  return !!tokenFor(page) || page.you >= 0;
}

async function load(page: Page, refresh: () => void): Promise<void> {
  try {
    const g = await fetchGame(page);
    await show(page, g);
  } catch (e) {
    // While reconnecting, the status says so; the error is not news.
    if (!page.offline) page.message = (e as Error).message;
  }
  refresh();
}

// show takes a new state of the game, reading its position (unless told,
// as the socket's events tell the live one) and, the first time, the
// board seen from this browser's seat.
//
// Responses may arrive out of order (a person's move and the AI's answer
// read their positions at once): an older state of the game is ignored,
// and a position read for a state that was replaced meanwhile is dropped.
async function show(page: Page, g: Game, told: Position | null = null): Promise<void> {
  if (page.game && g.version < page.game.version) return;
  const first = page.game === null;
  const shown = ++page.shown;
  keepAccounts(page, g);
  noteArrivals(page, g);
  notePremove(page, g);
  // A clock is drawn from the server's figure and the time since it was
  // sent, never from a redraw: stepping through the moves keeps it.
  if (g !== page.game) page.clockAt = page.received.get(g) ?? performance.now();
  page.game = g;
  if (first) {
    const seatParam = new URLSearchParams(location.search).get("seat");
    const held = heldSeats(page);
    page.viewSeat = seatParam !== null && held.includes(Number(seatParam)) ? Number(seatParam) : held[0] ?? -1;
  }
  const ply = page.viewPly ?? g.ply;
  // The move that follows the live position drawn now is animated.
  const next = page.viewPly === null && page.pos !== null && page.pos.ply === g.ply - 1;
  const [pos, geo, fx, start] = await Promise.all([
    told && told.ply === ply ? told : request<Position>("GET", `/api/games/${page.id}/position?ply=${ply}`),
    page.geo ? Promise.resolve(page.geo) : null,
    next ? effectsOf(page, g.ply - 1) : null,
    page.start || ply === 0 ? null : request<Position>("GET", `/api/games/${page.id}/position?ply=0`).catch(() => null),
  ]);
  if (shown !== page.shown) return;
  page.pos = pos;
  page.start ??= ply === 0 ? pos.stacks : start?.stacks ?? null;
  page.anim = fx;
  if (!geo) {
    const turn = page.viewSeat > 0 ? (360 * page.viewSeat) / g.seats.length : 0;
    page.geo = await request<Geometry>("GET", `/api/boards/${pos.board}?turn=${turn}`);
  }
}

// keepAccounts carries over what the socket's views leave out, being
// everyone's and light: the seat of this browser's account ("you") and
// the ratings beside the names. A rated game's end read from the socket
// is read again, for its rating changes.
function keepAccounts(page: Page, g: Game): void {
  const you = (g as AccountGame).you;
  if (you !== undefined && you !== null) page.you = you;
  page.tournament ||= (g as AccountGame).tournament ?? "";
  const prev = page.game;
  g.seats.forEach((s: AccountSeat, i) => {
    const was = prev ? seatOf(prev, i) : null;
    if (s.rating === undefined && was?.rating !== undefined && was.account === s.account) [s.rating, s.provisional] = [was.rating, was.provisional];
  });
  const a = g as AccountGame;
  if (g.result && a.rated && !a.ratings?.length && !page.reread) {
    page.reread = true;
    setTimeout(() => void fetchGame(page).then((full) => {
      if (page.game && full.version >= page.game.version) {
        page.clockAt = page.received.get(full) ?? performance.now();
        page.game = full;
      }
      page.redraw();
    }, () => {}), 200);
  }
}

// fetchGame reads the game, noting when its clock was read.
async function fetchGame(page: Page): Promise<Game> {
  return stamped(page, await request<Game>("GET", `/api/games/${page.id}`));
}

// stamped notes that g, a state of the game, came from the server now.
function stamped(page: Page, g: Game): Game {
  page.received.set(g, performance.now());
  return g;
}

// noteArrivals says when a seat no one had opened (an invite sent) is
// opened: its player joined the game.
function noteArrivals(page: Page, g: Game): void {
  const prev = page.game;
  if (!prev) return;
  const held = heldSeats(page);
  const came = g.seats.filter((s, i) => notArrived(prev, i, held) && !notArrived(g, i, held) && !g.movers.includes(i));
  if (came.length) page.arrival = t("game.joined", { Sides: came.map((s) => sideName(s.side)).join(` ${t("words.and_word")} `) });
}

// effectsOf is what the move of ply did: as the socket told, else asked.
async function effectsOf(page: Page, ply: number): Promise<Effects | null> {
  const known = page.effects.get(ply);
  if (known) return known;
  return request<Effects>("GET", `/api/games/${page.id}/effects?ply=${ply}`).catch(() => null);
}

// connect follows the game over the websocket: a version that is not the
// next one, or a closed socket, reads the game again with GET.
function connect(page: Page, refresh: () => void): void {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${page.id}/ws?presence=on`);
  page.ws = ws;
  ws.onopen = () => {
    page.retry = 0;
    // Each seat held is said, so that the other players see this page
    // open (the dot on its strip); moves still go by POST.
    if (page.you >= 0) ws.send(JSON.stringify({ type: "auth" }));
    for (const token of Object.values(browserSeats.tokens(page.id))) ws.send(JSON.stringify({ type: "auth", token }));
    if (page.offline) {
      page.offline = false;
      void page.chat.load();
      refresh();
    }
  };
  ws.onmessage = async (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "chat" && msg.chat) {
      page.chat.add(msg.chat);
      return;
    }
    if (msg.type === "presence") {
      page.present = new Set(msg.present ?? []);
      refresh();
      return;
    }
    if (msg.type === "game" && msg.game) stamped(page, msg.game);
    if (msg.type === "game" && msg.effects && msg.game) page.effects.set(msg.game.ply - 1, msg.effects);
    if (msg.type !== "game" || !page.game || msg.version <= page.game.version) return;
    // After a gap (events missed), the game is read again, and its
    // position with it; else the event carries both.
    const gap = msg.version !== page.game.version + 1;
    const g: Game = gap ? await fetchGame(page) : msg.game;
    if (g.version <= page.game.version) return;
    // A hidden tab's notice: the player's turn came, or the game ended.
    if (page.you >= 0 && g.ply > page.game.ply && !g.result && g.toMove === page.you) pageNotice("turn", t("game.notice.turn", { Game: g.name ?? g.game }), location.pathname);
    if (page.you >= 0 && g.result && !page.game.result) pageNotice("ended", t("game.notice.ended", { Result: g.description ?? "" }), location.pathname);
    if (g.ply !== page.game.ply) {
      page.sel = emptySelection;
      page.taking = [];
      page.drawAnswer = "";
      page.arrival = "";
    }
    await show(page, g, gap ? null : (msg.position ?? null));
    refresh();
  };
  ws.onclose = () => {
    if (page.ws !== ws) return;
    page.offline = true;
    page.present = null;
    refresh();
    page.retry = Math.min(page.retry + 1, 5);
    setTimeout(async () => {
      await load(page, refresh);
      connect(page, refresh);
    }, 500 * page.retry);
  };
}

// cannotPlay says why this browser cannot move now, or "" when it can.
function cannotPlay(page: Page, g: Game): string {
  if (actingSeat(page) >= 0 && page.viewPly === null) return "";
  if (g.result) return t("game.over");
  if (page.viewPly !== null) return t("game.earlier");
  return heldSeats(page).length ? t("game.not_your_turn", { Seat: seatName(g, g.toMove) }) : t("game.watching_game");
}

function onCell(page: Page, cell: string, refresh: () => void): void {
  const g = page.game;
  if (!g || page.busy) return;
  // A click on the cell where the move the clicks completed landed is
  // the click the player meant to end it with: no news, and no error.
  const landed = page.landed === cell && page.sel.path.length === 0;
  page.landed = null;
  const why = cannotPlay(page, g);
  if (why && premoveSeat(page) >= 0) {
    onPremoveCell(page, cell, refresh);
    return;
  }
  const out = click(g.legal.map(parseMove), page.sel, cell);
  if (landed && (why || out.kind === "reset")) {
    page.message = "";
    refresh();
    return;
  }
  if (why) {
    page.message = why;
    refresh();
    return;
  }
  page.message = "";
  if (out.kind === "play") {
    const path = parseMove(out.move).path;
    if (path[path.length - 1] !== cell) page.landed = path[path.length - 1];
    play(page, out.move, refresh);
    return;
  }
  if (out.kind === "reset" && page.sel.path.length === 0 && g.legal.length > 0) {
    page.message = t("moves.none_from", { Cell: cell });
  }
  select(page, out.sel, refresh);
}

// onDrag plays a piece dragged from one cell to another: the start and
// the first landing, as two clicks would; a capture with more landings
// goes on by clicks.
function onDrag(page: Page, from: string, to: string, refresh: () => void): void {
  const g = page.game;
  if (!g || page.busy) return;
  const why = cannotPlay(page, g);
  const moves = g.legal.map(parseMove);
  const start = click(moves, emptySelection, from);
  const out = why || start.kind !== "select" ? null : click(moves, start.sel, to);
  page.message = why || (start.kind !== "select" ? t("moves.none_from", { Cell: from }) : out?.kind === "reset" ? t("moves.none_between", { From: from, To: to }) : "");
  if (out?.kind === "play") {
    play(page, out.move, refresh);
    return;
  }
  select(page, out?.kind === "select" ? out.sel : start.kind === "select" ? start.sel : emptySelection, refresh);
}

// select takes a new selection and, once it holds a landing, asks the
// server what the move being built takes, so the board shows it before
// the move is confirmed.
function select(page: Page, sel: Selection, refresh: () => void): void {
  page.sel = sel;
  page.taking = [];
  refresh();
  const g = page.game;
  if (!g || sel.path.length < 2) return;
  const move = matching(g.legal.map(parseMove), sel)[0];
  if (!move) return;
  const legs = sel.path.length - 1;
  request<Effects>("GET", `/api/games/${page.id}/effects?move=${encodeURIComponent(move.text)}`).then((fx) => {
    if (page.sel !== sel) return;
    page.taking = (fx.captured ?? []).filter((c) => (c.leg >= 1 && c.leg <= legs) || (c.leg === 0 && legs === move.path.length - 1)).map((c) => c.cell);
    refresh();
  }, () => {});
}

async function play(page: Page, move: string, refresh: () => void): Promise<void> {
  const g = page.game;
  const token = tokenFor(page);
  if (!g || !canSend(page)) return;
  page.busy = true;
  page.sel = emptySelection;
  page.taking = [];
  refresh();
  try {
    const next = stamped(page, await request<Game>("POST", `/api/games/${page.id}/moves`, { move, ply: g.ply }, token));
    page.message = "";
    await showAnswer(page, next, refresh);
  } catch (e) {
    page.message = e instanceof ApiError ? e.message : t("moves.not_sent", { Why: (e as Error).message });
  }
  page.busy = false;
  refresh();
}

async function command(page: Page, path: string, body: unknown, refresh: () => void): Promise<void> {
  const token = tokenFor(page);
  const before = page.game;
  if (!canSend(page) || !before) return;
  try {
    const next = stamped(page, await request<Game>("POST", `/api/games/${page.id}/${path}`, body, token));
    if (path === "draw" && (body as { action?: string }).action === "offer") answered(page, before, next);
    await showAnswer(page, next, refresh);
    page.message = "";
  } catch (e) {
    page.message = (e as Error).message;
  }
  refresh();
}

// premoveSeat is the seat this browser may set a premove for now: one it
// holds, a person's, while another seat is to move in the live game;
// else -1. A friend at this screen (every seat held) has no premoves.
function premoveSeat(page: Page): number {
  const g = page.game;
  if (!g || g.result || page.viewPly !== null || !page.pos) return -1;
  const held = heldSeats(page).filter((s) => g.seats[s]?.player === "human");
  if (held.length === 0 || heldSeats(page).includes(g.toMove)) return -1;
  return held[0];
}

// onPremoveCell sets a premove by two clicks while the opponent is to
// move, as lichess does: one of the player's pieces, then where it goes.
// A click while a premove is set cancels it.
function onPremoveCell(page: Page, cell: string, refresh: () => void): void {
  const g = page.game!;
  const seat = premoveSeat(page);
  page.message = "";
  if (page.premove) {
    void setPremove(page, "", refresh);
    return;
  }
  if (page.premoveFrom === null) {
    if (ownsTop(page.pos!, cell, g.seats[seat].side[0].toLowerCase())) page.premoveFrom = cell;
    else page.message = t("game.premove_start", { Seat: seatName(g, g.toMove) });
    refresh();
    return;
  }
  const from = page.premoveFrom;
  page.premoveFrom = null;
  if (cell === from) {
    refresh();
    return;
  }
  void setPremove(page, `${from}-${cell}`, refresh);
}

// setPremove sends the premove of this browser's seat ("" clears it).
async function setPremove(page: Page, move: string, refresh: () => void): Promise<void> {
  const g = page.game!;
  const seat = premoveSeat(page);
  if (seat < 0) return;
  try {
    await request<Game>("POST", `/api/games/${page.id}/premove`, { move }, browserSeats.tokens(page.id)[seat]);
    page.premove = move ? { move, ply: nextTurn(g, seat), setAt: g.ply } : null;
  } catch (e) {
    page.message = (e as Error).message;
  }
  refresh();
}

// notePremove sees what became of the premove set, in the game's new
// state: played, or dropped as no longer legal, which the page says.
function notePremove(page: Page, g: Game): void {
  const pm = page.premove;
  if (!pm) return;
  const seat = premoveHolder(page, g);
  const outcome = premoveOutcome(pm, g, seat);
  if (outcome === "") return;
  page.premove = null;
  if (outcome === "dropped") page.message = droppedText(pm.move);
}

// droppedText says that a premove was not played.
const droppedText = (move: string) => t("game.premove_dropped", { Move: move });

// premoveHolder is the seat whose premoves this browser keeps: the first
// person's seat it holds, unless it holds every person's (a friend at
// this screen, who has no premoves); else -1.
function premoveHolder(page: Page, g: Game): number {
  const held = heldSeats(page).filter((s) => g.seats[s]?.player === "human");
  const people = g.seats.filter((s) => s.player === "human").length;
  return held.length > 0 && (people === 1 || held.length < people) ? held[0] : -1;
}

// lineSeat is the seat whose conditional moves this page shows: in a
// correspondence game of two going on, the person's seat it holds (not
// both, a friend at this screen); else -1.
function lineSeat(page: Page, g: Game): number {
  return g.clock?.kind === "correspondence" && g.seats.length === 2 && !g.result ? premoveHolder(page, g) : -1;
}

// readPremove reads, as the page opens, what the server keeps of this
// browser's premoves: one set before a reload shows again, to be
// cancelled or played; one dropped while the page was away is said. An
// answer that comes after the game moved on is not news.
async function readPremove(page: Page, refresh: () => void): Promise<void> {
  const g = page.game;
  const seat = g && !g.result ? premoveHolder(page, g) : -1;
  if (!g || seat < 0) return;
  const token = browserSeats.tokens(page.id)[seat];
  const pm = await request<{ premove: string; ply?: number; dropped?: string }>("GET", `/api/games/${page.id}/premove`, undefined, token).catch(() => null);
  if (!pm || page.game?.ply !== g.ply) return;
  if (pm.premove && !page.premove) page.premove = { move: pm.premove, ply: pm.ply ?? nextTurn(g, seat), setAt: g.ply };
  if (pm.dropped && !page.message) page.message = droppedText(pm.dropped);
  refresh();
}

// askTakeback asks to take back the last move of a seat this browser
// holds. Against the AI it goes back at once; a friend at this screen
// (every person's seat held) asks and accepts in one step; else the
// request waits for the opponent.
async function askTakeback(page: Page, refresh: () => void): Promise<void> {
  const g = page.game;
  if (!g) return;
  const held = heldSeats(page);
  const seat = lastMoverAmong(g, held);
  if (seat < 0) return;
  const tokens = browserSeats.tokens(page.id);
  const people = g.seats.filter((s) => s.player === "human").map((s) => s.seat);
  const atOneScreen = people.length > 1 && people.every((p) => held.includes(p));
  const send = (action: string, who: number) =>
    request<Game>("POST", `/api/games/${page.id}/takeback`, { action }, tokens[who]).then((next) => stamped(page, next));
  try {
    let next = await send("request", seat);
    const other = people.find((p) => p !== seat);
    if (atOneScreen && next.takeback === seat && other !== undefined) next = await send("accept", other);
    page.sel = emptySelection;
    page.taking = [];
    await showAnswer(page, next, refresh);
    page.message = "";
  } catch (e) {
    page.message = (e as Error).message;
  }
  refresh();
}

// canAskTakeback says whether the Take back button shows: the game allows
// take-backs, goes on, and a seat this browser holds has a move to take
// back, with no request on the table: its own shows Cancel, the other
// seat's is answered over the board (asking then would accept it, and
// take back to the other's turn, not to this seat's).
function canAskTakeback(page: Page): boolean {
  const g = page.game;
  if (!g || g.result || !g.takebacks || page.viewPly !== null || refusesTakebacks(g)) return false;
  const held = heldSeats(page);
  return lastMoverAmong(g, held) >= 0 && g.takeback < 0;
}

// refusesTakebacks says whether the rules refuse every take-back of g,
// as docs/server.md gives them: against the AI (one person) a rated game,
// between people a game of three.
function refusesTakebacks(g: Game): boolean {
  const people = g.seats.filter((s) => s.player === "human").length;
  return people === 1 ? !!(g as AccountGame).rated : g.seats.length !== 2;
}

// showAnswer takes the game a command answered. While the socket is open,
// its event brings the same state with its position (sent before the
// answer), which is drawn without asking for it: the answer itself is
// drawn, its position read, only if that event is late.
async function showAnswer(page: Page, next: Game, refresh: () => void): Promise<void> {
  const newer = () => next.version > (page.game?.version ?? 0);
  if (!newer()) return;
  if (page.ws?.readyState !== WebSocket.OPEN) return show(page, next);
  setTimeout(async () => {
    if (!newer()) return;
    await show(page, next);
    refresh();
  }, 1000);
}

async function step(page: Page, ply: number, refresh: () => void): Promise<void> {
  const g = page.game;
  if (!g) return;
  const to = Math.max(0, Math.min(ply, g.ply));
  page.viewPly = to === g.ply ? null : to;
  page.message = ""; // an error is cleared by the next action
  page.sel = emptySelection;
  page.taking = [];
  await show(page, g);
  refresh();
}

// rematch starts the same game again, each player a seat further on (for
// two, the colours swapped): this browser keeps its seats; a person's
// seat held elsewhere gets an invite link to send them.
async function rematch(page: Page, refresh: () => void): Promise<void> {
  const g = page.game;
  if (!g) return;
  const opponent = g.seats.map((_, i) => seatOf(g, i).account).find((a, i) => a && i !== page.you);
  if (page.you >= 0 && opponent && g.seats.length === 2) return challengeAgain(page, g, opponent, refresh);
  const n = g.seats.length;
  const was = (seat: number) => (seat + n - 1) % n; // the old seat of the new seat's player
  const held = heldSeats(page);
  const body: Record<string, unknown> = {
    game: g.game, options: g.options,
    seats: g.seats.map((_, i) => (g.seats[was(i)].player === "human" ? "human" : g.seats[was(i)].player)),
  };
  const names = g.seats.map((_, i) => g.seats[was(i)].name ?? "");
  if (names.some((x) => x)) body.names = names;
  if (g.startFen) body.fen = g.startFen;
  // An account's rated game against the AI: the rematch is rated too
  // (the server gives the account its one person's seat).
  if ((g as AccountGame).rated) body.rated = true;
  if (!g.takebacks) body.takebacks = false;
  if (g.clock?.kind === "fischer") body.clock = g.clock.control;
  if (g.clock?.kind === "correspondence" && g.clock.perMoveMs) body.days = Math.round(g.clock.perMoveMs / 86400000);
  try {
    const made = await request<Created>("POST", "/api/games", body);
    let mine = -1;
    for (const inv of made.seats) {
      if (held.includes(was(inv.seat))) {
        browserSeats.saveToken(made.id, inv.seat, inv.token);
        if (mine < 0 || was(inv.seat) === page.viewSeat) mine = inv.seat;
      } else {
        browserSeats.saveInvite(made.id, inv.seat, inv.url);
      }
    }
    location.assign(mine >= 0 ? `/play/${made.id}?seat=${mine}` : made.url);
  } catch (e) {
    page.message = t("game.no_rematch", { Why: (e as Error).message });
    refresh();
  }
}

// challengeAgain asks the other account for a rematch: a challenge with
// this game's options and clock, which waits in the lobby, where the
// game starts when they accept it.
async function challengeAgain(page: Page, g: Game, opponent: string, refresh: () => void): Promise<void> {
  const c = g.clock as (Game["clock"] & { incrementMs?: number }) | undefined;
  const clock = c?.kind === "fischer" ? { initial: Math.round((c.baseMs ?? 0) / 1000), increment: Math.round((c.incrementMs ?? 0) / 1000) }
    : c?.kind === "correspondence" ? { days: Math.max(1, Math.round((c.perMoveMs ?? 0) / 86400000)) } : null;
  try {
    await request("POST", "/api/seeks", { game: g.game, options: g.options, rated: !!(g as AccountGame).rated, takebacks: g.takebacks, clock, to: opponent });
    location.assign("/");
  } catch (e) {
    page.message = t("game.no_rematch", { Why: (e as Error).message });
    refresh();
  }
}

function render(page: Page, ui: UI, act: Actions): void {
  const g = page.game;
  ui.message.textContent = page.message;
  if (!g || !page.pos || !page.geo) return;
  const kingWord = kingName(g.game);
  ui.title.textContent = `${nameOf(g)}: ${g.seats.map((_, i) => seatName(g, i)).join(` ${t("game.vs")} `)}`;
  document.title = t("game.window_title", { Game: nameOf(g), Status: statusText(page) });
  const moves = g.legal.map(parseMove);
  const shownPly = page.viewPly ?? g.ply;
  const lastMove = recentPaths(g.moves.slice(0, shownPly).map((m) => parseMove(m).path), g.movers, shownPly, heldSeats(page), g.seats.length);
  const letters = g.seats.map((s) => s.side[0].toLowerCase());
  const premove = page.premove ? moveEnds(page.premove.move) : page.premoveFrom ? [page.premoveFrom] : [];
  const marks = { selected: [...page.sel.path, ...page.sel.drops], targets: targets(moves, page.sel), lastMove, path: page.sel.path, taking: page.taking, premove };
  drawBoard(ui.svg, page.geo, page.pos, marks, kingWord, act.cell, { pointer: true, letters, inside: true });
  // The first render's time, for docs/server.md's measurement.
  if (performance.getEntriesByName("board-drawn").length === 0) performance.mark("board-drawn");
  if (page.anim && page.viewPly === null && page.anim.path.length && page.pos.ply === g.ply) animateMove(ui.svg, page.geo, page.anim, letters);
  page.anim = null;
  ui.svg.setAttribute("aria-label", t("game.board_label", { Game: nameOf(g), Status: statusText(page) }));
  renderPlayers(page, ui);
  ui.status.replaceChildren(...statusLines(page));
  renderNotice(page, ui);
  renderEnd(page, ui, act);
  renderOffer(page, ui, act);
  renderChoices(page, ui, act, moves);
  ui.typed.hidden = actingSeat(page) < 0 || page.viewPly !== null;
  ui.typed.querySelector("input")?.setAttribute("placeholder", g.legal.length ? t("game.typed.placeholder", { Move: g.legal[0] }) : "");
  renderMoves(page, ui, act);
  renderReview(page, ui, act);
  renderControls(page, ui, act);
  const cseat = lineSeat(page, g);
  page.cond.show(g, cseat, browserSeats.tokens(page.id)[cseat]);
  renderBar(page, ui, act);
  renderLinks(page, ui);
  announce(page, ui);
}

// renderReview draws the review's section once the game is over (its
// state read the first time), the marks in the move list, and on the
// position before a marked move the better line as arrows.
function renderReview(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  ui.review.hidden = !g.result;
  if (!g.result) return;
  const st = page.review;
  if (!st.asked && !st.polling) {
    st.polling = -1; // read once, not once a redraw
    void readReview(page.id, st).then(() => {
      st.polling = 0;
      page.redraw();
    });
  }
  keepPolling(page.id, st, page.redraw);
  const shown = page.viewPly ?? g.ply;
  const fold = matchMedia(phoneQuery).matches && window.innerHeight < 740;
  replaceKeepingFocus(ui.review, ...reviewPanel(st, g.seats.map((s) => s.side), shown, {
    ask: act.askReview, step: act.step, betterLine: (m) => betterLine(g, m),
  }, fold));
  markMoves(ui.moves, st.review);
  const m = moveOf(st.review, shown);
  if (m?.mark && page.geo) drawArrows(ui.svg, page.geo, m.line.length ? m.line : [m.best], g.seats.length);
}

// requestReview asks for the review and draws its state.
async function requestReview(page: Page, refresh: () => void): Promise<void> {
  await askReview(page.id, page.review);
  refresh();
}

// betterLine is the analysis board at the position before m, its better
// line played out.
function betterLine(g: Game, m: ReviewMove): string {
  const q = new URLSearchParams();
  if (g.startFen) q.set("fen", g.startFen);
  q.set("moves", [...g.moves.slice(0, m.ply), ...(m.line.length ? m.line : [m.best])].join(" "));
  const options = Object.entries(g.options ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
  if (options) q.set("options", options);
  return `/analysis/${g.game}?${q.toString()}`;
}

// nameOf is the game's name for people, as the server gives it.
function nameOf(g: Game): string {
  return g.name || g.game;
}

// playerName is who plays a seat: the name given, the AI's level,
// "waiting" for an open seat, "you" for a seat this browser holds.
function playerName(g: Game, seat: number, held: number[] = []): string {
  const s = seatOf(g, seat);
  // The AI levels play as accounts of their own (ai-level-3), rated.
  const level = /^ai:level=(\d+)$/.exec(s.player);
  if (s.account && !level) return s.account;
  if (s.name) return s.name;
  if (s.open) return t("game.player.waiting");
  if (level) return t("game.player.ai", { Level: level[1] });
  if (notArrived(g, seat, held)) return held.length ? t("game.player.waiting_opponent") : t("game.player.waiting_player");
  if (s.player !== "human") return t("game.player.engine", { Engine: s.player });
  return held.includes(seat) ? t("game.player.you") : t("game.player.anonymous");
}

// notArrived says whether a person's seat is one no one has opened yet:
// an invite not yet followed, the seat neither arrived nor moved.
function notArrived(g: Game, seat: number, held: number[]): boolean {
  const s = seatOf(g, seat);
  return s.player === "human" && !s.open && !s.arrived && !s.account && !held.includes(seat) && !g.movers.includes(seat) && !g.result;
}

// seatName is a seat as the status names it: "Black (AI level 3)", or the
// side alone for a person with no name.
function seatName(g: Game, seat: number): string {
  const who = playerName(g, seat);
  const side = sideName(g.seats[seat].side);
  return who === t("game.player.anonymous") || who === t("game.player.waiting_player") ? side : `${side} (${who})`;
}

function statusText(page: Page): string {
  const g = page.game!;
  if (g.result) return endText(g);
  if (actingSeat(page) >= 0) return heldSeats(page).length > 1 ? t("game.status.your_move_seat", { Seat: seatName(g, g.toMove) }) : t("game.status.your_move");
  if (g.seats[g.toMove].player !== "human") return t("game.status.thinking", { Seat: seatName(g, g.toMove) });
  if (g.seats[g.toMove].open) return t("game.status.open", { Side: sideName(g.seats[g.toMove].side) });
  if (notArrived(g, g.toMove, heldSeats(page))) return t("game.status.not_arrived", { Side: sideName(g.seats[g.toMove].side) });
  return t("game.status.to_move", { Seat: seatName(g, g.toMove) });
}

// endText says how the game ended, in the page's language.
function endText(g: Game): string {
  return resultText({ winners: g.result?.winners ?? [], reason: g.result?.reason ?? "", sides: g.seats.map((s) => s.side), description: g.description });
}

function statusLines(page: Page): Node[] {
  const g = page.game!;
  // Once over, the result box says it; the line stays for screen readers.
  const out: Node[] = [h("span", { class: g.result ? "result sr-only" : "turn" }, statusText(page))];
  const held = heldSeats(page).filter((s) => s < g.seats.length);
  out.push(h("span", { class: "you" }, held.length ? t("game.you_play", { Sides: held.map((s) => sideName(g.seats[s].side)).join(` ${t("words.and_word")} `) }) : t("game.watching")));
  if (g.seats.some((_, i) => seatOf(g, i).account)) out.push(h("span", { class: "mode" }, (g as AccountGame).rated ? t("game.rated") : t("game.casual")));
  if (page.pos?.scores) {
    out.push(h("span", { class: "scores" }, t("game.scores") + " " + page.pos.scores.map((s, i) => `${sideName(g.seats[i].side)} ${s}`).join(", ")));
  }
  if (page.arrival) out.push(h("span", { class: "arrival" }, page.arrival));
  if (page.offline) out.push(h("span", { class: "offline" }, t("game.offline")));
  if (g.attention) out.push(h("span", { class: "attention", role: "alert" }, g.attention.charAt(0).toUpperCase() + g.attention.slice(1) + "."));
  if (page.pos?.endRows) out.push(h("span", { class: "legend" }, t("game.end_rows")));
  if (page.viewPly !== null) out.push(h("span", { class: "history" }, t("game.history", { Shown: page.viewPly, Moves: g.ply })));
  return out.map((n) => h("span", { class: "line" }, n));
}

// stripOrder is the seats as the strips show them: the one at the bottom
// of the board last.
function stripOrder(page: Page): { above: number[]; below: number } {
  const n = page.game!.seats.length;
  const below = page.viewSeat >= 0 ? page.viewSeat : 0;
  const above: number[] = [];
  for (let i = n - 1; i >= 1; i--) above.push((below + i) % n);
  return { above, below };
}

// renderPlayers draws a strip per seat: the side's piece, who plays it,
// their clock, and whether it is their turn (an AI's shown thinking).
function renderPlayers(page: Page, ui: UI): void {
  const { above, below } = stripOrder(page);
  ui.above.replaceChildren(...above.map((s) => playerStrip(page, s)));
  ui.below.replaceChildren(playerStrip(page, below));
}

function playerStrip(page: Page, seat: number): HTMLElement {
  const g = page.game!;
  const s = g.seats[seat];
  const turn = !g.result && g.toMove === seat;
  const won = !!g.result && g.result.winners.includes(seat);
  const strip = h("div", { class: `player${turn ? " to-move" : ""}${won ? " winner" : ""}`, "data-seat": String(seat) },
    ...presenceDot(page, seat),
    h("span", { class: `chip side-${s.side[0].toLowerCase()}`, "aria-hidden": "true" }),
    h("span", { class: "who" }, h("span", { class: "side" }, sideName(s.side)), " ", playerNode(g, seat, heldSeats(page))), ...ratingNode(g, seat), ...materialNode(page, seat));
  if (turn && s.player !== "human" && !s.open) strip.append(h("span", { class: "thinking" }, t("game.strip.thinking")));
  else if (turn) strip.append(h("span", { class: "turn-mark" }, t("game.strip.to_move")));
  if (won) strip.append(h("span", { class: "won" }, t("game.strip.won")));
  if (g.clock) {
    const left = clockLeft(page, seat);
    strip.append(h("span", { class: clockClass(page, seat, left), "data-seat": String(seat), role: "timer", "aria-label": t("game.clock_label", { Side: sideName(s.side) }) }, clockText(left)));
  }
  return strip;
}

// presenceDot says whether a seat's player has the game open: green while
// a page of theirs is connected to the game's socket, grey when not (and
// while this page's own socket is down, when no one knows); an AI is
// always there. An open seat has no one to show.
function presenceDot(page: Page, seat: number): HTMLElement[] {
  const s = page.game!.seats[seat];
  if (s.open) return [];
  const here = s.player !== "human" || !!page.present?.has(seat);
  const words = here ? t("game.presence.on") : t("game.presence.off");
  return [h("span", { class: `presence ${here ? "on" : "off"}`, role: "img", "aria-label": words, title: words, "data-seat": String(seat) })];
}

// materialNode is what a seat has gained in the position shown, beside
// its name: in Punt, which takes nothing, its score; in a game of two, the
// opponent's pieces it took (off the board or prisoner), and its lead
// in pieces taken, as lichess writes a material lead ("+2").
function materialNode(page: Page, seat: number): HTMLElement[] {
  const g = page.game!, pos = page.pos;
  if (!pos) return [];
  if (pos.scores) return [h("span", { class: "material score", "data-seat": String(seat), title: t("game.score_title", { Side: sideName(g.seats[seat].side) }) }, t("game.score", { Score: String(pos.scores[seat] ?? 0) }))];
  if (!page.start || g.seats.length !== 2) return [];
  const letters = g.seats.map((s) => s.side[0].toLowerCase());
  const taken = takenBy(page.start, pos.stacks, letters)[seat];
  if (taken.pieces === 0) return [];
  const other = letters[1 - seat];
  const words = tn("game.took", taken.pieces) + (taken.lead ? t("game.ahead", { Lead: taken.lead }) : "");
  return [h("span", { class: "material", "data-seat": String(seat), "data-taken": String(taken.pieces), "data-lead": String(taken.lead), title: words },
    h("span", { class: `mini side-${other}`, "aria-hidden": "true" }), h("span", { class: "sr-only" }, words),
    h("span", { "aria-hidden": "true" }, `×${taken.pieces}`), ...(taken.lead ? [h("span", { class: "lead", "aria-hidden": "true" }, `+${taken.lead}`)] : []))];
}

// playerNode is who plays a seat in their strip; an account links to its
// profile.
function playerNode(g: Game, seat: number, held: number[]): HTMLElement {
  const s = seatOf(g, seat);
  const name = playerName(g, seat, held);
  if (!s.account) return h("span", { class: "name" }, name);
  const link = profileLink(s.account);
  link.textContent = name;
  // A bot's mark follows its name here: a phone's strip, cut short, cuts
  // the mark before the name.
  return h("span", { class: "name" }, link, ...botTag(s.bot).reverse());
}

// ratingNode is an account's rating beside its name ("?" while
// provisional), and once a rated game ended, the new one and its change;
// a long name is cut before it is.
function ratingNode(g: Game, seat: number): HTMLElement[] {
  const s = seatOf(g, seat);
  const rated = (g as AccountGame).ratings?.find((r) => r.seat === seat);
  if (rated) {
    return [h("span", { class: "elo" }, h("span", { class: "rating" }, ratingText(rated.after)), " ",
      h("span", { class: `delta ${rated.after >= rated.before ? "up" : "down"}` }, change(rated.before, rated.after)))];
  }
  return s.account && s.rating ? [h("span", { class: "elo" }, h("span", { class: "rating" }, ratingText(s.rating, s.provisional)))] : [];
}

// ratingChanges lists, at a rated game's end, each player's rating
// before and after: "ann 1500 → 1662 (+162)".
function ratingChanges(g: Game): HTMLElement | null {
  const all = (g as AccountGame).ratings;
  if (!all?.length) return null;
  return h("ul", { class: "rating-changes", "aria-label": t("game.rating_changes") }, ...all.map((r) =>
    h("li", { "data-seat": String(r.seat) }, h("span", { class: "who" }, playerName(g, r.seat)), " ",
      `${ratingText(r.before)} → ${ratingText(r.after)} `,
      h("span", { class: `delta ${r.after >= r.before ? "up" : "down"}` }, `(${change(r.before, r.after)})`))));
}

// renderNotice says why a seat's link shows the game only to watch: it was
// opened without its token (the part after #), which stays with the
// browser that first opened it.
function renderNotice(page: Page, ui: UI): void {
  const g = page.game!;
  const seat = Number(new URLSearchParams(location.search).get("seat") ?? "NaN");
  const lost = location.pathname.startsWith("/play/") && Number.isInteger(seat) && seat >= 0 && seat < g.seats.length && !heldSeats(page).includes(seat);
  ui.notice.hidden = !lost;
  if (!lost) return;
  ui.notice.replaceChildren(
    h("strong", {}, t("game.lost_seat", { Side: sideName(g.seats[seat].side) }) + " "),
    t("game.lost_seat_why"),
  );
}

// renderEnd shows, once the game is over, its result and why, and what
// to do next: a rematch, a new game, the analysis.
function renderEnd(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  ui.end.hidden = !g.result || page.endClosed;
  if (!g.result) {
    ui.end.replaceChildren();
    return;
  }
  const buttons = h("div", { class: "end-actions" });
  // A tournament's game leads back to it, not to a rematch.
  if (page.tournament) buttons.append(h("a", { href: `/tournaments/${page.tournament}`, class: "button primary back-to-tournament" }, t("game.back_to_tournament")));
  else if (heldSeats(page).length) {
    const again = h("button", { type: "button", class: "rematch primary" }, t("game.rematch"));
    again.addEventListener("click", () => act.rematch());
    buttons.append(again);
  }
  buttons.append(h("a", { href: `/?game=${encodeURIComponent(g.game)}`, class: "button new-game" }, t("game.new_game")),
    h("a", { href: analysisLink(g), class: "button analyse-end" }, t("game.analyse")));
  const changes = ratingChanges(g);
  const close = h("button", { type: "button", class: "end-close", "aria-label": t("game.close_end"), title: t("game.show_board") }, "×");
  close.addEventListener("click", () => {
    page.endClosed = true;
    page.redraw();
  });
  replaceKeepingFocus(ui.end, close, h("h2", {}, endTitle(page)), h("p", { class: "end-reason" }, endText(g)), ...(changes ? [changes] : []), buttons);
}

function endTitle(page: Page): string {
  const g = page.game!;
  const winners = g.result!.winners;
  if (winners.length === 0) return g.result!.reason === "aborted" ? t("game.end.aborted") : t("game.end.draw");
  const held = heldSeats(page);
  if (held.length && held.length < g.seats.length) return winners.some((w) => held.includes(w)) ? t("game.end.you_won") : t("game.end.you_lost");
  return tn("game.end.won", winners.length, { Sides: winners.map((w) => sideName(g.seats[w].side)).join(` ${t("words.and_word")} `) });
}

// announce tells a screen reader each new move and the end, and sounds
// them; the first read of the page is not news.
function announce(page: Page, ui: UI): void {
  const g = page.game!;
  if (page.heard < 0) {
    page.heard = g.ply;
    page.ended = !!g.result;
    return;
  }
  if (page.arrival && page.arrival !== page.arrivalHeard) {
    page.arrivalHeard = page.arrival;
    ui.announce.textContent = page.arrival;
  }
  if (g.ply > page.heard) {
    const movers = g.movers;
    const last = g.ply - 1;
    const fx = page.effects.get(last);
    const capture = fx ? fx.capture : g.moves[last].includes("x");
    ui.announce.textContent = capture ? t("game.played_capture", { Seat: seatName(g, movers[last]), Move: g.moves[last] }) : t("game.played", { Seat: seatName(g, movers[last]), Move: g.moves[last] });
    page.sounds.play(capture ? "capture" : "move");
    page.heard = g.ply;
  }
  if (g.result && !page.ended) {
    page.ended = true;
    ui.announce.textContent += ` ${statusText(page)}.`;
    page.sounds.play("end");
  }
}

// ticking reports whether seat's clock runs now.
function ticking(g: Game, seat: number): boolean {
  return !!g.clock && g.clock.running && !g.result && g.toMove === seat;
}

// clockLeft is seat's time now: as the server said, less the time since
// for the seat to move.
function clockLeft(page: Page, seat: number): number {
  const g = page.game!;
  const ms = g.clock!.leftMs[seat];
  return ticking(g, seat) ? ms - (performance.now() - page.clockAt) : ms;
}

// lowTime is when a clock turns red: under a tenth of the base time, and
// always under 20 seconds.
function lowTime(g: Game): number {
  return Math.max(20_000, (g.clock?.baseMs ?? 0) / 10);
}

function clockClass(page: Page, seat: number, left: number): string {
  const g = page.game!;
  const parts = ["clock"];
  if (ticking(g, seat)) parts.push("running");
  if (g.clock?.kind === "fischer" && left < lowTime(g)) parts.push("low");
  return parts.join(" ");
}

// tickClocks redraws the clocks; when the running one reaches zero it
// asks the server, which decides the flag fall, once.
function tickClocks(page: Page, ui: UI, refresh: () => void): void {
  const g = page.game;
  if (!g || !g.clock || g.result) return;
  for (const span of ui.above.parentElement!.querySelectorAll<HTMLElement>(".clock[data-seat]")) {
    const seat = Number(span.dataset.seat);
    const left = clockLeft(page, seat);
    // Written only when it changes: a write, even of the same words,
    // makes the browser lay out and paint the page again, ten times a
    // second for each clock (a phone's battery).
    const text = clockText(left), cls = clockClass(page, seat, left);
    if (span.textContent !== text) span.textContent = text;
    if (span.className !== cls) span.className = cls;
  }
  if (ticking(g, g.toMove) && clockLeft(page, g.toMove) <= -300 && page.flagAsked !== g.version) {
    page.flagAsked = g.version;
    load(page, refresh);
  }
}

// clockText writes a time left: days and hours for correspondence, h:mm:ss
// past an hour, m:ss, and seconds with tenths under ten seconds.
export function clockText(ms: number): string {
  const left = Math.max(0, ms);
  if (left < 10_000) return fixed(Math.floor(left / 100) / 10, 1);
  const s = Math.floor(left / 1000);
  if (s >= 86400) return t("game.clock.days", { Days: Math.floor(s / 86400), Hours: Math.floor((s % 86400) / 3600) });
  const mmss = `${Math.floor((s % 3600) / 60)}:${String(s % 60).padStart(2, "0")}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, "0")}` : mmss;
}

function renderChoices(page: Page, ui: UI, act: Actions, moves: ParsedMove[]): void {
  const list = choices(moves, page.sel);
  ui.choices.replaceChildren();
  if (list.length === 0) return;
  ui.choices.append(h("span", {}, list.length > 1 ? t("moves.several") : t("moves.play")));
  for (const m of list.slice(0, 24)) {
    const b = h("button", { type: "button", class: "choice", "data-move": m.text }, m.text);
    b.addEventListener("click", () => act.play(m.text));
    ui.choices.append(b);
  }
}

// renderMoves lists the moves by turn, each a button that shows the
// position after it; only the list scrolls, never the page, so that the
// board stays where the player's eyes are.
function renderMoves(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  const shown = page.viewPly ?? g.ply;
  const nav = (label: string, to: number, name: string, cls = "") => {
    const b = h("button", { type: "button", "aria-label": name, title: name, class: cls }, label);
    b.addEventListener("click", () => act.step(to));
    return b;
  };
  replaceKeepingFocus(ui.nav, nav("«", 0, t("game.nav.start")), nav("‹", shown - 1, t("game.nav.back")), nav("›", shown + 1, t("game.nav.forward")),
    nav(page.viewPly === null ? "»" : "» " + t("game.nav.live"), g.ply, t("game.nav.live_label"), page.viewPly === null ? "" : "live"));
  const n = g.seats.length;
  const movers = g.movers;
  ui.moves.classList.toggle("three", n > 2);
  replaceKeepingFocus(ui.moves, ...turnRows(movers, n).map((row) => {
    const li = h("div", { class: "turn", role: "listitem" }, h("span", { class: "number" }, `${row.number}.`));
    row.plies.forEach((ply, seat) => {
      if (ply === null) {
        li.append(h("span", { class: "move empty", "aria-hidden": "true" }, row.number === 1 && seat < movers[0] ? "…" : ""));
        return;
      }
      const b = h("button", { type: "button", class: ply === shown - 1 ? "move current" : "move", "data-ply": String(ply + 1), "aria-label": `${row.number}, ${sideName(g.seats[seat].side)}: ${g.moves[ply]}` }, g.moves[ply]);
      if (ply === shown - 1) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => act.step(ply + 1));
      li.append(b);
    });
    return li;
  }));
  // A list with no item is no list to a screen reader.
  if (g.moves.length === 0) ui.moves.append(h("p", { class: "none" }, t("game.no_moves")));
  if (g.moves.length === 0) ui.moves.removeAttribute("role");
  else ui.moves.setAttribute("role", "list");
  keepInView(ui.moves, ui.moves.querySelector<HTMLElement>(".current"), page.viewPly === null);
}

// keepInView scrolls the list alone (scrollIntoView would scroll the
// page too): to its end for the live position, else to the move shown.
function keepInView(list: HTMLElement, current: HTMLElement | null, live: boolean): void {
  if (live || !current) {
    list.scrollTop = list.scrollHeight;
    return;
  }
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
}

function renderControls(page: Page, ui: UI, act: Actions): void {
  replaceKeepingFocus(ui.controls, ...controls(page, ui, act));
}

// controls are the buttons beside the board: sound, and for a player the
// commands the game allows now.
function controls(page: Page, ui: UI, act: Actions): Node[] {
  const g = page.game!;
  const items: Node[] = [];
  const button = (label: string, cls: string, f: () => void) => {
    const b = h("button", { type: "button", class: cls }, label);
    b.addEventListener("click", f);
    items.push(b);
    return b;
  };
  const sound = button(muted() ? t("game.sound_off") : t("game.sound_on"), "mute", () => {
    setMuted(!muted());
    renderControls(page, ui, act);
  });
  sound.setAttribute("aria-pressed", String(!muted()));
  const held = heldSeats(page);
  if (g.result || held.length === 0) return items;
  // The pie rule: the second player's first move may be to take over the
  // first player's position, a move with no cell to click.
  if (g.legal.includes(swapMove) && actingSeat(page) >= 0 && page.viewPly === null) {
    const swap = button(t("game.swap"), "swap", () => act.play(swapMove));
    swap.title = t("game.swap_title");
  }
  // Punt's end=all-stuck: a player whose piles are all frozen passes, a
  // move from a pile to itself (clicking the pile twice plays it too).
  const pass = g.legal.find((m) => { const p = parseMove(m).path; return p.length === 2 && p[0] === p[1]; });
  if (pass && actingSeat(page) >= 0 && page.viewPly === null) {
    const b = button(t("game.pass"), "pass", () => act.play(pass));
    b.title = t("game.pass_title");
  }
  button(t("game.resign"), "resign danger", () => {
    void confirmInPage(t("game.resign_confirm"), t("game.resign")).then((yes) => { if (yes) act.command("resign", undefined); });
  });
  const mine = (s: number) => held.includes(s);
  if (canAskTakeback(page)) button(t("game.takeback"), "takeback", () => act.takeback());
  if (g.takeback >= 0 && mine(g.takeback) && !g.result) {
    items.push(h("span", { class: "offer-text" }, t("game.takeback_asked")));
    button(t("game.cancel"), "takeback-cancel", () => act.command("takeback", { action: "decline" }));
  }
  if (page.premove) {
    items.push(h("span", { class: "premove-text" }, t("game.premove", { Move: page.premove.move })));
    button(t("game.premove_cancel"), "premove-cancel", () => act.clearPremove());
  }
  if (g.seats.length !== 2) return items;
  // A draw offered to this browser is answered over the board (renderOffer).
  if (g.drawOffer >= 0 && mine(g.drawOffer)) {
    items.push(h("span", { class: "offer-text" }, t("game.draw_offered")));
  } else if (g.drawOffer < 0) {
    button(t("game.draw_offer"), "offer", () => act.command("draw", { action: "offer" }));
  }
  return items;
}

// renderOffer shows over the board a draw offered to this browser, with
// Accept and Decline, or the AI's answer to the draw it offered.
function renderOffer(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  const held = heldSeats(page);
  const toMe = (seat: number) => !g.result && seat >= 0 && held.length > 0 && !held.includes(seat);
  const draw = g.seats.length === 2 && toMe(g.drawOffer);
  const takeback = toMe(g.takeback);
  const button = (label: string, cls: string, path: string, action: string) => {
    const b = h("button", { type: "button", class: cls }, label);
    b.addEventListener("click", () => act.command(path, { action }));
    return b;
  };
  const parts: Node[] = [];
  if (takeback) {
    parts.push(h("p", { class: "takeback-text" }, t("game.takeback_asks", { Seat: seatName(g, g.takeback) })),
      h("div", { class: "offer-actions" }, button(t("game.takeback_accept"), "takeback-accept primary", "takeback", "accept"),
        button(t("game.decline"), "takeback-decline", "takeback", "decline")));
  }
  if (draw) {
    parts.push(h("p", { class: "offer-text" }, t("game.draw_offers", { Seat: seatName(g, g.drawOffer) })),
      h("div", { class: "offer-actions" }, button(t("game.draw_accept"), "accept primary", "draw", "accept"), button(t("game.decline"), "decline", "draw", "decline")));
  } else if (page.drawAnswer) {
    parts.push(h("p", { class: "draw-answer" }, page.drawAnswer));
  }
  ui.offer.hidden = parts.length === 0;
  replaceKeepingFocus(ui.offer, ...parts);
}

// answered notes the answer of the AI to this browser's draw offer: an
// offer that comes back gone, the game going on, was declined (an
// accepted one ended the game, which the result says).
function answered(page: Page, before: Game, next: Game): void {
  const other = before.seats.findIndex((_, i) => !heldSeats(page).includes(i));
  if (next.result || next.drawOffer >= 0 || other < 0 || before.seats[other].player === "human") return;
  const answer = t("game.draw_declined", { Seat: seatName(next, other) });
  page.drawAnswer = answer;
  // The banner leaves the board after a while, if no move cleared it.
  setTimeout(() => {
    if (page.drawAnswer !== answer) return;
    page.drawAnswer = "";
    page.redraw();
  }, 6000);
}

// phoneQuery is a phone's screen, as game.css's bar says it.
const phoneQuery = "(max-width: 40rem)";

// renderBar fills, on a phone, the bar at the bottom of the screen, in
// the thumb's reach with the board above: a move back and forward and,
// for a player, draw and resign, which then leave the controls below the
// board (game.css). On a desktop the bar is empty: the controls stand
// beside the board.
function renderBar(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  if (!matchMedia(phoneQuery).matches) {
    ui.bar.replaceChildren();
    return;
  }
  const shown = page.viewPly ?? g.ply;
  // A step is named by its key; a command by its word, its sign hidden.
  const button = (cls: string, f: () => void, ...label: (Node | string)[]) => {
    const b = h("button", { type: "button", class: cls }, ...label);
    b.addEventListener("click", f);
    return b;
  };
  const step = (sign: string, name: string, cls: string, to: number) => {
    const b = button(cls, () => act.step(to), sign);
    b.setAttribute("aria-label", name);
    b.title = name;
    return b;
  };
  const sign = (text: string) => h("span", { "aria-hidden": "true" }, text);
  const items = [step("‹", t("game.nav.back"), "bar-back", shown - 1), step("›", t("game.nav.forward"), "bar-forward", shown + 1)];
  const playing = !g.result && heldSeats(page).length > 0;
  if (canAskTakeback(page)) items.push(button("takeback", () => act.takeback(), sign("↶ "), t("game.takeback")));
  if (playing && g.seats.length === 2 && g.drawOffer < 0) items.push(button("offer", () => act.command("draw", { action: "offer" }), sign("½ "), t("game.bar.draw")));
  if (playing) items.push(button("resign danger", () => {
    void confirmInPage(t("game.resign_confirm"), t("game.resign")).then((yes) => { if (yes) act.command("resign", undefined); });
  }, sign("⚑ "), t("game.resign")));
  replaceKeepingFocus(ui.bar, ...items);
}

// analysisLink opens the game's moves, with its options, on the analysis
// page.
function analysisLink(g: Game): string {
  const q = new URLSearchParams();
  if (g.startFen) q.set("fen", g.startFen);
  if (g.moves.length) q.set("moves", g.moves.join(" "));
  const options = Object.entries(g.options ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
  if (options) q.set("options", options);
  const text = q.toString();
  return `/analysis/${g.game}` + (text ? "?" + text : "");
}

function renderLinks(page: Page, ui: UI): void {
  const g = page.game!;
  const invites = browserSeats.invites(page.id);
  const rows: Node[] = [];
  for (const s of g.seats) {
    const url = invites[s.seat];
    if (!url || browserSeats.tokens(page.id)[s.seat]) continue;
    const full = location.origin + url;
    rows.push(h("p", { class: "invite" }, h("label", { for: `invite-${s.seat}` }, t("game.invite", { Side: sideName(s.side) })),
      h("input", { id: `invite-${s.seat}`, readonly: "", value: full, "data-seat": String(s.seat) }), copyButton(full)));
  }
  ui.links.replaceChildren(...rows);
  ui.links.hidden = rows.length === 0;
  ui.menu.setItems(menuItems(page, ui));
}

// menuItems are the "⋯" menu's: the spectators' link to copy, the record
// to download (PDN), the game on the analysis page, its rules.
function menuItems(page: Page, ui: UI): HTMLElement[] {
  const g = page.game!;
  const spectate = location.origin + g.url;
  const copy = h("button", { type: "button", class: "spectate", "data-link": spectate }, t("game.menu_items.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(spectate);
      copy.textContent = t("game.menu_items.copied");
    } catch {
      copy.textContent = t("game.menu_items.copy_this", { Link: spectate });
    }
    ui.announce.textContent = copy.textContent;
  });
  return [copy,
    h("a", { href: `/api/games/${page.id}/record`, download: `${g.game}-${page.id}.pdn`, class: "record" }, t("game.menu_items.record")),
    h("a", { href: analysisLink(g), class: "analyse" }, t("game.menu_items.analyse")),
    h("a", { href: `/rules/${g.game}`, class: "rules" }, t("game.menu_items.rules", { Game: nameOf(g) }))];
}
