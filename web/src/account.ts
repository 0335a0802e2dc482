// The account page, /account: the games in progress, a new password,
// passkeys, API tokens, the notifications (notices.ts), logging out everywhere, the
// export of every game, and deleting the account. A visitor who is not signed in is sent to sign in first.

import { request, type CatalogGame } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { notificationsBox } from "./notices";
import { t, tParts } from "./i18n";
import { addPasskey, listPasskeys, passkeysSupported, removePasskey } from "./passkeys";
import { dateText, me, opponentNode, profileLink, type PlayedGame } from "./players";
import { languageSelect } from "./theme";

export async function accountPage(root: HTMLElement): Promise<void> {
  const name = await me();
  if (!name) {
    location.replace(`/login?next=${encodeURIComponent("/account")}`);
    return;
  }
  const catalog = await request<CatalogGame[]>("GET", "/api/catalog").catch(() => [] as CatalogGame[]);
  root.replaceChildren(siteHeader(h("h1", {}, t("account.title"))),
    h("main", { class: "account" },
      h("p", { class: "account-who" }, ...tParts("account.signed_in", { Name: profileLink(name) })),
      ongoing(catalog), passwordBox(), passkeysBox(), tokensBox(), notificationsBox(), languageBox(), sessionsBox(name), deleteBox()));
}

// panel is a section of the page with its heading.
function panel(id: string, title: string, ...children: Node[]): HTMLElement {
  return h("section", { class: "account-box", id, "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), ...children);
}

// passwordField is a labelled password input.
function passwordField(id: string, label: string, autocomplete: string): [HTMLElement, HTMLInputElement] {
  const input = h("input", { id, type: "password", required: "", autocomplete, "aria-describedby": `${id.split("-")[0]}-status` });
  return [h("p", { class: "field" }, h("label", { for: id }, label), input), input];
}

// status is a form's outcome: the server's refusal, or that it was done.
function status(id: string): HTMLElement {
  return h("p", { class: "form-status", id, role: "status", "aria-live": "polite" });
}

function say(el: HTMLElement, text: string, ok: boolean): void {
  el.textContent = text;
  el.classList.toggle("ok", ok);
}

// languageBox chooses the pages' language, as the header's Display menu
// does: remembered in this browser (a cookie), signed in or not.
function languageBox(): HTMLElement {
  return panel("language", t("account.language"), h("p", { class: "hint" }, t("account.language_help")), languageSelect(t("account.language_label")));
}

function ongoing(catalog: CatalogGame[]): HTMLElement {
  const list = h("ul", { class: "played-games" });
  const none = h("p", { class: "none" });
  request<PlayedGame[]>("GET", "/api/account/games").then((games) => {
    if (games.length === 0) none.textContent = t("account.no_game");
    list.append(...games.map((g) => {
      const who: (Node | string)[] = [];
      g.opponents.forEach((_, i) => who.push(...(i ? [", "] : [t("account.vs") + " "]), opponentNode(g, i)));
      return h("li", { class: "played", "data-game": g.id },
        h("span", { class: "what" }, h("a", { href: `/play/${g.id}` }, catalog.find((c) => c.id === g.game)?.name ?? g.game), " ", h("span", { class: "mode" }, g.rated ? t("account.rated") : t("account.casual"))),
        h("span", { class: "opponents" }, ...who), h("time", { dateTime: g.created }, dateText(g.created)));
    }));
  }, (e: Error) => { none.textContent = e.message; });
  return panel("ongoing", t("account.ongoing"), list, none);
}

function passwordBox(): HTMLElement {
  const [oldField, old] = passwordField("password-old", t("account.password_old"), "current-password");
  const [newField, next] = passwordField("password-new", t("account.password_new"), "new-password");
  const result = status("password-status");
  const form = h("form", { class: "account-form" }, oldField, newField, result, h("button", { type: "submit" }, t("account.password_submit")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await request("POST", "/api/account/password", { old: old.value, new: next.value });
      form.reset();
      say(result, t("account.password_changed"), true);
    } catch (e) {
      say(result, (e as Error).message, false);
    }
  });
  return panel("password", t("account.password_title"), form);
}

// passkeysBox lists the account's passkeys, each with Remove, and adds
// one made by this browser, named by the player.
function passkeysBox(): HTMLElement {
  // A line stands in for the listing until it comes, so that the form
  // under it does not jump down under the player's finger.
  const list = h("ul", { class: "passkeys" }, h("li", { class: "none loading" }, t("account.passkeys.loading")));
  const result = status("passkey-status");
  // Each listing is numbered and only the latest is drawn: the first,
  // asked for as the page opens, may answer after the one asked for
  // once a passkey is added, and must not hide it again.
  let asked = 0;
  const show = async () => {
    const mine = ++asked;
    const keys = await listPasskeys();
    if (mine !== asked) return;
    list.replaceChildren(...keys.map((k) => {
      const remove = h("button", { type: "button", class: "remove-passkey", "aria-label": t("account.passkeys.remove_label", { Name: k.name }) }, t("account.passkeys.remove"));
      remove.addEventListener("click", async () => {
        try {
          await removePasskey(k.id);
          say(result, t("account.passkeys.removed", { Name: k.name }), true);
        } catch (e) {
          say(result, (e as Error).message, false);
        }
        void show();
      });
      return h("li", { "data-passkey": k.id }, h("span", { class: "passkey-name" }, k.name),
        h("span", { class: "hint" }, t("account.passkeys.added", { Date: dateText(k.created) }) + (k.used ? t("account.passkeys.used", { Date: dateText(k.used) }) : "")), remove);
    }));
    if (keys.length === 0) list.append(h("li", { class: "none" }, t("account.passkeys.none")));
  };
  void show();
  if (!passkeysSupported()) return panel("passkeys", t("account.passkeys.title"), list, h("p", {}, t("account.passkeys.unsupported")));
  const name = h("input", { id: "passkey-name", value: t("account.passkeys.this_device"), maxlength: "60", autocomplete: "off", "aria-describedby": "passkey-status" });
  const form = h("form", { class: "account-form" }, h("p", { class: "field" }, h("label", { for: "passkey-name" }, t("account.passkeys.name")), name),
    result, h("button", { type: "submit", class: "add-passkey" }, t("account.passkeys.add")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await addPasskey(name.value.trim() || t("account.passkeys.default_name"));
      say(result, t("account.passkeys.added_ok"), true);
      void show();
    } catch (e) {
      say(result, (e as Error).message, false);
    }
  });
  return panel("passkeys", t("account.passkeys.title"), h("p", {}, t("account.passkeys.about")), list, form);
}

// tokensBox lists the account's API tokens, each with Revoke, and makes
// one, whose secret it shows this once: a program (an engine brought as
// a bot) acts for the account with it.
function tokensBox(): HTMLElement {
  const list = h("ul", { class: "tokens" });
  const result = status("token-status");
  const show = async () => {
    const { tokens } = await request<{ tokens: { id: string; description: string; created: string }[] }>("GET", "/api/account/tokens");
    list.replaceChildren(...tokens.map((tok) => {
      const revoke = h("button", { type: "button", class: "revoke-token", "aria-label": t("account.tokens.revoke_label", { Name: tok.description }) }, t("account.tokens.revoke"));
      revoke.addEventListener("click", () => request("DELETE", `/api/account/tokens/${tok.id}`).then(show, (e: Error) => say(result, e.message, false)));
      return h("li", { "data-token": tok.id }, h("span", { class: "token-name" }, tok.description), h("span", { class: "hint" }, t("account.tokens.made", { Date: dateText(tok.created) })), revoke);
    }));
    if (tokens.length === 0) list.append(h("li", { class: "none" }, t("account.tokens.none")));
  };
  void show().catch((e: Error) => say(result, e.message, false));
  const what = h("input", { id: "token-description", maxlength: "60", autocomplete: "off", "aria-describedby": "token-status" });
  const form = h("form", { class: "account-form" }, h("p", { class: "field" }, h("label", { for: "token-description" }, t("account.tokens.what")), what),
    result, h("button", { type: "submit", class: "make-token" }, t("account.tokens.make")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const made = await request<{ token: string }>("POST", "/api/account/tokens", { description: what.value });
      form.reset();
      result.replaceChildren(...tParts("account.tokens.made_ok", { Token: h("code", { class: "new-token" }, made.token) }));
      result.classList.add("ok");
      void show();
    } catch (e) {
      say(result, (e as Error).message, false);
    }
  });
  return panel("tokens", t("account.tokens.title"), h("p", {}, t("account.tokens.about")), list, form);
}

function sessionsBox(name: string): HTMLElement {
  const everywhere = h("button", { type: "button", class: "log-out-everywhere" }, t("account.sessions.everywhere"));
  everywhere.addEventListener("click", async () => {
    await request("DELETE", "/api/account/sessions").catch(() => null);
    location.assign("/login");
  });
  return panel("sessions", t("account.sessions.title"),
    h("p", {}, t("account.sessions.everywhere_help")), everywhere,
    h("p", {}, t("account.sessions.export_help") + " "),
    h("a", { href: "/api/account/export", download: `arbiter-${name}.pdn`, class: "button export" }, t("account.sessions.export")));
}

function deleteBox(): HTMLElement {
  const [pwField, password] = passwordField("delete-password", t("account.delete.password"), "current-password");
  const sure = h("input", { type: "checkbox", id: "delete-sure" });
  const result = status("delete-status");
  const form = h("form", { class: "account-form" },
    h("p", {}, t("account.delete.warning")),
    pwField, h("p", {}, h("label", { for: "delete-sure" }, sure, t("account.delete.sure"))), result,
    h("button", { type: "submit", class: "danger delete-account" }, t("account.delete.title")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!sure.checked) {
      say(result, t("account.delete.tick"), false);
      sure.focus();
      return;
    }
    try {
      await request("DELETE", "/api/account", { password: password.value });
      location.assign("/");
    } catch (e) {
      say(result, (e as Error).message, false);
    }
  });
  return panel("delete", t("account.delete.title"), h("details", {}, h("summary", {}, t("account.delete.open")), form));
}
