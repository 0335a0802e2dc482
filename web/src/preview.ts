// The home page's previews: each game of the catalog drawn small in its
// start position, by the board renderer of the game pages.

import { request, type CatalogGame, type Geometry, type Position } from "./api";
import { pictureBoard } from "./diagrams";
import { t } from "./i18n";

// drawPreviews draws the start position of each game into the box boxOf
// gives for its id (none: no picture).
export async function drawPreviews(catalog: (CatalogGame & { name?: string })[], boxOf: (id: string) => HTMLElement | null): Promise<void> {
  await Promise.all(catalog.map(async (c) => {
    const box = boxOf(c.id);
    if (!box) return;
    try {
      const start = await request<Position>("GET", `/api/analysis/${encodeURIComponent(c.id)}`);
      const geo = await request<Geometry>("GET", `/api/boards/${encodeURIComponent(start.board)}?turn=0`);
      const svg = pictureBoard(geo, start.stacks, start.toMove, c.id, t("preview.label", { Game: c.name ?? c.id }));
      svg.classList.add("preview");
      svg.dataset.game = c.id;
      box.replaceChildren(svg);
    } catch {
      // A game without its picture is still listed, with its summary.
    }
  }));
}
