// The analysis page: /analysis/{game}?fen=...&moves=...&options=...
// Any position of a game (pasted as a FEN, or the start), its legal moves,
// lines played out by clicking and stepped back through, and the engine's
// best move on request, its score, depth and line shown as the search
// deepens. The server checks every position; the page keeps only the FEN
// it started from and the line of moves, in its address.

import { ApiError, request, type CatalogGame, type Geometry, type Position, type Result } from "./api";
import { drawBoard } from "./board";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { choices, click, emptySelection, parseMove, targets, type Selection } from "./entry";
import { setupControls, type SetupControls } from "./setup";
import { postEvents } from "./stream";

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
}

// Best is an event of POST /api/analysis/{game}/stream: "info" for each
// depth the search completes, "best" for its answer.
interface Best {
  move: string;
  score: number;
  scoreText: string;
  depth: number;
  nodes: number;
  line: string[];
  ms: number;
}

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
  edit: HTMLButtonElement;
  setupBox: HTMLElement;
}

export function analysisPage(root: HTMLElement): void {
  const q = new URLSearchParams(location.search);
  const st: State = {
    game: decodeURIComponent(location.pathname.split("/")[2] ?? ""), options: q.get("options") ?? "",
    fen: q.get("fen") ?? "", line: (q.get("moves") ?? "").split(/[\s,]+/).filter((m) => m !== ""),
    cursor: 0, pos: null, geo: null, sel: emptySelection, message: "", best: null, bestDone: false, search: null, stoppedAt: 0,
    seats: [], shown: 0, editing: false, setup: null, edits: Promise.resolve(),
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
  show(st, refresh).then(() => { ui.fen.value = st.fen; });
}

function layout(root: HTMLElement, st: State): UI {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: "FEN (empty: the start)" });
  const movetime = h("select", { id: "movetime" },
    ...[["500", "0.5 s"], ["1000", "1 s"], ["2000", "2 s"], ["5000", "5 s"]].map(([v, t]) => h("option", { value: v }, t)));
  movetime.value = "1000";
  const ui: UI = {
    svg, status: h("p", { class: "status", "aria-live": "polite" }), message: h("p", { class: "message", role: "alert" }),
    choices: h("div", { class: "choices" }), fen, nav: h("div", { class: "nav" }), line: h("ol", { class: "moves" }),
    legal: h("div", { class: "legal" }), ask: h("button", { type: "button", class: "ask" }, "Ask the engine"), movetime,
    stop: h("button", { type: "button", class: "stop" }, "Stop"),
    best: h("div", { class: "best", "aria-live": "polite" }),
    edit: h("button", { type: "button", class: "edit", "aria-pressed": "false" }, "Edit the position"), setupBox: h("div", { class: "setup-box" }),
  };
  const fenForm = h("form", { class: "fen" }, h("label", { for: "fen" }, "Position (FEN): "), fen,
    h("button", { type: "submit", class: "setup" }, "Set up"));
  const boardBox = h("div", { class: "board-box" });
  boardBox.append(svg);
  root.replaceChildren(
    siteHeader(h("h1", {}, `Analysis: ${st.game}`),
      h("a", { href: `/rules/${encodeURIComponent(st.game)}`, class: "rules" }, "Rules")),
    h("main", { class: "game" }, boardBox,
      h("aside", {}, ui.status, ui.message, ui.choices, fenForm, h("p", {}, ui.edit), ui.setupBox,
        h("h2", {}, "Engine"), h("p", {}, h("label", { for: "movetime" }, "Think for "), movetime, " ", ui.ask, " ", ui.stop), ui.best,
        h("h2", {}, "Line"), ui.nav, ui.line, h("h2", {}, "Legal moves"), ui.legal)),
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

// show reads the position at the cursor, the board's geometry the first
// time, and keeps the address in step so that it can be shared. Steps
// taken quickly (arrow keys held) read positions at once, and their
// answers may come back out of order: only the last one asked is shown.
async function show(st: State, refresh: () => void): Promise<void> {
  const shown = ++st.shown;
  try {
    const pos = await fetchPosition(st, st.line.slice(0, st.cursor));
    if (shown !== st.shown) return;
    if (!st.geo) {
      st.geo = await request<Geometry>("GET", `/api/boards/${pos.board}?turn=0`);
      const catalog = await request<CatalogGame[]>("GET", "/api/catalog");
      st.seats = catalog.find((c) => c.id === st.game)?.seats ?? [];
    }
    st.pos = pos;
    st.sel = emptySelection;
    stopSearch(st); // its line belongs to the position left
    st.best = null;
    st.message = "";
    history.replaceState(null, "", `${location.pathname}?${query(st, st.line)}`);
  } catch (e) {
    st.message = (e as Error).message;
  }
  refresh();
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
    st.message = `The game is over here: ${pos.description ?? pos.result.reason}.`;
    refresh();
    return;
  }
  const out = click(pos.legal.map(parseMove), st.sel, cell);
  st.message = "";
  if (out.kind === "play") {
    play(out.move);
    return;
  }
  if (out.kind === "reset" && st.sel.path.length === 0) st.message = `No legal move starts on ${cell}.`;
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
  const body = { fen: st.fen, moves: st.line.slice(0, st.cursor), options: optionMap(st.options), movetime };
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
  const promoted = st.game.startsWith("pommel") ? "captain" : st.game === "checkers-2011" ? "king" : "";
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
  const kingWord = st.game.startsWith("pommel") ? "captain" : "king";
  const moves = pos.legal.map(parseMove);
  const last = st.cursor > 0 ? parseMove(st.line[st.cursor - 1]).path : [];
  const shown: Position = { board: pos.board, ply: st.cursor, toMove: pos.toMove, stacks: pos.stacks, scores: pos.scores };
  drawBoard(ui.svg, st.geo, shown, { selected: [...st.sel.path, ...st.sel.drops], targets: targets(moves, st.sel), lastMove: last }, kingWord, onCell);
  const status = pos.result ? `Over: ${pos.description ?? pos.result.reason}` : `${st.seats[pos.toMove] ?? `Seat ${pos.toMove + 1}`} to move`;
  ui.svg.setAttribute("aria-label", `${st.game} analysis board, ${status}`);
  ui.status.replaceChildren(h("span", { class: pos.result ? "result" : "turn" }, status),
    ...(pos.scores ? [h("br"), h("span", { class: "scores" }, "Scores: " + pos.scores.map((sc, i) => `${st.seats[i] ?? i + 1} ${sc}`).join(", "))] : []));
  document.title = `${st.game} analysis (arbiter)`;
  ui.choices.replaceChildren(...choices(moves, st.sel).slice(0, 24).map((m) => button(m.text, "choice", () => play(m.text), m.text)));
  renderLine(st, ui, step);
  ui.legal.replaceChildren(...pos.legal.map((m) => button(m, "legal-move", () => play(m), m)));
  if (pos.legal.length === 0) ui.legal.append("none");
  ui.ask.disabled = st.search !== null || pos.legal.length === 0;
  ui.ask.textContent = st.search ? "Thinking…" : "Ask the engine";
  ui.stop.disabled = st.search === null;
  renderBest(st, ui, play);
  ui.edit.textContent = st.editing ? "Done setting up" : "Edit the position";
  ui.edit.setAttribute("aria-pressed", String(st.editing));
  ui.setupBox.hidden = !st.editing;
  if (st.setup) st.setup.toMove.value = String(pos.toMove);
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
  ui.nav.replaceChildren(nav("«", 0, "start"), nav("‹", st.cursor - 1, "back"), nav("›", st.cursor + 1, "forward"), nav("»", st.line.length, "end of the line"));
  ui.line.replaceChildren(...st.line.map((m, i) => {
    const li = h("li", { class: i === st.cursor - 1 ? "move current" : i >= st.cursor ? "move ahead" : "move" });
    li.append(button(m, "", () => step(i + 1)));
    return li;
  }));
}

// renderBest shows the search: while it runs the deepest line so far,
// then its answer, or where it was stopped. data-state says which.
function renderBest(st: State, ui: UI, play: (move: string) => void): void {
  const b = st.best;
  const state = st.search ? "thinking" : st.bestDone ? "done" : "stopped";
  if (!b) {
    ui.best.dataset.state = st.search ? state : "";
    ui.best.replaceChildren(...(st.search ? [h("p", {}, "Thinking…")] : []));
    return;
  }
  ui.best.dataset.state = state;
  const lead = { thinking: "Thinking: best so far ", done: "Best move ", stopped: "Stopped: best so far " }[state];
  ui.best.replaceChildren(
    h("p", {}, lead, h("strong", { class: "best-move" }, b.move), ", score ", h("span", { class: "score" }, b.scoreText),
      " (depth ", h("span", { class: "depth" }, String(b.depth)), `, ${b.nodes} nodes, ${(b.ms / 1000).toFixed(1)} s)`),
    h("p", { class: "pv" }, "Line: " + b.line.join(" ")),
    button(`Play ${b.move}`, "play-best", () => play(b.move)),
  );
}
