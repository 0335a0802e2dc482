// A player's profile, /@/NAME: when they joined, their rating in each
// game with its history drawn, and their games, newest first, filtered
// by game and read a page at a time.

import { ApiError, request, type CatalogGame } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { t, tn, tParts } from "./i18n";
import { botTag, change, dateText, me, opponentNode, ratingText, type PlayedGame, type User } from "./players";
import { ratingPlot, type HistoryPoint } from "./ratingplot";
import { reportForm } from "./chat";

const pageSize = 20;

export async function profilePage(root: HTMLElement): Promise<void> {
  const name = decodeURIComponent(location.pathname.slice("/@/".length));
  const title = h("h1", {}, name);
  const message = h("p", { class: "message", role: "alert" });
  const main = h("main", { class: "profile" });
  root.replaceChildren(siteHeader(title), message, main);
  let user: User, catalog: CatalogGame[], history: Record<string, HistoryPoint[]>;
  try {
    [user, catalog] = await Promise.all([request<User>("GET", `/api/users/${encodeURIComponent(name)}`), request<CatalogGame[]>("GET", "/api/catalog")]);
    // A history per game rated: the plots are drawn per game.
    history = Object.fromEntries(await Promise.all(Object.keys(user.ratings).map(async (id) =>
      [id, await request<HistoryPoint[]>("GET", `/api/users/${encodeURIComponent(name)}/history?game=${encodeURIComponent(id)}`).catch(() => [])])));
  } catch (e) {
    if (e instanceof ApiError && e.code === "not_found") {
      title.textContent = t("profile.no_player");
      main.append(h("section", { class: "no-player" }, h("h2", {}, t("profile.no_player")),
        h("p", {}, ...tParts("profile.nobody", { Name: name, Board: h("a", { href: "/leaderboard" }, t("profile.see_board")), Home: h("a", { href: "/" }, t("profile.go_home")) }))));
    } else message.textContent = (e as Error).message;
    return;
  }
  const nameOf = (id: string) => catalog.find((c) => c.id === id)?.name ?? id;
  const tags: Node[] = [];
  if (user.level) tags.push(h("span", { class: "tag" }, t("profile.computer")));
  if (user.deleted) tags.push(h("span", { class: "tag" }, t("profile.deleted")));
  const you = await me();
  main.append(h("section", { class: "profile-head", "aria-label": t("profile.label") }, h("p", { class: "profile-name" }, ...botTag(user.bot), user.name),
    h("p", { class: "since" }, t("profile.since", { Date: dateText(user.created) }), ...tags),
    ...you === user.name ? [h("p", {}, h("a", { href: "/account" }, t("profile.settings")))] : [],
    ...you && you !== user.name && !user.level && !user.deleted ? [await playerActions(user.name)] : []));
  main.append(ratingsSection(user, history, nameOf), gamesSection(user.name, catalog, nameOf));
}

// ratingsSection shows a card per game rated: the rating ("?" while
// provisional), its deviation, the games, and its history drawn.
function ratingsSection(user: User, history: Record<string, HistoryPoint[]>, nameOf: (id: string) => string): HTMLElement {
  const section = h("section", { class: "ratings", "aria-labelledby": "ratings-title" }, h("h2", { id: "ratings-title" }, t("profile.ratings")));
  const games = Object.keys(user.ratings);
  if (games.length === 0) {
    section.append(h("p", { class: "none" }, t("profile.no_rating")));
    return section;
  }
  const list = h("ul", { class: "rating-cards" });
  for (const id of games) {
    const r = user.ratings[id];
    const points = history[id] ?? [];
    const card = h("li", { class: "rating-card", "data-game": id },
      h("h3", {}, nameOf(id)),
      h("p", { class: "rating-line" }, h("span", { class: "rating" }, ratingText(r.rating, r.provisional)),
        h("span", { class: "rd" }, `±${Math.round(r.rd)}`),
        h("span", { class: "count" }, tn("profile.games_count", r.games))),
      ...(r.provisional ? [h("p", { class: "hint" }, t("profile.provisional"))] : []));
    if (points.length) card.append(ratingPlot(points, nameOf(id), `plot-${id}`));
    list.append(card);
  }
  section.append(list);
  return section;
}

// gamesSection lists the player's games, a game's filter and "More".
function gamesSection(name: string, catalog: CatalogGame[], nameOf: (id: string) => string): HTMLElement {
  const filter = h("select", { id: "games-filter" }, h("option", { value: "" }, t("profile.all_games")),
    ...catalog.map((c) => h("option", { value: c.id }, c.name)));
  const list = h("ul", { class: "played-games" });
  const more = h("button", { type: "button", class: "more-games", hidden: "" }, t("profile.more"));
  const status = h("p", { class: "none", "aria-live": "polite" });
  let last = "";
  const load = async (fresh: boolean) => {
    if (fresh) {
      list.replaceChildren();
      last = "";
    }
    more.disabled = true;
    const q = new URLSearchParams({ limit: String(pageSize) });
    if (filter.value) q.set("game", filter.value);
    if (last) q.set("before", last);
    try {
      const games = await request<PlayedGame[]>("GET", `/api/users/${encodeURIComponent(name)}/games?${q}`);
      list.append(...games.map((g) => gameRow(g, nameOf)));
      if (games.length) last = games[games.length - 1].created;
      more.hidden = games.length < pageSize;
      status.textContent = list.children.length ? "" : t("profile.no_games");
    } catch (e) {
      status.textContent = (e as Error).message;
    }
    more.disabled = false;
  };
  filter.addEventListener("change", () => void load(true));
  more.addEventListener("click", () => void load(false));
  void load(true);
  return h("section", { class: "games-played", "aria-labelledby": "games-title" },
    h("div", { class: "games-head" }, h("h2", { id: "games-title" }, t("profile.games")),
      h("p", { class: "field" }, h("label", { for: "games-filter" }, t("profile.show")), filter)),
    list, status, more);
}

const results: Record<PlayedGame["result"], string> = { win: t("profile.won"), loss: t("profile.lost"), draw: t("profile.draw"), ongoing: t("profile.playing"), aborted: t("profile.aborted") };

function gameRow(g: PlayedGame, nameOf: (id: string) => string): HTMLElement {
  const who: (Node | string)[] = g.opponents.length ? [t("profile.vs") + " "] : [t("profile.alone")];
  g.opponents.forEach((_, i) => who.push(...(i ? [", "] : []), opponentNode(g, i)));
  const delta = g.ratingBefore !== undefined && g.ratingAfter !== undefined
    ? h("span", { class: `delta ${g.ratingAfter >= g.ratingBefore ? "up" : "down"}`, title: `${Math.round(g.ratingBefore)} → ${Math.round(g.ratingAfter)}` }, change(g.ratingBefore, g.ratingAfter))
    : h("span", { class: "delta" });
  return h("li", { class: `played result-${g.result}`, "data-game": g.id },
    h("span", { class: "result" }, results[g.result] ?? g.result),
    h("span", { class: "what" }, h("a", { href: g.ended ? `/games/${g.id}` : `/play/${g.id}` }, nameOf(g.game)), " ", h("span", { class: "mode" }, g.rated ? t("profile.rated") : t("profile.casual"))),
    h("span", { class: "opponents" }, ...who),
    h("time", { dateTime: g.created }, dateText(g.created)),
    delta);
}

// playerActions are what a signed-in visitor may do about another
// player: block them (no challenges, chat or seeks either way) or unblock
// them, and report them to the moderators.
async function playerActions(name: string): Promise<HTMLElement> {
  const box = h("div", { class: "player-actions" });
  const status = h("p", { class: "block-status", role: "status" });
  const blockButton = h("button", { type: "button", class: "block" });
  let blocked = false;
  const draw = () => {
    blockButton.textContent = blocked ? t("profile.unblock") : t("profile.block");
    status.textContent = blocked ? t("profile.blocked", { Name: name }) : "";
  };
  try {
    const list = await request<{ blocks: { name: string }[] }>("GET", "/api/blocks");
    blocked = list.blocks.some((b) => b.name.toLowerCase() === name.toLowerCase());
  } catch {
    // drawn as not blocked; the button's answer says otherwise
  }
  draw();
  blockButton.addEventListener("click", async () => {
    try {
      if (blocked) await request("DELETE", `/api/blocks/${encodeURIComponent(name)}`);
      else await request("POST", "/api/blocks", { name });
      blocked = !blocked;
      draw();
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  });
  const reportButton = h("button", { type: "button", class: "report" }, t("profile.report"));
  reportButton.addEventListener("click", () => {
    reportButton.disabled = true;
    box.append(reportForm({ account: name }, () => {}));
  });
  box.append(blockButton, reportButton, status);
  return box;
}
