// The home page: the games with their summaries, a new-game form, and the
// games this browser holds seats in.

import { request, type CatalogGame, type Created } from "./api";
import { h } from "./dom";
import { drawPreviews } from "./preview";
import * as store from "./store";

type SeatChoice = "me" | "friend" | "invite" | `ai:level=${number}`;

const seatChoices: [SeatChoice, string][] = [
  ["me", "me"],
  ["friend", "a friend at this screen"],
  ["invite", "an invite link"],
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
  root.replaceChildren(h("header", {}, h("a", { href: "/", class: "home" }, "arbiter"), h("h1", {}, "Play checkers-family games")), message);
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
  root.append(h("main", { class: "home" }, h("section", {}, h("h2", {}, "New game"), form), h("section", {}, h("h2", {}, "The games"), list), myGames()));
  void drawPreviews(list, catalog);
}

function myGames(): HTMLElement {
  const ids = store.myGames();
  const section = h("section", {}, h("h2", {}, "My games"));
  if (ids.length === 0) section.append(h("p", {}, "None yet: the games you create or join here are listed."));
  else section.append(h("ul", {}, ...ids.map((id) => h("li", {}, h("a", { href: `/play/${id}` }, id)))));
  return section;
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
  const submit = h("button", { type: "submit", class: "create" }, "Start the game");
  form.append(h("p", {}, gameLabel, gameSelect), details, h("p", {}, clockLabel, clockSelect), submit);
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
  const body: Record<string, unknown> = { game: c.id, options, seats: choices.map((s) => (s.startsWith("ai:") ? s : "human")) };
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
