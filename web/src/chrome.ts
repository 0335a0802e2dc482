// The frame every page shares: the site's header, with the way home, the
// site's sections, who is signed in and the theme controls (theme.ts).

import { request } from "./api";
import { h } from "./dom";
import { lang, t, tn } from "./i18n";
import { session, signInLink, type SessionInfo } from "./players";
import { themeControls } from "./theme";

// siteHeader is the header of a page the script draws; title is the
// page's own heading, extra what the page adds beside it.
export function siteHeader(title: HTMLElement, ...extra: Node[]): HTMLElement {
  return h("header", { class: "site" }, h("a", { href: "/", class: "home" }, "arbiter"), title, ...extra, menuToggle(), nav(), accountMenu(), themeControls()); // i18n-ignore: the site's name
}

// decorateHeader completes a header the server wrote (the rules pages and
// the error pages) with what the script adds to every header.
export function decorateHeader(doc: Document): void {
  const header = doc.querySelector("header");
  if (!header || header.querySelector(".theme-controls")) return;
  header.append(menuToggle(), nav(), accountMenu(), themeControls());
}

// menuToggle opens and closes, on a phone, the header's second row: the
// site's sections and the theme controls, so that the header keeps to
// one row (brand, title, player, menu) until it is asked for. On a
// desktop the style sheet hides it: everything fits.
function menuToggle(): HTMLElement {
  const b = h("button", { type: "button", class: "menu-toggle", "aria-expanded": "false", "aria-label": t("chrome.menu") },
    h("span", { "aria-hidden": "true" }, "☰"));
  b.addEventListener("click", () => {
    const open = b.closest("header")?.classList.toggle("menu-open") ?? false;
    b.setAttribute("aria-expanded", String(open));
  });
  return b;
}

// nav links the site's sections; the page's own is marked current.
function nav(): HTMLElement {
  const here = location.pathname;
  const link = (href: string, label: string, current: boolean) =>
    h("a", current ? { href, "aria-current": "page" } : { href }, label);
  return h("nav", { class: "site-nav", "aria-label": t("chrome.nav_label") },
    link("/", t("chrome.nav.play"), here === "/" || here.startsWith("/play/") || here.startsWith("/games/")),
    link("/learn", t("chrome.nav.learn"), here.startsWith("/learn")),
    link("/puzzles", t("chrome.nav.puzzles"), here.startsWith("/puzzles")),
    link("/rules/pommel", t("chrome.nav.rules"), here.startsWith("/rules/")),
    link("/analysis/pommel", t("chrome.nav.analysis"), here.startsWith("/analysis/")),
    link("/leaderboard", t("chrome.nav.leaderboard"), here.startsWith("/leaderboard")),
    link("/tournaments", t("chrome.nav.tournaments"), here.startsWith("/tournaments")));
}

// accountMenu is "Sign in" for a visitor; for a player, their name (a
// menu: profile, account, log out) and how many games wait for their
// move.
function accountMenu(): HTMLElement {
  const box = h("div", { class: "account-menu" });
  void session().then((who) => {
    const name = who?.name;
    if (!who || !name) {
      if (!/^\/(login|signup)$/.test(location.pathname)) box.append(signInLink());
      return;
    }
    const out = h("button", { type: "button", class: "log-out" }, t("chrome.log_out"));
    out.addEventListener("click", async () => {
      await request("DELETE", "/api/session").catch(() => null);
      location.assign("/");
    });
    const menu = h("details", { class: "me" }, h("summary", { "aria-label": t("chrome.me", { Name: name }) },
      h("span", { class: "me-initial", "aria-hidden": "true" }, name.charAt(0).toUpperCase()), h("span", { class: "me-name" }, name)),
      h("div", { class: "me-panel" },
        h("a", { href: `/@/${encodeURIComponent(name)}` }, t("chrome.profile")),
        h("a", { href: "/account" }, t("chrome.account")), ...(who.moderator ? [h("a", { href: "/mod" }, t("chrome.moderation"))] : []), out));
    // Escape or a click elsewhere closes the menu, as the Display one.
    menu.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && menu.open) {
        menu.open = false;
        menu.querySelector("summary")?.focus();
      }
    });
    document.addEventListener("click", (ev) => {
      if (ev.target instanceof Node && !menu.contains(ev.target)) menu.open = false;
    });
    box.append(h("a", { href: "/#your-turn", class: "turn-badge", hidden: "" }), menu);
    standingNotice(who);
    request<unknown[]>("GET", "/api/account/turn").then((games) => showTurns(games.length), () => {});
  });
  return box;
}

// showTurns shows how many games wait for the player's move: a badge in
// the header and "(2)" in the window's title.
export function showTurns(count: number): void {
  const badge = document.querySelector<HTMLAnchorElement>("header .turn-badge");
  if (badge) {
    badge.hidden = count === 0;
    badge.textContent = String(count);
    badge.setAttribute("aria-label", tn("chrome.turns", count));
  }
  const summary = document.querySelector<HTMLElement>("header details.me > summary");
  if (summary) summary.dataset.turns = count ? String(count) : "";
  const title = document.title.replace(/^\(\d+\) /, "");
  document.title = count > 0 ? `(${count}) ${title}` : title;
}

// standingNotice says, under the header of every page, that a moderator
// banned or muted the account, and why: the player is never left to guess
// why a move or a message is refused.
function standingNotice(who: SessionInfo): void {
  const text = who.banned ? t("chrome.banned", { Reason: who.banned })
    : who.mutedUntil ? t("chrome.muted", { Until: new Date(who.mutedUntil).toLocaleString(lang()), Reason: who.muteReason ?? "" }) : "";
  if (!text) return;
  document.querySelector("header.site")?.after(h("p", { class: "standing-notice", role: "status" }, text));
}
