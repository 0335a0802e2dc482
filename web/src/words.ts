// The page's words for what the API says in English: its names of the
// sides ("White"), of the promoted pieces, its codes for the end of a
// game ("no moves") and its games' lines for the home page's cards. The
// API speaks English (docs/server.md, "Languages"); where a page shows
// one of these, it says it in its own language from the catalog, and
// leaves a name or a code the catalog does not know as the API wrote it.

import { t, tn } from "./i18n";

// sideName is a side's name as the API names the seats ("White").
export function sideName(name: string): string {
  switch (name) {
    case "White": return t("side.white");
    case "Black": return t("side.black");
    case "Red": return t("side.red");
  }
  return name;
}

// kingName is the promoted piece of game: Pommel's captain, the others'
// king.
export function kingName(game: string): string {
  return game.startsWith("pommel") ? t("piece.captain") : t("piece.king");
}

// kingWord is a promoted piece as the API names it ("captain", "king").
export function kingWord(word: string): string {
  switch (word) {
    case "captain": return t("piece.captain");
    case "king": return t("piece.king");
  }
  return word;
}

// pieceName names a piece by its letter in a stack ("w" a white man, "W"
// a white promoted piece, whose name is king).
export function pieceName(letter: string, king: string): string {
  const up = letter !== letter.toLowerCase();
  switch (letter.toLowerCase()) {
    case "w": return up ? t("piece.white_king", { King: king }) : t("piece.white");
    case "b": return up ? t("piece.black_king", { King: king }) : t("piece.black");
    case "r": return up ? t("piece.red_king", { King: king }) : t("piece.red");
  }
  return letter;
}

// andList joins names as a sentence does: "A", "A and B", "A, B and C".
export function andList(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return t("words.and", { First: names.slice(0, -1).join(", "), Last: names[names.length - 1] });
}

// reasonText is the API's code for why a game ended ("no moves").
export function reasonText(reason: string): string {
  switch (reason) {
    case "no pieces": return t("reason.no_pieces");
    case "no moves": return t("reason.no_moves");
    case "repetition": return t("reason.repetition");
    case "ply cap": return t("reason.ply_cap");
    case "scored": return t("reason.scored");
    case "resignation": return t("reason.resignation");
    case "agreement": return t("reason.agreement");
    case "time forfeit": return t("reason.time_forfeit");
    case "aborted": return t("reason.aborted");
  }
  return reason;
}

// Ended is what the page knows of a game's end: its winners (seats) and
// the API's reason, the sides' names, and the server's description in
// English, from which the numbers it names are read (the ply limit, the
// scores).
export interface Ended {
  winners: number[];
  reason: string;
  sides: string[];
  description?: string;
}

// resultText says how a game ended, as the server's description does
// (game.Result.Describe), in the page's language.
export function resultText(e: Ended): string {
  if (e.reason === "aborted") return t("result.aborted");
  const winners = e.winners.map((w) => sideName(e.sides[w] ?? ""));
  const losers = andList(e.sides.filter((_, i) => !e.winners.includes(i)).map(sideName));
  const why = whyText(e, losers);
  if (winners.length === 0) return t("result.draw", { Why: why });
  return tn("result.win", winners.length, { Winners: andList(winners), Why: why });
}

function whyText(e: Ended, losers: string): string {
  switch (e.reason) {
    case "no pieces": return t("result.no_pieces", { Losers: losers });
    case "no moves": return t("result.no_moves", { Losers: losers });
    case "repetition": return t("result.repetition");
    case "ply cap": return t("result.ply_cap", { Max: /maxplies=(\d+)/.exec(e.description ?? "")?.[1] ?? "?" });
    case "scored": return t("result.scored", { Scores: scoresText(e) });
    case "resignation": return t("result.resignation", { Losers: losers });
    case "agreement": return t("result.agreement");
    case "time forfeit": return t("result.time_forfeit", { Losers: losers });
  }
  return e.description ?? reasonText(e.reason);
}

// scoresText is the description's scores ("White 3, Black 2") with the
// sides named in the page's language.
function scoresText(e: Ended): string {
  const text = /scores (.*)$/.exec(e.description ?? "")?.[1] ?? "";
  return text.split(", ").map((part) => {
    const side = e.sides.find((s) => part.startsWith(s + " "));
    return side ? sideName(side) + part.slice(side.length) : part;
  }).join(", ");
}

// tagline is a game's line for its card on the home page, the catalog's
// for the games it knows, else the API's.
export function tagline(id: string, api: string): string {
  switch (id) {
    case "pommel": return t("tagline.pommel");
    case "pommel-76": return t("tagline.pommel_76");
    case "eximo": return t("tagline.eximo");
    case "checkers-2011": return t("tagline.checkers_2011");
    case "punt-match": return t("tagline.punt_match");
    case "punt-heks-match": return t("tagline.punt_heks_match");
    case "punt-heks-match-3p": return t("tagline.punt_heks_match_3p");
  }
  return api;
}
