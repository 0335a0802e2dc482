// The analysis page: /analysis/{game}?fen=...&moves=...&options=...
// Any position of a game (pasted as a FEN, or the start), its legal moves,
// lines played out by clicking and stepped back through, and the engine's
// best move on request, its score, depth and line shown as the search
// deepens: the line drawn as arrows on the board, the score on a bar
// beside it, and up to five best moves listed. The server checks every
// position; the page keeps only the FEN it started from and the line of
// moves, in its address. When the server has endgame tables of the
// position (serve --tables), the page shows their exact value and a move
// that keeps it, above the engine.

import { ApiError, request, type CatalogGame, type Geometry, type Position, type Result } from "./api";
import { drawArrows } from "./arrows";
import { drawBoard } from "./board";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { fixed, t, tn } from "./i18n";
import { choices, click, emptySelection, parseMove, targets, type Selection } from "./entry";
import { evalBar, judge, type EvalBar, type Score } from "./evalbar";
import { setupControls, type SetupControls } from "./setup";
import { postEvents } from "./stream";
import { kingName, resultText, sideName } from "./words";

// Analysis is GET /api/analysis/{game}.
interface Analysis {
  game: string;
  fen: string;
  moves: string[];
  legal: string[];
  toMove: number;
  result: Result | null;
  description?: string;
  board: string;
  stacks: Record<string, string>;
  scores?: number[];
  stacking: boolean; // a cell may hold several pieces
  tables: Tables | null; // the endgame tables' answer, when they hold the position
}

// Tables is the exact value of a position for the side to move, from the
// server's endgame tables: a win in plies (the fastest), a loss in plies
// (the slowest) or a draw, and a move that keeps it.
interface Tables {
  value: "win" | "loss" | "draw";
  plies: number;
  move: string;
}

// Line is one of the best moves the engine lists, with its score and line.
interface Line extends Score {
  move: string;
  line: string[];
}

// Best is an event of POST /api/analysis/{game}/stream: "info" for each
// depth the search completes, "best" for its answer.
interface Best extends Line {
  depth: number;
  nodes: number;
  ms: number;
  lines?: Line[]; // the best moves asked for, best first
}

// maxLines is the most best moves the server lists.
const maxLines = 5;

interface State {
  game: string;
  options: string; // "key=value,key=value", as the API takes them
  fen: string; // the position the line starts from ("" for the start)
  line: string[];
  cursor: number; // how many moves of the line are played on the board
  pos: Analysis | null;
  geo: Geometry | null;
  sel: Selection;
  message: string;
  best: Best | null;
  bestDone: boolean; // best is the search's answer, not a depth on the way
  search: AbortController | null; // the search running, to stop it
  stoppedAt: number; // when a search was last stopped (Date.now())
  seats: string[]; // the seats' names, from the catalog
  shown: number; // counts calls of show, so that a stale position is dropped
  editing: boolean; // clicks on cells set the position up
  setup: SetupControls | null; // built when first needed, from the seats
  edits: Promise<void>; // the changes of the position set up, in order
  lines: number; // how many best moves to ask the engine for
  arrowLine: number; // which of the engine's lines the arrows draw
}

interface UI {
  svg: SVGSVGElement;
  status: HTMLElement;
  message: HTMLElement;
  choices: HTMLElement;
  fen: HTMLInputElement;
  nav: HTMLElement;
  line: HTMLOListElement;
  legal: HTMLElement;
  ask: HTMLButtonElement;
  stop: HTMLButtonElement;
  movetime: HTMLSelectElement;
  best: HTMLElement;
  tables: HTMLElement;
  edit: HTMLButtonElement;
  setupBox: HTMLElement;
  bar: EvalBar;
  linesAsked: HTMLSelectElement;
  lines: HTMLOListElement;
}

export function analysisPage(root: HTMLElement): void {
  const q = new URLSearchParams(location.search);
  const st: State = {
    game: decodeURIComponent(location.pathname.split("/")[2] ?? ""), options: q.get("options") ?? "",
    fen: q.get("fen") ?? "", line: (q.get("moves") ?? "").split(/[\s,]+/).filter((m) => m !== ""),
    cursor: 0, pos: null, geo: null, sel: emptySelection, message: "", best: null, bestDone: false, search: null, stoppedAt: 0,
    seats: [], shown: 0, editing: false, setup: null, edits: Promise.resolve(), lines: 1, arrowLine: 0,
  };
  st.cursor = st.line.length;
  const ui = layout(root, st);
  const refresh = () => render(st, ui, onCell, play, step);
  const onCell = (cell: string) => {
    if (st.editing) editCell(st, ui, cell, refresh);
    else clickCell(st, cell, refresh, play);
  };
  const play = (move: string) => {
    st.line = [...st.line.slice(0, st.cursor), move];
    st.cursor = st.line.length;
    show(st, refresh);
  };
  const step = (to: number) => {
    st.cursor = Math.max(0, Math.min(to, st.line.length));
    show(st, refresh);
  };
  ui.fen.form!.addEventListener("submit", (ev) => {
    ev.preventDefault();
    setUp(st, ui.fen.value.trim(), refresh);
  });
  ui.ask.addEventListener("click", () => ask(st, Number(ui.movetime.value), refresh));
  ui.linesAsked.addEventListener("change", () => { st.lines = Number(ui.linesAsked.value); });
  ui.lines.addEventListener("pointerleave", () => pointLine(st, ui, 0));
  ui.edit.addEventListener("click", () => {
    st.editing = !st.editing;
    st.sel = emptySelection;
    if (st.editing && !st.setup && st.pos) st.setup = buildSetup(st, ui, refresh);
    refresh();
  });
  ui.stop.addEventListener("click", () => {
    stopSearch(st);
    refresh();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.key === "ArrowLeft") step(st.cursor - 1);
    if (ev.key === "ArrowRight") step(st.cursor + 1);
  });
  void firstShow(st, ui, refresh);
}

// firstShow shows the position of the address. A FEN there that the
// game's parser refuses is said so, with the parser's reason, and the
// board shows the start instead, the FEN kept in its box to be corrected.
async function firstShow(st: State, ui: UI, refresh: () => void): Promise<void> {
  const err = await show(st, refresh);
  ui.fen.value = st.fen;
  if (!(err instanceof ApiError) || err.code !== "invalid" || st.fen === "" || st.pos) return;
  const bad = { fen: st.fen, line: st.line, cursor: st.cursor };
  Object.assign(st, { fen: "", line: [], cursor: 0 });
  if (await show(st, refresh)) {
    Object.assign(st, bad); // the options are refused too: show that
    return;
  }
  ui.fen.value = bad.fen;
  st.message = t("analysis.bad_fen", { Why: err.message });
  refresh();
}

function layout(root: HTMLElement, st: State): UI {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: t("analysis.fen_placeholder") });
  const movetime = h("select", { id: "movetime" },
    ...[500, 1000, 2000, 5000].map((ms) => h("option", { value: String(ms) }, t("analysis.seconds", { Seconds: ms / 1000 }))));
  movetime.value = "1000";
  const lines = h("select", { id: "lines" }, ...Array.from({ length: maxLines }, (_, i) => h("option", { value: String(i + 1) }, String(i + 1))));
  const ui: UI = {
    bar: evalBar(), linesAsked: lines, lines: h("ol", { class: "lines", "aria-label": t("analysis.lines_label") }),
    svg, status: h("p", { class: "status", "aria-live": "polite" }), message: h("p", { class: "message", role: "alert" }),
    choices: h("div", { class: "choices" }), fen, nav: h("div", { class: "nav" }), line: h("ol", { class: "moves" }),
    legal: h("div", { class: "legal" }), ask: h("button", { type: "button", class: "ask" }, t("analysis.ask")), movetime,
    stop: h("button", { type: "button", class: "stop" }, t("analysis.stop")),
    best: h("div", { class: "best", "aria-live": "polite" }),
    tables: h("section", { class: "tables", "aria-labelledby": "tables-title", "aria-live": "polite" }),
    edit: h("button", { type: "button", class: "edit", "aria-pressed": "false" }, t("analysis.edit")), setupBox: h("div", { class: "setup-box" }),
  };
  const fenForm = h("form", { class: "fen" }, h("label", { for: "fen" }, t("analysis.fen") + " "), fen,
    h("button", { type: "submit", class: "setup" }, t("analysis.set_up")));
  const boardBox = h("div", { class: "board-box" }, ui.bar.box);
  boardBox.append(svg);
  root.replaceChildren(
    siteHeader(h("h1", {}, t("analysis.title", { Game: st.game })),
      h("a", { href: `/rules/${encodeURIComponent(st.game)}`, class: "rules" }, t("analysis.rules"))),
    h("main", { class: "game analysis" }, boardBox,
      // The engine first under the board: on a phone "Ask the engine" and
      // its answer stay in reach of the arrows it draws.
      h("aside", {}, ui.status, ui.message, ui.choices,
        h("section", { class: "engine", "aria-labelledby": "engine-title" }, h("h2", { id: "engine-title" }, t("analysis.engine")),
          h("p", { class: "engine-controls" }, h("label", { for: "movetime" }, t("analysis.think") + " "), movetime, " ",
            h("label", { for: "lines" }, t("analysis.lines") + " "), lines, " ", ui.ask, " ", ui.stop),
          ui.best, ui.lines),
        ui.tables, fenForm, h("p", {}, ui.edit), ui.setupBox,
        h("h2", {}, t("analysis.line")), ui.nav, ui.line, h("h2", {}, t("analysis.legal")), ui.legal)),
  );
  return ui;
}

function query(st: State, moves: string[]): string {
  const q = new URLSearchParams();
  if (st.fen) q.set("fen", st.fen);
  if (moves.length) q.set("moves", moves.join(" "));
  if (st.options) q.set("options", st.options);
  return q.toString();
}

// fetchPosition asks the server for the position of fen and moves.
function fetchPosition(st: State, moves: string[]): Promise<Analysis> {
  return request<Analysis>("GET", `/api/analysis/${encodeURIComponent(st.game)}?${query(st, moves)}`);
}

// nameGame writes the game's name, once the catalog gave it, where the
// page first wrote its id.
function nameGame(name: string): void {
  const title = document.querySelector("header h1");
  if (title) title.textContent = t("analysis.title", { Game: name });
  const rules = document.querySelector("header a.rules");
  if (rules) rules.textContent = t("rules.title", { Game: name });
}

// show reads the position at the cursor, the board's geometry the first
// time, and keeps the address in step so that it can be shared. Steps
// taken quickly (arrow keys held) read positions at once, and their
// answers may come back out of order: only the last one asked is shown.
// It returns the error that kept the position from being shown.
async function show(st: State, refresh: () => void): Promise<Error | null> {
  const shown = ++st.shown;
  try {
    const pos = await fetchPosition(st, st.line.slice(0, st.cursor));
    if (shown !== st.shown) return null;
    if (!st.geo) {
      st.geo = await request<Geometry>("GET", `/api/boards/${pos.board}?turn=0`);
      const catalog = await request<CatalogGame[]>("GET", "/api/catalog");
      const entry = catalog.find((c) => c.id === st.game);
      st.seats = entry?.seats ?? [];
      if (entry?.name) nameGame(entry.name);
    }
    st.pos = pos;
    st.sel = emptySelection;
    stopSearch(st); // its line belongs to the position left
    st.best = null;
    st.message = "";
    history.replaceState(null, "", `${location.pathname}?${query(st, st.line)}`);
  } catch (e) {
    st.message = (e as Error).message;
    refresh();
    return e as Error;
  }
  refresh();
  return null;
}

// setUp checks a pasted FEN with the server before taking it: a refused
// one leaves the board as it was and shows the parser's message.
async function setUp(st: State, fen: string, refresh: () => void): Promise<void> {
  try {
    await fetchPosition({ ...st, fen }, []);
  } catch (e) {
    st.message = e instanceof ApiError ? e.message : (e as Error).message;
    refresh();
    return;
  }
  st.fen = fen;
  st.line = [];
  st.cursor = 0;
  await show(st, refresh);
}

function clickCell(st: State, cell: string, refresh: () => void, play: (move: string) => void): void {
  const pos = st.pos;
  if (!pos) return;
  if (pos.result) {
    st.message = t("analysis.over", { Result: ended(st, pos) });
    refresh();
    return;
  }
  const out = click(pos.legal.map(parseMove), st.sel, cell);
  st.message = "";
  if (out.kind === "play") {
    play(out.move);
    return;
  }
  if (out.kind === "reset" && st.sel.path.length === 0) st.message = t("moves.none_from", { Cell: cell });
  st.sel = out.sel;
  refresh();
}

// ask streams the engine's search of the position at the cursor: each
// completed depth replaces the one shown, until the answer or a stop.
async function ask(st: State, movetime: number, refresh: () => void): Promise<void> {
  if (!st.pos || st.search) return;
  const search = new AbortController();
  st.search = search;
  st.best = null;
  st.bestDone = false;
  st.message = "";
  refresh();
  st.arrowLine = 0;
  const body = { fen: st.fen, moves: st.line.slice(0, st.cursor), options: optionMap(st.options), movetime, lines: st.lines };
  const path = `/api/analysis/${encodeURIComponent(st.game)}/stream`;
  for (let attempt = 0; ; attempt++) {
    try {
      await postEvents(path, body, search.signal, (ev) => {
        if (st.search !== search) return;
        if (ev.name === "info" || ev.name === "best") {
          st.best = ev.data as Best;
          st.bestDone = ev.name === "best";
        } else if (ev.name === "error") {
          st.message = (ev.data as { error: { message: string } }).error.message;
        }
        refresh();
      });
    } catch (e) {
      // A search just stopped may still hold the client's one search on
      // the server for a moment: ask once more a little later.
      if (attempt === 0 && e instanceof ApiError && e.code === "rate_limited" && Date.now() - st.stoppedAt < 2000) {
        await new Promise((done) => setTimeout(done, 300));
        if (st.search === search) continue;
      }
      if (!search.signal.aborted) st.message = (e as Error).message;
    }
    break;
  }
  if (st.search === search) {
    st.search = null;
    refresh();
  }
}

// stopSearch stops the running search, keeping the last depth it showed.
function stopSearch(st: State): void {
  if (!st.search) return;
  st.search.abort();
  st.search = null;
  st.stoppedAt = Date.now();
}

// buildSetup makes the set-up controls for this game's seats.
function buildSetup(st: State, ui: UI, refresh: () => void): SetupControls {
  const promoted = st.game.startsWith("pommel") ? t("piece.captain") : st.game === "checkers-2011" ? t("piece.king") : "";
  const setup = setupControls(st.seats, promoted, st.pos?.stacking ?? false);
  setup.toMove.addEventListener("change", () => {
    const toMove = Number(setup.toMove.value); // the choice made now, before a queued change redraws the panel
    edit(st, ui, () => ({ toMove }), refresh);
  });
  setup.clear.addEventListener("click", () => edit(st, ui, () => ({ clear: true }), refresh));
  setup.start.addEventListener("click", () => setUp(st, "", refresh).then(() => { ui.fen.value = st.fen; }));
  ui.setupBox.replaceChildren(setup.panel);
  return setup;
}

// editCell puts the chosen piece on cell, or takes what is there off.
function editCell(st: State, ui: UI, cell: string, refresh: () => void): void {
  edit(st, ui, () => st.pos && st.setup ? { cell, stack: st.setup.stackAfter(st.pos.stacks[cell]) } : null, refresh);
}

// edit queues a change of the position set up: clicks come faster than
// the server answers, and each change must apply to the position the one
// before it made, so a change is worked out (by change) only when its
// turn comes.
function edit(st: State, ui: UI, change: () => Record<string, unknown> | null, refresh: () => void): void {
  st.edits = st.edits.then(() => {
    const c = change();
    return c ? editNow(st, ui, c, refresh) : undefined;
  });
}

// editNow has the server change the position shown and check it with the
// game's parser: the position set up starts a new line, and a refused
// one leaves the board as it was, with the parser's message.
async function editNow(st: State, ui: UI, change: Record<string, unknown>, refresh: () => void): Promise<void> {
  if (!st.pos) return;
  const shown = ++st.shown;
  try {
    const body = { fen: st.pos.fen, options: optionMap(st.options), ...change };
    const pos = await request<Analysis>("POST", `/api/analysis/${encodeURIComponent(st.game)}/edit`, body);
    if (shown !== st.shown) return;
    stopSearch(st);
    st.pos = pos;
    st.fen = pos.fen;
    st.line = [];
    st.cursor = 0;
    st.best = null;
    st.message = "";
    ui.fen.value = pos.fen;
    history.replaceState(null, "", `${location.pathname}?${query(st, st.line)}`);
  } catch (e) {
    st.message = (e as Error).message;
  }
  refresh();
}

function optionMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of text.split(",")) {
    const [k, ...v] = kv.split("=");
    if (k.trim()) out[k.trim()] = v.join("=").trim();
  }
  return out;
}

function render(st: State, ui: UI, onCell: (cell: string) => void, play: (move: string) => void, step: (to: number) => void): void {
  ui.message.textContent = st.message;
  const pos = st.pos;
  if (!pos || !st.geo) return;
  const kingWord = kingName(st.game);
  const moves = pos.legal.map(parseMove);
  const last = st.cursor > 0 ? parseMove(st.line[st.cursor - 1]).path : [];
  const shown: Position = { board: pos.board, ply: st.cursor, toMove: pos.toMove, stacks: pos.stacks, scores: pos.scores };
  drawBoard(ui.svg, st.geo, shown, { selected: [...st.sel.path, ...st.sel.drops], targets: targets(moves, st.sel), lastMove: last }, kingWord, onCell);
  drawLineArrows(st, ui);
  ui.bar.show(st.best, pos.toMove, st.seats);
  const status = pos.result ? t("analysis.status_over", { Result: ended(st, pos) }) : t("analysis.to_move", { Side: seatName(st, pos.toMove) });
  ui.svg.setAttribute("aria-label", t("analysis.board_label", { Game: st.game, Status: status }));
  ui.status.replaceChildren(h("span", { class: pos.result ? "result" : "turn" }, status),
    ...(pos.scores ? [h("br"), h("span", { class: "scores" }, t("analysis.scores") + " " + pos.scores.map((sc, i) => `${st.seats[i] ? sideName(st.seats[i]) : i + 1} ${sc}`).join(", "))] : []));
  document.title = t("analysis.window_title", { Game: st.game });
  ui.choices.replaceChildren(...choices(moves, st.sel).slice(0, 24).map((m) => button(m.text, "choice", () => play(m.text), m.text)));
  renderLine(st, ui, step);
  ui.legal.replaceChildren(...pos.legal.map((m) => button(m, "legal-move", () => play(m), m)));
  if (pos.legal.length === 0) ui.legal.append(t("analysis.no_legal"));
  ui.ask.disabled = st.search !== null || pos.legal.length === 0;
  ui.ask.textContent = st.search ? t("analysis.thinking") : t("analysis.ask");
  ui.stop.disabled = st.search === null;
  renderTables(st, ui, play);
  renderBest(st, ui, play);
  renderLines(st, ui, play);
  ui.edit.textContent = st.editing ? t("analysis.edit_done") : t("analysis.edit");
  ui.edit.setAttribute("aria-pressed", String(st.editing));
  ui.setupBox.hidden = !st.editing;
  if (st.setup) st.setup.toMove.value = String(pos.toMove);
}

// ended says how the game ended at pos, in the page's language.
function ended(st: State, pos: Analysis): string {
  return pos.result ? resultText({ winners: pos.result.winners, reason: pos.result.reason, sides: st.seats, description: pos.description }) : "";
}

// seatName is seat's side, or its number when the catalog has not said.
function seatName(st: State, seat: number): string {
  return st.seats[seat] !== undefined ? sideName(st.seats[seat]) : t("analysis.seat", { Number: seat + 1 });
}

function button(label: string, cls: string, f: () => void, move?: string): HTMLButtonElement {
  const b = h("button", { type: "button", class: cls }, label);
  if (move) b.dataset.move = move;
  b.addEventListener("click", f);
  return b;
}

function renderLine(st: State, ui: UI, step: (to: number) => void): void {
  const nav = (label: string, to: number, name: string) => {
    const b = button(label, "", () => step(to));
    b.setAttribute("aria-label", name);
    return b;
  };
  ui.nav.replaceChildren(nav("«", 0, t("analysis.nav.start")), nav("‹", st.cursor - 1, t("analysis.nav.back")), nav("›", st.cursor + 1, t("analysis.nav.forward")), nav("»", st.line.length, t("analysis.nav.end")));
  ui.line.replaceChildren(...st.line.map((m, i) => {
    const li = h("li", { class: i === st.cursor - 1 ? "move current" : i >= st.cursor ? "move ahead" : "move" });
    li.append(button(m, "", () => step(i + 1)));
    return li;
  }));
}

// tablesWords writes the tables' value for the side to move: "win in 7
// plies", "loss in 6 plies", "draw (tables)".
export function tablesWords(v: Tables): string {
  if (v.value === "draw") return t("analysis.tables.draw");
  return v.value === "win" ? tn("analysis.tables.win", v.plies) : tn("analysis.tables.loss", v.plies);
}

// renderTables shows what the endgame tables say of the position, when
// they hold it: its value for the side to move and the move that keeps it,
// which a button plays.
function renderTables(st: State, ui: UI, play: (move: string) => void): void {
  const v = st.pos?.tables;
  ui.tables.hidden = !v;
  if (!v || !st.pos) {
    ui.tables.replaceChildren();
    return;
  }
  const mover = seatName(st, st.pos.toMove);
  const why = { win: t("analysis.tables.fastest"), loss: t("analysis.tables.slowest"), draw: t("analysis.tables.keeping") }[v.value];
  ui.tables.dataset.value = v.value;
  const play1 = button(t("analysis.play", { Move: v.move }), "play-tables", () => play(v.move), v.move);
  ui.tables.replaceChildren(
    h("h2", { id: "tables-title" }, t("analysis.tables.title")),
    h("p", {}, t("analysis.tables.to_move", { Side: mover }) + " ", h("strong", { class: "tables-value" }, tablesWords(v))),
    h("p", { class: "tables-best" }, h("span", {}, t("analysis.best_move") + " ", h("strong", { class: "tables-move" }, v.move), `, ${why}`), play1),
  );
}

// renderBest shows the search: while it runs the deepest line so far,
// then its answer, or where it was stopped. data-state says which.
function renderBest(st: State, ui: UI, play: (move: string) => void): void {
  const b = st.best;
  const state = st.search ? "thinking" : st.bestDone ? "done" : "stopped";
  if (!b) {
    ui.best.dataset.state = st.search ? state : "";
    ui.best.replaceChildren(...(st.search ? [h("p", {}, t("analysis.thinking"))] : []));
    return;
  }
  ui.best.dataset.state = state;
  const lead = { thinking: t("analysis.best_so_far"), done: t("analysis.best_move"), stopped: t("analysis.stopped") }[state] + " ";
  const mover = st.pos?.toMove ?? 0;
  const score = h("span", { class: "score", "data-score-text": b.scoreText }, judge(b, mover, st.seats).short);
  score.title = judge(b, mover, st.seats).words;
  ui.best.replaceChildren(
    h("p", {}, lead, h("strong", { class: "best-move" }, b.move), ", ", score,
      ` (${t("analysis.depth")} `, h("span", { class: "depth" }, String(b.depth)), t("analysis.nodes", { Nodes: b.nodes, Seconds: fixed(b.ms / 1000, 1) })),
    h("p", { class: "pv" }, t("analysis.line_label") + " ", ...moveSpans(b.line)),
    button(t("analysis.play", { Move: b.move }), "play-best", () => play(b.move)),
  );
}

// moveSpans writes a line of moves, each in a span of its own that the
// style sheet keeps unbroken ("g4-g3", never "g4-" then "g3").
function moveSpans(line: string[]): (Node | string)[] {
  return line.flatMap((m, i) => [...(i ? [" "] : []), h("span", { class: "pv-move" }, m)]);
}

// drawLineArrows draws the line chosen in the list (the best unless one
// is pointed at) as arrows; before the engine is asked, the tables' move.
function drawLineArrows(st: State, ui: UI): void {
  const arrowed = st.best?.lines?.[st.arrowLine] ?? st.best;
  const tablesMove = st.pos?.tables ? [st.pos.tables.move] : [];
  if (st.geo) drawArrows(ui.svg, st.geo, arrowed?.line ?? tablesMove, Math.max(2, st.seats.length));
}

// pointLine draws the arrows of line i and marks it in the list, which is
// left as it is: rebuilt, it would lose the click that focused it.
function pointLine(st: State, ui: UI, i: number): void {
  if (st.arrowLine === i) return;
  st.arrowLine = i;
  drawLineArrows(st, ui);
  [...ui.lines.children].forEach((li, j) => li.classList.toggle("arrowed", j === i));
}

// renderLines lists the engine's best moves when it was asked for
// several: each with its score and line, its move a button that plays
// it; pointing at a line (or focusing its button) draws its arrows.
function renderLines(st: State, ui: UI, play: (move: string) => void): void {
  const lines = st.best?.lines ?? [];
  ui.lines.hidden = lines.length < 2;
  if (lines.length < 2) {
    ui.lines.replaceChildren();
    return;
  }
  const mover = st.pos?.toMove ?? 0;
  const point = (i: number) => () => pointLine(st, ui, i);
  ui.lines.replaceChildren(...lines.map((l, i) => {
    const j = judge(l, mover, st.seats);
    const play1 = button(l.move, "play-line", () => play(l.move), l.move);
    play1.setAttribute("aria-label", t("analysis.play_line", { Move: l.move, Words: j.words }));
    play1.addEventListener("focus", point(i));
    const li = h("li", { class: i === st.arrowLine ? "pv-line arrowed" : "pv-line", "data-move": l.move },
      play1, " ", h("span", { class: "line-score", title: j.words }, j.short), " ", h("span", { class: "line-moves" }, ...moveSpans(l.line.slice(1))));
    li.addEventListener("pointerenter", point(i));
    return li;
  }));
}
