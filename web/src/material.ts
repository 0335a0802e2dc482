// The material each player took, counted from the position as a player
// counts it over the board: the opponent's pieces that started and are no
// longer free (docs/web.md, "Captured material").

// freePieces counts the pieces of the side with letter that are free:
// those in stacks the side commands (its piece on top). In a game of
// single pieces that is every piece it has on the board; in Checkers
// 2011's Lasca stacks a piece under an opponent's is a prisoner, out of
// play until its stack is taken in turn.
export function freePieces(stacks: Record<string, string>, letter: string): number {
  let n = 0;
  for (const stack of Object.values(stacks)) {
    if (stack[stack.length - 1]?.toLowerCase() !== letter) continue;
    for (const l of stack) if (l.toLowerCase() === letter) n++;
  }
  return n;
}

// Taken is what a seat took: the opponents' pieces out of play (taken
// off the board or held prisoner), and its lead over the opponent in
// pieces taken (0 when behind or level, and in a game of three).
export interface Taken {
  pieces: number;
  lead: number;
}

// takenBy counts, for each seat, the pieces it took between the start
// and now, the seats' letters in turn order.
export function takenBy(start: Record<string, string>, now: Record<string, string>, letters: string[]): Taken[] {
  const lost = letters.map((l) => Math.max(0, freePieces(start, l) - freePieces(now, l)));
  const total = lost.reduce((a, b) => a + b, 0);
  return letters.map((_, seat) => {
    const pieces = total - lost[seat];
    const lead = letters.length === 2 ? Math.max(0, pieces - lost[seat]) : 0;
    return { pieces, lead };
  });
}
