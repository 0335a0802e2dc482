// Click-to-move: the legal move list alone decides what a click means.
// A move is its path (the start cell and every landing) and its drops; the
// player clicks the start, each landing in order, then the drop cells in
// any order. Never a guess: a move is played only when it is the single
// one left, or when the player picks it among those that match.

export interface ParsedMove {
  text: string;
  path: string[];
  drops: string[];
}

// swapMove is the pie rule's move: the second player takes over the first
// player's position. It has no path to click; the game page offers it as a
// button ("Swap sides").
export const swapMove = "swap";

// parseMove splits a move in the project's notation: cells joined by "-"
// or "x", then "@cell" for each drop. Swap has no cell at all, so that no
// click matches it and it marks no cell as the last move.
export function parseMove(text: string): ParsedMove {
  if (text === swapMove) return { text, path: [], drops: [] };
  const [route, ...drops] = text.split("@");
  return { text, path: route.split(/[-x:]/), drops };
}

export interface Selection {
  path: string[];
  drops: string[];
}

export const emptySelection: Selection = { path: [], drops: [] };

// matching lists the moves that agree with what was clicked so far.
export function matching(moves: ParsedMove[], sel: Selection): ParsedMove[] {
  return moves.filter((m) => {
    if (m.path.length < sel.path.length) return false;
    for (let i = 0; i < sel.path.length; i++) {
      if (m.path[i] !== sel.path[i]) return false;
    }
    if (sel.drops.length === 0) return true;
    return m.path.length === sel.path.length && sel.drops.every((d) => m.drops.includes(d));
  });
}

// targets are the cells a next click may choose: the next landing of a
// longer path, or a drop cell not clicked yet of a complete path.
export function targets(moves: ParsedMove[], sel: Selection): Set<string> {
  const out = new Set<string>();
  if (sel.path.length === 0) return out;
  for (const m of matching(moves, sel)) {
    if (m.path.length > sel.path.length) {
      if (sel.drops.length === 0) out.add(m.path[sel.path.length]);
    } else {
      for (const d of m.drops) if (!sel.drops.includes(d)) out.add(d);
    }
  }
  return out;
}

export type Outcome =
  | { kind: "select"; sel: Selection } // the click chose a start, a landing or a drop
  | { kind: "play"; move: string } // exactly one move is left: play it
  | { kind: "reset"; sel: Selection }; // the click matched nothing

// click applies a click on cell to the selection.
export function click(moves: ParsedMove[], sel: Selection, cell: string): Outcome {
  let next: Selection | null = null;
  if (sel.path.length > 0 && targets(moves, sel).has(cell)) {
    const more = matching(moves, sel).some((m) => m.path.length > sel.path.length && m.path[sel.path.length] === cell);
    next = more && sel.drops.length === 0
      ? { path: [...sel.path, cell], drops: [] }
      : { path: sel.path, drops: [...sel.drops, cell] };
  }
  if (next === null) {
    if (sel.path.length === 1 && sel.drops.length === 0 && sel.path[0] === cell) return { kind: "reset", sel: emptySelection };
    const start = { path: [cell], drops: [] };
    return { kind: matching(moves, start).length > 0 ? "select" : "reset", sel: matching(moves, start).length > 0 ? start : emptySelection };
  }
  const left = matching(moves, next);
  if (left.length === 1) return { kind: "play", move: left[0].text };
  return { kind: "select", sel: next };
}

// choices are the moves to offer as buttons: those that match once a
// landing or drop was clicked and that the clicks so far complete.
export function choices(moves: ParsedMove[], sel: Selection): ParsedMove[] {
  if (sel.path.length < 2 && sel.drops.length === 0) return [];
  return matching(moves, sel).filter((m) => m.path.length === sel.path.length);
}
