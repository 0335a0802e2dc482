// Take-backs and premoves on the game page, as docs/server.md's "Take-backs
// and premoves" gives their rules: what the page works out for itself
// (whose move a take-back takes back, a premove's ply and what became of
// it); the requests are game.ts's.

import type { Game, Position } from "./api";
import { parseMove } from "./entry";

// A premove the page set: its move (its piece and its landing), the ply of
// the turn it is for, and the ply at which it was set.
export interface Premove {
  move: string;
  ply: number;
  setAt: number;
}

// moveEnds are a move's first and last cells.
export function moveEnds(move: string): [string, string] {
  const path = parseMove(move).path;
  return [path[0] ?? "", path[path.length - 1] ?? ""];
}

// nextTurn is the ply of seat's next turn, the seats playing in turn.
export function nextTurn(g: Game, seat: number): number {
  const n = g.seats.length;
  return g.ply + ((seat - g.toMove + n) % n);
}

// ownsTop reports whether a piece of the side of letter tops cell's stack.
export function ownsTop(pos: Position, cell: string, letter: string): boolean {
  const stack = pos.stacks[cell];
  return !!stack && stack[stack.length - 1].toLowerCase() === letter;
}

// premoveOutcome says what became of pm in g, for seat: "" while it
// waits, "played", "dropped" (no longer legal when its turn came), or
// "gone" (taken back, or the game ended first).
export function premoveOutcome(pm: Premove, g: Game, seat: number): "" | "played" | "dropped" | "gone" {
  if (g.ply < pm.setAt) return "gone";
  if (g.ply > pm.ply) {
    const [from, to] = moveEnds(pm.move);
    const [playedFrom, playedTo] = moveEnds(g.moves[pm.ply]);
    return g.movers[pm.ply] === seat && playedFrom === from && playedTo === to ? "played" : "dropped";
  }
  if (g.result) return "gone";
  return g.ply === pm.ply && g.toMove === seat ? "dropped" : "";
}

// lastMoverAmong is the seat of held that made the latest move, or -1: the
// seat whose move a take-back this browser asks for takes back.
export function lastMoverAmong(g: Game, held: number[]): number {
  for (let i = g.movers.length - 1; i >= 0; i--) {
    if (held.includes(g.movers[i])) return g.movers[i];
  }
  return -1;
}
