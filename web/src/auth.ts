// The sign-up and sign-in pages: a name and a password, the server's
// refusal shown beside the form; once in, the games this browser played
// without an account become the account's, and the page goes back where
// the player came from.

import { request } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { t, tParts } from "./i18n";
import { passkeysSupported, signInWithPasskey } from "./passkeys";
import { me, safeNext } from "./players";

export function authPage(root: HTMLElement, signup: boolean): void {
  const title = signup ? t("auth.signup.title") : t("auth.login.title");
  const error = h("p", { class: "form-error", id: "form-error", role: "alert" });
  const name = h("input", { id: "name", name: "name", autocomplete: "username", required: "", minlength: "2", maxlength: "20",
    autocapitalize: "off", spellcheck: "false", "aria-describedby": signup ? "name-help form-error" : "form-error" });
  const password = h("input", { id: "password", name: "password", type: "password", required: "",
    autocomplete: signup ? "new-password" : "current-password", "aria-describedby": signup ? "password-help form-error" : "form-error" });
  if (signup) password.setAttribute("minlength", "8");
  const submit = h("button", { type: "submit" }, signup ? t("auth.signup.submit") : t("auth.login.submit"));
  const form = h("form", { class: "auth-form", novalidate: "" },
    h("p", { class: "field" }, h("label", { for: "name" }, t("auth.name")), name,
      ...(signup ? [h("small", { id: "name-help" }, t("auth.name_help"))] : [])),
    h("p", { class: "field" }, h("label", { for: "password" }, t("auth.password")), password,
      ...(signup ? [h("small", { id: "password-help" }, t("auth.password_help"))] : [])),
    error, submit);
  const next = location.search;
  const other = signup
    ? h("p", { class: "auth-other" }, t("auth.have_account"), " ", h("a", { href: "/login" + next }, t("auth.login.title")))
    : h("p", { class: "auth-other" }, t("auth.new_here"), " ", h("a", { href: "/signup" + next }, t("auth.signup.title")), " · ", h("a", { href: "/forgot" }, t("auth.forgot")));
  const already = h("p", { class: "auth-already" });
  const passkey = !signup && passkeysSupported() ? [passkeyButton(error)] : [];
  root.replaceChildren(siteHeader(h("h1", {}, title)),
    h("main", { class: "auth" }, h("section", { class: "auth-box", "aria-labelledby": "auth-title" },
      h("h2", { id: "auth-title" }, title), already, form, ...passkey, other)));
  void me().then((who) => {
    if (who) already.replaceChildren(...tParts("auth.already", { Name: who, Link: h("a", { href: safeNext() }, t("auth.go_on")) }));
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    for (const f of [name, password]) f.removeAttribute("aria-invalid");
    const missing = !name.value.trim() ? name : !password.value ? password : null;
    if (missing) {
      refuse(error, missing, missing === name ? t("auth.enter_name") : t("auth.enter_password"));
      return;
    }
    submit.disabled = true;
    try {
      await request("POST", signup ? "/api/accounts" : "/api/session", { name: name.value.trim(), password: password.value });
      await claimGames();
      location.assign(safeNext());
    } catch (e) {
      const message = (e as Error).message;
      refuse(error, /password/i.test(message) && !/name/i.test(message) ? password : name, message);
      submit.disabled = false;
    }
  });
}

// passkeyButton signs in with a passkey of this site instead of the
// password: the browser asks which, the server names the account.
function passkeyButton(error: HTMLElement): HTMLElement {
  const b = h("button", { type: "button", class: "passkey-sign-in" }, t("auth.passkey"));
  b.addEventListener("click", async () => {
    error.textContent = "";
    b.disabled = true;
    try {
      await signInWithPasskey();
      await claimGames();
      location.assign(safeNext());
    } catch (e) {
      error.textContent = (e as Error).message;
      b.disabled = false;
    }
  });
  return h("p", { class: "auth-passkey" }, h("span", { class: "or" }, t("auth.or")), b);
}

// refuse shows why the form was refused, marks the field at fault and
// puts the keyboard on it; the alert role reads the message out.
function refuse(error: HTMLElement, field: HTMLInputElement, message: string): void {
  error.textContent = message;
  field.setAttribute("aria-invalid", "true");
  field.focus();
}

// claimGames hands the account every seat this browser holds a token
// of: the games played here before signing in become the account's. The
// server refuses what it will not take; that is no reason to stay here.
async function claimGames(): Promise<void> {
  const games: { id: string; token: string }[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i) ?? "";
    if (!key.startsWith("arbiter.seats.")) continue;
    const id = key.slice("arbiter.seats.".length);
    try {
      for (const token of Object.values(JSON.parse(localStorage.getItem(key) ?? "{}") as Record<string, string>)) games.push({ id, token });
    } catch {
      // A value this page did not write: skipped.
    }
  }
  if (games.length) await request("POST", "/api/account/claim", { games }).catch(() => null);
}
