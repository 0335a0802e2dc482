// The tutorials: /learn lists one per family of games, /learn/{family}
// walks through its steps. Each step is a position on the board of the
// game pages and one thing to do there; the player enters a move by
// clicks (or taps, drags, Enter on a focused cell) as in a game, and the
// server says whether it is the move the step asks for and what it did.

import { ApiError, request, type Effects, type Geometry, type Position } from "./api";
import { animateMove, attachPointer, drawBoard } from "./board";
import { siteHeader } from "./chrome";
import { pictureBoard } from "./diagrams";
import { h } from "./dom";
import { lang, t, tn, tParts } from "./i18n";
import { choices, click, emptySelection, parseMove, targets, type ParsedMove, type Selection } from "./entry";
import { kingWord, sideName } from "./words";

// Summary is a tutorial as GET /api/learn lists it.
interface Summary {
  family: string;
  title: string;
  summary: string;
  games: string[];
  rules: string;
  stepCount: number;
}

// Step is one position of GET /api/learn/{family}.
interface Step {
  title: string;
  text: string;
  goal: string;
  game: string;
  fen: string;
  seats: string[];
  letters: string[];
  turn: number; // degrees: the player to move at the bottom
  position: Position;
  legal: string[];
}

interface Tutorial {
  family: string;
  title: string;
  summary: string;
  games: string[];
  rules: string;
  king: string;
  steps: Step[];
}

// Verdict is GET /api/learn/{family}/{step}?move=M.
interface Verdict {
  move: string;
  correct: boolean;
  message: string;
  effects: Effects;
  position: Position;
  ended?: string;
}

export function learnPage(root: HTMLElement): void {
  const family = decodeURIComponent(location.pathname.split("/")[2] ?? "");
  if (family) void tutorialPage(root, family);
  else void listPage(root);
}

// listPage is /learn: a card per tutorial, with the first step's position.
async function listPage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  const list = h("ul", { class: "tutorials" });
  root.replaceChildren(siteHeader(h("h1", {}, t("learn.title"))),
    h("main", { class: "learn-list" },
      h("p", { class: "lead" }, t("learn.lead")), ...inEnglish(),
      message, list));
  document.title = t("shell.learn.title");
  let all: Summary[];
  try {
    all = await request<Summary[]>("GET", "/api/learn");
  } catch (e) {
    message.textContent = (e as Error).message;
    return;
  }
  list.replaceChildren(...all.map(card));
  await Promise.all(all.map((s) => preview(list, s)));
}

// inEnglish is the line that says, on a page in another language, that
// the tutorials' texts (the server's, package learn) are English.
function inEnglish(): HTMLElement[] {
  return lang() === "en" ? [] : [h("p", { class: "in-english" }, t("learn.in_english"))];
}

function card(s: Summary): HTMLElement {
  const games = s.games.flatMap((id, i) => [...(i > 0 ? [", "] : []), h("a", { href: `/rules/${encodeURIComponent(id)}` }, id)]);
  return h("li", { class: "tutorial", "data-family": s.family },
    h("div", { class: "preview-box" }),
    h("h2", { lang: "en" }, h("a", { href: `/learn/${encodeURIComponent(s.family)}` }, s.title)),
    h("p", { lang: "en" }, s.summary),
    h("p", { class: "games" }, t("learn.for") + " ", ...games, ". " + tn("learn.steps", s.stepCount)),
    h("p", {}, h("a", { href: `/learn/${encodeURIComponent(s.family)}`, class: "start button primary" }, t("learn.start", { Title: s.title }))));
}

// preview draws the first step's position on a tutorial's card.
async function preview(list: HTMLElement, t0: Summary): Promise<void> {
  const box = list.querySelector(`li[data-family="${CSS.escape(t0.family)}"] .preview-box`);
  if (!box) return;
  try {
    const tut = await request<Tutorial>("GET", `/api/learn/${encodeURIComponent(t0.family)}`);
    const first = tut.steps[0];
    const geo = await request<Geometry>("GET", `/api/boards/${encodeURIComponent(first.position.board)}?turn=${first.turn}`);
    box.append(pictureBoard(geo, first.position.stacks, first.position.toMove, first.game, t("learn.preview", { Title: t0.title })));
  } catch {
    // The card reads as well without its picture.
  }
}

interface State {
  tut: Tutorial;
  index: number; // the step shown
  geo: Geometry | null;
  pos: Position; // the position on the board: the step's, or after the move tried
  sel: Selection;
  verdict: Verdict | null; // the move tried on this step, once the server judged it
  solved: Set<number>;
  message: string; // what the page itself says (a click that starts no move)
  busy: boolean;
  shown: number; // counts the steps shown, so that a late answer is dropped
  ui: UI;
  refresh(): void;
}

interface UI {
  steps: HTMLElement;
  progress: HTMLElement;
  title: HTMLElement;
  text: HTMLElement;
  goal: HTMLElement;
  scores: HTMLElement;
  feedback: HTMLElement;
  choices: HTMLElement;
  reset: HTMLButtonElement;
  next: HTMLButtonElement;
  after: HTMLElement; // the way on after the last step
  play: HTMLElement; // the verdict and the buttons
  svg: SVGSVGElement;
}

// tutorialPage is /learn/{family}; the address's #N opens step N.
async function tutorialPage(root: HTMLElement, family: string): Promise<void> {
  let tut: Tutorial;
  try {
    tut = await request<Tutorial>("GET", `/api/learn/${encodeURIComponent(family)}`);
  } catch (e) {
    root.replaceChildren(siteHeader(h("h1", {}, t("learn.learn"))), h("p", { class: "message", role: "alert" }, (e as Error).message));
    return;
  }
  const asked = Number(location.hash.slice(1)) - 1;
  const index = Number.isInteger(asked) && asked >= 0 && asked < tut.steps.length ? asked : 0;
  const ui = layout(root, tut);
  const st: State = {
    tut, index, geo: null, pos: tut.steps[index].position, sel: emptySelection, verdict: null, solved: loadSolved(tut), message: "", busy: false, shown: 0,
    ui, refresh: () => render(st),
  };
  attachPointer(ui.svg, { tap: (cell) => tap(st, cell), drag: (from, to) => drag(st, from, to) });
  ui.reset.addEventListener("click", () => void show(st, st.index, false));
  ui.next.addEventListener("click", () => void show(st, st.index + 1, true));
  ui.steps.addEventListener("click", (ev) => {
    const b = (ev.target as Element).closest<HTMLButtonElement>("button[data-step]");
    if (b) void show(st, Number(b.dataset.step), true);
  });
  await show(st, index, false);
}

function layout(root: HTMLElement, tut: Tutorial): UI {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  const ui: UI = {
    steps: h("ol", { class: "learn-steps" }),
    progress: h("p", { class: "progress" }),
    title: h("h2", { tabindex: "-1", lang: "en" }),
    text: h("p", { class: "rule", lang: "en" }),
    goal: h("p", { class: "goal" }),
    scores: h("p", { class: "scores" }),
    feedback: h("p", { class: "feedback", role: "status", "aria-live": "polite" }),
    choices: h("div", { class: "choices" }),
    reset: h("button", { type: "button", class: "reset" }, t("learn.start_again")),
    next: h("button", { type: "button", class: "next primary" }, t("learn.next")),
    after: h("p", { class: "after" }),
    play: h("section", { class: "play", "aria-label": t("learn.your_move_label") }),
    svg,
  };
  ui.steps.replaceChildren(...tut.steps.map((s, i) =>
    h("li", {}, h("button", { type: "button", "data-step": String(i), title: s.title }, String(i + 1)))));
  const boardBox = h("div", { class: "board-box" });
  boardBox.append(svg);
  root.replaceChildren(
    siteHeader(h("h1", {}, t("learn.tutorial", { Title: tut.title })), h("a", { href: `/rules/${encodeURIComponent(tut.rules)}`, class: "rules" }, t("rules.title", { Game: tut.title }))),
    h("main", { class: "learn" },
      h("section", { class: "lesson", "aria-label": t("learn.step_section") },
        h("nav", { "aria-label": t("learn.steps_nav") }, ui.steps), ...inEnglish(), ui.progress, ui.title, ui.text, ui.goal),
      boardBox,
      // Below the board on a phone, so that the board stays put while a
      // move is entered and the verdict comes where the eye is.
      ui.play));
  ui.play.append(ui.scores, ui.feedback, ui.choices, h("div", { class: "learn-buttons" }, ui.reset, ui.next), ui.after);
  return ui;
}

// show sets step i up on the board: its position, no move tried.
async function show(st: State, i: number, focus: boolean): Promise<void> {
  if (i < 0 || i >= st.tut.steps.length) return;
  const shown = ++st.shown;
  const step = st.tut.steps[i];
  const turnChanges = st.index !== i && st.tut.steps[st.index].turn !== step.turn;
  st.index = i;
  st.pos = step.position;
  st.sel = emptySelection;
  st.verdict = null;
  st.message = "";
  st.busy = false;
  history.replaceState(null, "", `${location.pathname}#${i + 1}`);
  try {
    if (!st.geo || st.geo.board !== step.position.board || turnChanges) {
      const geo = await request<Geometry>("GET", `/api/boards/${encodeURIComponent(step.position.board)}?turn=${step.turn}`);
      if (shown !== st.shown) return;
      st.geo = geo;
    }
  } catch (e) {
    st.message = (e as Error).message;
  }
  st.refresh();
  if (focus) st.ui.title.focus();
}

// tap is a click, tap or Enter on a cell: the next part of a move, as on
// the game page; a move complete is sent to be judged.
function tap(st: State, cell: string): void {
  if (st.busy) return;
  if (st.verdict) {
    const last = st.index + 1 >= st.tut.steps.length;
    st.message = !st.verdict.correct ? t("learn.press_try")
      : last ? t("learn.solved_last") : t("learn.solved_next");
    st.refresh();
    return;
  }
  const moves = st.tut.steps[st.index].legal.map(parseMove);
  const out = click(moves, st.sel, cell);
  st.message = out.kind === "reset" && st.sel.path.length === 0 ? t("moves.none_from", { Cell: cell }) : "";
  if (out.kind === "play") {
    void tryMove(st, out.move);
    return;
  }
  st.sel = out.sel;
  st.refresh();
}

// drag plays a piece dragged from one cell to another, as two clicks.
function drag(st: State, from: string, to: string): void {
  if (st.verdict || st.busy) return tap(st, from);
  st.sel = emptySelection;
  tap(st, from);
  if (st.sel.path.length > 0) tap(st, to);
}

// tryMove asks the server about the move, shows what it did and why it
// is or is not the one asked for.
async function tryMove(st: State, move: string): Promise<void> {
  const shown = st.shown;
  const step = st.tut.steps[st.index];
  st.busy = true;
  st.sel = emptySelection;
  st.refresh();
  try {
    const v = await request<Verdict>("GET", `/api/learn/${encodeURIComponent(st.tut.family)}/${st.index + 1}?move=${encodeURIComponent(move)}`);
    if (shown !== st.shown) return;
    st.verdict = v;
    st.pos = v.position;
    if (v.correct) {
      st.solved.add(st.index);
      saveSolved(st.tut, st.solved);
    }
  } catch (e) {
    if (shown !== st.shown) return;
    st.message = e instanceof ApiError ? e.message : t("moves.not_sent", { Why: (e as Error).message });
  }
  st.busy = false;
  st.refresh();
  const ui = st.ui;
  if (st.verdict && st.geo) animateMove(ui.svg, st.geo, st.verdict.effects, step.letters);
  if (st.verdict?.correct) (st.index + 1 < st.tut.steps.length ? ui.next : ui.after.querySelector("a"))?.focus({ preventScroll: true });
  ui.play.scrollIntoView({ block: "nearest" });
}

// The steps solved are remembered in this browser, per tutorial, so that
// a player who comes back sees how far they got.
function solvedKey(tut: Tutorial): string {
  return `arbiter.learn.${tut.family}`;
}

function loadSolved(tut: Tutorial): Set<number> {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(solvedKey(tut)) ?? "[]");
    return new Set(Array.isArray(saved) ? saved.filter((i) => Number.isInteger(i) && i >= 0 && i < tut.steps.length) : []);
  } catch {
    return new Set(); // storage blocked or its entry spoiled: start afresh
  }
}

function saveSolved(tut: Tutorial, solved: Set<number>): void {
  try {
    localStorage.setItem(solvedKey(tut), JSON.stringify([...solved].sort()));
  } catch {
    // Storage blocked: the steps are remembered for this visit only.
  }
}

function render(st: State): void {
  const ui = st.ui;
  const step = st.tut.steps[st.index];
  const count = st.tut.steps.length;
  const v = st.verdict;
  renderSteps(st);
  ui.progress.textContent = t("learn.progress", { Step: st.index + 1, Count: count, Game: step.game, Side: sideName(step.seats[step.position.toMove]) });
  ui.title.textContent = step.title;
  ui.text.textContent = step.text;
  ui.goal.replaceChildren(h("strong", {}, t("learn.your_move") + " "), h("span", { lang: "en" }, step.goal));
  ui.scores.textContent = st.pos.scores ? t("learn.scores") + " " + st.pos.scores.map((s, i) => `${sideName(step.seats[i])} ${s}`).join(", ") : "";
  ui.feedback.className = v ? (v.correct ? "feedback right" : "feedback wrong") : "feedback";
  ui.feedback.replaceChildren(...feedback(st));
  const moves = step.legal.map(parseMove);
  ui.choices.replaceChildren(...choiceButtons(st, moves));
  ui.reset.textContent = v && !v.correct ? t("learn.try_again") : t("learn.start_again");
  ui.reset.classList.toggle("urge", !!v && !v.correct);
  ui.next.hidden = st.index + 1 >= count;
  ui.next.disabled = !st.solved.has(st.index);
  ui.after.replaceChildren(...(st.index + 1 >= count && st.solved.has(st.index)
    ? tParts("learn.last", { Title: st.tut.title, Play: h("a", { href: "/" }, t("learn.play_game")), Other: h("a", { href: "/learn" }, t("learn.another")) })
    : []));
  document.title = t("learn.window_title", { Title: st.tut.title, Step: step.title });
  if (!st.geo) return;
  const last = v ? v.effects.path : [];
  drawBoard(ui.svg, st.geo, st.pos, { selected: [...st.sel.path, ...st.sel.drops], targets: v ? new Set() : targets(moves, st.sel), lastMove: last },
    kingWord(st.tut.king), (cell) => tap(st, cell), { pointer: true, letters: step.letters });
  ui.svg.setAttribute("aria-label", t("learn.board_label", { Game: step.game, Step: st.index + 1, Side: sideName(step.seats[step.position.toMove]) }));
  ui.svg.dataset.step = String(st.index + 1);
}

function renderSteps(st: State): void {
  const ui = st.ui;
  ui.steps.querySelectorAll<HTMLButtonElement>("button[data-step]").forEach((b) => {
    const i = Number(b.dataset.step);
    const solved = st.solved.has(i);
    b.classList.toggle("done", solved);
    if (i === st.index) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
    b.setAttribute("aria-label", t("learn.step_label", { Step: i + 1, Title: st.tut.steps[i].title }) + (solved ? " " + t("learn.solved_mark") : ""));
  });
}

// feedback is what the page says now: the verdict on the move tried, or
// what a click could not do, or while the server answers.
function feedback(st: State): (Node | string)[] {
  const v = st.verdict;
  const out: (Node | string)[] = [];
  if (v) out.push(h("strong", {}, (v.correct ? t("learn.right") : t("learn.wrong")) + " "), h("span", { lang: "en" }, v.message));
  if (v?.ended) out.push(h("br"), ...tParts("learn.over", { Result: h("span", { lang: "en" }, v.ended) }));
  if (st.message) out.push(...(out.length ? [h("br")] : []), st.message);
  if (st.busy) out.push(t("learn.checking"));
  return out;
}

// choiceButtons offer the moves that match the clicks so far when these
// complete more than one (or one still to confirm).
function choiceButtons(st: State, moves: ParsedMove[]): Node[] {
  if (st.verdict) return [];
  const list = choices(moves, st.sel);
  if (list.length === 0) return [];
  return [h("span", {}, list.length > 1 ? t("moves.several") : t("moves.play")), ...list.slice(0, 24).map((m) => {
    const b = h("button", { type: "button", class: "choice", "data-move": m.text }, m.text);
    b.addEventListener("click", () => void tryMove(st, m.text));
    return b;
  })];
}
