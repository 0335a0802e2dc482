// The diagrams of the rules pages: each <figure class="diagram"> the
// server wrote for a position (its board, stacks and seat to move in
// data- attributes) is drawn by the board renderer of the game pages, as
// a picture: its cells are not buttons.

import { request, type Geometry } from "./api";
import { drawBoard } from "./board";

const svgNS = "http://www.w3.org/2000/svg";

// drawDiagrams draws every diagram under root, reading each board's
// geometry once.
export async function drawDiagrams(root: ParentNode): Promise<void> {
  const boards = new Map<string, Promise<Geometry>>();
  const geometry = (board: string) => {
    if (!boards.has(board)) boards.set(board, request<Geometry>("GET", `/api/boards/${encodeURIComponent(board)}?turn=0`));
    return boards.get(board)!;
  };
  const figures = [...root.querySelectorAll<HTMLElement>("figure.diagram[data-board]")];
  await Promise.all(figures.map(async (fig) => {
    try {
      drawDiagram(fig, await geometry(fig.dataset.board!));
    } catch {
      // The transcript next to the figure still shows the position.
    }
  }));
}

// drawDiagram draws one figure's position above its caption.
export function drawDiagram(fig: HTMLElement, geo: Geometry): void {
  const d = fig.dataset;
  const stacks = JSON.parse(d.stacks ?? "{}") as Record<string, string>;
  const label = `${d.game} position ${d.fen}: ${fig.querySelector("figcaption")?.textContent ?? ""}`;
  const svg = pictureBoard(geo, stacks, Number(d.toMove ?? 0), d.game ?? "", label);
  svg.classList.add("diagram");
  nameEmptyCells(svg, geo, stacks);
  fig.querySelector("svg.diagram")?.remove();
  fig.prepend(svg);
}

// nameEmptyCells writes each empty cell's name in it, as the rules' text
// diagrams do, so that a reader finds the cells an example's moves name.
function nameEmptyCells(svg: SVGSVGElement, geo: Geometry, stacks: Record<string, string>): void {
  const names = document.createElementNS(svgNS, "g");
  names.setAttribute("class", "cell-names");
  names.setAttribute("aria-hidden", "true");
  for (const c of geo.cells) {
    if (stacks[c.name]) continue;
    const t = document.createElementNS(svgNS, "text");
    t.setAttribute("x", String(c.center.x));
    t.setAttribute("y", String(c.center.y));
    t.setAttribute("class", "cell-name");
    t.textContent = c.name;
    names.append(t);
  }
  svg.append(names);
}

// pictureBoard draws a position of game as a picture labelled label: the
// board of the game pages (data-cell, data-stack), its cells not buttons.
export function pictureBoard(geo: Geometry, stacks: Record<string, string>, toMove: number, game: string, label: string): SVGSVGElement {
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("class", "board");
  const king = game.startsWith("pommel") ? "captain" : "king";
  drawBoard(svg, geo, { board: geo.board, ply: 0, toMove, stacks }, { selected: [], targets: new Set(), lastMove: [] }, king, () => {}, { still: true });
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  // A picture's parts have no roles, so no names either: its label says
  // the position.
  for (const cell of svg.querySelectorAll("[data-cell]")) {
    cell.removeAttribute("tabindex");
    cell.removeAttribute("role");
    cell.removeAttribute("aria-label");
  }
  return svg;
}
