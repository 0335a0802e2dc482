// The games' names as players read them, from their ids.

const names: Record<string, string> = {
  "pommel": "Pommel",
  "pommel-76": "Pommel 76",
  "eximo": "Eximo",
  "checkers-2011": "Checkers 2011",
  "punt-match": "Punt-Match",
  "punt-heks-match": "Punt-Heks-Match",
  "punt-heks-match-3p": "Punt-Heks-Match, 3 players",
};

// gameName is a game's name: "Checkers 2011" for "checkers-2011"; an id
// this page does not know is shown as it is.
export function gameName(id: string): string {
  return names[id] ?? id;
}
