// The JSON API of arbiter serve, as the pages use it (docs/server.md).

import { t } from "./i18n";

export interface Seat {
  seat: number;
  player: string;
  name?: string;
  side: string;
  open: boolean;
  arrived?: boolean; // its player has opened the game (an invite's link, say)
}

export interface Clock {
  kind: string;
  control: string;
  baseMs?: number;
  perMoveMs?: number;
  leftMs: number[];
  running: boolean;
}

export interface Result {
  winners: number[];
  reason: string;
}

export interface Game {
  id: string;
  game: string;
  name?: string; // the game's name for people
  options: Record<string, string>;
  fen: string;
  moves: string[];
  ply: number;
  toMove: number;
  legal: string[];
  result: Result | null;
  version: number;
  seats: Seat[];
  drawOffer: number;
  // takeback is the seat asking to take its last move back (-1 for none);
  // takebacks says whether the game allows them at all.
  takeback: number;
  takebacks: boolean;
  clock?: Clock;
  description?: string;
  // attention says what went wrong with the game on the server (its AI
  // failed); the game needs the operator.
  attention?: string;
  url: string;
  // movers are the seat that made each move.
  movers: number[];
  startFen?: string;
  created?: string;
}

export interface Point {
  x: number;
  y: number;
}

export interface CellShape {
  name: string;
  center: Point;
  outline: Point[];
}

export interface Geometry {
  board: string;
  turn: number;
  cells: CellShape[];
  labels: { text: string; at: Point }[];
  viewBox: { minX: number; minY: number; maxX: number; maxY: number };
}

export interface Position {
  board: string;
  ply: number;
  toMove: number;
  stacks: Record<string, string>;
  scores?: number[];
  endRows?: string[][]; // each seat's end-row cells (Punt)
  frozen?: string[]; // piles on their controller's end row: frozen, scored
}

// Piece is a piece as the server's effects write it.
export interface Piece {
  owner: number; // the seat
  rank: "man" | "king";
}

// Effects are what a move did (GET /api/games/{id}/effects?ply=N, and
// each move's websocket event): its path, what moved, what was taken.
export interface Effects {
  move: string;
  player: number;
  capture: boolean;
  path: string[];
  moving: Piece[];
  captured?: { cell: string; leg: number; taken: Piece[]; left: Piece[] }[];
  removed?: boolean;
  drops?: { cell: string; piece: Piece }[];
}

// LobbyGame is a game as GET /api/games lists it.
export interface LobbyGame {
  id: string;
  game: string;
  seats: Seat[];
  ply: number;
  url: string;
}

export interface CatalogOption {
  key: string;
  default: string;
  help: string;
  values?: string[];
  min: number;
  max: number;
}

export interface CatalogGame {
  id: string;
  name: string; // the game's name for people
  tagline: string; // the summary without the name, for a card
  summary: string;
  players: number;
  seats: string[];
  board: string;
  options: CatalogOption[];
}

export interface Invite {
  seat: number;
  token: string;
  url: string;
}

export interface Created {
  id: string;
  seats: Invite[];
  url: string;
  game: Game;
}

// ApiError is a refusal of the server, with its code and its message.
export class ApiError extends Error {
  constructor(public code: string, message: string) {
    super(message);
  }
}

// request sends a request and returns the JSON answer, or throws the
// server's own error.
export async function request<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = data && data.error;
    throw new ApiError(err ? err.code : "http_" + res.status, err ? err.message : t("api.status", { Status: String(res.status) }));
  }
  return data as T;
}
