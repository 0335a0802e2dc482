// Notifications (docs/server.md, "Notifications"): the account page's
// section (the choices by kind and channel, this browser's own notices,
// push to this device, the e-mail address), the pages of the links the
// site mails (an address's verification, a password's reset, stopping a
// kind of mail) and the forgotten password's form, and the notices the
// open page shows when its tab is hidden.

import { request } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";

interface Settings {
  prefs: Record<string, Record<string, boolean>>;
  kinds: string[];
  channels: string[];
  email: { address: string; verified: boolean } | null;
  mail: boolean;
  vapidKey: string;
  subscriptions: { id: string; host: string; created: string }[];
}

const kindNames: Record<string, string> = { turn: "Your move in a correspondence game", challenge: "A challenge to you",
  accepted: "Your correspondence seek taken", ended: "A game your opponent ended", tournament: "A tournament about to start (none yet)" };
const channelNames: Record<string, string> = { page: "This page", push: "Push", email: "E-mail" };

function status(id: string): HTMLElement {
  return h("p", { class: "form-status", id, role: "status", "aria-live": "polite" });
}

function say(el: HTMLElement, text: string, ok = true): void {
  el.textContent = text;
  el.classList.toggle("ok", ok);
}

// run does an action for a button, saying its outcome or its refusal.
async function run(el: HTMLElement, done: string, act: () => Promise<unknown>): Promise<void> {
  try {
    await act();
    say(el, done);
  } catch (e) {
    say(el, (e as Error).message, false);
  }
}

// notificationsBox is the account page's section; it says so when this
// server sends none.
export function notificationsBox(): HTMLElement {
  const box = h("section", { class: "account-box notify", id: "notify", "aria-labelledby": "notify-title" },
    h("h2", { id: "notify-title" }, "Notifications"), h("p", { class: "none loading" }, "Reading your settings…"));
  const draw = async () => {
    const s = await request<Settings>("GET", "/api/account/notifications").catch((e: Error) => e);
    if (s instanceof Error) {
      box.lastElementChild?.replaceWith(h("p", {}, s.message));
      return;
    }
    box.replaceChildren(box.firstElementChild!, h("p", {}, "What reaches you, and how. A correspondence turn is told two minutes after the move, if it is still yours; a live game tells nothing."),
      prefsTable(s), deviceBox(s, draw), emailBox(s, draw));
  };
  void draw();
  return box;
}

function prefsTable(s: Settings): HTMLElement {
  const result = status("prefs-status");
  const head = h("tr", {}, h("th", { scope: "col" }, "When"), ...s.channels.map((c) => h("th", { scope: "col" }, channelNames[c] ?? c)));
  const rows = s.kinds.map((k) => h("tr", {}, h("th", { scope: "row" }, kindNames[k] ?? k), ...s.channels.map((c) => {
    const box = h("input", { type: "checkbox", "aria-label": `${kindNames[k] ?? k}: ${channelNames[c] ?? c}`, "data-kind": k, "data-channel": c });
    box.checked = s.prefs[k]?.[c] ?? false;
    if (c === "email" && !s.email?.verified) box.disabled = true;
    box.addEventListener("change", () => void run(result, "Saved.", () => request("PUT", "/api/account/notifications", { prefs: { [k]: { [c]: box.checked } } })));
    return h("td", {}, box);
  })));
  return h("div", { class: "notify-prefs" }, h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, ...rows))), result);
}

// deviceBox is this browser's own notices (the Notification API, asked
// for from a button, never as the page opens) and push to this device,
// with the devices that get pushes.
function deviceBox(s: Settings, redraw: () => Promise<void>): HTMLElement {
  const result = status("device-status");
  const parts: Node[] = [];
  if ("Notification" in window) {
    const allow = h("button", { type: "button", class: "allow-notices" }, "Let this browser show notices");
    allow.addEventListener("click", () => void Notification.requestPermission().then((p) => say(result, p === "granted" ? "This browser shows notices while a page of the site is open in a hidden tab." : "This browser does not show notices: its settings decide.", p === "granted")));
    parts.push(allow);
  }
  if ("serviceWorker" in navigator && "PushManager" in window && s.vapidKey) {
    const on = h("button", { type: "button", class: "push-on" }, "Push to this device");
    on.addEventListener("click", () => void run(result, "This device gets pushes, even with the site closed.", async () => {
      const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: s.vapidKey });
      await request("POST", "/api/account/push", sub.toJSON());
      await redraw();
    }));
    parts.push(on);
  } else {
    parts.push(h("p", { class: "hint" }, "This browser cannot get pushes."));
  }
  const list = h("ul", { class: "push-devices" }, ...s.subscriptions.map((d) => {
    const remove = h("button", { type: "button", "aria-label": `Stop pushes to the device of ${d.host}` }, "Remove");
    remove.addEventListener("click", () => void run(result, "Removed.", async () => {
      await request("DELETE", `/api/account/push/${encodeURIComponent(d.id)}`);
      await redraw();
    }));
    return h("li", {}, h("span", {}, `A device by ${d.host}, since ${new Date(d.created).toLocaleDateString()}`), remove);
  }));
  if (!s.subscriptions.length) list.append(h("li", { class: "none" }, "No device gets pushes."));
  return h("div", { class: "notify-device" }, h("h3", {}, "This device"), h("p", { class: "account-actions" }, ...parts), list, result);
}

function emailBox(s: Settings, redraw: () => Promise<void>): HTMLElement {
  if (!s.mail) return h("div", { class: "notify-email" }, h("h3", {}, "E-mail"), h("p", {}, "This site sends no e-mail."));
  const result = status("email-status");
  const input = h("input", { id: "email", type: "email", maxlength: "254", autocomplete: "email", value: s.email?.address ?? "", "aria-describedby": "email-state email-status" });
  const state = h("p", { id: "email-state", class: "hint" }, !s.email ? "No address: nothing is mailed, and a forgotten password cannot be reset."
    : s.email.verified ? `${s.email.address} is verified.` : `${s.email.address} waits for you to follow the link mailed to it; nothing else is mailed to it until then.`);
  const form = h("form", { class: "account-form" }, h("p", { class: "field" }, h("label", { for: "email" }, "Your address"), input), state, result,
    h("p", { class: "account-actions" }, h("button", { type: "submit" }, "Save and verify"),
      ...(s.email ? [h("button", { type: "button", class: "remove-email" }, "Remove the address")] : [])));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void run(result, "A link is on its way to the address: follow it to verify.", async () => {
      await request("PUT", "/api/account/email", { address: input.value.trim() });
      await redraw();
    });
  });
  form.querySelector(".remove-email")?.addEventListener("click", () => void run(result, "Removed.", async () => {
    await request("DELETE", "/api/account/email");
    await redraw();
  }));
  return h("div", { class: "notify-email" }, h("h3", {}, "E-mail"), form);
}

// linkPage draws a page of the account shell: a heading and its box.
function linkPage(root: HTMLElement, title: string, ...children: Node[]): void {
  root.replaceChildren(siteHeader(h("h1", {}, title)),
    h("main", { class: "auth" }, h("section", { class: "auth-box", "aria-labelledby": "link-title" }, h("h2", { id: "link-title" }, title), ...children)));
}

const token = () => new URLSearchParams(location.search).get("token") ?? "";

// forgotPage asks for a reset link by name or address; the answer is the
// same whoever it names.
export function forgotPage(root: HTMLElement): void {
  const result = status("forgot-status");
  const who = h("input", { id: "who", required: "", maxlength: "254", autocomplete: "username", autocapitalize: "off", spellcheck: "false", "aria-describedby": "forgot-status" });
  const form = h("form", { class: "auth-form" }, h("p", { class: "field" }, h("label", { for: "who" }, "Your name or e-mail address"), who), result,
    h("button", { type: "submit" }, "Mail me a link"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void request<{ message: string }>("POST", "/api/password/forgot", { name: who.value.trim() }).then((a) => say(result, a.message), (e: Error) => say(result, e.message, false));
  });
  linkPage(root, "Forgot your password?", h("p", {}, "A link to choose a new password is mailed to the account's verified address."), form);
}

// resetPage sets a new password by the mailed link.
export function resetPage(root: HTMLElement): void {
  const result = status("reset-status");
  const pw = h("input", { id: "password", type: "password", required: "", minlength: "8", autocomplete: "new-password", "aria-describedby": "reset-help reset-status" });
  const form = h("form", { class: "auth-form" }, h("p", { class: "field" }, h("label", { for: "password" }, "New password"), pw,
    h("small", { id: "reset-help" }, "At least 8 characters, not a common password, not your name.")), result, h("button", { type: "submit" }, "Set the password"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void request("POST", "/api/password/reset", { token: token(), password: pw.value }).then(() => {
      form.replaceChildren(h("p", { role: "status" }, "Your password is set; every session of the account ended. ", h("a", { href: "/login" }, "Sign in")));
    }, (e: Error) => say(result, e.message, false));
  });
  linkPage(root, "A new password", form);
}

// verifyPage verifies the address of the mailed link.
export function verifyPage(root: HTMLElement): void {
  const result = h("p", { role: "status" }, "Verifying…");
  linkPage(root, "Your e-mail address", result, h("p", {}, h("a", { href: "/account#notify" }, "Your notifications")));
  void request<{ address: string }>("POST", "/api/email/verify", { token: token() }).then((a) => { result.textContent = `${a.address} is verified.`; },
    (e: Error) => { result.textContent = e.message; });
}

// unsubscribePage stops the mails of the link's kind, by the same
// one-click POST a mail program sends (RFC 8058).
export function unsubscribePage(root: HTMLElement): void {
  const result = status("unsubscribe-status");
  const stop = h("button", { type: "button" }, "Stop these mails");
  stop.addEventListener("click", () => void fetch(location.pathname + location.search, { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) })
    .then(async (r) => say(result, r.ok ? "Done: no more of these mails. Your account page sets the rest." : ((await r.json()).error?.message ?? `refused: ${r.status}`), r.ok)));
  linkPage(root, "Stop these mails", h("p", {}, "The link of a mail from this site: it stops that kind of mail to your address."), stop, result);
}

let pagePrefs: Promise<Settings | null> | null = null;

// pageNotice shows a notice of kind when the tab is hidden, the browser
// lets the site show them, and the player wants that kind on the page.
export function pageNotice(kind: string, title: string, url: string): void {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  pagePrefs ??= request<Settings>("GET", "/api/account/notifications").catch(() => null);
  void pagePrefs.then((s) => {
    if (!s?.prefs[kind]?.page) return;
    const n = new Notification(title, { tag: kind });
    n.onclick = () => { window.focus(); location.assign(url); };
  });
}
