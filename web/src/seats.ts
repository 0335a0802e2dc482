// The seats this browser holds, kept in localStorage: a token per seat of
// each game, and the invite links made for friends.

const seatsKey = (id: string) => "arbiter.seats." + id;
const invitesKey = (id: string) => "arbiter.invites." + id;
const gamesKey = "arbiter.games";

function read<T>(key: string, fallback: T): T {
  try {
    const text = localStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

// tokens maps each seat held in game id to its token.
export function tokens(id: string): Record<number, string> {
  return read<Record<number, string>>(seatsKey(id), {});
}

export function saveToken(id: string, seat: number, token: string): void {
  const all = tokens(id);
  all[seat] = token;
  localStorage.setItem(seatsKey(id), JSON.stringify(all));
  rememberGame(id);
}

// invites maps a seat of game id to the invite link made for it.
export function invites(id: string): Record<number, string> {
  return read<Record<number, string>>(invitesKey(id), {});
}

export function saveInvite(id: string, seat: number, url: string): void {
  const all = invites(id);
  all[seat] = url;
  localStorage.setItem(invitesKey(id), JSON.stringify(all));
}

// myGames lists the games this browser holds seats in, newest first.
export function myGames(): string[] {
  return read<string[]>(gamesKey, []);
}

function rememberGame(id: string): void {
  const ids = myGames().filter((g) => g !== id);
  ids.unshift(id);
  localStorage.setItem(gamesKey, JSON.stringify(ids.slice(0, 50)));
}
