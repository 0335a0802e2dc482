// The board as SVG, drawn from the server's geometry with no case per
// board: one polygon per cell carrying data-cell and, when occupied,
// data-stack (the pieces bottom first, a letter each, upper case when
// promoted), then the pieces over it, which let clicks through.

import type { Geometry, Position } from "./api";

const svgNS = "http://www.w3.org/2000/svg";

// sideNames names the seats by their letters, for screen readers.
const sideNames: Record<string, string> = { w: "White", b: "Black", r: "Red" };

// shownPieces is how many pieces of a stack are drawn one above the other;
// a taller stack shows its top ones and its height.
const shownPieces = 5;

export interface Marks {
  selected: string[]; // the cells clicked so far
  targets: Set<string>; // where a click may go next
  lastMove: string[]; // the cells of the last move's path
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function points(ps: { x: number; y: number }[]): string {
  return ps.map((p) => `${p.x},${p.y}`).join(" ");
}

// describeStack says a stack in words: "d1, White captain" or "c3, a stack of
// 3: Black, White, White king (top)".
export function describeStack(cell: string, stack: string | undefined, king: string): string {
  if (!stack) return `${cell}, empty`;
  const names = [...stack].map((l) => {
    const side = sideNames[l.toLowerCase()] ?? l;
    return l === l.toUpperCase() ? `${side} ${king}` : side;
  });
  if (names.length === 1) return `${cell}, ${names[0]}`;
  return `${cell}, a stack of ${names.length} from the bottom: ${names.join(", ")}`;
}

// drawBoard replaces the contents of svg with the board, its coordinates,
// the position and the marks; onCell is called with the clicked cell.
export function drawBoard(svg: SVGSVGElement, geo: Geometry, pos: Position, marks: Marks, king: string, onCell: (cell: string) => void): void {
  const vb = geo.viewBox;
  svg.setAttribute("viewBox", `${vb.minX} ${vb.minY} ${vb.maxX - vb.minX} ${vb.maxY - vb.minY}`);
  svg.setAttribute("role", "group");
  svg.replaceChildren();
  const cells = el("g", { class: "cells" });
  const pieces = el("g", { class: "pieces", "aria-hidden": "true" });
  const last = new Set(marks.lastMove);
  for (const c of geo.cells) {
    const stack = pos.stacks[c.name];
    const classes = ["cell"];
    if (last.has(c.name)) classes.push("last");
    if (marks.selected.includes(c.name)) classes.push("selected");
    if (marks.targets.has(c.name)) classes.push("target");
    const poly = el("polygon", { points: points(c.outline), class: classes.join(" "), "data-cell": c.name, tabindex: 0, role: "button", "aria-label": describeStack(c.name, stack, king) });
    if (stack) poly.setAttribute("data-stack", stack);
    poly.addEventListener("click", () => onCell(c.name));
    poly.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        onCell(c.name);
      }
    });
    cells.append(poly);
    if (stack) pieces.append(drawStack(c.center, stack));
    if (marks.targets.has(c.name) && !stack) pieces.append(el("circle", { cx: c.center.x, cy: c.center.y, r: 0.12, class: "dot" }));
  }
  const labels = el("g", { class: "labels", "aria-hidden": "true" });
  for (const l of geo.labels) {
    const t = el("text", { x: l.at.x, y: l.at.y, class: "label" });
    t.textContent = l.text;
    labels.append(t);
  }
  svg.append(cells, pieces, labels);
}

// drawStack draws a stack as discs one above the other, bottom first, with
// its height written on the top disc when it holds more than one piece.
function drawStack(at: { x: number; y: number }, stack: string): SVGGElement {
  const g = el("g", { class: "stack" });
  const shown = [...stack].slice(-shownPieces);
  const step = 0.1;
  const base = at.y + ((shown.length - 1) * step) / 2;
  shown.forEach((letter, i) => {
    const y = base - i * step;
    const side = letter.toLowerCase();
    g.append(el("circle", { cx: at.x, cy: y, r: 0.36, class: `piece side-${side}` }));
    if (letter !== side) {
      g.append(el("circle", { cx: at.x, cy: y, r: 0.2, class: `crown side-${side}` }));
    }
  });
  if (stack.length > 1) {
    const top = base - (shown.length - 1) * step;
    const t = el("text", { x: at.x, y: top, class: `height side-${stack[stack.length - 1].toLowerCase()}` });
    t.textContent = String(stack.length);
    g.append(t);
  }
  return g;
}
