// The computer review of a finished game on its page: the button that
// asks for it, its state while it waits on the queue, then the graph of
// the expected score move by move (a point clicked goes to that move),
// the counts and accuracy of each seat, the marks in the move list, and
// each marked move's better line as arrows on the board and on the
// analysis board (docs/review.md says what the figures mean).

import { ApiError, request } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import { sideName } from "./words";

export type Mark = "inaccuracy" | "mistake" | "blunder";

// ReviewMove is the review of one move: ply is the move's index in the
// game (the position before it is ply's), score the mover's evaluation
// before it, best the engine's move there and line its expected play
// (best first); winChance the mover's expected score with the best move
// and after the one played, drop the difference (loss the same in
// hundredths of a piece); forced when it was the only legal move.
export interface ReviewMove {
  ply: number;
  seat: number;
  move: string;
  score: number;
  best: string;
  line: string[];
  mark: Mark | null;
  winChance: number;
  after: number;
  drop: number;
  loss: number;
  forced?: boolean;
  exact?: string;
}

export interface MarkCounts {
  inaccuracy: number;
  mistake: number;
  blunder: number;
}

export interface Review {
  state: "queued" | "running" | "done" | "failed";
  moves: ReviewMove[];
  accuracy: number[];
  counts?: MarkCounts[];
  nodes?: number;
  error?: string;
}

// The symbols of the marks, as game records write them.
export const markSymbol: Record<Mark, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const plural: Record<Mark, string> = { inaccuracy: t("review.inaccuracies"), mistake: t("review.mistakes"), blunder: t("review.blunders") };
// markWord is a mark in words.
const markWord: Record<Mark, string> = { inaccuracy: t("review.inaccuracy"), mistake: t("review.mistake"), blunder: t("review.blunder") };

// ReviewState is what the page knows of its game's review: none asked
// (null review, asked false), asked and waiting, or done.
export interface ReviewState {
  review: Review | null;
  asked: boolean; // the page has read the review's state once
  error: string;
  polling: number; // the timer that reads it again, 0 for none
}

export const noReview = (): ReviewState => ({ review: null, asked: false, error: "", polling: 0 });

const pollEvery = 2000;

// readReview reads the game's review once; 404 is "nobody asked".
export async function readReview(id: string, st: ReviewState): Promise<void> {
  try {
    st.review = await request<Review>("GET", `/api/games/${id}/review`);
    st.error = "";
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") st.review = null;
    else st.error = e instanceof Error ? e.message : String(e);
  }
  st.asked = true;
}

// askReview asks for the review; the answer is its state.
export async function askReview(id: string, st: ReviewState): Promise<void> {
  try {
    st.review = await request<Review>("POST", `/api/games/${id}/review`, {});
    st.error = "";
  } catch (e) {
    st.error = e instanceof Error ? e.message : String(e);
  }
}

// keepPolling reads the review again every pollEvery while it waits on
// the queue, redrawing after each read; it stops once it is done.
export function keepPolling(id: string, st: ReviewState, redraw: () => void): void {
  const waiting = st.review !== null && (st.review.state === "queued" || st.review.state === "running");
  if (!waiting || st.polling) return;
  st.polling = window.setTimeout(async () => {
    st.polling = 0;
    await readReview(id, st);
    redraw();
    keepPolling(id, st, redraw);
  }, pollEvery);
}

// moveOf is the review of the move played from the position at ply,
// if it was reviewed.
export function moveOf(r: Review | null, ply: number): ReviewMove | undefined {
  return r?.state === "done" ? r.moves.find((m) => m.ply === ply) : undefined;
}

// markMoves writes each reviewed move's mark into the move list's
// buttons (whose data-ply is the position after the move): its symbol,
// its class for the colour, and its word for a screen reader.
export function markMoves(list: HTMLElement, r: Review | null): void {
  if (r?.state !== "done") return;
  for (const m of r.moves) {
    if (!m.mark) continue;
    const b = list.querySelector<HTMLElement>(`button.move[data-ply="${m.ply + 1}"]`);
    if (!b) continue;
    b.classList.add("marked", `mark-${m.mark}`);
    b.append(h("span", { class: "mark-symbol", "aria-hidden": "true" }, markSymbol[m.mark]));
    b.setAttribute("aria-label", `${b.getAttribute("aria-label") ?? m.move}, ${markWord[m.mark]}`);
  }
}

// PanelActions are what the panel's controls do on the page.
export interface PanelActions {
  ask: () => void;
  step: (ply: number) => void; // show the position after that many moves
  betterLine: (m: ReviewMove) => string; // the analysis board's link for m's better line
}

// reviewPanel is the review's section under the board for a finished
// game: the button, the state, or the review itself. shownPly is the
// position the board shows (moves played before it).
export function reviewPanel(st: ReviewState, seats: string[], shownPly: number, act: PanelActions, foldGraph: boolean): Node[] {
  const r = st.review;
  const error = st.error ? [h("p", { class: "review-error", role: "alert" }, st.error)] : [];
  if (!st.asked) return [];
  if (r === null) {
    const ask = h("button", { type: "button", class: "review-ask" }, t("review.ask"));
    ask.addEventListener("click", act.ask);
    return [ask, ...error];
  }
  if (r.state === "queued" || r.state === "running") {
    const text = r.state === "queued" ? t("review.queued") : t("review.running");
    return [h("p", { class: `review-state ${r.state}`, role: "status" }, text), ...error];
  }
  if (r.state === "failed") return [h("p", { class: "review-state failed", role: "status" }, t("review.failed", { Why: r.error ?? t("review.no_reason") }))];
  const graph = h("details", { class: "review-graph" }, h("summary", {}, t("review.graph")), evalGraph(r, seats, shownPly, act.step));
  if (!foldGraph) graph.setAttribute("open", "");
  return [h("h2", {}, t("review.title")), graph, seatSummary(r, seats), markList(r, seats, shownPly, act), ...error];
}

// seatSummary is each seat's accuracy and counts of marks.
function seatSummary(r: Review, seats: string[]): HTMLElement {
  const rows = seats.map((side, seat) => {
    const c = r.counts?.[seat] ?? { inaccuracy: 0, mistake: 0, blunder: 0 };
    const acc = r.accuracy[seat];
    return h("tr", { "data-seat": String(seat) }, h("th", { scope: "row" }, sideName(side)),
      h("td", { class: "accuracy" }, acc === undefined || acc === null ? "–" : `${Math.round(acc)}%`),
      h("td", { class: "mark-inaccuracy" }, String(c.inaccuracy)), h("td", { class: "mark-mistake" }, String(c.mistake)), h("td", { class: "mark-blunder" }, String(c.blunder)));
  });
  return h("table", { class: "review-seats" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("review.player")), h("th", { scope: "col" }, t("review.accuracy")),
      ...(["inaccuracy", "mistake", "blunder"] as Mark[]).map((m) => h("th", { scope: "col", class: `mark-${m}`, title: plural[m] },
        h("span", { class: "sr-only" }, `${plural[m]} `), markSymbol[m])))),
    h("tbody", {}, ...rows));
}

// markList lists the marked moves: each goes to its position, where the
// board shows the better move, and links its better line.
function markList(r: Review, seats: string[], shownPly: number, act: PanelActions): HTMLElement {
  const marked = r.moves.filter((m) => m.mark);
  if (marked.length === 0) return h("p", { class: "review-none" }, t("review.none"));
  const items = marked.map((m) => {
    const number = Math.floor(m.ply / seats.length) + 1;
    // A move is never broken across lines.
    const go = h("button", { type: "button", class: `review-go mark-${m.mark}`, "data-ply": String(m.ply), "data-best": m.best },
      `${number}. ${sideName(seats[m.seat] ?? "")} `, h("span", { class: "mv" }, `${m.move}${markSymbol[m.mark!]}`), ` ${markWord[m.mark!]}, ${t("review.better")} `, h("span", { class: "mv" }, m.best));
    if (m.ply === shownPly) go.setAttribute("aria-current", "step");
    go.addEventListener("click", () => act.step(m.ply));
    const parts: Node[] = [go];
    if (m.exact) parts.push(h("span", { class: "review-exact" }, ` ${m.exact}`));
    parts.push(document.createTextNode(" "), h("a", { href: act.betterLine(m), class: "review-line" }, t("review.show_line")));
    return h("li", {}, ...parts);
  });
  return h("ol", { class: "review-marks", "aria-label": t("review.marked") }, ...items);
}

const svgNS = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const e = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

// graphSeries are the points the graph draws: with two players the
// first seat's expected score before each move and after the last, so
// that one line tells the game; with three, each seat's own before its
// moves.
export function graphSeries(r: Review, players: number): { seat: number; points: { ply: number; value: number }[] }[] {
  if (players === 2) {
    const first = (m: ReviewMove, v: number) => (m.seat === 0 ? v : 1 - v);
    const points = r.moves.map((m) => ({ ply: m.ply, value: first(m, m.winChance) }));
    const last = r.moves[r.moves.length - 1];
    if (last) points.push({ ply: last.ply + 1, value: first(last, last.after) });
    return [{ seat: 0, points }];
  }
  return Array.from({ length: players }, (_, seat) => ({
    seat, points: r.moves.filter((m) => m.seat === seat).map((m) => ({ ply: m.ply, value: m.winChance })),
  }));
}

// evalGraph draws the expected score over the moves, 0 to 1, with a
// mark on each marked move and a column for each ply that a click (or a
// tap) sends to that position.
function evalGraph(r: Review, seats: string[], shownPly: number, step: (ply: number) => void): SVGSVGElement {
  const width = 600, height = 120;
  const plies = Math.max(1, r.moves.length);
  const x = (ply: number) => (ply / plies) * width;
  const y = (v: number) => (1 - Math.max(0, Math.min(1, v))) * height;
  const players = seats.length;
  const g = svg("svg", { class: "eval-graph", viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", role: "img",
    "aria-label": graphLabel(r, seats) });
  g.append(svg("line", { class: "half", x1: 0, x2: width, y1: y(0.5), y2: y(0.5) }));
  for (const s of graphSeries(r, players)) {
    if (s.points.length === 0) continue;
    const d = s.points.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
    if (players === 2) g.append(svg("path", { class: "area", d: `${d} L${x(s.points[s.points.length - 1].ply).toFixed(1)},${height} L0,${height} Z` }));
    g.append(svg("path", { class: `line seat-${s.seat}`, d, fill: "none" }));
  }
  for (const m of r.moves) {
    if (!m.mark) continue;
    const v = players === 2 ? (m.seat === 0 ? m.after : 1 - m.after) : m.after;
    g.append(svg("circle", { class: `dot mark-${m.mark}`, cx: x(m.ply + 1), cy: y(v), r: 4 }));
  }
  g.append(svg("line", { class: "shown", x1: x(shownPly), x2: x(shownPly), y1: 0, y2: height }));
  // One transparent column a position, so that any point of the graph
  // answers a click with the move nearest it.
  for (let ply = 0; ply <= r.moves.length; ply++) {
    const col = svg("rect", { class: "hit", x: x(ply) - width / plies / 2, y: 0, width: width / plies, height, "data-ply": ply });
    col.addEventListener("click", () => step(ply));
    g.append(col);
  }
  return g;
}

// graphLabel says in words what the graph shows.
function graphLabel(r: Review, seats: string[]): string {
  const marked = r.moves.filter((m) => m.mark).length;
  return t("review.graph_label", { Moves: r.moves.length, Score: seats.length === 2 ? t("review.graph_score", { Side: sideName(seats[0]) }) : "", Marked: marked });
}
