// Who is signed in, and what the account pages share: the API's shapes
// for players, ratings and seeks, links to profiles, ratings and clocks
// written for people (docs/server.md: accounts, ratings, the lobby).

import { request } from "./api";
import { h } from "./dom";
import { lang, t, tn } from "./i18n";

export interface Rating {
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
}

export interface User {
  name: string;
  created: string;
  level: boolean; // one of the site's AI levels
  bot: boolean; // an engine's account, played through the bot API
  deleted: boolean;
  ratings: Record<string, Rating>;
}

// PlayedGame is a game as a player's list of games writes it.
export interface PlayedGame {
  id: string;
  game: string;
  rated: boolean;
  created: string;
  ended: boolean;
  result: "win" | "loss" | "draw" | "ongoing" | "aborted";
  reason: string;
  seat: number;
  opponents: string[];
  opponentAccounts?: boolean[];
  ratingBefore?: number;
  ratingAfter?: number;
}

// SeekClock is a seek's time control: Fischer, correspondence or none.
export type SeekClock = { initial: number; increment: number } | { days: number } | null;

export interface Seek {
  id: string;
  game: string;
  options: Record<string, string>;
  rated: boolean;
  takebacks: boolean; // false: the game it starts takes no moves back
  clock: SeekClock;
  by: string;
  rating: number;
  provisional: boolean;
  to: string | null;
  toBot?: boolean; // the challenged account is a bot
  seats: number;
  joined: string[];
  created: string;
  kind: SeekKind;
  cursor: string; // ?before= this lists the seeks of its kind after it
}

export type SeekKind = "realtime" | "correspondence";

// signedIn is who this browser is signed in as (null for no one), read
// once per page.
let signedIn: Promise<SessionInfo | null> | null = null;

// SessionInfo is GET /api/session: the name, the moderator's role, and a
// ban's or a mute's reason.
export interface SessionInfo {
  name: string;
  moderator?: boolean;
  banned?: string;
  mutedUntil?: number;
  muteReason?: string;
}

// me is who is signed in. A browser without the server's mark of a
// session (the cookie arbiter_signed_in, set at sign-in, ended at log
// out) is nobody's, and is not asked about: GET /api/session would answer
// 401, which the console shows as an error on every visitor's page.
export function me(): Promise<string | null> {
  return session().then((s) => s?.name ?? null);
}

// session is the whole of who is signed in, read once per page.
export function session(): Promise<SessionInfo | null> {
  signedIn ??= hasSessionMark()
    ? request<SessionInfo>("GET", "/api/session").catch(() => null)
    : Promise.resolve(null);
  return signedIn;
}

function hasSessionMark(): boolean {
  return document.cookie.split(";").some((c) => c.trim().startsWith("arbiter_signed_in="));
}

// profileLink links a player's name to their profile.
export function profileLink(name: string): HTMLAnchorElement {
  return h("a", { href: `/@/${encodeURIComponent(name)}`, class: "player-link" }, name);
}

// Opposed is a list's game with its opponents: their names, and whether
// an account plays each (the server says so; a name alone never does).
export interface Opposed {
  opponents: string[];
  opponentAccounts?: boolean[];
  opponentBots?: boolean[];
}

// opponentNode is opponent i of a game: an account's name links to its
// profile; a seat played without an account is its name as text, so that
// an anonymous "alice" never links to Alice.
export function opponentNode(g: Opposed, i: number): HTMLElement {
  const name = g.opponents[i] ?? "";
  if (g.opponentBots?.[i]) return h("span", {}, ...botTag(true), profileLink(name));
  return g.opponentAccounts?.[i] ? profileLink(name) : h("span", { class: "player-anonymous" }, name);
}

// botTag marks the name of a bot's account (an engine plays it), as
// lichess writes it: "BOT zed" (the mark and a space, to go before).
export function botTag(bot?: boolean): (Node | string)[] {
  return bot ? [h("span", { class: "bot-tag", title: t("players.bot_title") }, t("players.bot")), " "] : [];
}

// ratingText is a rating rounded, with "?" while it is provisional.
export function ratingText(rating: number, provisional = false): string {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}

// change is a rating's change signed, with a true minus: "+12", "−8".
export function change(before: number, after: number): string {
  const d = Math.round(after) - Math.round(before);
  return d >= 0 ? `+${d}` : `−${-d}`;
}

// clockText writes a seek's clock as players do: "3+2", "½+0", "1 day".
export function clockText(c: SeekClock): string {
  if (!c) return t("players.unlimited");
  if ("days" in c) return tn("players.days", c.days);
  const halves: Record<number, string> = { 15: "¼", 30: "½", 45: "¾" };
  const base = c.initial % 60 === 0 ? String(c.initial / 60) : halves[c.initial] ?? `${c.initial}s`;
  return `${base}+${c.increment}`;
}

// dateText is a date for people: "26 Nov 2026".
export function dateText(iso: string): string {
  return new Date(iso).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" });
}

// safeNext is where to go after signing in: the page's ?next= when it is
// a path of this site, else home.
export function safeNext(): string {
  const next = new URLSearchParams(location.search).get("next") ?? "/";
  try {
    const u = new URL(next, location.origin);
    if (u.origin === location.origin && next.startsWith("/") && !/^\/(login|signup)\b/.test(u.pathname)) return u.pathname + u.search + u.hash;
  } catch {
    // Not a URL: home.
  }
  return "/";
}

// signInLink is the sign-in page, coming back here afterwards.
export function signInLink(label = t("players.sign_in")): HTMLAnchorElement {
  return h("a", { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}`, class: "sign-in" }, label);
}
