// Which moves the board marks as the last: in a game of three, the moves
// since the player's own last one, so that the first opponent's reply is
// not lost under the second's.

// recentPaths are the cells to mark at the position after shownPly moves
// (paths[i] the cells of move i, movers[i] its seat): the last move,
// then, while the seats that made them are others than held (the seats
// this browser plays), the moves before it, at most one per other seat.
// A spectator, or a player who just moved, sees the last move alone.
export function recentPaths(paths: string[][], movers: number[], shownPly: number, held: number[], seats: number): string[] {
  const cells: string[] = [];
  for (let p = shownPly - 1, n = 0; p >= 0 && n < seats - 1; p--, n++) {
    if (n > 0 && (held.length === 0 || held.includes(movers[p]))) break;
    cells.push(...paths[p]);
    if (held.includes(movers[p])) break;
  }
  return cells;
}
