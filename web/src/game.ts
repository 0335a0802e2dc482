// The game page: /games/{id} for spectators, /play/{id}?seat=N#token=...
// for a seat. It draws the game from GET /api/games/{id} and its position,
// follows it over the websocket, and plays the moves clicked on the board.

import { ApiError, request, type Effects, type Game, type Geometry, type Position } from "./api";
import { animateMove, attachPointer, drawBoard } from "./board";
import { siteHeader } from "./chrome";
import { copyButton, h } from "./dom";
import { choices, click, emptySelection, parseMove, targets, type ParsedMove, type Selection } from "./entry";
import * as store from "./store";

interface Page {
  id: string;
  game: Game | null;
  pos: Position | null;
  geo: Geometry | null;
  viewSeat: number; // the seat whose side of the board is at the bottom
  viewPly: number | null; // an earlier position shown, or null for the live one
  sel: Selection;
  message: string;
  busy: boolean;
  ws: WebSocket | null;
  retry: number;
  shown: number; // counts calls of show, so that a stale position is dropped
  effects: Map<number, Effects>; // what the move of each ply did, as the socket told
  anim: Effects | null; // the move to animate when the board is next drawn
  clockAt: number; // when the game's clock was read (performance.now)
  flagAsked: number; // the version for which a flag fall was asked about
  offline: boolean; // the socket closed: reconnecting
}

export function gamePage(root: HTMLElement): void {
  const parts = location.pathname.split("/");
  const page: Page = {
    id: decodeURIComponent(parts[2] ?? ""), game: null, pos: null, geo: null, viewSeat: -1, viewPly: null, sel: emptySelection,
    message: "", busy: false, ws: null, retry: 0, shown: 0, effects: new Map(), anim: null, clockAt: 0, flagAsked: 0, offline: false,
  };
  takeToken(page);
  const ui = layout(root);
  typedEntry(ui.typed, (move) => actions.play(move));
  const refresh = () => render(page, ui, actions);
  const actions: Actions = {
    cell: (cell) => onCell(page, cell, refresh),
    play: (move) => play(page, move, refresh),
    command: (path, body) => command(page, path, body, refresh),
    step: (to) => step(page, to, refresh),
    drag: (from, to) => onDrag(page, from, to, refresh),
  };
  attachPointer(ui.svg, { tap: actions.cell, drag: actions.drag });
  setInterval(() => tickClocks(page, ui, refresh), 250);
  document.addEventListener("keydown", (ev) => {
    if (!page.game || (ev.target instanceof HTMLInputElement)) return;
    if (ev.key === "ArrowLeft") actions.step((page.viewPly ?? page.game.ply) - 1);
    if (ev.key === "ArrowRight") actions.step((page.viewPly ?? page.game.ply) + 1);
  });
  load(page, refresh).then(() => connect(page, refresh));
}

// takeToken keeps the token of an invite link and takes it out of the
// address bar, so that it is not shown on a shared screen.
function takeToken(page: Page): void {
  const seat = Number(new URLSearchParams(location.search).get("seat") ?? "NaN");
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (token && Number.isInteger(seat)) {
    store.saveToken(page.id, seat, token);
    history.replaceState(null, "", location.pathname + location.search);
  }
}

interface Actions {
  cell(cell: string): void;
  play(move: string): void;
  command(path: string, body: unknown): void;
  step(ply: number): void;
  drag(from: string, to: string): void;
}

interface UI {
  title: HTMLElement;
  svg: SVGSVGElement;
  status: HTMLElement;
  message: HTMLElement;
  choices: HTMLElement;
  nav: HTMLElement;
  moves: HTMLOListElement;
  controls: HTMLElement;
  typed: HTMLFormElement;
  links: HTMLElement;
}

// typedEntry lets a player type a move in the notation; the server
// judges it, and its message says why a move is refused.
function typedEntry(form: HTMLFormElement, play: (move: string) => void): void {
  const input = h("input", { id: "typed-move", name: "move", autocomplete: "off", spellcheck: "false", placeholder: "a1-a3" });
  form.append(h("label", { for: "typed-move" }, "Type a move: "), input, h("button", { type: "submit" }, "Play"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const move = input.value.trim().toLowerCase();
    if (move) play(move);
    input.value = "";
  });
}

function layout(root: HTMLElement): UI {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const ui: UI = {
    title: h("h1"), svg, status: h("p", { class: "status", "aria-live": "polite" }),
    message: h("p", { class: "message", role: "alert" }), choices: h("div", { class: "choices" }),
    nav: h("div", { class: "nav" }), moves: h("ol", { class: "moves" }), controls: h("div", { class: "controls" }),
    typed: h("form", { class: "typed" }),
    links: h("div", { class: "links" }),
  };
  const boardBox = h("div", { class: "board-box" });
  boardBox.append(svg);
  root.replaceChildren(
    siteHeader(ui.title),
    h("main", { class: "game" }, boardBox,
      h("aside", {}, ui.status, ui.message, ui.choices, ui.typed, ui.controls, h("h2", {}, "Moves"), ui.nav, ui.moves, ui.links)),
  );
  return ui;
}

// heldSeats are the seats whose tokens this browser holds.
function heldSeats(page: Page): number[] {
  return Object.keys(store.tokens(page.id)).map(Number).sort();
}

// actingSeat is the seat this browser moves for now: the seat to move when
// it holds that seat's token (a friend at this screen included), else -1.
function actingSeat(page: Page): number {
  const g = page.game;
  if (!g || g.result) return -1;
  return store.tokens(page.id)[g.toMove] ? g.toMove : -1;
}

// tokenFor is the token to send a command with: the acting seat's, else
// the seat viewed from, else any held.
function tokenFor(page: Page): string | undefined {
  const t = store.tokens(page.id);
  const seat = actingSeat(page);
  if (seat >= 0) return t[seat];
  return t[page.viewSeat] ?? Object.values(t)[0];
}

async function load(page: Page, refresh: () => void): Promise<void> {
  try {
    const g = await request<Game>("GET", `/api/games/${page.id}`);
    await show(page, g);
  } catch (e) {
    // While reconnecting, the status says so; the error is not news.
    if (!page.offline) page.message = (e as Error).message;
  }
  refresh();
}

// show takes a new state of the game, reading its position and, the first
// time, the board seen from this browser's seat.
//
// Responses may arrive out of order (a person's move and the AI's answer
// read their positions at once): an older state of the game is ignored,
// and a position read for a state that was replaced meanwhile is dropped.
async function show(page: Page, g: Game): Promise<void> {
  if (page.game && g.version < page.game.version) return;
  const first = page.game === null;
  const shown = ++page.shown;
  page.game = g;
  if (first) {
    const seatParam = new URLSearchParams(location.search).get("seat");
    const held = heldSeats(page);
    page.viewSeat = seatParam !== null && held.includes(Number(seatParam)) ? Number(seatParam) : held[0] ?? -1;
  }
  page.clockAt = performance.now();
  const ply = page.viewPly ?? g.ply;
  // The move that follows the live position drawn now is animated.
  const next = page.viewPly === null && page.pos !== null && page.pos.ply === g.ply - 1;
  const [pos, geo, fx] = await Promise.all([
    request<Position>("GET", `/api/games/${page.id}/position?ply=${ply}`),
    page.geo ? Promise.resolve(page.geo) : null,
    next ? effectsOf(page, g.ply - 1) : null,
  ]);
  if (shown !== page.shown) return;
  page.pos = pos;
  page.anim = fx;
  if (!geo) {
    const turn = page.viewSeat > 0 ? (360 * page.viewSeat) / g.seats.length : 0;
    page.geo = await request<Geometry>("GET", `/api/boards/${pos.board}?turn=${turn}`);
  }
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
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${page.id}/ws`);
  page.ws = ws;
  ws.onopen = () => {
    page.retry = 0;
    if (page.offline) {
      page.offline = false;
      refresh();
    }
  };
  ws.onmessage = async (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "game" && msg.effects && msg.game) page.effects.set(msg.game.ply - 1, msg.effects);
    if (msg.type !== "game" || !page.game || msg.version <= page.game.version) return;
    const gap = msg.version !== page.game.version + 1;
    const g: Game = gap ? await request<Game>("GET", `/api/games/${page.id}`) : msg.game;
    if (g.version <= page.game.version) return;
    if (g.ply !== page.game.ply) page.sel = emptySelection;
    await show(page, g);
    refresh();
  };
  ws.onclose = () => {
    if (page.ws !== ws) return;
    page.offline = true;
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
  if (g.result) return "The game is over.";
  if (page.viewPly !== null) return "This is an earlier position; go to the last move to play.";
  return heldSeats(page).length ? `Not your turn: ${g.seats[g.toMove].side} is to move.` : "You are watching this game.";
}

function onCell(page: Page, cell: string, refresh: () => void): void {
  const g = page.game;
  if (!g || page.busy) return;
  const why = cannotPlay(page, g);
  if (why) {
    page.message = why;
    refresh();
    return;
  }
  const out = click(g.legal.map(parseMove), page.sel, cell);
  page.message = "";
  if (out.kind === "play") {
    play(page, out.move, refresh);
    return;
  }
  if (out.kind === "reset" && page.sel.path.length === 0 && g.legal.length > 0) {
    page.message = `No legal move starts on ${cell}.`;
  }
  page.sel = out.sel;
  refresh();
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
  page.message = why || (start.kind !== "select" ? `No legal move starts on ${from}.` : out?.kind === "reset" ? `No legal move goes from ${from} to ${to}.` : "");
  if (out?.kind === "play") {
    play(page, out.move, refresh);
    return;
  }
  page.sel = out?.kind === "select" ? out.sel : start.kind === "select" ? start.sel : emptySelection;
  refresh();
}

async function play(page: Page, move: string, refresh: () => void): Promise<void> {
  const g = page.game;
  const token = tokenFor(page);
  if (!g || !token) return;
  page.busy = true;
  page.sel = emptySelection;
  refresh();
  try {
    const next = await request<Game>("POST", `/api/games/${page.id}/moves`, { move, ply: g.ply }, token);
    page.message = "";
    if (next.version > (page.game?.version ?? 0)) await show(page, next);
  } catch (e) {
    page.message = e instanceof ApiError ? e.message : `The move was not sent: ${(e as Error).message}`;
  }
  page.busy = false;
  refresh();
}

async function command(page: Page, path: string, body: unknown, refresh: () => void): Promise<void> {
  const token = tokenFor(page);
  if (!token) return;
  try {
    const next = await request<Game>("POST", `/api/games/${page.id}/${path}`, body, token);
    if (next.version > (page.game?.version ?? 0)) await show(page, next);
    page.message = "";
  } catch (e) {
    page.message = (e as Error).message;
  }
  refresh();
}

async function step(page: Page, ply: number, refresh: () => void): Promise<void> {
  const g = page.game;
  if (!g) return;
  const to = Math.max(0, Math.min(ply, g.ply));
  page.viewPly = to === g.ply ? null : to;
  page.sel = emptySelection;
  await show(page, g);
  refresh();
}

function render(page: Page, ui: UI, act: Actions): void {
  const g = page.game;
  ui.message.textContent = page.message;
  if (!g || !page.pos || !page.geo) return;
  const kingWord = g.game.startsWith("pommel") ? "captain" : "king";
  ui.title.textContent = `${g.game} ${page.id}`;
  document.title = `${g.game}: ${statusText(page)} (arbiter)`;
  const moves = g.legal.map(parseMove);
  const shownPly = page.viewPly ?? g.ply;
  const lastMove = shownPly > 0 ? parseMove(g.moves[shownPly - 1]).path : [];
  const letters = g.seats.map((s) => s.side[0].toLowerCase());
  drawBoard(ui.svg, page.geo, page.pos, { selected: [...page.sel.path, ...page.sel.drops], targets: targets(moves, page.sel), lastMove }, kingWord, act.cell, { pointer: true, letters });
  if (page.anim && page.viewPly === null && page.anim.path.length && page.pos.ply === g.ply) animateMove(ui.svg, page.geo, page.anim, letters);
  page.anim = null;
  ui.svg.setAttribute("aria-label", `${g.game} board, ${statusText(page)}`);
  ui.status.replaceChildren(...statusLines(page));
  renderChoices(page, ui, act, moves);
  ui.typed.hidden = actingSeat(page) < 0 || page.viewPly !== null;
  renderMoves(page, ui, act);
  renderControls(page, ui, act);
  renderLinks(page, ui);
}

function seatName(g: Game, seat: number): string {
  const s = g.seats[seat];
  const who = s.name || (s.player === "human" ? "" : s.player);
  return who ? `${s.side} (${who})` : s.side;
}

function statusText(page: Page): string {
  const g = page.game!;
  if (g.result) return g.description || (g.result.winners.length ? `${g.result.winners.map((w) => g.seats[w].side).join(" and ")} won: ${g.result.reason}` : `draw: ${g.result.reason}`);
  const mine = actingSeat(page) >= 0;
  return mine ? `Your move (${seatName(g, g.toMove)})` : `${seatName(g, g.toMove)} to move`;
}

function statusLines(page: Page): Node[] {
  const g = page.game!;
  const out: Node[] = [h("span", { class: g.result ? "result" : "turn" }, statusText(page))];
  const held = heldSeats(page).filter((s) => s < g.seats.length);
  out.push(h("span", { class: "you" }, held.length ? `You play ${held.map((s) => g.seats[s].side).join(" and ")}` : "You are watching"));
  if (page.pos?.scores) {
    out.push(h("span", { class: "scores" }, "Scores: " + page.pos.scores.map((s, i) => `${g.seats[i].side} ${s}`).join(", ")));
  }
  if (page.offline) out.push(h("span", { class: "offline" }, "Connection lost; reconnecting…"));
  if (g.attention) out.push(h("span", { class: "attention", role: "alert" }, g.attention.charAt(0).toUpperCase() + g.attention.slice(1) + "."));
  if (g.clock) {
    const clocks = h("span", { class: "clocks" }, `${g.clock.control}: `);
    g.clock.leftMs.forEach((_, i) => {
      if (i) clocks.append(" · ");
      clocks.append(h("span", { class: ticking(g, i) ? "clock running" : "clock", "data-seat": String(i) }, `${g.seats[i].side} ${clockText(clockLeft(page, i))}`));
    });
    out.push(clocks);
  }
  if (page.pos?.endRows) out.push(h("span", { class: "legend" }, "End rows are outlined in their player's colour; a boxed pile stands on its controller's end row: frozen, it scores."));
  if (page.viewPly !== null) out.push(h("span", { class: "history" }, `Showing the position after ${page.viewPly} of ${g.ply} moves`));
  return out.flatMap((n, i) => (i ? [h("br"), n] : [n]));
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

// tickClocks redraws the running clock; when it reaches zero it asks the
// server, which decides the flag fall, once.
function tickClocks(page: Page, ui: UI, refresh: () => void): void {
  const g = page.game;
  if (!g || !g.clock || g.result) return;
  const seat = g.toMove;
  const span = ui.status.querySelector(`.clock[data-seat="${seat}"]`);
  if (!span || !ticking(g, seat)) return;
  const left = clockLeft(page, seat);
  span.textContent = `${g.seats[seat].side} ${clockText(left)}`;
  if (left <= -300 && page.flagAsked !== g.version) {
    page.flagAsked = g.version;
    load(page, refresh);
  }
}

function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderChoices(page: Page, ui: UI, act: Actions, moves: ParsedMove[]): void {
  const list = choices(moves, page.sel);
  ui.choices.replaceChildren();
  if (list.length === 0) return;
  ui.choices.append(h("span", {}, list.length > 1 ? "Several moves match; play:" : "Play:"));
  for (const m of list.slice(0, 24)) {
    const b = h("button", { type: "button", class: "choice", "data-move": m.text }, m.text);
    b.addEventListener("click", () => act.play(m.text));
    ui.choices.append(b);
  }
}

function renderMoves(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  const shown = page.viewPly ?? g.ply;
  const nav = (label: string, to: number, name: string) => {
    const b = h("button", { type: "button", "aria-label": name }, label);
    b.addEventListener("click", () => act.step(to));
    return b;
  };
  ui.nav.replaceChildren(nav("«", 0, "start"), nav("‹", shown - 1, "back"), nav("›", shown + 1, "forward"), nav("»", g.ply, "last move"));
  ui.moves.replaceChildren(...g.moves.map((m, i) => {
    const li = h("li", { class: i === shown - 1 ? "move current" : "move" });
    const b = h("button", { type: "button" }, `${g.seats[i % g.seats.length].side[0]} ${m}`);
    b.addEventListener("click", () => act.step(i + 1));
    li.append(b);
    return li;
  }));
  ui.moves.lastElementChild?.scrollIntoView({ block: "nearest" });
}

function renderControls(page: Page, ui: UI, act: Actions): void {
  const g = page.game!;
  ui.controls.replaceChildren();
  const held = heldSeats(page);
  if (g.result || held.length === 0) return;
  const button = (label: string, cls: string, f: () => void) => {
    const b = h("button", { type: "button", class: cls }, label);
    b.addEventListener("click", f);
    ui.controls.append(b);
  };
  button("Resign", "resign", () => {
    if (confirm("Resign this game?")) act.command("resign", undefined);
  });
  if (g.seats.length !== 2) return;
  const mine = (s: number) => held.includes(s);
  if (g.drawOffer >= 0 && !mine(g.drawOffer)) {
    ui.controls.append(h("span", {}, `${g.seats[g.drawOffer].side} offers a draw.`));
    button("Accept draw", "accept", () => act.command("draw", { action: "accept" }));
    button("Decline", "decline", () => act.command("draw", { action: "decline" }));
  } else if (g.drawOffer >= 0) {
    ui.controls.append(h("span", {}, "You offered a draw."));
  } else {
    button("Offer draw", "offer", () => act.command("draw", { action: "offer" }));
  }
}

// analysisLink opens the game's moves, with its options, on the analysis
// page.
function analysisLink(g: Game): string {
  const q = new URLSearchParams();
  if (g.moves.length) q.set("moves", g.moves.join(" "));
  const options = Object.entries(g.options ?? {}).map(([k, v]) => `${k}=${v}`).join(",");
  if (options) q.set("options", options);
  const text = q.toString();
  return `/analysis/${g.game}` + (text ? "?" + text : "");
}

function renderLinks(page: Page, ui: UI): void {
  const g = page.game!;
  const invites = store.invites(page.id);
  const rows: Node[] = [];
  for (const s of g.seats) {
    const url = invites[s.seat];
    if (!url || store.tokens(page.id)[s.seat]) continue;
    const full = location.origin + url;
    rows.push(h("p", { class: "invite" }, `Invite for ${s.side}: `, h("input", { readonly: "", value: full, "data-seat": String(s.seat), "aria-label": `invite link for ${s.side}` }), copyButton(full)));
  }
  const spectate = location.origin + g.url;
  rows.push(h("p", {}, "Spectators: ", h("input", { readonly: "", value: spectate, "aria-label": "spectator link" }), copyButton(spectate)));
  rows.push(h("p", {}, h("a", { href: `/api/games/${page.id}/record`, download: `${g.game}-${page.id}.pdn` }, "Download the record")));
  rows.push(h("p", {}, h("a", { href: analysisLink(g), class: "analyse" }, "Analyse this game"), " · ",
    h("a", { href: `/rules/${g.game}`, class: "rules" }, `Rules of ${g.game}`)));
  ui.links.replaceChildren(...rows);
}
