// The analysis page's set-up mode: a palette of pieces (each seat's plain
// and promoted piece, or empty), the side to move, and what a click on a
// cell makes of its stack. The server writes and checks the FEN
// (POST /api/analysis/{game}/edit), so nothing here knows a notation.

import { h } from "./dom";
import { t } from "./i18n";
import { pieceName, sideName } from "./words";

export interface SetupControls {
  panel: HTMLElement;
  toMove: HTMLSelectElement;
  clear: HTMLButtonElement;
  start: HTMLButtonElement;
  // stackAfter is what a click makes of a cell holding stack: the chosen
  // piece alone (or nothing, when the cell held just that piece), the
  // piece on top when piling up, or nothing when "empty" is chosen.
  stackAfter(stack: string | undefined): string;
}

// setupControls builds the palette for the seats' names ("White", ...):
// promoted names the promoted piece ("captain", "king"; "" when the game
// has none), stacking whether its cells hold several pieces.
// capital is text with its first letter capitalised, for a label.
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function setupControls(seats: string[], promoted: string, stacking: boolean): SetupControls {
  const pieces: [string, string][] = [];
  for (const name of seats) {
    const letter = name.charAt(0).toLowerCase();
    pieces.push([letter, capital(pieceName(letter, promoted))]);
    if (promoted) pieces.push([letter.toUpperCase(), capital(pieceName(letter.toUpperCase(), promoted))]);
  }
  pieces.push(["", t("setup.empty")]);
  const palette = h("fieldset", { class: "palette" }, h("legend", {}, t("setup.legend")));
  pieces.forEach(([letter, label], i) => {
    const input = h("input", { type: "radio", name: "piece", value: letter, id: `piece-${i}` });
    if (i === 0) input.checked = true;
    palette.append(h("label", { for: `piece-${i}`, class: "piece-choice" }, input, " ", label));
  });
  const onTop = h("input", { type: "checkbox", id: "on-top" });
  const toMove = h("select", { id: "edit-to-move" }, ...seats.map((s, i) => h("option", { value: String(i) }, sideName(s))));
  const clear = h("button", { type: "button", class: "clear" }, t("setup.clear"));
  const start = h("button", { type: "button", class: "start" }, t("setup.start"));
  const panel = h("div", { class: "setup-panel" }, palette,
    ...(stacking ? [h("p", {}, onTop, " ", h("label", { for: "on-top" }, t("setup.on_top")))] : []),
    h("p", {}, h("label", { for: "edit-to-move" }, t("setup.to_move") + " "), toMove), h("p", {}, clear, " ", start));
  const stackAfter = (stack: string | undefined): string => {
    const letter = palette.querySelector<HTMLInputElement>("input[name=piece]:checked")?.value ?? "";
    if (letter === "") return "";
    if (stacking && onTop.checked) return (stack ?? "") + letter;
    return stack === letter ? "" : letter;
  };
  return { panel, toMove, clear, start, stackAfter };
}
