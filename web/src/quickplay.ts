// The home page's first box, "Play now": one click to play the computer
// (the game, level and side last chosen, kept in this browser) and one to
// be paired with people (the lobby's quick pairing, for a player signed
// in; a visitor is offered to sign in). Also the order the page lists the
// games in: Pommel, the game the site was made for, then the player's
// last game, then the others.

import { request, type CatalogGame, type Created } from "./api";
import { h } from "./dom";
import { t, tParts } from "./i18n";
import { signInLink } from "./players";
import * as browserSeats from "./seats";
import { sideName } from "./words";

// QuickChoice is what "Play the computer" plays: a game, the AI's level
// and the seat the player takes.
interface QuickChoice {
  game: string;
  level: number;
  seat: number;
}

const choiceKey = "arbiter.quickPlay";
const lastGameKey = "arbiter.lastGame";
export const firstGame = "pommel";

// lastGame is the game this browser last started, if the server plays it.
export function lastGame(catalog: CatalogGame[]): string | undefined {
  const id = localStorage.getItem(lastGameKey);
  return catalog.some((c) => c.id === id) ? id! : undefined;
}

// rememberGame keeps id as the game this browser last started.
export function rememberGame(id: string): void {
  localStorage.setItem(lastGameKey, id);
}

// orderedGames is the catalog in the page's order: Pommel, then the last
// game started here, then the others as the server lists them.
export function orderedGames(catalog: CatalogGame[]): CatalogGame[] {
  const first = [firstGame, lastGame(catalog)];
  const rank = (c: CatalogGame) => { const i = first.indexOf(c.id); return i < 0 ? first.length : i; };
  return catalog.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map(({ c }) => c);
}

// savedChoice is the last "Play the computer" choice, else Pommel (or the
// last game started) against level 1, as the first seat.
function savedChoice(catalog: CatalogGame[]): QuickChoice {
  const fallback: QuickChoice = { game: lastGame(catalog) ?? firstGame, level: 1, seat: 0 };
  try {
    const saved = JSON.parse(localStorage.getItem(choiceKey) ?? "null") as QuickChoice | null;
    const c = catalog.find((g) => g.id === saved?.game);
    if (saved && c && saved.level >= 1 && saved.level <= 6 && saved.seat >= 0 && saved.seat < c.seats.length) return saved;
  } catch {
    // A choice this page cannot read: the default.
  }
  return catalog.some((c) => c.id === fallback.game) ? fallback : { ...fallback, game: catalog[0].id };
}

// quickPlay is the "Play now" box; pairing is the lobby's quick pairing
// for a player signed in (null for a visitor).
export function quickPlay(catalog: CatalogGame[], message: HTMLElement, pairing: HTMLElement | null): HTMLElement {
  const choice = savedChoice(catalog);
  const game = h("select", { id: "quick-ai-game" }, ...catalog.map((c) => h("option", c.id === choice.game ? { value: c.id, selected: "" } : { value: c.id }, c.name)));
  const level = h("select", { id: "quick-ai-level" }, ...[1, 2, 3, 4, 5, 6].map((l) => h("option", l === choice.level ? { value: String(l), selected: "" } : { value: String(l) }, t("quick.level_n", { Level: l }))));
  const side = h("select", { id: "quick-ai-side" });
  const fillSides = (seat: number) => {
    const c = catalog.find((g) => g.id === game.value)!;
    side.replaceChildren(...c.seats.map((s, i) => h("option", i === seat ? { value: String(i), selected: "" } : { value: String(i) }, sideName(s))));
  };
  fillSides(choice.seat);
  const current = (): QuickChoice => ({ game: game.value, level: Number(level.value), seat: Number(side.value) });
  game.addEventListener("change", () => fillSides(0));
  const save = () => localStorage.setItem(choiceKey, JSON.stringify(current()));
  for (const s of [game, level, side]) s.addEventListener("change", save);
  const play = h("button", { type: "button", class: "play-ai primary" }, t("quick.play_ai"));
  play.addEventListener("click", async () => {
    play.disabled = true;
    try {
      save();
      location.href = await playComputer(catalog.find((c) => c.id === game.value)!, current());
    } catch (e) {
      message.textContent = (e as Error).message;
      play.disabled = false;
    }
  });
  const label = (id: string, text: string, control: HTMLElement) => h("p", { class: "field" }, h("label", { for: id }, text), control);
  const people = pairing ?? h("p", { class: "quick-people-visitor" }, ...tParts("quick.visitor", { Link: signInLink(t("quick.sign_in")) }));
  return h("section", { class: "quick-play", "aria-labelledby": "quick-play-title" },
    h("h2", { id: "quick-play-title" }, t("quick.title")),
    h("div", { class: "quick-ai" }, h("h3", {}, t("quick.computer")),
      h("div", { class: "quick-ai-fields" }, label("quick-ai-game", t("quick.game"), game), label("quick-ai-level", t("quick.level"), level), label("quick-ai-side", t("quick.side"), side)),
      play),
    h("div", { class: "quick-people" }, h("h3", {}, t("quick.people")), people));
}

// playComputer creates a casual, untimed game of c: the player at the
// chosen seat, the AI at the chosen level at every other; it keeps the
// seat's token and returns the game's page.
async function playComputer(c: CatalogGame, choice: QuickChoice): Promise<string> {
  const seats = c.seats.map((_, i) => (i === choice.seat ? "human" : `ai:level=${choice.level}`));
  const made = await request<Created>("POST", "/api/games", { game: c.id, options: {}, seats });
  const mine = made.seats.find((s) => s.seat === choice.seat)!;
  browserSeats.saveToken(made.id, mine.seat, mine.token);
  rememberGame(c.id);
  return `/play/${made.id}?seat=${mine.seat}`;
}
