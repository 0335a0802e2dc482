// The leaderboards, /leaderboard/{game}: a tab per game, and the players
// who played it rated in the last 30 days, best first.

import { request, type CatalogGame } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { t } from "./i18n";
import { botTag, profileLink, ratingText } from "./players";

interface Ranked {
  rank: number;
  name: string;
  rating: number;
  rd: number;
  games: number;
  provisional: boolean;
  bot?: boolean;
}

export async function leaderboardPage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  const main = h("main", { class: "leaderboard" });
  root.replaceChildren(siteHeader(h("h1", {}, t("leaderboard.title"))), message, main);
  try {
    const catalog = await request<CatalogGame[]>("GET", "/api/catalog");
    const asked = decodeURIComponent(location.pathname.split("/")[2] ?? "");
    // Pommel's board unless the path names another, as the header's Rules and Analysis.
    const game = catalog.find((c) => c.id === asked) ?? catalog.find((c) => c.id === "pommel") ?? catalog[0];
    const tabs = h("nav", { class: "game-tabs", "aria-label": t("leaderboard.games_label") }, ...catalog.map((c) =>
      h("a", c === game ? { href: `/leaderboard/${c.id}`, "aria-current": "page" } : { href: `/leaderboard/${c.id}` }, c.name)));
    const rows = await request<Ranked[]>("GET", `/api/leaderboard/${game.id}`);
    main.append(tabs, h("h2", { id: "board-title" }, game.name), board(rows, game));
  } catch (e) {
    message.textContent = (e as Error).message;
  }
}

function board(rows: Ranked[], game: CatalogGame): HTMLElement {
  if (rows.length === 0) return h("p", { class: "none" }, t("leaderboard.none", { Game: game.name }));
  const head = h("tr", {}, ...[t("leaderboard.rank"), t("leaderboard.player"), t("leaderboard.rating"), t("leaderboard.games")].map((label) => h("th", { scope: "col" }, label)));
  return h("table", { class: "ranks", "aria-labelledby": "board-title" },
    h("caption", { class: "hint" }, t("leaderboard.caption")), h("thead", {}, head),
    h("tbody", {}, ...rows.map((r) => h("tr", { "data-name": r.name },
      h("td", { class: "rank" }, String(r.rank)),
      h("td", { class: "name" }, ...botTag(r.bot), profileLink(r.name)),
      h("td", { class: "rating", title: `±${Math.round(r.rd)}` }, ratingText(r.rating, r.provisional)),
      h("td", { class: "games" }, String(r.games))))));
}
