// Small helpers to build the pages' HTML elements.

import { t } from "./i18n";

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

// copyButton copies text to the clipboard, saying so on the button.
export function copyButton(text: string): HTMLButtonElement {
  const b = h("button", { type: "button", class: "copy" }, t("dom.copy"));
  b.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = t("dom.copied");
    } catch {
      b.textContent = t("dom.select_copy");
    }
  });
  return b;
}

// replaceKeepingFocus replaces parent's children as replaceChildren does,
// but if one of them had the keyboard's focus its successor gets it: the
// new element of the same tag and name (its data-ply, else its
// aria-label, else its class), or failing that of the same tag and class.
// The game page redraws its controls on every move and clock event;
// without this a keyboard player's focus would fall to the page's start
// each time the opponent moved.
export function replaceKeepingFocus(parent: Element, ...children: (Node | string)[]): void {
  const had = document.activeElement;
  if (!(had instanceof HTMLElement) || had === parent || !parent.contains(had)) {
    parent.replaceChildren(...children);
    return;
  }
  const kind = (e: Element) => `${e.tagName} ${e.getAttribute("class") ?? ""}`;
  const name = (e: Element) => `${e.tagName} ${e.getAttribute("data-ply") ?? e.getAttribute("aria-label") ?? e.getAttribute("class") ?? ""}`;
  parent.replaceChildren(...children);
  const candidates = [...parent.querySelectorAll<HTMLElement>(had.tagName)];
  const next = candidates.find((e) => name(e) === name(had)) ?? candidates.find((e) => kind(e) === kind(had));
  next?.focus({ preventScroll: true });
}
