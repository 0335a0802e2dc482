// The home page's previews: each game of the catalog list drawn small in
// its start position, by the board renderer of the game pages.

import { request, type CatalogGame, type Geometry, type Position } from "./api";
import { pictureBoard } from "./diagrams";
import { h } from "./dom";

// drawPreviews puts the start position of each game before its entry of
// list, the item holding the game's a[data-game] link.
export async function drawPreviews(list: HTMLElement, catalog: CatalogGame[]): Promise<void> {
  await Promise.all(catalog.map(async (c) => {
    const item = list.querySelector(`a[data-game="${CSS.escape(c.id)}"]`)?.closest("li");
    if (!item) return;
    try {
      const start = await request<Position>("GET", `/api/analysis/${encodeURIComponent(c.id)}`);
      const geo = await request<Geometry>("GET", `/api/boards/${encodeURIComponent(start.board)}?turn=0`);
      const svg = pictureBoard(geo, start.stacks, start.toMove, c.id, `${c.id}: the start position`);
      svg.classList.add("preview");
      svg.dataset.game = c.id;
      item.prepend(h("span", { class: "preview-box" }, svg));
    } catch {
      // A game without its picture is still listed, with its summary.
    }
  }));
}
