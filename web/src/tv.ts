// The top game, live, as lichess's TV shows one (docs/server.md, "Top
// game and watching"): GET /api/tv names it, and the game's own API and
// socket follow it, as the game page does for a spectator. The home page
// shows it small in a box (hidden while no game is in play), its board
// and a link opening /tv; /tv shows it large. When the game ends, its result stays a
// few seconds, then the next top game takes its place.

import { request, type Game, type Geometry, type Position } from "./api";
import { siteHeader } from "./chrome";
import { pictureBoard } from "./diagrams";
import { h, replaceKeepingFocus } from "./dom";
import { clockText } from "./game";
import { t } from "./i18n";
import { botTag, profileLink, ratingText } from "./players";
import { resultText, sideName } from "./words";

// Top is GET /api/tv's game.
interface Top {
  id: string;
  game: string;
  seats: { name: string; rating: number }[];
  tournament: { id: string; name: string } | null;
}

const resultFor = 5000; // how long an ended game's result stays, in ms
const lookEvery = 5000; // how often, while no game is in play, /api/tv is asked again
const looks = 60; // and how many times, before the page waits for a click

// TV follows the top game into its box's parts.
class TV {
  top: Top | null = null;
  g: Game | null = null;
  pos: Position | null = null;
  geo: Geometry | null = null;
  at = 0; // when g's clock was read (performance.now)
  ws: WebSocket | null = null;
  tries = 0;
  done = ""; // the game whose end was shown: not shown again
  readonly about = h("p", { class: "tv-about" }); // the game's name, its tournament
  readonly above = h("div", { class: "players" });
  readonly below = h("div", { class: "players" });
  readonly board: HTMLElement;
  readonly status = h("p", { class: "tv-status" });
  readonly extra = h("p", { class: "tv-links" });

  constructor(readonly box: HTMLElement, readonly big: boolean) {
    this.board = h("div", { class: "tv-board" });
    // /tv says each turn and the end to a screen reader; the home page,
    // where the box is beside the point, does not. The box's board opens
    // /tv at a click; the keyboard has its link.
    if (big) this.status.setAttribute("aria-live", "polite");
    else this.board.addEventListener("click", () => { location.href = "/tv"; });
    box.append(this.about, this.above, this.board, this.below, this.status, this.extra);
    setInterval(() => this.tick(), 200);
    void this.look();
  }

  // look asks for the top game and follows it; with none, it says so (the
  // home page's box hides) and asks again a while later.
  async look(): Promise<void> {
    const top = await request<{ game: Top | null }>("GET", "/api/tv").then((a) => a.game, () => null);
    if (!top || top.id === this.done) return this.none();
    this.tries = 0;
    try {
      const g = await request<Game>("GET", `/api/games/${top.id}`);
      const pos = await request<Position>("GET", `/api/games/${top.id}/position`);
      if (this.geo?.board !== pos.board) this.geo = await request<Geometry>("GET", `/api/boards/${pos.board}?turn=0`);
      Object.assign(this, { top, g, pos, at: performance.now() });
    } catch {
      return this.none();
    }
    this.box.hidden = false;
    this.draw();
    if (this.g!.result) this.ended();
    else this.connect(top.id);
  }

  none(): void {
    this.top = this.g = null;
    this.box.hidden = !this.big;
    for (const part of [this.about, this.above, this.below, this.board, this.extra]) part.replaceChildren();
    this.status.textContent = t("tv.none");
    if (++this.tries < looks) {
      setTimeout(() => void this.look(), lookEvery);
      return;
    }
    const again = h("button", { type: "button" }, t("tv.again"));
    again.addEventListener("click", () => {
      this.tries = 0;
      void this.look();
    });
    this.extra.replaceChildren(again);
  }

  // connect follows game id over its socket; a closed socket asks for the
  // top game again.
  connect(id: string): void {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/games/${id}/ws`);
    this.ws = ws;
    ws.onmessage = async (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type !== "game" || !msg.game || this.ws !== ws || !this.g || msg.game.version <= this.g.version) return;
      const pos: Position = msg.position ?? (await request<Position>("GET", `/api/games/${id}/position`).catch(() => this.pos));
      if (this.ws !== ws || msg.game.version <= this.g.version) return; // a later event came meanwhile
      Object.assign(this, { g: msg.game, pos, at: performance.now() });
      this.draw();
      if (msg.game.result) this.ended();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      setTimeout(() => void this.look(), 1000);
    };
  }

  // ended shows the result a few seconds, then the next top game.
  ended(): void {
    this.done = this.top!.id;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.status.textContent = `${endText(this.g!)} ${t("tv.next")}`;
    setTimeout(() => void this.look(), resultFor);
  }

  draw(): void {
    const { top, g, pos, geo } = this;
    if (!top || !g || !pos || !geo) return;
    const players = top.seats.map((s) => s.name).join(` ${t("game.vs")} `);
    const status = g.result ? endText(g) : t("game.status.to_move", { Seat: sideName(g.seats[g.toMove].side) });
    const name = g.name ?? g.game;
    this.board.replaceChildren(pictureBoard(geo, pos.stacks, pos.toMove, g.game, t("game.board_label", { Game: `${name} (${players})`, Status: status })));
    const n = g.seats.length;
    replaceKeepingFocus(this.above, ...Array.from({ length: n - 1 }, (_, i) => this.strip(n - 1 - i)));
    replaceKeepingFocus(this.below, this.strip(0));
    if (!g.result) this.status.textContent = status;
    const about: (Node | string)[] = [name];
    if (top.tournament) about.push(" · ", h("a", { href: `/tournaments/${encodeURIComponent(top.tournament.id)}`, class: "tv-tournament" }, top.tournament.name));
    replaceKeepingFocus(this.about, ...about);
    const open = h("a", { href: `/games/${encodeURIComponent(g.id)}` }, t("tv.open"));
    replaceKeepingFocus(this.extra, ...(this.big ? [open] : [h("a", { href: "/tv", class: "tv-watch" }, t("tv.watch")), open]));
  }

  // strip is a seat's player: their piece, name (a bot's marked) and
  // rating, and clock.
  strip(seat: number): HTMLElement {
    const g = this.g!, s = g.seats[seat], who = this.top!.seats[seat];
    const turn = !g.result && g.toMove === seat;
    const won = !!g.result?.winners.includes(seat);
    const out = h("div", { class: `player${turn ? " to-move" : ""}${won ? " winner" : ""}`, "data-seat": String(seat) },
      h("span", { class: `chip side-${s.side[0].toLowerCase()}`, "aria-hidden": "true" }),
      h("span", { class: "who" }, h("span", { class: "side" }, sideName(s.side)), " ", h("span", { class: "name" }, ...botTag((s as { bot?: boolean }).bot), who ? profileLink(who.name) : ""),
        " ", h("span", { class: "rating" }, who ? ratingText(who.rating) : "")));
    if (g.clock) out.append(h("span", { class: `clock${turn && g.clock.running ? " running" : ""}`, "data-seat": String(seat), role: "timer", "aria-label": t("game.clock_label", { Side: sideName(s.side) }) }, this.left(seat)));
    return out;
  }

  // left is seat's time now: the server's figure, less the time since for
  // the seat to move.
  left(seat: number): string {
    const g = this.g!, c = g.clock!;
    const running = c.running && !g.result && g.toMove === seat;
    return clockText(c.leftMs[seat] - (running ? performance.now() - this.at : 0));
  }

  tick(): void {
    if (!this.g?.clock || this.g.result) return;
    for (const span of this.box.querySelectorAll<HTMLElement>(".clock[data-seat]")) {
      const text = this.left(Number(span.dataset.seat));
      if (span.textContent !== text) span.textContent = text;
    }
  }
}

// endText says how g ended.
function endText(g: Game): string {
  return resultText({ winners: g.result?.winners ?? [], reason: g.result?.reason ?? "", sides: g.seats.map((s) => s.side), description: g.description });
}

// topGameBox is the home page's box: hidden until a game is in play.
export function topGameBox(): HTMLElement {
  const box = h("section", { class: "tv-box", "aria-labelledby": "tv-title", hidden: "" }, h("h2", { id: "tv-title" }, t("tv.title")));
  new TV(box, false);
  return box;
}

// tvPage is /tv.
export function tvPage(root: HTMLElement): void {
  const box = h("main", { class: "tv" });
  root.replaceChildren(siteHeader(h("h1", {}, t("tv.title"))), box);
  new TV(box, true);
}
