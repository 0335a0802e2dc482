// The move list's numbering: moves in pairs for two players ("1. a1-a3
// g6-g4"), in turns of one move each for three, a turn counted from the
// first seat's move; a game begun with a later seat to move starts with
// a partial turn ("1... a5-a4 2. a3xa5").

export interface TurnRow {
  number: number;
  plies: (number | null)[]; // each seat's move in this turn (its index in the moves), or null
}

// turnRows lays the moves out by turn; movers[i] is the seat that made
// move i.
export function turnRows(movers: number[], seats: number): TurnRow[] {
  const rows: TurnRow[] = [];
  let row: TurnRow | null = null;
  movers.forEach((seat, ply) => {
    if (!row || seat <= lastSeat(row)) {
      row = { number: rows.length + 1, plies: new Array(seats).fill(null) };
      rows.push(row);
    }
    row.plies[seat] = ply;
  });
  return rows;
}

function lastSeat(row: TurnRow): number {
  for (let s = row.plies.length - 1; s >= 0; s--) if (row.plies[s] !== null) return s;
  return -1;
}
