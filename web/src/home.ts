// The home page: the games with their summaries, a new-game form, and the
// games this browser holds seats in.

import { request, type CatalogGame, type Created, type Game, type Invite, type LobbyGame } from "./api";
import { siteHeader } from "./chrome";
import { h } from "./dom";
import { drawPreviews } from "./preview";
import * as store from "./store";

type SeatChoice = "me" | "friend" | "invite" | "open" | `ai:level=${number}`;

const seatChoices: [SeatChoice, string][] = [
  ["me", "me"],
  ["friend", "a friend at this screen"],
  ["invite", "an invite link"],
  ["open", "anyone, from the open games"],
  ...[1, 2, 3, 4, 5, 6].map((l): [SeatChoice, string] => [`ai:level=${l}`, `AI level ${l}`]),
];

const clocks: [string, string][] = [
  ["", "no clock"],
  ["clock:3m+2s", "3 min + 2 s"],
  ["clock:5m+3s", "5 min + 3 s"],
  ["clock:15m+10s", "15 min + 10 s"],
  ["days:1", "1 day a move"],
  ["days:3", "3 days a move"],
];

export async function homePage(root: HTMLElement): Promise<void> {
  const message = h("p", { class: "message", role: "alert" });
  root.replaceChildren(siteHeader(h("h1", {}, "Play checkers-family games")), message);
  let catalog: CatalogGame[];
  try {
    catalog = await request<CatalogGame[]>("GET", "/api/catalog");
  } catch (e) {
    message.textContent = (e as Error).message;
    return;
  }
  const form = newGameForm(catalog, message);
  const list = h("ul", { class: "catalog" }, ...catalog.map((c) => h("li", {}, h("strong", {}, c.id), " ", c.summary, " ",
    h("a", { href: `/rules/${c.id}`, class: "rules", "data-game": c.id }, "Rules"), " · ",
    h("a", { href: `/analysis/${c.id}`, class: "analyse", "data-game": c.id }, "Analyse"))));
  root.append(h("main", { class: "home" }, h("section", {}, h("h2", {}, "New game"), form), h("section", {}, h("h2", {}, "The games"), list), myGames(), openGames(message)));
  void drawPreviews(list, catalog);
}

// shownGames bounds how many of "My games" are read, one GET each.
const shownGames = 20;

// myGames lists the games this browser holds seats in, each with whose
// turn it is, read one GET per game.
function myGames(): HTMLElement {
  const ids = store.myGames().slice(0, shownGames);
  const list = h("ul", { class: "my-games" });
  const section = h("section", {}, h("h2", {}, "My games"), list);
  if (ids.length === 0) section.append(h("p", {}, "None yet: the games you create or join here are listed."));
  for (const id of ids) {
    const state = h("span", { class: "state" }, "…");
    list.append(h("li", { "data-game": id }, h("a", { href: `/play/${id}` }, id), " ", state));
    request<Game>("GET", `/api/games/${id}`).then((g) => {
      state.textContent = `${g.game}, ${whoseTurn(g, Object.keys(store.tokens(id)).map(Number))}`;
      if (!g.result && store.tokens(id)[g.toMove]) state.classList.add("mine");
    }, (e: Error) => { state.textContent = e.message; });
  }
  return section;
}

// whoseTurn says a game's state for a person holding seats.
function whoseTurn(g: Game, held: number[]): string {
  if (g.result) return g.result.winners.length ? `${g.result.winners.map((w) => g.seats[w].side).join(" and ")} won (${g.result.reason})` : `drawn (${g.result.reason})`;
  const side = g.seats[g.toMove].side;
  return held.includes(g.toMove) ? `your move (${side})` : `${side} to move`;
}

// openGames lists the games with open seats, each with a Join button that
// takes the seat and opens the game at it.
function openGames(message: HTMLElement): HTMLElement {
  const list = h("ul", { class: "open-games" });
  const section = h("section", {}, h("h2", {}, "Open games"), list);
  request<{ open: LobbyGame[] }>("GET", "/api/games").then((lobby) => {
    if (lobby.open.length === 0) list.append(h("li", {}, "No game waits for a player now."));
    for (const g of lobby.open) {
      const li = h("li", { "data-game": g.id }, `${g.game}: `, h("a", { href: g.url }, "watch"));
      for (const s of g.seats.filter((s) => s.open)) {
        const b = h("button", { type: "button", class: "join", "data-game": g.id, "data-seat": String(s.seat) }, `Join as ${s.side}`);
        b.addEventListener("click", () => join(g.id, s.seat, b, message));
        li.append(" ", b);
      }
      list.append(li);
    }
  }, (e: Error) => { message.textContent = e.message; });
  return section;
}

async function join(id: string, seat: number, button: HTMLButtonElement, message: HTMLElement): Promise<void> {
  button.disabled = true;
  try {
    const inv = await request<Invite>("POST", `/api/games/${id}/join`, { seat });
    store.saveToken(id, inv.seat, inv.token);
    location.href = `/play/${id}?seat=${inv.seat}`;
  } catch (e) {
    message.textContent = (e as Error).message;
    button.disabled = false;
  }
}

function select(name: string, label: string, options: [string, string][], value = ""): [HTMLLabelElement, HTMLSelectElement] {
  const s = h("select", { name, id: name });
  for (const [v, text] of options) {
    const o = h("option", { value: v }, text);
    if (v === value) o.selected = true;
    s.append(o);
  }
  return [h("label", { for: name }, label), s];
}

function newGameForm(catalog: CatalogGame[], message: HTMLElement): HTMLFormElement {
  const form = h("form", { class: "new-game" });
  const [gameLabel, gameSelect] = select("game", "Game", catalog.map((c) => [c.id, c.id]));
  const details = h("div", { class: "details" });
  const [clockLabel, clockSelect] = select("clock", "Time control", clocks);
  const fen = h("input", { id: "fen", name: "fen", autocomplete: "off", spellcheck: "false", placeholder: "the game's start" });
  const submit = h("button", { type: "submit", class: "create" }, "Start the game");
  form.append(h("p", {}, gameLabel, gameSelect), details, h("p", {}, clockLabel, clockSelect),
    h("p", {}, h("label", { for: "fen" }, "Start from a position (FEN)"), fen), submit);
  const fill = () => fillDetails(details, catalog.find((c) => c.id === gameSelect.value)!);
  gameSelect.addEventListener("change", fill);
  fill();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    try {
      location.href = await create(form, catalog.find((c) => c.id === gameSelect.value)!);
    } catch (e) {
      message.textContent = (e as Error).message;
      submit.disabled = false;
    }
  });
  return form;
}

// fillDetails shows the chosen game's summary, seats and options.
function fillDetails(details: HTMLElement, c: CatalogGame): void {
  details.replaceChildren(h("p", { class: "summary" }, c.summary));
  c.seats.forEach((side, i) => {
    const [label, s] = select(`seat${i}`, `${side} (seat ${i + 1})`, seatChoices, i === 0 ? "me" : "ai:level=1");
    details.append(h("p", {}, label, s));
  });
  for (const o of c.options) {
    const id = `option-${o.key}`;
    let input: HTMLElement;
    if (o.values && o.values.length) {
      input = select(id, o.key, o.values.map((v) => [v, v]), o.default)[1];
    } else {
      input = h("input", { type: "number", id, name: id, min: String(o.min), max: String(o.max), value: o.default });
    }
    details.append(h("p", {}, h("label", { for: id }, o.key), input, h("small", {}, " " + o.help)));
  }
}

async function create(form: HTMLFormElement, c: CatalogGame): Promise<string> {
  const data = new FormData(form);
  const choices = c.seats.map((_, i) => String(data.get(`seat${i}`)) as SeatChoice);
  const options: Record<string, string> = {};
  for (const o of c.options) {
    const v = String(data.get(`option-${o.key}`) ?? "");
    if (v !== "" && v !== o.default) options[o.key] = v;
  }
  const body: Record<string, unknown> = { game: c.id, options, seats: choices.map((s) => (s.startsWith("ai:") || s === "open" ? s : "human")) };
  const fen = String(data.get("fen") ?? "").trim();
  if (fen) body.fen = fen;
  const clock = String(data.get("clock") ?? "");
  if (clock.startsWith("clock:")) body.clock = clock.slice(6);
  if (clock.startsWith("days:")) body.days = Number(clock.slice(5));
  const made = await request<Created>("POST", "/api/games", body);
  let mySeat = -1;
  for (const inv of made.seats) {
    const choice = choices[inv.seat];
    if (choice === "invite") {
      store.saveInvite(made.id, inv.seat, inv.url);
      continue;
    }
    store.saveToken(made.id, inv.seat, inv.token);
    if (mySeat < 0 || (choice === "me" && choices[mySeat] !== "me")) mySeat = inv.seat;
  }
  return mySeat >= 0 ? `/play/${made.id}?seat=${mySeat}` : made.url;
}
