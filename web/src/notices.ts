// Notifications (docs/server.md, "Notifications"): the account page's
// section (the choices by kind and channel, this browser's own notices,
// push to this device, the e-mail address), the pages of the links the
// site mails (an address's verification, a password's reset, stopping a
// kind of mail) and the forgotten password's form, and the notices the
// open page shows when its tab is hidden.

import { ApiError, request } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { lang, t, tParts } from "./i18n";

interface Settings {
  prefs: Record<string, Record<string, boolean>>;
  kinds: string[];
  channels: string[];
  email: { address: string; verified: boolean } | null;
  mail: boolean;
  vapidKey: string;
  subscriptions: { id: string; host: string; created: string }[];
}

// kindName and channelName are the words for the API's kinds and channels.
function kindName(k: string): string {
  const names: Record<string, string> = { turn: t("notify.kind.turn"), challenge: t("notify.kind.challenge"),
    accepted: t("notify.kind.accepted"), ended: t("notify.kind.ended"), tournament: t("notify.kind.tournament") };
  return names[k] ?? k;
}

function channelName(c: string): string {
  const names: Record<string, string> = { page: t("notify.channel.page"), push: t("notify.channel.push"), email: t("notify.channel.email") };
  return names[c] ?? c;
}

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
    h("h2", { id: "notify-title" }, t("notify.title")), h("p", { class: "none loading" }, t("notify.loading")));
  const draw = async () => {
    const s = await request<Settings>("GET", "/api/account/notifications").catch((e: Error) => e);
    if (s instanceof Error) {
      box.lastElementChild?.replaceWith(h("p", {}, s instanceof ApiError && s.code === "unavailable" ? t("notify.none") : s.message)); // i18n-ignore: an API code
      return;
    }
    box.replaceChildren(box.firstElementChild!, h("p", {}, t("notify.about")),
      prefsTable(s), deviceBox(s, draw), emailBox(s, draw));
  };
  void draw();
  return box;
}

function prefsTable(s: Settings): HTMLElement {
  const result = status("prefs-status");
  const head = h("tr", {}, h("th", { scope: "col" }, t("notify.when")), ...s.channels.map((c) => h("th", { scope: "col" }, channelName(c))));
  const rows = s.kinds.map((k) => h("tr", {}, h("th", { scope: "row" }, kindName(k)), ...s.channels.map((c) => {
    const box = h("input", { type: "checkbox", "aria-label": t("notify.pref_label", { Kind: kindName(k), Channel: channelName(c) }), "data-kind": k, "data-channel": c });
    box.checked = s.prefs[k]?.[c] ?? false;
    if (c === "email" && !s.email?.verified) box.disabled = true;
    box.addEventListener("change", () => void run(result, t("notify.saved"), () => request("PUT", "/api/account/notifications", { prefs: { [k]: { [c]: box.checked } } })));
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
  if ("Notification" in window) { // i18n-ignore: the API's name
    const allow = h("button", { type: "button", class: "allow-notices" }, t("notify.allow"));
    allow.addEventListener("click", () => void Notification.requestPermission().then((p) => say(result, p === "granted" ? t("notify.allowed") : t("notify.refused"), p === "granted")));
    parts.push(allow);
  }
  if ("serviceWorker" in navigator && "PushManager" in window && s.vapidKey) { // i18n-ignore: the API's name
    const on = h("button", { type: "button", class: "push-on" }, t("notify.push"));
    on.addEventListener("click", () => void run(result, t("notify.pushed"), async () => {
      const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: s.vapidKey });
      await request("POST", "/api/account/push", sub.toJSON());
      await redraw();
    }));
    parts.push(on);
  } else {
    parts.push(h("p", { class: "hint" }, t("notify.no_push")));
  }
  const list = h("ul", { class: "push-devices" }, ...s.subscriptions.map((d) => {
    const remove = h("button", { type: "button", "aria-label": t("notify.remove_label", { Host: d.host }) }, t("notify.remove"));
    remove.addEventListener("click", () => void run(result, t("notify.removed"), async () => {
      await request("DELETE", `/api/account/push/${encodeURIComponent(d.id)}`);
      await redraw();
    }));
    return h("li", {}, h("span", {}, t("notify.device_since", { Host: d.host, Date: new Date(d.created).toLocaleDateString(lang()) })), remove);
  }));
  if (!s.subscriptions.length) list.append(h("li", { class: "none" }, t("notify.no_device")));
  return h("div", { class: "notify-device" }, h("h3", {}, t("notify.this_device")), h("p", { class: "account-actions" }, ...parts), list, result);
}

function emailBox(s: Settings, redraw: () => Promise<void>): HTMLElement {
  if (!s.mail) return h("div", { class: "notify-email" }, h("h3", {}, t("notify.channel.email")), h("p", {}, t("notify.no_mail")));
  const result = status("email-status");
  const input = h("input", { id: "email", type: "email", maxlength: "254", autocomplete: "email", value: s.email?.address ?? "", "aria-describedby": "email-state email-status" });
  const state = h("p", { id: "email-state", class: "hint" }, !s.email ? t("notify.email.none")
    : s.email.verified ? t("notify.email.verified", { Address: s.email.address }) : t("notify.email.waiting", { Address: s.email.address }));
  const form = h("form", { class: "account-form" }, h("p", { class: "field" }, h("label", { for: "email" }, t("notify.email.label")), input), state, result,
    h("p", { class: "account-actions" }, h("button", { type: "submit" }, t("notify.email.save")),
      ...(s.email ? [h("button", { type: "button", class: "remove-email" }, t("notify.email.remove"))] : [])));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void run(result, t("notify.email.sent"), async () => {
      await request("PUT", "/api/account/email", { address: input.value.trim() });
      await redraw();
    });
  });
  form.querySelector(".remove-email")?.addEventListener("click", () => void run(result, t("notify.removed"), async () => {
    await request("DELETE", "/api/account/email");
    await redraw();
  }));
  return h("div", { class: "notify-email" }, h("h3", {}, t("notify.channel.email")), form);
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
  const form = h("form", { class: "auth-form" }, h("p", { class: "field" }, h("label", { for: "who" }, t("notify.forgot.who")), who), result,
    h("button", { type: "submit" }, t("notify.forgot.submit")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void request<{ message: string }>("POST", "/api/password/forgot", { name: who.value.trim() }).then((a) => say(result, a.message), (e: Error) => say(result, e.message, false));
  });
  linkPage(root, t("shell.forgot.title"), h("p", {}, t("notify.forgot.about")), form);
}

// resetPage sets a new password by the mailed link.
export function resetPage(root: HTMLElement): void {
  const result = status("reset-status");
  const pw = h("input", { id: "password", type: "password", required: "", minlength: "8", autocomplete: "new-password", "aria-describedby": "reset-help reset-status" });
  const form = h("form", { class: "auth-form" }, h("p", { class: "field" }, h("label", { for: "password" }, t("account.password_new")), pw,
    h("small", { id: "reset-help" }, t("auth.password_help"))), result, h("button", { type: "submit" }, t("notify.reset.submit")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void request("POST", "/api/password/reset", { token: token(), password: pw.value }).then(() => {
      form.replaceChildren(h("p", { role: "status" }, ...tParts("notify.reset.done", { SignIn: h("a", { href: "/login" }, t("players.sign_in")) })));
    }, (e: Error) => say(result, e.message, false));
  });
  linkPage(root, t("shell.reset.title"), form);
}

// verifyPage verifies the address of the mailed link.
export function verifyPage(root: HTMLElement): void {
  const result = h("p", { role: "status" }, t("notify.verify.busy"));
  linkPage(root, t("shell.verify.title"), result, h("p", {}, h("a", { href: "/account#notify" }, t("notify.verify.yours"))));
  void request<{ address: string }>("POST", "/api/email/verify", { token: token() }).then((a) => { result.textContent = t("notify.email.verified", { Address: a.address }); },
    (e: Error) => { result.textContent = e.message; });
}

// unsubscribePage stops the mails of the link's kind, by the same
// one-click POST a mail program sends (RFC 8058).
export function unsubscribePage(root: HTMLElement): void {
  const result = status("unsubscribe-status");
  const stop = h("button", { type: "button" }, t("notify.unsubscribe.stop"));
  stop.addEventListener("click", () => void fetch(location.pathname + location.search, { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) }) // i18n-ignore: RFC 8058's form
    .then(async (r) => say(result, r.ok ? t("notify.unsubscribe.done") : ((await r.json()).error?.message ?? t("notify.unsubscribe.refused", { Status: String(r.status) })), r.ok)));
  linkPage(root, t("shell.unsubscribe.title"), h("p", {}, t("notify.unsubscribe.about")), stop, result);
}

let pagePrefs: Promise<Settings | null> | null = null;

// pageNotice shows a notice of kind when the tab is hidden, the browser
// lets the site show them, and the player wants that kind on the page.
export function pageNotice(kind: string, title: string, url: string): void {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return; // i18n-ignore: the API's name
  pagePrefs ??= request<Settings>("GET", "/api/account/notifications").catch(() => null);
  void pagePrefs.then((s) => {
    if (!s?.prefs[kind]?.page) return;
    const n = new Notification(title, { tag: kind });
    n.onclick = () => { window.focus(); location.assign(url); };
  });
}
