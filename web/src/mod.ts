// The moderators' page, /mod: the open reports with the messages and
// games they name, an action on each (dismiss, remove the message, mute,
// ban, close, mark as engine-assisted) with its reason, an action on any
// account by name, and the audit log of every action. Only an account
// with the moderator role (given with "arbiter admin grant NAME") reads
// it; the API refuses anyone else.

import { ApiError, request } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { lang, t, tParts } from "./i18n";

interface Report {
  id: string;
  reporter: string;
  account: string;
  game?: string;
  message?: { id: string; room: string; by: string; text: string; at: number };
  reason: string;
  created: string;
  standing: { banned?: boolean; closed?: boolean; engine?: boolean; mutedUntil?: number };
}

interface LogLine {
  at: string;
  moderator: string;
  account: string;
  action: string;
  reason: string;
  until?: number;
}

const actionNames: Record<string, string> = {
  dismiss: t("mod.action.dismiss"), remove: t("mod.action.remove"), mute: t("mod.action.mute"), unmute: t("mod.action.unmute"), ban: t("mod.action.ban"), unban: t("mod.action.unban"),
  close: t("mod.action.close"), engine: t("mod.action.engine"), "clear-engine": t("mod.action.clear_engine"),
};

export async function modPage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  const main = h("main", { class: "mod" });
  root.replaceChildren(siteHeader(h("h1", {}, t("mod.title"))), message, main);
  const reports = h("section", { class: "mod-reports", "aria-labelledby": "reports-title" });
  const log = h("section", { class: "mod-log", "aria-labelledby": "log-title" });
  const redraw = async () => {
    try {
      const [r, l] = await Promise.all([request<{ reports: Report[] }>("GET", "/api/mod/reports"), request<{ log: LogLine[] }>("GET", "/api/mod/log")]);
      reports.replaceChildren(h("h2", { id: "reports-title" }, t("mod.open_reports", { Count: r.reports.length })),
        ...(r.reports.length ? [h("ul", { class: "report-list" }, ...r.reports.map((x) => reportNode(x, act)))] : [h("p", { class: "none" }, t("mod.no_report"))]));
      log.replaceChildren(h("h2", { id: "log-title" }, t("mod.log")), logTable(l.log));
      message.textContent = "";
    } catch (e) {
      main.replaceChildren();
      message.textContent = e instanceof ApiError && (e.code === "forbidden" || e.code === "unauthorized")
        ? t("mod.only") : (e as Error).message;
    }
  };
  const act = async (body: Record<string, unknown>, status: HTMLElement) => {
    try {
      await request("POST", "/api/mod/actions", body);
      await redraw();
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };
  main.append(reports, accountForm(act), log);
  await redraw();
}

type Act = (body: Record<string, unknown>, status: HTMLElement) => Promise<void>;

function reportNode(r: Report, act: Act): HTMLElement {
  const id = `reason-${r.id}`;
  const reason = h("input", { id, class: "mod-reason", minlength: "3", maxlength: "500" });
  const status = h("p", { class: "mod-status", role: "alert" });
  const buttons = ["dismiss", ...(r.message ? ["remove"] : []), "mute", "ban", "close", "engine"].map((action) => {
    const b = h("button", { type: "button", "data-action": action }, actionNames[action]);
    b.addEventListener("click", () => void act({ account: r.account, action, reason: reason.value.trim(), report: r.id,
      ...(action === "remove" ? { message: r.message?.id } : {}), ...(action === "mute" ? { minutes: 60 } : {}) }, status));
    return b;
  });
  const standing = [r.standing.banned && t("mod.standing.banned"), r.standing.closed && t("mod.standing.closed"), r.standing.engine && t("mod.standing.engine"),
    r.standing.mutedUntil && t("mod.standing.muted", { Until: new Date(r.standing.mutedUntil).toLocaleString(lang()) })].filter(Boolean).join(", ");
  return h("li", { class: "report", "data-report": r.id },
    h("p", { class: "report-what" }, ...tParts("mod.reports", { Reporter: h("a", { href: `/@/${encodeURIComponent(r.reporter)}` }, r.reporter),
      Account: h("a", { class: "reported", href: `/@/${encodeURIComponent(r.account)}` }, r.account) }),
      ...(standing ? [` (${standing})`] : []), ": ", h("q", { class: "report-reason-text" }, r.reason)),
    ...(r.message ? [h("blockquote", { class: "reported-message" }, `${r.message.by}: ${r.message.text}`)] : []),
    ...(r.game ? [h("p", {}, h("a", { href: `/games/${encodeURIComponent(r.game)}` }, t("mod.game", { Game: r.game })))] : []),
    h("p", { class: "field" }, h("label", { for: id }, t("mod.reason_help")), reason),
    h("div", { class: "mod-actions" }, ...buttons), status);
}

function accountForm(act: Act): HTMLElement {
  const name = h("input", { id: "mod-account", required: "", autocapitalize: "off", spellcheck: "false" });
  const action = h("select", { id: "mod-action" }, ...Object.entries(actionNames).filter(([k]) => k !== "remove" && k !== "dismiss")
    .map(([k, v]) => h("option", { value: k }, v)));
  const minutes = h("input", { id: "mod-minutes", type: "number", min: "1", max: "43200", value: "60" });
  const reason = h("input", { id: "mod-account-reason", required: "", minlength: "3", maxlength: "500" });
  const status = h("p", { class: "mod-status", role: "alert" });
  const form = h("form", { class: "mod-account-form" },
    h("p", { class: "field" }, h("label", { for: "mod-account" }, t("mod.account")), name),
    h("p", { class: "field" }, h("label", { for: "mod-action" }, t("mod.action_label")), action),
    h("p", { class: "field" }, h("label", { for: "mod-minutes" }, t("mod.minutes")), minutes),
    h("p", { class: "field" }, h("label", { for: "mod-account-reason" }, t("mod.reason")), reason),
    h("button", { type: "submit" }, t("mod.apply")), status);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    status.textContent = "";
    void act({ account: name.value.trim(), action: action.value, reason: reason.value.trim(),
      ...(action.value === "mute" ? { minutes: Number(minutes.value) } : {}) }, status);
  });
  return h("section", { class: "mod-account", "aria-labelledby": "mod-account-title" }, h("h2", { id: "mod-account-title" }, t("mod.act")), form);
}

function logTable(lines: LogLine[]): HTMLElement {
  if (!lines.length) return h("p", { class: "none" }, t("mod.no_action"));
  return h("table", { class: "audit" },
    h("thead", {}, h("tr", {}, ...[t("mod.when"), t("mod.moderator"), t("mod.account"), t("mod.action_label"), t("mod.reason")].map((label) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, ...lines.map((l) => h("tr", {},
      h("td", {}, new Date(l.at).toLocaleString(lang())), h("td", {}, l.moderator), h("td", {}, l.account),
      h("td", {}, actionNames[l.action] ?? l.action, ...(l.until ? [" " + t("mod.until", { Until: new Date(l.until).toLocaleString(lang()) })] : [])),
      h("td", {}, l.reason)))));
}
