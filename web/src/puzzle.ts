// The puzzles: /puzzles lists the games that have puzzles, with the
// player's puzzle rating in each; /puzzles/{game} is the trainer. A puzzle
// is a position and a line (the solver's move, the reply, the solver's
// move, …): the player enters the solver's moves on the board as in a
// game, the page plays the replies, and the first try of each puzzle
// counts for the player's puzzle rating. The position after each move
// comes from the analysis API, which also lists the legal moves, so the
// page knows no rules. A visitor's rating is kept in this browser.

import { request, type CatalogGame, type Geometry, type Position } from "./api";
import { clearArrows, drawArrows } from "./arrows";
import { attachPointer, drawBoard } from "./board";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { t, tn, tParts } from "./i18n";
import { choices, click, emptySelection, parseMove, targets, type ParsedMove, type Selection } from "./entry";
import { me } from "./players";
import { firstGame } from "./quickplay";
import { kingName, sideName } from "./words";

// GameEntry is one game of GET /api/puzzles.
interface GameEntry {
  game: string;
  name: string;
  count: number;
  themes: { theme: string; count: number }[];
  rating: { rating: number; rd: number; provisional: boolean; attempts: number } | null;
}

// Puzzle is GET /api/puzzles/{game}.
interface Puzzle {
  id: string;
  game: string;
  fen: string;
  solution: string[];
  themes: string[];
  rating: number;
  plays: number;
  source: string;
  sourceGame: string;
  ply: number;
  table: string;
  player: { rating: number; rd: number; provisional: boolean } | null;
}

// Outcome is POST /api/puzzles/{id}/attempt.
interface Outcome {
  rating: number;
  rd: number;
  volatility: number;
  change: number;
  provisional: boolean;
  rated: boolean;
  puzzle: { id: string; rating: number };
}

// Analysed is the part of GET /api/analysis/{game} the trainer uses.
interface Analysed {
  board: string;
  fen: string;
  legal: string[];
  toMove: number;
  stacks: Record<string, string>;
  scores?: number[];
}

// Kept is a visitor's rating, as this browser keeps it per game.
interface Kept {
  rating: number;
  rd: number;
  volatility: number;
  provisional?: boolean;
}

// replyMs is how long the page waits before it plays the reply, so that
// the player sees their move land first.
const replyMs = 600;

export function puzzlesPage(root: HTMLElement): void {
  const game = decodeURIComponent(location.pathname.split("/")[2] ?? "");
  if (game) void trainerPage(root, game);
  else void listPage(root);
}

// The browser's memory: a visitor's rating and the best streak, per game.
function load<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null") as T | null;
  } catch {
    return null; // storage blocked or its entry spoiled
  }
}

function save(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage blocked: remembered for this visit only.
  }
}

const ratingKey = (game: string) => `arbiter.puzzles.rating.${game}`;
const streakKey = (game: string) => `arbiter.puzzles.streak.${game}`;

function keptRating(game: string): Kept | null {
  const k = load<Kept>(ratingKey(game));
  return k && typeof k.rating === "number" && typeof k.rd === "number" && typeof k.volatility === "number" ? k : null;
}

function bestStreak(game: string): number {
  const n = load<number>(streakKey(game));
  return typeof n === "number" && n > 0 ? n : 0;
}

function signed(n: number): string {
  const r = Math.round(n);
  return r >= 0 ? `+${r}` : `−${-r}`;
}

function ratingWords(rating: number, provisional: boolean): string {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}

// themeLabel is a theme's id in words: "multiJump" is "multi-jump".
export function themeLabel(theme: string): string {
  switch (theme) {
    case "leap": return t("puzzle.theme.leap");
    case "multiJump": return t("puzzle.theme.multi_jump");
    case "captain": return t("puzzle.theme.captain");
    case "king": return t("puzzle.theme.king");
    case "promotion": return t("puzzle.theme.promotion");
    case "sandwich": return t("puzzle.theme.sandwich");
    case "drop": return t("puzzle.theme.drop");
    case "takeover": return t("puzzle.theme.takeover");
    case "tempo": return t("puzzle.theme.tempo");
    case "endgame": return t("puzzle.theme.endgame");
    case "oneMove": return t("puzzle.theme.one_move");
    case "short": return t("puzzle.theme.short");
    case "long": return t("puzzle.theme.long");
    case "veryLong": return t("puzzle.theme.very_long");
  }
  return theme.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

// listPage is /puzzles: a card per game.
async function listPage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  const list = h("ul", { class: "puzzle-games" });
  root.replaceChildren(siteHeader(h("h1", {}, t("puzzle.title"))),
    h("main", { class: "puzzle-list" },
      h("p", { class: "lead" }, t("puzzle.lead")),
      message, list));
  document.title = t("shell.puzzles.title");
  try {
    const [all, who] = await Promise.all([request<{ games: GameEntry[] }>("GET", "/api/puzzles"), me()]);
    // Pommel first, the game the site was made for, as on the home page.
    const games = [...all.games].sort((a, b) => Number(b.game === firstGame) - Number(a.game === firstGame));
    list.replaceChildren(...games.map((g) => gameCard(g, who !== null)));
  } catch (e) {
    message.textContent = (e as Error).message;
  }
}

function gameCard(g: GameEntry, signedIn: boolean): HTMLElement {
  const href = `/puzzles/${encodeURIComponent(g.game)}`;
  const themes = [...g.themes].sort((a, b) => b.count - a.count).slice(0, 4);
  return h("li", { class: "puzzle-game", "data-game": g.game },
    h("h2", {}, g.count > 0 ? h("a", { href }, g.name) : g.name),
    h("p", { class: "count" }, tn("puzzle.count", g.count)),
    h("p", { class: "your-rating" }, ...cardRating(g, signedIn)),
    ...(themes.length ? [h("p", { class: "themes" }, t("puzzle.themes") + " ", ...themes.flatMap((th, i) =>
      [...(i ? [", "] : []), h("a", { href: `${href}?theme=${encodeURIComponent(th.theme)}` }, themeLabel(th.theme))]))] : []),
    ...(g.count > 0 ? [h("p", { class: "card-actions" },
      h("a", { href, class: "button primary start" }, t("puzzle.solve"), h("span", { class: "sr-only" }, " " + t("puzzle.solve_sr", { Game: g.name }))),
      h("a", { href: `${href}?mode=streak`, class: "button" }, t("puzzle.streak"), h("span", { class: "sr-only" }, " " + t("puzzle.streak_sr", { Game: g.name }))))] : []));
}

function cardRating(g: GameEntry, signedIn: boolean): (Node | string)[] {
  const kept = signedIn ? null : keptRating(g.game);
  const r = g.rating ?? (kept ? { rating: kept.rating, provisional: kept.provisional ?? true } : null);
  if (!r) return [t("puzzle.your_rating") + " ", h("span", { class: "rating" }, t("puzzle.unrated"))];
  return [t("puzzle.your_rating") + " ", h("strong", { class: "rating" }, ratingWords(r.rating, r.provisional))];
}

// Phase is where the player is in a puzzle.
type Phase = "loading" | "solving" | "replying" | "wrong" | "solved" | "shown" | "failed";

interface State {
  game: string;
  name: string;
  seats: string[];
  players: number;
  king: string;
  signedIn: boolean;
  theme: string;
  streakMode: boolean;
  streak: number; // puzzles solved in a row in this streak
  streakOver: boolean;
  askId: string; // the puzzle the address asked for, once
  puzzle: Puzzle | null;
  solver: number; // the seat the player plays
  geo: Geometry | null;
  pos: Analysed | null;
  played: string[]; // the moves of the solution on the board
  wrongMove: string; // the wrong move on the board, "" for none
  refutation: string; // the engine's answer to the wrong move, "" until it comes
  sel: Selection;
  phase: Phase;
  busy: boolean; // a move of the player's is being played
  mistake: boolean; // a wrong move was played in this puzzle
  attempt: Promise<Outcome | null> | null; // the first try, sent once per puzzle
  outcome: Outcome | null;
  rating: { rating: number; provisional: boolean } | null; // the player's, as last known
  loads: number; // counts the puzzles loaded, so that a late answer is dropped
  ui: UI;
}

interface UI {
  svg: SVGSVGElement;
  badge: HTMLElement;
  prompt: HTMLElement;
  live: HTMLElement;
  choices: HTMLElement;
  retry: HTMLButtonElement;
  solution: HTMLButtonElement;
  next: HTMLButtonElement;
  rating: HTMLElement;
  streak: HTMLElement;
  streakToggle: HTMLButtonElement;
  themes: HTMLSelectElement;
  info: HTMLElement;
}

// trainerPage is /puzzles/{game}?id=&theme=&mode=streak.
async function trainerPage(root: HTMLElement, game: string): Promise<void> {
  const q = new URLSearchParams(location.search);
  const ui = layout(root, game);
  const st: State = {
    game, name: game, seats: [], players: 2, king: kingName(game), signedIn: false,
    theme: q.get("theme") ?? "", streakMode: q.get("mode") === "streak", streak: 0, streakOver: false, askId: q.get("id") ?? "",
    puzzle: null, solver: 0, geo: null, pos: null, played: [], wrongMove: "", refutation: "", sel: emptySelection, phase: "loading", busy: false,
    mistake: false, attempt: null, outcome: null, rating: null, loads: 0, ui,
  };
  wire(st);
  await Promise.all([readCatalog(st), readThemes(st), me().then((who) => { st.signedIn = who !== null; })]);
  if (!st.signedIn) {
    const kept = keptRating(game);
    st.rating = kept ? { rating: kept.rating, provisional: kept.provisional ?? true } : null;
  }
  nameGame(st);
  await nextPuzzle(st);
}

function layout(root: HTMLElement, game: string): UI {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const ui: UI = {
    svg,
    badge: h("div", { class: "puzzle-badge", hidden: "" }),
    prompt: h("p", { class: "prompt" }),
    live: h("p", { class: "puzzle-live", role: "status", "aria-live": "polite" }),
    choices: h("div", { class: "choices" }),
    retry: h("button", { type: "button", class: "retry" }, t("puzzle.retry")),
    solution: h("button", { type: "button", class: "see-solution" }, t("puzzle.see_solution")),
    next: h("button", { type: "button", class: "next-puzzle" }, t("puzzle.next")),
    rating: h("p", { class: "your-rating" }),
    streak: h("p", { class: "streak" }),
    streakToggle: h("button", { type: "button", class: "streak-toggle", "aria-pressed": "false" }, t("puzzle.streak_mode")),
    themes: h("select", { id: "puzzle-theme" }, h("option", { value: "" }, t("puzzle.all_themes"))),
    info: h("section", { class: "puzzle-info", "aria-label": t("puzzle.about") }),
  };
  // The bar over the board says what to do, then the verdict: where the
  // eye is, covering none of the board.
  const boardBox = h("div", { class: "board-box" }, h("div", { class: "puzzle-bar" }, ui.prompt, ui.badge));
  boardBox.append(svg);
  root.replaceChildren(
    siteHeader(h("h1", {}, t("puzzle.game_title", { Game: game })), h("a", { href: "/puzzles", class: "all-puzzles" }, t("puzzle.all"))),
    h("main", { class: "puzzle" }, boardBox,
      // Under the board on a phone: what to do, what happened and the
      // buttons stay within the thumb's reach of the board.
      h("section", { class: "puzzle-play", "aria-label": t("puzzle.the_puzzle") },
        ui.live, ui.choices,
        h("div", { class: "puzzle-buttons" }, ui.retry, ui.solution, ui.next),
        ui.rating, ui.streak, ui.info,
        h("div", { class: "puzzle-options" },
          h("label", { for: "puzzle-theme" }, t("puzzle.theme_label") + " "), ui.themes, " ", ui.streakToggle),
        h("p", {}, h("a", { href: "/puzzles" }, t("puzzle.all_games"))))));
  return ui;
}

function wire(st: State): void {
  const ui = st.ui;
  attachPointer(ui.svg, { tap: (cell) => onCell(st, cell), drag: (from, to) => onDrag(st, from, to) });
  ui.retry.addEventListener("click", () => void retry(st));
  ui.solution.addEventListener("click", () => void showSolution(st));
  ui.next.addEventListener("click", () => void nextPuzzle(st));
  ui.themes.addEventListener("change", () => {
    st.theme = ui.themes.value;
    void nextPuzzle(st);
  });
  ui.streakToggle.addEventListener("click", () => {
    st.streakMode = !st.streakMode;
    st.streak = 0;
    st.streakOver = false;
    void nextPuzzle(st);
  });
}

// readCatalog learns the game's name and its seats' names.
async function readCatalog(st: State): Promise<void> {
  try {
    const entry = (await request<CatalogGame[]>("GET", "/api/catalog")).find((c) => c.id === st.game);
    if (!entry) return;
    st.name = entry.name;
    st.seats = entry.seats;
    st.players = entry.players;
  } catch {
    // The page reads as well with the game's id for its name.
  }
}

// readThemes fills the themes' list, and the signed-in player's rating.
async function readThemes(st: State): Promise<void> {
  try {
    const entry = (await request<{ games: GameEntry[] }>("GET", "/api/puzzles")).games.find((g) => g.game === st.game);
    if (!entry) return;
    st.ui.themes.append(...entry.themes.map((th) => h("option", { value: th.theme }, `${themeLabel(th.theme)} (${th.count})`)));
    st.ui.themes.value = st.theme;
    if (entry.rating) st.rating = { rating: entry.rating.rating, provisional: entry.rating.provisional };
  } catch {
    // Without the list the page offers all themes only.
  }
}

function nameGame(st: State): void {
  // On a phone the header has room for the game's name alone.
  document.querySelector("header h1")?.replaceChildren(h("span", { class: "title-lead" }, t("puzzle.title_lead") + " "), st.name);
}

function seatName(st: State, seat: number): string {
  return st.seats[seat] !== undefined ? sideName(st.seats[seat]) : t("puzzle.seat", { Number: seat + 1 });
}

// puzzleQuery asks for the puzzle of the address first, then one that
// fits the theme, the player's rating, and the streak reached.
function puzzleQuery(st: State): string {
  const q = new URLSearchParams();
  if (st.askId) q.set("id", st.askId);
  if (st.theme) q.set("theme", st.theme);
  if (st.streakMode) q.set("streak", String(st.streak));
  else if (!st.signedIn && st.rating) q.set("rating", String(Math.round(st.rating.rating)));
  return q.toString();
}

// nextPuzzle loads a puzzle and sets its position up; a streak that ended
// starts again at 0.
async function nextPuzzle(st: State): Promise<void> {
  const loads = ++st.loads;
  if (st.streakOver) {
    st.streak = 0;
    st.streakOver = false;
  }
  Object.assign(st, { phase: "loading", busy: false, puzzle: null, played: [], wrongMove: "", refutation: "", sel: emptySelection, mistake: false, attempt: null, outcome: null });
  render(st);
  try {
    const query = puzzleQuery(st);
    st.askId = "";
    const p = await request<Puzzle>("GET", `/api/puzzles/${encodeURIComponent(st.game)}${query ? "?" + query : ""}`);
    const pos = await analyse(st.game, p.fen, []);
    if (loads !== st.loads) return;
    if (p.player) st.rating = { rating: p.player.rating, provisional: p.player.provisional };
    st.puzzle = p;
    st.pos = pos;
    st.solver = pos.toMove;
    await readBoard(st, pos.board);
    if (loads !== st.loads) return;
    st.phase = "solving";
    keepAddress(st);
    say(st, `${yourTurn(st)}.`);
  } catch (e) {
    if (loads !== st.loads) return;
    st.phase = "failed";
    say(st, (e as Error).message);
  }
  render(st);
}

// keepAddress puts the puzzle's id in the address, so that it can be
// shared or opened again; the mode and theme stay with it.
function keepAddress(st: State): void {
  const q = new URLSearchParams();
  if (st.puzzle) q.set("id", st.puzzle.id);
  if (st.theme) q.set("theme", st.theme);
  if (st.streakMode) q.set("mode", "streak");
  history.replaceState(null, "", `${location.pathname}?${q}`);
}

function analyse(game: string, fen: string, moves: string[]): Promise<Analysed> {
  const q = new URLSearchParams({ fen });
  if (moves.length) q.set("moves", moves.join(" "));
  return request<Analysed>("GET", `/api/analysis/${encodeURIComponent(game)}?${q}`);
}

// readBoard reads the board's geometry turned so that the solver plays
// up the screen, as the game page shows a player's own side at the bottom.
async function readBoard(st: State, board: string): Promise<void> {
  const turn = Math.round((360 * st.solver) / Math.max(2, st.players));
  if (st.geo && st.geo.board === board && st.geo.turn === turn) return;
  st.geo = await request<Geometry>("GET", `/api/boards/${encodeURIComponent(board)}?turn=${turn}`);
}

function yourTurn(st: State): string {
  return t("puzzle.your_turn", { Side: seatName(st, st.solver) });
}

// say writes the live region, which screen readers read out.
function say(st: State, text: string): void {
  st.ui.live.textContent = text;
  hideEcho(st);
}

// hideEcho keeps the live region for screen readers alone while it says
// what the bar over the board already shows.
function hideEcho(st: State): void {
  const ui = st.ui;
  ui.live.classList.toggle("sr-only", !ui.prompt.hidden && ui.live.textContent === ui.prompt.textContent);
}

// onCell is a click, tap or Enter on a cell: the next part of the move.
function onCell(st: State, cell: string): void {
  if (st.phase !== "solving" || !st.pos || st.busy) return;
  const out = click(st.pos.legal.map(parseMove), st.sel, cell);
  if (out.kind === "play") {
    void tryMove(st, out.move);
    return;
  }
  if (out.kind === "reset" && st.sel.path.length === 0) say(st, t("moves.none_from", { Cell: cell }));
  st.sel = out.sel;
  render(st);
}

// onDrag plays a piece dragged from one cell to another, as two clicks.
function onDrag(st: State, from: string, to: string): void {
  st.sel = emptySelection;
  onCell(st, from);
  if (st.sel.path.length > 0) onCell(st, to);
}

// sameMove compares moves by their cells, so that "a1-b2" and "a1xb2",
// or drops in another order, are the same move.
function sameMove(a: string, b: string): boolean {
  const pa = parseMove(a), pb = parseMove(b);
  return pa.path.join(" ") === pb.path.join(" ") && [...pa.drops].sort().join(" ") === [...pb.drops].sort().join(" ");
}

// tryMove judges the player's move against the solution; the board takes
// no other move until the page has played it and the replies.
async function tryMove(st: State, move: string): Promise<void> {
  if (!st.puzzle || st.busy) return;
  st.busy = true;
  try {
    await judge(st, st.puzzle, move);
  } catch (e) {
    say(st, (e as Error).message);
  } finally {
    st.busy = false;
  }
}

async function judge(st: State, p: Puzzle, move: string): Promise<void> {
  st.sel = emptySelection;
  const expected = p.solution[st.played.length];
  if (!sameMove(move, expected)) {
    await wrong(st, move);
    return;
  }
  const loads = st.loads;
  await advance(st, expected, t("puzzle.correct", { Move: move }));
  // The others' moves of the line, one after another (two in a game of
  // three), until the solver's turn comes back or the line ends.
  while (loads === st.loads && st.played.length < p.solution.length && st.pos?.toMove !== st.solver) await reply(st);
  if (loads !== st.loads || st.phase !== "solving") return;
  if (st.played.length >= p.solution.length) await solved(st);
  else say(st, `${st.ui.live.textContent} ${yourTurn(st)}.`);
}

// advance plays a move of the solution on the board.
async function advance(st: State, move: string, words: string): Promise<void> {
  const p = st.puzzle!;
  const loads = st.loads;
  const pos = await analyse(st.game, p.fen, [...st.played, move]);
  if (loads !== st.loads) return;
  st.played.push(move);
  st.pos = pos;
  say(st, words);
  render(st);
}

// reply plays the opponent's answer after a moment, then it is the
// player's turn again.
async function reply(st: State): Promise<void> {
  const p = st.puzzle!;
  const loads = st.loads;
  st.phase = "replying";
  render(st);
  await new Promise((done) => setTimeout(done, replyMs));
  if (loads !== st.loads) return;
  const move = p.solution[st.played.length];
  st.phase = "solving";
  await advance(st, move, t("puzzle.replies", { Side: seatName(st, st.pos?.toMove ?? 0), Move: move }));
}

// wrong shows the wrong move on the board, marked, and counts the first
// try as failed.
async function wrong(st: State, move: string): Promise<void> {
  const p = st.puzzle!;
  const loads = st.loads;
  try {
    const pos = await analyse(st.game, p.fen, [...st.played, move]);
    if (loads !== st.loads) return;
    st.pos = pos;
  } catch {
    // The move was legal; the board keeps the position before it.
  }
  st.wrongMove = move;
  st.phase = "wrong";
  st.mistake = true;
  if (st.streakMode) st.streakOver = true;
  say(st, t("puzzle.not_the_move", { Move: move }) + " " + (st.streakMode ? t("puzzle.streak_ends", { Count: st.streak }) : t("puzzle.retry_or")));
  render(st);
  void sendAttempt(st, false);
  void refute(st, move);
}

// refuteMillis is the engine's time for the answer to a wrong move: a
// short search finds the reply that shows why, and costs the analysis
// budget little.
const refuteMillis = 400;

// refute asks the engine for its answer to the wrong move and draws it
// as an arrow, announced: the reason the move is wrong. A refusal (the
// analysis budget spent, the game over after the move) shows nothing.
async function refute(st: State, move: string): Promise<void> {
  const p = st.puzzle!;
  const loads = st.loads;
  if (!st.pos || st.pos.legal.length === 0) return;
  const mover = seatName(st, st.pos.toMove);
  try {
    const best = await request<{ move: string }>("POST", `/api/analysis/${encodeURIComponent(st.game)}/best`,
      { fen: p.fen, moves: [...st.played, move], movetime: refuteMillis });
    if (loads !== st.loads || st.phase !== "wrong" || st.wrongMove !== move || !best.move) return;
    st.refutation = best.move;
    say(st, `${st.ui.live.textContent} ${t("puzzle.answers", { Side: mover, Move: best.move })}`);
    render(st);
  } catch {
    // No answer to show: the verdict stands without it.
  }
}

// retry takes the wrong move back: the player tries again, the first try
// already counted.
async function retry(st: State): Promise<void> {
  const p = st.puzzle;
  if (!p || st.phase !== "wrong") return;
  const loads = st.loads;
  const pos = await analyse(st.game, p.fen, st.played);
  if (loads !== st.loads) return;
  st.pos = pos;
  st.wrongMove = "";
  st.refutation = "";
  st.phase = "solving";
  say(st, `${yourTurn(st)}.`);
  render(st);
  st.ui.svg.querySelector<SVGElement>('[tabindex="0"]')?.focus({ preventScroll: true });
}

// showSolution plays the rest of the line from where the player got to,
// each move drawn as an arrow first; asking for it counts as a failure.
async function showSolution(st: State): Promise<void> {
  const p = st.puzzle;
  if (!p || st.busy || !(st.phase === "solving" || st.phase === "wrong")) return;
  const loads = st.loads;
  st.phase = "shown";
  st.wrongMove = "";
  st.refutation = "";
  if (st.streakMode) st.streakOver = true;
  st.pos = await analyse(st.game, p.fen, st.played);
  if (loads !== st.loads) return;
  void sendAttempt(st, false);
  render(st);
  while (st.played.length < p.solution.length && loads === st.loads) {
    const move = p.solution[st.played.length];
    const mover = seatName(st, st.pos.toMove);
    if (st.geo) drawArrows(st.ui.svg, st.geo, [move], Math.max(2, st.players));
    await new Promise((done) => setTimeout(done, replyMs));
    if (loads !== st.loads) return;
    const pos = await analyse(st.game, p.fen, [...st.played, move]);
    if (loads !== st.loads) return;
    st.played.push(move);
    st.pos = pos;
    say(st, `${mover} ${move}.`);
    render(st);
  }
  say(st, t("puzzle.the_solution", { Moves: p.solution.join(" ") }));
  render(st);
  focusNext(st);
}

// focusNext gives a keyboard player the way on when their focus was on
// the board, which takes no more moves, or on a button now hidden.
function focusNext(st: State): void {
  const a = document.activeElement;
  if (!a || a === document.body || st.ui.svg.contains(a) || a === st.ui.solution) st.ui.next.focus({ preventScroll: true });
}

// solved ends the puzzle solved; only a first try without a mistake
// counts as solved.
async function solved(st: State): Promise<void> {
  st.phase = "solved";
  if (!st.mistake && st.streakMode) {
    st.streak++;
    if (st.streak > bestStreak(st.game)) save(streakKey(st.game), st.streak);
  }
  say(st, st.mistake ? t("puzzle.solved_late") : t("puzzle.solved"));
  render(st);
  focusNext(st);
  const out = await sendAttempt(st, !st.mistake);
  if (out && !st.mistake) say(st, `${t("puzzle.solved")} ${resultWords(st, out)}`);
}

// counted says whether the attempt changed the player's rating: rated
// is an account's stored rating changing, but a visitor's changes too
// (in this browser), and rated is false for it.
function counted(o: Outcome): boolean {
  return o.rated || o.change !== 0;
}

function resultWords(st: State, o: Outcome): string {
  const stays = t("puzzle.stays", { Rating: ratingWords(o.rating, o.provisional) });
  if (counted(o)) return t("puzzle.new_rating", { Rating: ratingWords(o.rating, o.provisional), Change: signed(o.change) });
  return st.streakMode ? t("puzzle.streak_unrated", { Stays: stays }) : t("puzzle.tried_before", { Stays: stays });
}

// sendAttempt counts the first try of the puzzle, once: a visitor sends
// the rating this browser keeps and keeps the new one.
function sendAttempt(st: State, solved: boolean): Promise<Outcome | null> {
  if (st.attempt) return st.attempt;
  const p = st.puzzle!;
  const loads = st.loads;
  const body: Record<string, unknown> = { solved, mode: st.streakMode ? "streak" : "rated" };
  const kept = st.signedIn ? null : keptRating(st.game);
  if (kept) body.rating = { rating: kept.rating, rd: kept.rd, volatility: kept.volatility };
  st.attempt = request<Outcome>("POST", `/api/puzzles/${encodeURIComponent(p.id)}/attempt`, body).then((o) => {
    if (!st.signedIn && counted(o)) save(ratingKey(st.game), { rating: o.rating, rd: o.rd, volatility: o.volatility, provisional: o.provisional });
    if (loads !== st.loads) return o;
    st.outcome = o;
    st.rating = { rating: o.rating, provisional: o.provisional };
    if (!solved) say(st, `${st.ui.live.textContent} ${resultWords(st, o)}`);
    render(st);
    return o;
  }, (e: Error) => {
    if (loads === st.loads) say(st, t("puzzle.not_counted", { Why: e.message }));
    return null;
  });
  return st.attempt;
}

function render(st: State): void {
  renderBoard(st);
  renderBadge(st);
  renderControls(st);
  renderStanding(st);
  renderInfo(st);
  document.title = t("puzzle.window_title", { Game: st.name });
}

function renderBoard(st: State): void {
  const ui = st.ui;
  if (!st.geo || !st.pos) return;
  const pos: Position = { board: st.pos.board, ply: st.played.length, toMove: st.pos.toMove, stacks: st.pos.stacks, scores: st.pos.scores };
  const moves = st.phase === "solving" ? st.pos.legal.map(parseMove) : [];
  const last = st.wrongMove || st.played[st.played.length - 1] || "";
  drawBoard(ui.svg, st.geo, pos, { selected: [...st.sel.path, ...st.sel.drops], targets: targets(moves, st.sel), lastMove: last ? parseMove(last).path : [] },
    st.king, (cell) => onCell(st, cell), { pointer: true });
  if (st.phase === "wrong" && st.refutation) drawArrows(ui.svg, st.geo, [st.refutation], Math.max(2, st.players));
  else if (st.phase !== "shown") clearArrows(ui.svg);
  ui.svg.dataset.phase = st.phase;
  ui.svg.dataset.refutation = st.refutation;
  ui.svg.dataset.played = String(st.played.length);
  ui.svg.setAttribute("aria-label", t("puzzle.board_label", { Game: st.name, Side: seatName(st, st.pos.toMove) }));
  ui.choices.replaceChildren(...choiceButtons(st, moves));
}

// choiceButtons offer the moves the clicks so far complete, when several.
function choiceButtons(st: State, moves: ParsedMove[]): Node[] {
  const list = choices(moves, st.sel);
  if (list.length === 0) return [];
  return [h("span", {}, list.length > 1 ? t("moves.several") : t("moves.play")), ...list.slice(0, 24).map((m) => {
    const b = h("button", { type: "button", class: "choice", "data-move": m.text }, m.text);
    b.addEventListener("click", () => void tryMove(st, m.text));
    return b;
  })];
}

// renderBadge shows the verdict over the board: solved or not, and the
// rating's change once the server counted the try.
function renderBadge(st: State): void {
  const b = st.ui.badge;
  const o = st.outcome;
  const done = st.phase === "solved" || st.phase === "wrong" || st.phase === "shown";
  b.hidden = !done;
  if (!done) return;
  const ok = st.phase === "solved" && !st.mistake;
  b.className = `puzzle-badge ${ok ? "good" : "bad"}`;
  const head = st.phase === "solved" ? (st.mistake ? t("puzzle.badge_solved") : t("puzzle.solved")) : st.phase === "wrong" ? t("puzzle.badge_wrong") : t("puzzle.badge_solution");
  const change = o && counted(o) && o.puzzle.id === st.puzzle?.id ? [" ", h("span", { class: "change" }, signed(o.change))] : [];
  b.replaceChildren(h("strong", {}, head), ...change);
  b.setAttribute("aria-hidden", "true"); // the live region says the same
}

function renderControls(st: State): void {
  const ui = st.ui;
  const p = st.puzzle;
  const over = st.phase === "solved" || st.phase === "shown";
  ui.prompt.textContent = !p ? (st.phase === "failed" ? t("puzzle.none") : t("puzzle.loading"))
    : over ? (st.phase === "solved" ? t("puzzle.prompt_solved") : t("puzzle.prompt_shown"))
      : st.phase === "replying" ? t("puzzle.replying", { Side: seatName(st, st.pos?.toMove ?? 0) })
        : st.phase === "wrong" ? t("puzzle.prompt_wrong") : `${yourTurn(st)}.`;
  ui.prompt.className = `prompt ${st.phase}`;
  ui.prompt.hidden = !ui.badge.hidden;
  hideEcho(st);
  ui.retry.hidden = st.phase !== "wrong" || (st.streakMode && st.streakOver);
  ui.solution.hidden = !(st.phase === "solving" || st.phase === "wrong") || !p;
  ui.next.hidden = !(over || st.phase === "failed" || (st.phase === "wrong" && st.streakMode));
  ui.next.textContent = st.streakMode && st.streakOver ? t("puzzle.new_streak") : t("puzzle.next");
  ui.next.classList.toggle("primary", !ui.next.hidden);
  ui.retry.classList.toggle("primary", !ui.retry.hidden);
  ui.streakToggle.setAttribute("aria-pressed", String(st.streakMode));
  ui.streakToggle.textContent = st.streakMode ? t("puzzle.streak_on") : t("puzzle.streak_off");
}

// renderStanding shows the player's rating and, in streak mode, the streak.
function renderStanding(st: State): void {
  const ui = st.ui;
  const r = st.rating;
  const o = st.outcome;
  const rated = o && counted(o) ? [" ", h("span", { class: o.change >= 0 ? "change up" : "change down" }, `(${signed(o.change)})`)] : [];
  ui.rating.replaceChildren(t("puzzle.rating_label") + " ", h("strong", { class: "rating" }, r ? ratingWords(r.rating, r.provisional) : t("puzzle.unrated")), ...rated,
    ...(st.signedIn ? [] : [h("span", { class: "kept" }, " " + t("puzzle.kept"))]));
  ui.streak.hidden = !st.streakMode;
  ui.streak.replaceChildren((st.streakOver ? t("puzzle.streak_over") : t("puzzle.streak_label")) + " ", h("strong", { class: "streak-count" }, String(st.streak)),
    ` · ${t("puzzle.best")} `, h("strong", { class: "best-streak" }, String(bestStreak(st.game))));
}

// renderInfo says what the puzzle was once it is done: its rating, its
// themes, and the ways to look at it further.
function renderInfo(st: State): void {
  const ui = st.ui;
  const p = st.puzzle;
  const done = p && (st.phase === "solved" || st.phase === "shown" || st.phase === "wrong");
  ui.info.hidden = !done;
  if (!done) {
    ui.info.replaceChildren();
    return;
  }
  const rating = st.outcome?.puzzle.id === p.id ? st.outcome.puzzle.rating : p.rating;
  const analyse = `/analysis/${encodeURIComponent(p.game)}?${new URLSearchParams({ fen: p.fen })}`;
  ui.info.replaceChildren(
    h("p", {}, t("puzzle.puzzle") + " ", h("strong", { class: "puzzle-rating" }, t("puzzle.rated", { Rating: String(Math.round(rating)) })), tn("puzzle.played", p.plays),
      ...(p.table ? [", ", h("span", { class: "table" }, t("puzzle.tables", { Table: p.table }))] : []), "."),
    ...(p.themes.length ? [h("p", { class: "puzzle-themes" }, t("puzzle.themes") + " ", p.themes.map(themeLabel).join(", "))] : []),
    h("p", { class: "puzzle-links" }, h("a", { href: analyse, class: "analyse" }, t("puzzle.analyse")),
      ...(p.sourceGame ? [" · ", h("a", { href: `/games/${encodeURIComponent(p.sourceGame)}`, class: "source-game" }, t("puzzle.from_game", { Game: p.sourceGame }))] : [])));
}
