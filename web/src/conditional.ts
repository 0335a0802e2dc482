// Conditional moves on the game page of a correspondence game, as
// docs/server.md's "Conditional moves" gives their rules: the seat's line
// ("if they play X, I play Y, then if Z, W"), shown while the game goes on
// and set, replaced or cleared on the opponent's turn by typing the moves.
// The server plays the replies; the page reads the line again after each
// change of the game, and says what became of the line it showed.

import { request, type Game } from "./api";
import { h } from "./dom";
import { t } from "./i18n";

// Line is a seat's conditional moves: the opponent's expected move and the
// reply, in turn, the first for ply.
export interface Line {
  moves: string[];
  ply: number;
}

// lineFate says what became of line in g: "played" (the expected move
// came, and the reply after it), "dropped" (another move came), or ""
// (nothing yet, or the reply still to come).
export function lineFate(line: Line, g: Game): "" | "played" | "dropped" {
  const at = line.ply;
  if (!line.moves.length || g.ply <= at) return "";
  if (g.moves[at] !== line.moves[0]) return "dropped";
  if (g.ply === at + 1) return "";
  return g.moves[at + 1] === line.moves[1] ? "played" : "dropped";
}

// Conditional is the page's box of conditional moves.
export class Conditional {
  readonly root = h("section", { class: "conditional", "aria-labelledby": "cond-title", hidden: "" });
  private list = h("ol", { class: "cond-line" });
  private hint = h("p", { class: "cond-hint" });
  private note = h("p", { class: "cond-note", role: "status" });
  private input = h("input", { id: "cond-moves", autocomplete: "off", spellcheck: "false", autocapitalize: "off" });
  private form = h("form", { class: "cond-form" });
  private clear = h("button", { type: "button", class: "cond-clear" }, t("conditional.clear"));
  private line: Line | null = null;
  private version = -1; // the game's version the line was read for
  private reads = 0; // counts the reads, so that a stale answer is dropped
  private token: string | undefined;

  // told says a line dropped on the page's message line (the box then
  // shows the player's own turn).
  constructor(private id: string, private redraw: () => void, private told: (text: string) => void) {
    this.form.append(h("label", { for: "cond-moves" }, t("conditional.label")), this.input,
      h("button", { type: "submit" }, t("conditional.set")), this.clear);
    this.root.append(h("h2", { id: "cond-title" }, t("conditional.title")), this.list, this.hint, this.form, this.note);
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const moves = this.input.value.trim().toLowerCase().split(/[\s,;]+/).filter(Boolean);
      if (moves.length) void this.send(moves);
    });
    this.clear.addEventListener("click", () => void this.send([]));
  }

  // show draws the box for seat (-1 hides it) in g, reading the line again
  // when g changed.
  show(g: Game, seat: number, token: string | undefined): void {
    this.root.hidden = seat < 0;
    if (seat < 0) return;
    this.token = token;
    if (g.version !== this.version) {
      this.version = g.version;
      void this.read(g);
    }
    const theirs = g.toMove !== seat;
    const moves = this.line?.moves ?? [];
    const pairs: HTMLElement[] = [];
    for (let i = 0; i + 1 < moves.length; i += 2) pairs.push(h("li", {}, t("conditional.pair", { Move: moves[i], Reply: moves[i + 1] })));
    this.list.replaceChildren(...pairs);
    this.list.hidden = this.clear.hidden = pairs.length === 0;
    this.form.hidden = !theirs;
    this.input.placeholder = theirs && g.legal.length ? t("conditional.placeholder", { Move: g.legal[0] }) : "";
    this.hint.textContent = (this.line && !pairs.length ? t("conditional.none") + " " : "") + (theirs
      ? t("conditional.theirs")
      : t("conditional.yours"));
  }

  // read asks for the line, and says what became of the one shown.
  private async read(g: Game): Promise<void> {
    const n = ++this.reads;
    const line = await request<Line>("GET", `/api/games/${this.id}/conditional`, undefined, this.token).catch(() => null);
    if (!line || n !== this.reads) return;
    const was = this.line;
    const fate = was ? lineFate(was, g) : "";
    if (was && fate === "played") this.note.textContent = t("conditional.played", { Reply: was.moves[1], Move: was.moves[0] });
    if (was && fate === "dropped") {
      this.note.textContent = "";
      this.told(t("conditional.dropped", { Played: g.moves[was.ply], Move: was.moves[0] }));
    }
    this.line = line;
    this.redraw();
  }

  // send sets the line of moves, or clears it (none).
  private async send(moves: string[]): Promise<void> {
    try {
      this.line = await request<Line>("POST", `/api/games/${this.id}/conditional`, { moves }, this.token);
      this.note.textContent = moves.length ? t("conditional.queued") : t("conditional.cleared");
      this.input.value = "";
      this.reads++; // a read sent before this answer is stale
    } catch (e) {
      this.note.textContent = (e as Error).message;
    }
    this.redraw();
  }
}
