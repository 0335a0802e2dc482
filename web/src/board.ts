// The board as SVG, drawn from the server's geometry with no case per
// board: one polygon per cell carrying data-cell and, when occupied,
// data-stack (the pieces bottom first, a letter each, upper case when
// promoted), then the pieces over it, which let clicks through.

import type { Effects, Geometry, Piece, Point, Position } from "./api";
import { t, tn } from "./i18n";
import { pieceName } from "./words";

const svgNS = "http://www.w3.org/2000/svg";

// sideNames names the seats by their letters, for screen readers.
const sideNames: Record<string, string> = { w: t("side.white"), b: t("side.black"), r: t("side.red") };

// shownPieces is how many pieces of a stack are drawn one above the other;
// a taller stack shows its top ones and its height, and its whole
// contents in a popup on hover or focus.
const shownPieces = 5;

// legMs is how long a move's animation takes per leg of its path, and
// moveMs the most a whole move takes: a long chain slides faster.
const legMs = 160;
const moveMs = 250;

export interface Marks {
  selected: string[]; // the cells clicked so far
  targets: Set<string>; // where a click may go next
  lastMove: string[]; // the cells of the last move's path
  path?: string[]; // the path of a move being built, drawn as a line
  taking?: string[]; // the cells whose pieces the move being built takes
  premove?: string[]; // the cells of the premove set (or being set): its piece and its landing
}

export interface BoardOptions {
  // pointer: the page handles pointers itself (attachPointer), so cells
  // take no click listener; Enter and Space still call onCell.
  pointer?: boolean;
  // letters are the seats' letters in turn order (Eximo seats Black
  // first); ["w", "b", "r"] when not given.
  letters?: string[];
  // still: the cells are not focusable (a diagram to read, not to play).
  still?: boolean;
  // inside: the coordinates are written small in a corner of the edge
  // cells, as lichess writes them, rather than beside the board, which
  // then has the room they took (insideCoords).
  inside?: boolean;
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function points(ps: Point[]): string {
  return ps.map((p) => `${p.x},${p.y}`).join(" ");
}

// inset shrinks an outline toward its centre by the factor f.
function inset(ps: Point[], c: Point, f: number): Point[] {
  return ps.map((p) => ({ x: c.x + (p.x - c.x) * f, y: c.y + (p.y - c.y) * f }));
}

// describeStack says a stack in words: "d1, White captain" or "c3, a stack of
// 3: Black, White, White king (top)".
export function describeStack(cell: string, stack: string | undefined, king: string): string {
  if (!stack) return t("board.empty", { Cell: cell });
  const names = [...stack].map((l) => pieceName(l, king));
  if (names.length === 1) return `${cell}, ${names[0]}`;
  return t("board.stack", { Cell: cell, Count: names.length, Pieces: names.join(", ") });
}

// endRowSeats maps each cell to the seats whose end row it is on.
function endRowSeats(pos: Position): Map<string, number[]> {
  const out = new Map<string, number[]>();
  (pos.endRows ?? []).forEach((cells, seat) => {
    for (const c of cells) out.set(c, [...(out.get(c) ?? []), seat]);
  });
  return out;
}

// drawBoard replaces the contents of svg with the board, its coordinates,
// the position and the marks; onCell is called with the clicked cell.
export function drawBoard(svg: SVGSVGElement, geo: Geometry, pos: Position, marks: Marks, king: string, onCell: (cell: string) => void, opts: BoardOptions = {}): void {
  const vb = opts.inside ? cellBounds(geo) : geo.viewBox;
  const letters = opts.letters ?? ["w", "b", "r"];
  svg.setAttribute("viewBox", `${vb.minX} ${vb.minY} ${vb.maxX - vb.minX} ${vb.maxY - vb.minY}`);
  svg.setAttribute("role", "group");
  // The cell that had the keyboard's focus keeps it through the redraw.
  const hadFocus = svg.contains(document.activeElement);
  const focusName = geo.cells.some((c) => c.name === svg.dataset.focus) ? svg.dataset.focus! : geo.cells[0]?.name;
  svg.replaceChildren();
  const cells = el("g", { class: "cells" });
  const rows = el("g", { class: "end-rows", "aria-hidden": "true" });
  const pieces = el("g", { class: "pieces", "aria-hidden": "true" });
  const popup = el("g", { class: "popup", "aria-hidden": "true" });
  const ring = el("g", { class: "focus-rings", "aria-hidden": "true" });
  const last = new Set(marks.lastMove);
  const ends = endRowSeats(pos);
  const frozen = new Set(pos.frozen ?? []);
  for (const c of geo.cells) {
    const stack = pos.stacks[c.name];
    const classes = ["cell"];
    if (last.has(c.name)) classes.push("last");
    if (marks.selected.includes(c.name)) classes.push("selected");
    if (marks.targets.has(c.name)) classes.push("target");
    if (marks.premove?.includes(c.name)) classes.push("premove");
    const seats = ends.get(c.name) ?? [];
    if (seats.length) classes.push("end-row", ...seats.map((s) => `end-row-${letters[s]}`));
    let label = describeStack(c.name, stack, king);
    if (seats.length) label += t("board.end_row", { Sides: seats.map((s) => sideNames[letters[s]]).join(` ${t("words.and_word")} `) });
    if (stack && frozen.has(c.name)) label += tn("board.frozen", stack.length);
    if (marks.taking?.includes(c.name)) label += t("board.taken");
    if (marks.premove?.includes(c.name)) label += t("board.premove");
    const poly = el("polygon", { points: points(c.outline), class: classes.join(" "), "data-cell": c.name, role: opts.still ? "img" : "button", "aria-label": label });
    if (!opts.still) poly.setAttribute("tabindex", c.name === focusName ? "0" : "-1");
    if (stack) poly.setAttribute("data-stack", stack);
    if (stack && frozen.has(c.name)) poly.setAttribute("data-frozen", "");
    if (!opts.pointer) poly.addEventListener("click", () => onCell(c.name));
    poly.addEventListener("keydown", (ev) => onCellKey(ev, svg, geo, c.name, onCell));
    poly.addEventListener("focus", () => {
      svg.dataset.focus = c.name;
      // The ring is drawn over the neighbours, which would hide its edge.
      if (poly.matches(":focus-visible")) ring.replaceChildren(el("polygon", { points: points(c.outline), class: "focus-ring" }));
    });
    poly.addEventListener("blur", () => ring.replaceChildren());
    if (stack && stack.length > shownPieces) {
      const title = el("title", {});
      title.textContent = describeStack(c.name, stack, king);
      poly.append(title);
      const show = () => showStack(popup, c.center, stack, vb);
      poly.addEventListener("focus", show);
      poly.addEventListener("pointerenter", show);
      poly.addEventListener("blur", () => popup.replaceChildren());
      poly.addEventListener("pointerleave", () => popup.replaceChildren());
    }
    cells.append(poly);
    seats.forEach((s, i) => {
      const line = points(inset(c.outline, c.center, 0.86 - 0.14 * i));
      // White's line is white, edged in dark to stand out on light cells.
      if (letters[s] === "w") rows.append(el("polygon", { points: line, class: "end-row-line side-w-edge" }));
      rows.append(el("polygon", { points: line, class: `end-row-line side-${letters[s]}` }));
    });
    if (stack) pieces.append(drawStack(c.center, stack, c.name, frozen.has(c.name)));
    if (marks.targets.has(c.name) && !stack) pieces.append(el("circle", { cx: c.center.x, cy: c.center.y, r: 0.12, class: "dot" }));
  }
  const labels = el("g", { class: "labels", "aria-hidden": "true" });
  const coords: { text: string; at: Point; cell?: string }[] = opts.inside ? insideCoords(geo) : geo.labels;
  for (const l of coords) {
    const t = el("text", { x: l.at.x, y: l.at.y, class: opts.inside ? "label coord" : "label" });
    if (l.cell) t.setAttribute("data-cell", l.cell);
    t.textContent = l.text;
    labels.append(t);
  }
  svg.append(cells, rows, pieces, drawPath(geo, marks), labels, ring, popup);
  if (hadFocus && focusName && !opts.still) svg.querySelector<SVGElement>(`[data-cell="${focusName}"]`)?.focus({ preventScroll: true });
}

// cellBounds is the rectangle round the cells alone, and a little room
// for their lines: the view of a board whose coordinates are inside.
function cellBounds(geo: Geometry): Geometry["viewBox"] {
  const ps = geo.cells.flatMap((c) => c.outline);
  const xs = ps.map((p) => p.x), ys = ps.map((p) => p.y);
  const m = 0.03;
  return { minX: Math.min(...xs) - m, minY: Math.min(...ys) - m, maxX: Math.max(...xs) + m, maxY: Math.max(...ys) + m };
}

// InsideCoord is a coordinate written inside the edge cell it stands in.
export interface InsideCoord {
  text: string;
  cell: string;
  at: Point;
}

// namesLine says whether a coordinate names the line cell lies on: its
// letters (a file, a column, a row) or its number.
function namesLine(cell: string, text: string): boolean {
  const parts = /^([a-z]+)(\d+)$/.exec(cell);
  return !!parts && (parts[1] === text || parts[2] === text);
}

// insideCoords moves the server's coordinates (beside the board, each
// level with the line it names) into the line's edge cell nearest to
// them, in the corner on the label's side: the cell's centre, most of the
// way out toward the label, then a little along the edge (the left of
// its outward side), so that a corner cell's two labels, which leave it
// by different sides, take different corners. A line labelled at both
// ends (a square board's files and ranks) is labelled once, at the end
// lowest and then leftmost on the screen, as in the board turned too.
export function insideCoords(geo: Geometry): InsideCoord[] {
  const chosen = new Map<string, { cell: string; at: Point; score: number }>();
  for (const l of geo.labels) {
    let cell = null;
    for (const c of geo.cells) {
      if (namesLine(c.name, l.text) && (!cell || dist(c.center, l.at) < dist(cell.center, l.at))) cell = c;
    }
    if (!cell) continue;
    const n = dist(cell.center, l.at) || 1;
    const d = { x: (l.at.x - cell.center.x) / n, y: (l.at.y - cell.center.y) / n };
    const score = d.y - d.x; // down, then left
    const was = chosen.get(l.text);
    if (was && was.score >= score - 1e-6) continue;
    const out = 0.3, along = 0.15;
    chosen.set(l.text, { cell: cell.name, score, at: { x: cell.center.x + d.x * out - d.y * along, y: cell.center.y + d.y * out + d.x * along } });
  }
  return [...chosen].map(([text, c]) => ({ text, cell: c.cell, at: c.at }));
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

// arrowDirections are the screen directions of the arrow keys.
const arrowDirections: Record<string, Point> = { ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 }, ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 } };

// onCellKey plays the board by keyboard: Enter or Space clicks the focused
// cell, an arrow key moves the focus to the nearest cell that way.
function onCellKey(ev: KeyboardEvent, svg: SVGSVGElement, geo: Geometry, cell: string, onCell: (cell: string) => void): void {
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    onCell(cell);
    return;
  }
  const dir = arrowDirections[ev.key];
  if (!dir) return;
  ev.preventDefault();
  ev.stopPropagation(); // the page's arrows step through the moves
  const next = neighbourToward(geo, cell, dir);
  if (!next) return;
  for (const p of svg.querySelectorAll<SVGElement>("[data-cell]")) p.setAttribute("tabindex", p.dataset.cell === next ? "0" : "-1");
  svg.querySelector<SVGElement>(`[data-cell="${next}"]`)?.focus();
}

// neighbourToward is the cell nearest to cell within 60 degrees of the
// direction dir, on square and hexagonal boards alike; null at an edge.
export function neighbourToward(geo: Geometry, cell: string, dir: Point): string | null {
  const from = geo.cells.find((c) => c.name === cell);
  if (!from) return null;
  let best: string | null = null;
  let bestScore = Infinity;
  for (const c of geo.cells) {
    const dx = c.center.x - from.center.x, dy = c.center.y - from.center.y;
    const dist = Math.hypot(dx, dy);
    const along = (dx * dir.x + dy * dir.y) / (dist || 1);
    if (c === from || along < 0.5) continue;
    const score = dist * (2 - along); // nearer first, straighter breaks ties
    if (score < bestScore) {
      bestScore = score;
      best = c.name;
    }
  }
  return best;
}

// drawPath draws the move being built: a line through its cells so far,
// and a cross on each piece it takes.
function drawPath(geo: Geometry, marks: Marks): SVGGElement {
  const g = el("g", { class: "move-path", "aria-hidden": "true" });
  const centers = new Map(geo.cells.map((c) => [c.name, c.center]));
  const path = (marks.path ?? []).map((c) => centers.get(c)).filter((p): p is Point => !!p);
  if (path.length > 1) g.append(el("polyline", { points: points(path), class: "path-line" }));
  for (const cell of marks.taking ?? []) {
    const at = centers.get(cell);
    if (!at) continue;
    const r = 0.22;
    g.append(el("path", { d: `M${at.x - r},${at.y - r}L${at.x + r},${at.y + r}M${at.x + r},${at.y - r}L${at.x - r},${at.y + r}`, class: "taking", "data-taking": cell }));
  }
  return g;
}

// drawStack draws a stack as discs one above the other, bottom first, with
// its height written on the top disc when it holds more than one piece; a
// frozen pile is boxed. Only the top disc carries its side's mark: the
// discs under it show their edges alone.
function drawStack(at: Point, stack: string, cell: string, frozen: boolean): SVGGElement {
  const g = el("g", { class: "stack", "data-at": cell });
  const shown = [...stack].slice(-shownPieces);
  const step = 0.1;
  const base = at.y + ((shown.length - 1) * step) / 2;
  if (frozen) g.append(el("rect", { x: at.x - 0.47, y: at.y - 0.47, width: 0.94, height: 0.94, rx: 0.08, class: "frozen" }));
  shown.forEach((letter, i) => g.append(...disc(at.x, base - i * step, 0.36, letter, i === shown.length - 1)));
  if (stack.length > 1) {
    const top = base - (shown.length - 1) * step;
    const t = el("text", { x: at.x, y: top, class: `height side-${stack[stack.length - 1].toLowerCase()}` });
    t.textContent = String(stack.length);
    g.append(t);
  }
  return g;
}

// sideMarks are the seats' marks near a piece's rim, so that the sides
// differ by more than colour: White none, Black a ring, Red a dashed ring
// (theme.css dashes it).
const sideMarks = new Set(["b", "r"]);

// disc is one piece: a disc of its side's colour, its side's mark when
// marked, and a crown ring when promoted.
function disc(x: number, y: number, r: number, letter: string, marked: boolean): SVGElement[] {
  const side = letter.toLowerCase();
  const out: SVGElement[] = [el("circle", { cx: x, cy: y, r, class: `piece side-${side}` })];
  if (marked && sideMarks.has(side)) out.push(el("circle", { cx: x, cy: y, r: r * 0.76, class: `side-mark side-${side}` }));
  if (letter !== side) out.push(el("circle", { cx: x, cy: y, r: r * 0.5, class: `crown side-${side}` }));
  return out;
}

// showStack draws a tall stack's every piece in a row, bottom first from
// the left, in a box above its cell.
function showStack(popup: SVGGElement, at: Point, stack: string, vb: Geometry["viewBox"]): void {
  const r = 0.22;
  const width = stack.length * 2 * r + 0.3;
  const height = 2 * r + 0.55;
  const x = Math.max(vb.minX, Math.min(at.x - width / 2, vb.maxX - width));
  const y = Math.max(vb.minY, at.y - 0.6 - height);
  const box = el("g", { class: "stack-popup", "data-stack": stack });
  box.append(el("rect", { x, y, width, height, rx: 0.08, class: "popup-box" }));
  const caption = el("text", { x: x + 0.15, y: y + 0.2, class: "popup-text" });
  caption.textContent = t("board.popup", { Count: stack.length });
  box.append(caption);
  [...stack].forEach((letter, i) => box.append(...disc(x + 0.15 + r + i * 2 * r, y + 0.4 + r, r * 0.9, letter, true)));
  popup.replaceChildren(box);
}

// letterOf is a piece's data-stack letter.
function letterOf(p: Piece, letters: string[]): string {
  const l = letters[p.owner] ?? "w";
  return p.rank === "king" ? l.toUpperCase() : l;
}

// animateMove shows a move just drawn: the mover slides along its path
// from its start, the pieces it took fade as it passes them. Nothing
// moves when the person asks for reduced motion. It reports whether it
// animated.
export function animateMove(svg: SVGSVGElement, geo: Geometry, fx: Effects, letters: string[]): boolean {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches || fx.path.length < 2) return false;
  const centers = new Map(geo.cells.map((c) => [c.name, c.center]));
  const path = fx.path.map((c) => centers.get(c));
  if (path.some((p) => !p)) return false;
  const end = path[path.length - 1]!;
  const legs = path.length - 1;
  const duration = Math.min(moveMs, legMs * legs);
  const pieces = svg.querySelector("g.pieces");
  let mover = fx.removed ? null : svg.querySelector<SVGGElement>(`g.stack[data-at="${fx.path[fx.path.length - 1]}"]`);
  if (!mover && pieces) {
    // The mover left the board at the end of its path: slide a copy.
    mover = drawStack(end, fx.moving.map((p) => letterOf(p, letters)).join(""), "", false);
    mover.classList.add("ghost");
    pieces.append(mover);
    const copy = mover;
    mover.animate([{ opacity: 1 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration }).onfinish = () => copy.remove();
  }
  if (mover) {
    pieces?.append(mover); // above the others while it slides
    const frames = path.map((p, i) => ({ transform: `translate(${p!.x - end.x}px, ${p!.y - end.y}px)`, offset: i / legs }));
    mover.animate(frames, { duration, easing: "ease-in-out" });
  }
  for (const c of fx.captured ?? []) {
    const at = centers.get(c.cell);
    if (!at || !pieces || c.taken.length === 0) continue;
    const stack = [...c.left, ...c.taken].map((p) => letterOf(p, letters)).join("");
    const ghost = drawStack(at, stack, "", false);
    ghost.classList.add("ghost");
    ghost.dataset.stack = stack;
    pieces.insertBefore(ghost, pieces.firstChild);
    const passed = c.leg > 0 ? c.leg / legs : 1;
    ghost.animate([{ opacity: 1 }, { opacity: 1, offset: Math.min(passed, 0.95) }, { opacity: 0 }], { duration, fill: "forwards" }).onfinish = () => ghost.remove();
  }
  svg.dataset.animated = fx.move;
  return true;
}

// PointerHandlers are what a pointer does on the board: a tap (press and
// release on one cell) or a drag from one cell to another.
export interface PointerHandlers {
  tap(cell: string): void;
  drag(from: string, to: string): void;
}

// dragDistance is how far, in CSS pixels, a pressed pointer moves before
// the press is a drag rather than a tap.
const dragDistance = 8;

function cellAt(x: number, y: number): string | null {
  const e = document.elementFromPoint(x, y);
  return e instanceof Element ? e.closest("[data-cell]")?.getAttribute("data-cell") ?? null : null;
}

// attachPointer lets mouse, pen and touch play on svg, once for the page
// (the board drawn into it may change meanwhile): a tap is a click on a
// cell; pressing a piece and releasing on another cell drags it there,
// the piece following the pointer.
export function attachPointer(svg: SVGSVGElement, on: PointerHandlers): void {
  let press: { id: number; from: string; x: number; y: number; dragging: boolean } | null = null;
  const piece = (cell: string) => svg.querySelector<SVGGElement>(`g.stack[data-at="${cell}"]`);
  svg.addEventListener("pointerdown", (ev) => {
    const cell = cellAt(ev.clientX, ev.clientY);
    if (!cell || ev.button !== 0) return;
    press = { id: ev.pointerId, from: cell, x: ev.clientX, y: ev.clientY, dragging: false };
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!press || ev.pointerId !== press.id) return;
    const dx = ev.clientX - press.x, dy = ev.clientY - press.y;
    if (!press.dragging && Math.hypot(dx, dy) < dragDistance) return;
    press.dragging = true;
    const g = piece(press.from);
    const ctm = svg.getScreenCTM();
    if (!g || !ctm) return;
    g.parentNode?.append(g);
    g.setAttribute("transform", `translate(${dx / ctm.a} ${dy / ctm.d})`);
    g.classList.add("dragged");
  });
  const end = (ev: PointerEvent, cancelled: boolean) => {
    if (!press || ev.pointerId !== press.id) return;
    const p = press;
    press = null;
    piece(p.from)?.removeAttribute("transform");
    piece(p.from)?.classList.remove("dragged");
    if (cancelled) return;
    const to = cellAt(ev.clientX, ev.clientY);
    if (!p.dragging) {
      if (to === p.from) on.tap(p.from);
    } else if (to && to !== p.from) {
      on.drag(p.from, to);
    }
  };
  svg.addEventListener("pointerup", (ev) => end(ev, false));
  svg.addEventListener("pointercancel", (ev) => end(ev, true));
}
