// The analysis page's evaluation bar and the words for an engine's score.
// The engine scores a position for the side to move (hundredths of a
// piece, or "win5"/"loss4": a win in so many plies); the bar shows it from
// the seat at the bottom of the board, the first, as its share of a bar
// filled from the bottom (from the left when the bar lies above the board
// on a phone). With three players the engine gives one number, the
// mover's lead over the best of the others, which no two-sided bar can
// show: the bar gives way to a note and the number is said in words.

import { h } from "./dom";
import { fixed, t, tn } from "./i18n";
import { sideName } from "./words";

// Score is what the engine says of a position or a move.
export interface Score {
  score: number; // for the side to move, hundredths of a piece
  scoreText: string; // "+35", "win5", "loss4"
}

// Judgement is a score said for people: who it favours and by how much.
export interface Judgement {
  leader: number; // the seat ahead, -1 when even
  short: string; // "White +1.35", "Black wins in 5", "even"
  words: string; // "White is ahead by 1.35 pieces"
  share: number; // the first seat's share of the bar, 0 to 100
  mark: string; // the bar's own text, at the leader's end: "1.4", "#5"
}

// pawnScale sets how fast the bar fills: an advantage of this many
// hundredths fills three quarters of the leader's half (tanh(1) = 0.76).
const pawnScale = 300;

// decided reads a won or lost score: the plies to the end, and whether
// the side to move wins.
function decided(s: Score): { wins: boolean; plies: number } | null {
  const m = /^(win|loss)(\d+)$/.exec(s.scoreText);
  return m ? { wins: m[1] === "win", plies: Number(m[2]) } : null;
}

function seatName(seats: string[], seat: number): string {
  return seats[seat] !== undefined ? sideName(seats[seat]) : t("evalbar.seat", { Number: seat + 1 });
}

function plies(n: number): string {
  return tn("evalbar.plies", n);
}

function pieces(hundredths: number): string {
  return fixed(Math.abs(hundredths) / 100, 2);
}

// judge says s, the score for mover, for people; with two seats it says
// who leads, with more it speaks for the mover, as the engine does.
export function judge(s: Score, mover: number, seats: string[]): Judgement {
  const name = (seat: number) => seatName(seats, seat);
  const end = decided(s);
  if (seats.length > 2) {
    const me = name(mover);
    if (end) {
      const says = (n: string) => end.wins ? t("evalbar.wins", { Side: me, Plies: n }) : t("evalbar.loses", { Side: me, Plies: n });
      const moverSays = end.wins ? t("evalbar.mover_wins", { Side: me, Plies: plies(end.plies) }) : t("evalbar.mover_loses", { Side: me, Plies: plies(end.plies) });
      return { leader: end.wins ? mover : -1, short: says(String(end.plies)), words: moverSays, share: 50, mark: "" };
    }
    const sign = s.score >= 0 ? "+" : "−";
    return {
      leader: s.score > 0 ? mover : -1, short: `${me} ${sign}${pieces(s.score)}`,
      words: s.score >= 0 ? t("evalbar.mover_ahead", { Side: me, Pieces: pieces(s.score) }) : t("evalbar.mover_behind", { Side: me, Pieces: pieces(s.score) }), share: 50, mark: "",
    };
  }
  const other = 1 - mover;
  if (end) {
    const leader = end.wins ? mover : other;
    return { leader, short: t("evalbar.wins", { Side: name(leader), Plies: String(end.plies) }), words: t("evalbar.wins", { Side: name(leader), Plies: plies(end.plies) }), share: leader === 0 ? 100 : 0, mark: `#${end.plies}` };
  }
  const first = mover === 0 ? s.score : -s.score; // for the seat at the bottom
  const share = Math.round(500 + 500 * Math.tanh(first / pawnScale)) / 10;
  if (s.score === 0) return { leader: -1, short: t("evalbar.even"), words: t("evalbar.even_words"), share, mark: fixed(0, 1) };
  const leader = first > 0 ? 0 : 1;
  return {
    leader, short: `${name(leader)} +${pieces(s.score)}`, words: t("evalbar.ahead", { Side: name(leader), Pieces: pieces(s.score) }), share,
    mark: fixed(Math.abs(s.score) / 100, 1),
  };
}

export interface EvalBar {
  box: HTMLElement;
  // show draws score (for mover), or an empty bar when there is none yet.
  show(score: Score | null, mover: number, seats: string[]): void;
}

// evalBar builds the bar, a meter for screen readers whose value is the
// first seat's share and whose text says the score in words.
export function evalBar(): EvalBar {
  const fill = h("div", { class: "eval-fill" });
  const mark = h("span", { class: "eval-mark", "aria-hidden": "true" });
  const bar = h("div", { class: "eval-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "50" }, fill, mark);
  const note = h("p", { class: "eval-note" });
  const box = h("div", { class: "eval-box" }, bar, note);
  const show = (score: Score | null, mover: number, seats: string[]): void => {
    const letters = seats.map((s) => s.charAt(0).toLowerCase());
    const many = seats.length > 2;
    bar.hidden = many;
    note.hidden = !many;
    note.textContent = many ? t("evalbar.no_bar", { Count: seats.length }) : "";
    bar.setAttribute("aria-label", t("evalbar.label", { Bottom: seatName(seats, 0) }) + (seats[1] ? t("evalbar.label_top", { Top: sideName(seats[1]) }) : ""));
    fill.className = `eval-fill side-${letters[0] ?? "w"}`;
    bar.className = `eval-bar side-${letters[1] ?? "b"}`;
    if (!score) {
      bar.dataset.state = "none";
      bar.style.setProperty("--share", "50%");
      bar.setAttribute("aria-valuenow", "50");
      bar.setAttribute("aria-valuetext", t("evalbar.none"));
      mark.textContent = "";
      delete bar.dataset.score;
      return;
    }
    const j = judge(score, mover, seats);
    bar.dataset.state = "shown";
    bar.dataset.score = String(mover === 0 ? score.score : -score.score);
    bar.dataset.leader = String(j.leader);
    bar.style.setProperty("--share", `${j.share}%`);
    bar.setAttribute("aria-valuenow", String(j.share));
    bar.setAttribute("aria-valuetext", j.words);
    bar.title = j.words;
    mark.textContent = j.mark;
    mark.className = `eval-mark at-${j.leader === 1 ? "top" : "bottom"} on-${letters[j.leader === 1 ? 1 : 0] ?? "w"}`;
  };
  return { box, show };
}
