// A menu button: a button ("⋯") that opens a popup menu of links and
// actions, as the WAI-ARIA menu button pattern has it. Enter, Space or ↓
// open it on its first item, ↑ on its last; ↑ and ↓ move between the
// items, Home and End to the ends; Escape closes it and gives the focus
// back to the button, as a click outside or Tab does without moving it.

import { h } from "./dom";

export interface MenuButton {
  root: HTMLElement;
  // setItems replaces the items (links or buttons), keeping the menu open
  // or closed as it was.
  setItems(items: HTMLElement[]): void;
}

let menus = 0;

// menuButton makes a menu button showing sign, named label for screen
// readers; its items are set afterwards, and may be set again at every
// redraw of the page.
export function menuButton(sign: string, label: string): MenuButton {
  const id = `menu-${++menus}`;
  const button = h("button", { type: "button", class: "menu-button", "aria-haspopup": "true", "aria-expanded": "false", "aria-controls": id, "aria-label": label, title: label }, sign);
  const menu = h("div", { class: "popup-menu", role: "menu", id, "aria-label": label });
  menu.hidden = true;
  const root = h("div", { class: "menu-wrap" }, button, menu);
  const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const open = (focus: "first" | "last" | null) => {
    menu.hidden = false;
    button.setAttribute("aria-expanded", "true");
    const all = items();
    if (focus) all[focus === "first" ? 0 : all.length - 1]?.focus();
  };
  const close = (refocus: boolean) => {
    if (menu.hidden) return;
    menu.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  };
  button.addEventListener("click", (ev) => {
    // A click by the keyboard (Enter, Space) starts on the first item.
    if (menu.hidden) open(ev.detail === 0 ? "first" : null);
    else close(false);
  });
  button.addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    ev.preventDefault();
    ev.stopPropagation(); // the page's arrows step through the moves
    open(ev.key === "ArrowDown" ? "first" : "last");
  });
  menu.addEventListener("keydown", (ev) => onMenuKey(ev, items(), close));
  document.addEventListener("pointerdown", (ev) => {
    if (!root.contains(ev.target as Node)) close(false);
  });
  root.addEventListener("focusout", (ev) => {
    if (!root.contains(ev.relatedTarget as Node | null) && ev.relatedTarget !== null) close(false);
  });
  return {
    root,
    setItems(list) {
      const focused = items().indexOf(document.activeElement as HTMLElement);
      for (const item of list) item.setAttribute("role", "menuitem"), item.setAttribute("tabindex", "-1");
      menu.replaceChildren(...list);
      if (focused >= 0) items()[focused]?.focus();
    },
  };
}

// onMenuKey moves the focus between the items and closes the menu.
function onMenuKey(ev: KeyboardEvent, all: HTMLElement[], close: (refocus: boolean) => void): void {
  const at = all.indexOf(document.activeElement as HTMLElement);
  const to: Record<string, number> = { ArrowDown: (at + 1) % all.length, ArrowUp: (at - 1 + all.length) % all.length, Home: 0, End: all.length - 1 };
  if (ev.key === "Escape") {
    ev.preventDefault();
    close(true);
  } else if (ev.key === "Tab") {
    close(false);
  } else if (ev.key in to) {
    ev.preventDefault();
    ev.stopPropagation(); // not the page's steps through the moves
    all[to[ev.key]]?.focus();
  } else if (ev.key === " " && all[at] instanceof HTMLAnchorElement) {
    ev.preventDefault();
    all[at].click(); // Space follows a link, as it presses a button
  }
}
