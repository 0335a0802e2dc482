// A game's chat: the players' room, and the spectators' (docs/server.md,
// "Chat and moderation"). The rooms and their messages come from
// GET /api/games/{id}/chat, new messages over the game's socket; a message
// is sent by POST. Each message can be reported; a new account's links
// are shown as text.

import { ApiError, request } from "./api";
import { h } from "./dom";
import { t } from "./i18n";
import { me } from "./players";

export interface ChatMessage {
  id: string;
  room: string;
  by: string;
  text: string;
  at: number;
  links: boolean;
}

interface Room {
  room: string;
  write: boolean;
  why?: string;
  messages: ChatMessage[];
}

const roomTitles: Record<string, string> = { players: t("chat.players"), spectators: t("chat.spectators") };
// roomLabels name the rooms' fields, for screen readers.
const roomLabels: Record<string, string> = { players: t("chat.to_players"), spectators: t("chat.to_spectators") };
const maxKept = 200;

export class Chat {
  readonly root: HTMLElement;
  private rooms: Room[] = [];
  private you: string | null = null;
  private lists = new Map<string, HTMLElement>();

  constructor(private readonly gameId: string) {
    this.root = h("section", { class: "chat", "aria-label": t("chat.label") });
  }

  // load reads the rooms again: on opening, and when the socket comes
  // back (messages sent meanwhile are in the answer).
  async load(): Promise<void> {
    try {
      const [answer, you] = await Promise.all([request<{ rooms: Room[] }>("GET", `/api/games/${this.gameId}/chat`), me()]);
      this.rooms = answer.rooms;
      this.you = you;
    } catch {
      return; // the chat is not the game: the page goes on without it
    }
    this.draw();
  }

  // add shows a message the socket brought.
  add(m: ChatMessage): void {
    const room = this.rooms.find((r) => r.room === m.room);
    if (!room || room.messages.some((x) => x.id === m.id)) return;
    room.messages.push(m);
    if (room.messages.length > maxKept) room.messages.shift();
    const list = this.lists.get(m.room);
    if (!list) return;
    list.querySelector(".chat-empty")?.remove();
    list.append(this.line(m));
    list.scrollTop = list.scrollHeight;
  }

  private draw(): void {
    this.lists.clear();
    this.root.replaceChildren(...this.rooms.map((r) => this.roomNode(r)));
    for (const list of this.lists.values()) list.scrollTop = list.scrollHeight;
  }

  private roomNode(r: Room): HTMLElement {
    const titleId = `chat-${r.room}-title`;
    const list = h("ul", { class: "chat-lines", "aria-live": "polite", "aria-labelledby": titleId, tabindex: "0" });
    list.append(...(r.messages.length ? r.messages.map((m) => this.line(m)) : [h("li", { class: "chat-empty" }, t("chat.empty"))]));
    this.lists.set(r.room, list);
    return h("div", { class: `chat-room room-${r.room}` }, h("h2", { id: titleId }, roomTitles[r.room] ?? r.room), list, this.form(r));
  }

  private line(m: ChatMessage): HTMLElement {
    const who = h("a", { class: "chat-by", href: `/@/${encodeURIComponent(m.by)}` }, m.by);
    const li = h("li", { class: "chat-line", "data-id": m.id }, who, " ", h("span", { class: "chat-text" }, ...textNodes(m.text, m.links)));
    if (this.you && this.you !== m.by) {
      const flag = h("button", { type: "button", class: "chat-report", "aria-label": t("chat.report_label", { Name: m.by }), title: t("chat.report_title") }, "⚑");
      flag.addEventListener("click", () => li.append(reportForm({ account: m.by, game: this.gameId, message: m.id }, () => flag.remove())));
      li.append(flag);
    }
    return li;
  }

  private form(r: Room): HTMLElement {
    if (!r.write) return h("p", { class: "chat-why" }, r.why ?? "");
    const id = `chat-${r.room}-text`;
    const input = h("input", { id, class: "chat-input", maxlength: "280", autocomplete: "off", placeholder: t("chat.placeholder") });
    const error = h("p", { class: "chat-error", role: "alert" });
    const form = h("form", { class: "chat-form" }, h("label", { for: id, class: "sr-only" }, roomLabels[r.room] ?? r.room),
      input, h("button", { type: "submit" }, t("chat.send")), error);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      error.textContent = "";
      try {
        const m = await request<ChatMessage>("POST", `/api/games/${this.gameId}/chat`, { room: r.room, text });
        input.value = "";
        this.add(m);
      } catch (e) {
        error.textContent = (e as Error).message;
        if (e instanceof ApiError && (e.code === "blocked" || e.code === "muted" || e.code === "banned")) void this.load();
      }
    });
    return form;
  }
}

// textNodes is a message's text, its links made clickable only when the
// author's account may post them.
function textNodes(text: string, links: boolean): (Node | string)[] {
  if (!links) return [text];
  const out: (Node | string)[] = [];
  let last = 0;
  for (const m of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    out.push(text.slice(last, m.index));
    out.push(h("a", { href: m[0], rel: "nofollow noopener ugc", target: "_blank" }, m[0]));
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

// reportForm asks for a report's reason and sends it: of an account, and
// of one of its games or messages.
export function reportForm(what: { account: string; game?: string; message?: string }, sent: () => void): HTMLElement {
  const id = `report-${what.message ?? what.game ?? what.account}`;
  const reason = h("input", { id, class: "report-reason", minlength: "3", maxlength: "500", required: "" });
  const status = h("p", { class: "report-status", role: "status" });
  const form = h("form", { class: "report-form" }, h("label", { for: id }, t("chat.report_why")), reason,
    h("button", { type: "submit" }, t("chat.report_send")), status);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await request("POST", "/api/reports", { ...what, reason: reason.value.trim() });
      form.replaceChildren(h("p", { class: "report-status", role: "status" }, t("chat.reported")));
      sent();
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  });
  setTimeout(() => reason.focus(), 0);
  return form;
}
