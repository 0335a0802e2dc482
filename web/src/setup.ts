// The analysis page's set-up mode: a palette of pieces (each seat's plain
// and promoted piece, or empty), the side to move, and what a click on a
// cell makes of its stack. The server writes and checks the FEN
// (POST /api/analysis/{game}/edit), so nothing here knows a notation.

import { h } from "./dom";

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
export function setupControls(seats: string[], promoted: string, stacking: boolean): SetupControls {
  const pieces: [string, string][] = [];
  for (const name of seats) {
    const letter = name.charAt(0).toLowerCase();
    pieces.push([letter, name]);
    if (promoted) pieces.push([letter.toUpperCase(), `${name} ${promoted}`]);
  }
  pieces.push(["", "Empty"]);
  const palette = h("fieldset", { class: "palette" }, h("legend", {}, "Click a cell to put"));
  pieces.forEach(([letter, label], i) => {
    const input = h("input", { type: "radio", name: "piece", value: letter, id: `piece-${i}` });
    if (i === 0) input.checked = true;
    palette.append(h("label", { for: `piece-${i}`, class: "piece-choice" }, input, " ", label));
  });
  const onTop = h("input", { type: "checkbox", id: "on-top" });
  const toMove = h("select", { id: "edit-to-move" }, ...seats.map((s, i) => h("option", { value: String(i) }, s)));
  const clear = h("button", { type: "button", class: "clear" }, "Clear the board");
  const start = h("button", { type: "button", class: "start" }, "Start position");
  const panel = h("div", { class: "setup-panel" }, palette,
    ...(stacking ? [h("p", {}, onTop, " ", h("label", { for: "on-top" }, "on top of the stack"))] : []),
    h("p", {}, h("label", { for: "edit-to-move" }, "To move: "), toMove), h("p", {}, clear, " ", start));
  const stackAfter = (stack: string | undefined): string => {
    const letter = palette.querySelector<HTMLInputElement>("input[name=piece]:checked")?.value ?? "";
    if (letter === "") return "";
    if (stacking && onTop.checked) return (stack ?? "") + letter;
    return stack === letter ? "" : letter;
  };
  return { panel, toMove, clear, start, stackAfter };
}
