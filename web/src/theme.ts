// The page's themes: light or dark (the system's choice until the player
// picks one), and the board's and the pieces' looks, each remembered in
// this browser. The choices are attributes of <html> (data-theme,
// data-board, data-pieces) that theme.css reads, so that a change
// restyles the page at once, the board included, without drawing again.

import { h } from "./dom";
import { chooseLanguage, lang, languages, t } from "./i18n";

// Look is one thing the player chooses: its attribute on <html>, where
// it is remembered, and its values with their names, the default first.
interface Look {
  attr: "theme" | "board" | "pieces";
  key: string;
  label: string;
  options: [string, string][];
}

const themeLook: Look = {
  attr: "theme", key: "arbiter.theme", label: t("theme.theme"),
  options: [["system", t("theme.system")], ["light", t("theme.light")], ["dark", t("theme.dark")]],
};
const boardLook: Look = {
  attr: "board", key: "arbiter.board", label: t("theme.board"),
  options: [["wood", t("theme.wood")], ["slate", t("theme.slate")], ["green", t("theme.green")]],
};
const piecesLook: Look = {
  attr: "pieces", key: "arbiter.pieces", label: t("theme.pieces"),
  options: [["classic", t("theme.classic")], ["contrast", t("theme.contrast")]],
};
const looks = [themeLook, boardLook, piecesLook];

const darkQuery = "(prefers-color-scheme: dark)"; // i18n-ignore: a media query

// chosen is the player's remembered value of look, else its default; a
// value this version does not know (or storage that cannot be read)
// counts as no choice.
function chosen(look: Look): string {
  let value: string | null = null;
  try {
    value = localStorage.getItem(look.key);
  } catch {
    // Storage refused (a private window, say): the defaults stand.
  }
  return look.options.some(([v]) => v === value) ? value! : look.options[0][0];
}

function remember(look: Look, value: string): void {
  try {
    if (value === look.options[0][0]) localStorage.removeItem(look.key);
    else localStorage.setItem(look.key, value);
  } catch {
    // Not remembered, but still applied to this page.
  }
}

// applyTheme sets the remembered themes on the document before anything
// is drawn, and follows the system's light or dark and the choices made
// in the page's other tabs.
export function applyTheme(): void {
  setAttributes();
  matchMedia(darkQuery).addEventListener("change", syncControls);
  document.addEventListener("click", closeOpenLooks);
  addEventListener("storage", (ev) => {
    if (looks.some((l) => l.key === ev.key)) {
      setAttributes();
      syncControls();
    }
  });
}

// setAttributes writes the choices on <html>; "system" is no data-theme,
// so that theme.css follows prefers-color-scheme.
function setAttributes(): void {
  const root = document.documentElement;
  for (const look of looks) {
    const value = chosen(look);
    if (look === themeLook && value === "system") delete root.dataset.theme;
    else root.dataset[look.attr] = value;
  }
}

// isDark says whether the page is dark now, by choice or by the system's.
export function isDark(): boolean {
  const t = document.documentElement.dataset.theme;
  return t === "dark" || (t !== "light" && matchMedia(darkQuery).matches);
}

function choose(look: Look, value: string): void {
  remember(look, value);
  setAttributes();
  syncControls();
}

// themeControls are the header's switches for the themes: a light/dark
// toggle, and a small "Display" popover choosing the theme (the system's
// included), the board and the pieces.
export function themeControls(): HTMLElement {
  const toggle = h("button", { type: "button", class: "theme-toggle", "aria-label": t("theme.dark_toggle"), title: t("theme.dark_toggle"), "aria-pressed": "false" },
    h("span", { class: "icon", "aria-hidden": "true" }));
  toggle.addEventListener("click", () => choose(themeLook, isDark() ? "light" : "dark"));
  const panel = h("div", { class: "looks-panel" }, ...looks.map(lookSelect), languageSelect());
  const summary = h("summary", {}, h("span", { class: "icon", "aria-hidden": "true" }, "⚙\uFE0E"), h("span", { class: "switch-name" }, t("theme.display")));
  const details = h("details", { class: "looks" }, summary, panel);
  closeOnEscape(details);
  const controls = h("div", { class: "theme-controls" }, toggle, details);
  syncOne(controls);
  return controls;
}

function lookSelect(look: Look): HTMLElement {
  const select = h("select", { name: look.key, "data-look": look.attr },
    ...look.options.map(([v, name]) => h("option", { value: v }, name)));
  select.addEventListener("change", () => choose(look, select.value));
  return h("label", { class: `look-${look.attr}` }, look.label, select);
}

// languageSelect chooses the page's language among those the site speaks
// (one a catalog, i18n.ts), each named in itself; the choice is
// remembered in a cookie and beats the browser's languages from then on.
export function languageSelect(label = t("theme.language")): HTMLElement {
  const select = h("select", { name: "lang", class: "language-select" },
    ...languages().map((l) => h("option", { value: l.tag, lang: l.tag }, l.name)));
  select.value = lang();
  select.addEventListener("change", () => chooseLanguage(select.value));
  return h("label", { class: "look-language" }, label, select);
}

// closeOnEscape closes the popover on Escape, back to its summary, as a
// menu does (a click elsewhere closes it too: closeOpenLooks).
function closeOnEscape(details: HTMLDetailsElement): void {
  details.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && details.open) {
      details.open = false;
      details.querySelector("summary")?.focus();
    }
  });
}

// closeOpenLooks closes the open popovers a click lands outside of.
function closeOpenLooks(ev: MouseEvent): void {
  document.querySelectorAll<HTMLDetailsElement>("details.looks[open]").forEach((d) => {
    if (ev.target instanceof Node && !d.contains(ev.target)) d.open = false;
  });
}

// syncControls shows the current choices on every set of controls of the
// page (a page may have been drawn again, or another tab chosen).
function syncControls(): void {
  document.querySelectorAll<HTMLElement>(".theme-controls").forEach(syncOne);
}

function syncOne(controls: HTMLElement): void {
  const dark = isDark();
  const toggle = controls.querySelector(".theme-toggle");
  toggle?.setAttribute("aria-pressed", String(dark));
  const icon = toggle?.querySelector(".icon");
  if (icon) icon.textContent = dark ? "☾" : "☀";
  for (const look of looks) {
    const select = controls.querySelector<HTMLSelectElement>(`select[data-look="${look.attr}"]`);
    if (select) select.value = chosen(look);
  }
}
