// The engine's line drawn on the board as arrows: one per leg of each
// move (a capture of three legs is three arrows, so the path reads as it
// is played), a ring on each drop cell; the first move strongest, the
// replies and moves after it lighter and thinner. The arrows let every
// pointer event through to the cells under them.

import type { Geometry, Point } from "./api";
import { parseMove } from "./entry";

const svgNS = "http://www.w3.org/2000/svg";

// plyStyles are the widths (in board units, a cell being about one) and
// opacities of the arrows of each ply of the line, the first move first;
// the line is drawn that far.
const plyStyles = [
  { width: 0.15, opacity: 0.9 },
  { width: 0.1, opacity: 0.6 },
  { width: 0.08, opacity: 0.5 },
  { width: 0.07, opacity: 0.4 },
];

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// drawArrows draws line (moves in the project's notation, from the
// position shown, the seats of players taking turns) over the board svg,
// replacing the arrows drawn before; an empty line clears them. The
// mover's moves and the others' are told apart by class. A move naming a
// cell the board lacks is left out, and the rest of the line after it.
export function drawArrows(svg: SVGSVGElement, geo: Geometry, line: string[], players = 2): void {
  clearArrows(svg);
  if (line.length === 0) return;
  const centers = new Map(geo.cells.map((c) => [c.name, c.center]));
  const layer = el("g", { class: "arrows", "aria-hidden": "true", "pointer-events": "none" });
  const drawn: SVGGElement[] = [];
  for (const [ply, text] of line.slice(0, plyStyles.length).entries()) {
    const move = parseMove(text);
    const cells = [...move.path, ...move.drops];
    if (cells.some((c) => !centers.has(c))) break;
    const g = el("g", { class: `arrow-move ply-${ply} ${ply % players === 0 ? "mover" : "reply"}`, "data-ply": ply, "data-move": text });
    for (let i = 0; i + 1 < move.path.length; i++) {
      g.append(arrow(centers.get(move.path[i])!, centers.get(move.path[i + 1])!, plyStyles[ply].width, move.path[i], move.path[i + 1]));
    }
    for (const d of move.drops) {
      const at = centers.get(d)!;
      g.append(el("circle", { class: "drop-ring", cx: at.x, cy: at.y, r: 0.3, "stroke-width": plyStyles[ply].width, "data-cell": d }));
    }
    g.setAttribute("opacity", String(plyStyles[ply].opacity));
    drawn.push(g);
  }
  // The first move on top of the rest; all under a tall stack's popup.
  layer.append(...drawn.reverse());
  svg.insertBefore(layer, svg.querySelector("g.popup"));
}

// clearArrows takes the arrows off the board.
export function clearArrows(svg: SVGSVGElement): void {
  svg.querySelectorAll("g.arrows").forEach((g) => g.remove());
}

// arrow is a shaft from the centre of one cell to near the centre of the
// next, with a head whose tip stops short of the centre, so that the
// piece landing there stays visible.
function arrow(from: Point, to: Point, width: number, fromCell: string, toCell: string): SVGGElement {
  const dx = to.x - from.x, dy = to.y - from.y;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length, uy = dy / length; // along the leg
  const nx = -uy, ny = ux; // across it
  const tipBack = Math.min(0.12, length / 4);
  const tip = { x: to.x - ux * tipBack, y: to.y - uy * tipBack };
  const headLength = Math.min(Math.max(width * 2.6, 0.28), length / 2);
  const headHalf = Math.max(width * 1.6, 0.16);
  const base = { x: tip.x - ux * headLength, y: tip.y - uy * headLength };
  const g = el("g", { class: "arrow", "data-from": fromCell, "data-to": toCell });
  g.append(
    el("line", { class: "arrow-shaft", x1: from.x, y1: from.y, x2: base.x, y2: base.y, "stroke-width": width }),
    el("polygon", {
      class: "arrow-head",
      points: [tip, { x: base.x + nx * headHalf, y: base.y + ny * headHalf }, { x: base.x - nx * headHalf, y: base.y - ny * headHalf }]
        .map((p) => `${p.x},${p.y}`).join(" "),
    }),
  );
  return g;
}
