// Package store keeps the server's games durably: in embedded SQLite by
// default, or in PostgreSQL, with one schema, one set of embedded
// migrations and one test suite for both.
//
// Every write is conditional, so the database, not a process lock, decides
// races: a move is stored only if its ply is the game's current ply (a
// conditional update and a unique (game, ply) key in the same
// transaction), and every other change only if the game's version is the
// one the writer read. Of two writers exactly one wins; the other gets
// ErrConflict and reads the game again.
package store

import (
	"context"
	"errors"
	"time"
)

// The errors a store returns; callers test them with errors.Is.
var (
	// ErrNotFound: no game has that id.
	ErrNotFound = errors.New("no such game")
	// ErrConflict: the game changed since the caller read it (another
	// move was stored for that ply, or the version moved on).
	ErrConflict = errors.New("the game changed meanwhile")
	// ErrDuplicate: a game with that id exists already.
	ErrDuplicate = errors.New("a game with that id exists")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("the store is closed")
)

// Seat is one seat of a stored game.
type Seat struct {
	// Player is "human" or an AI spec as the CLI takes it ("ai:level=3").
	Player string `json:"player"`
	// Name is shown to the other players and written in the record.
	Name string `json:"name,omitempty"`
	// TokenHash is the SHA-256 of the seat's secret token (human seats);
	// the token itself is never stored.
	TokenHash []byte `json:"-"`
	// Open is true while a human seat waits for someone to join it from
	// the lobby; joining sets its token and clears it.
	Open bool `json:"open"`
	// Account is the id of the account that holds the seat, if any: its
	// session cookie plays the seat as the token does.
	Account string `json:"account,omitempty"`
	// Arrived is true once the seat's player opened the game with the
	// seat's token or session (or joined it from the lobby): no one has
	// opened an invite yet while it is false, and its opponent is told so.
	Arrived bool `json:"arrived,omitempty"`
	// Bot is true when the seat's account is a bot (AccountKind Bot): an
	// account turns into one before its first game and never back, so
	// what its seats say holds for good.
	Bot bool `json:"bot,omitempty"`
}

// Result is how a stored game ended.
type Result struct {
	Winners []int  `json:"winners"` // seats; empty for a draw
	Reason  string `json:"reason"`  // game.Reason's text: "no pieces", "resignation", ...
	// Scores are the seats' scores in a game that scores (Punt): they
	// place the seats below the winners, for ratings.
	Scores []int `json:"scores,omitempty"`
}

// Header is everything about a game but its moves: what a conditional
// Update writes (every field but ID and Created, which stay as Create
// stored them). Every time in it, the clock's too, is stored in UTC to the
// millisecond.
type Header struct {
	ID      string            `json:"id"`
	Game    string            `json:"game"` // the game id, "pommel"
	Options map[string]string `json:"options"`
	// StartFEN is the position the game starts from; "" for the game's
	// start.
	StartFEN string `json:"startFen,omitempty"`
	Seats    []Seat `json:"seats"`
	Clock    *Clock `json:"clock,omitempty"`
	// Rated games change their accounts' ratings when their result is
	// stored, in the same transaction.
	Rated bool `json:"rated,omitempty"`
	// Ply is the number of moves stored; Version counts every change
	// (moves included) and starts at 1.
	Ply     int     `json:"ply"`
	Version int64   `json:"version"`
	Result  *Result `json:"result"`
	// DrawOffer is the seat offering a draw, or -1.
	DrawOffer int `json:"drawOffer"`
	// Waiting is what else waits on the table: a take-back request, a
	// premove, a line of conditional moves.
	Waiting Waiting `json:"waiting,omitzero"`
	// NoTakebacks says that the game was created with take-backs turned
	// off.
	NoTakebacks bool      `json:"noTakebacks,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

// Waiting is what waits on a game's table beside a draw offer; the zero
// Waiting is nothing.
type Waiting struct {
	// Takeback is the seat asking to take its last move back, or nil.
	Takeback *int `json:"takeback,omitempty"`
	// Premove is a seat's move for its next turn, or nil.
	Premove *Premove `json:"premove,omitempty"`
	// Dropped is the premove dropped at the game's ply, no longer legal
	// when its turn came, or nil: its seat is told, until the next move.
	Dropped *Premove `json:"dropped,omitempty"`
	// Line is a seat's conditional moves (correspondence games), or nil.
	Line *Line `json:"line,omitempty"`
}

// IsZero reports whether nothing is pending.
func (w Waiting) IsZero() bool {
	return w.Takeback == nil && w.Premove == nil && w.Dropped == nil && w.Line == nil
}

// Line is a seat's conditional moves: Moves alternate the opponent's
// expected move and the seat's reply, Moves[0] for ply Ply (the game's
// ply). A line whose first move is the seat's own is a reply due: the
// opponent's move was stored, the reply not yet, and the server plays it
// when it loads the game.
type Line struct {
	Seat  int      `json:"seat"`
	Ply   int      `json:"ply"`
	Moves []string `json:"moves"`
}

// Premove is a move a seat set while another seat was to move: it is
// played when the seat's turn comes at ply Ply, if it is legal then.
type Premove struct {
	Seat int    `json:"seat"`
	Ply  int    `json:"ply"`
	Move string `json:"move"`
}

// Move is one stored move.
type Move struct {
	Ply  int       `json:"ply"` // 0 for the first move
	Text string    `json:"move"`
	At   time.Time `json:"at"`
}

// Game is a stored game: its header and its moves in order.
type Game struct {
	Header
	Moves []Move `json:"moves"`
}

// Filter selects games for List.
type Filter struct {
	// Ongoing keeps only games without a result; OpenSeats only games
	// with an open seat.
	Ongoing, OpenSeats bool
	// IDs, when not empty, keeps only these games.
	IDs []string
	// Limit bounds the answer (0: 100; negative is an error); newest
	// first (by Created, then by ID).
	Limit int
}

// Event says that a game changed: any process that stores into the same
// database sees it (PostgreSQL's LISTEN/NOTIFY; SQLite: every store open
// on the same file, which polls the file's events table). Events are
// hints to read the game again, which is the truth: a subscriber that
// falls more than 1024 events behind loses some rather than slow the
// writers, and when PostgreSQL's listening connection drops, the store
// reconnects and sends an event for every game updated since shortly
// before the drop (by Header.Updated) in place of those it missed.
type Event struct {
	Game    string
	Version int64
}

// Store keeps games.
type Store interface {
	// Create stores a new game: h must have Ply 0 and Version 1; it has
	// no moves. ErrDuplicate if the id is taken.
	Create(ctx context.Context, h Header) error
	// Get reads a game with its moves.
	Get(ctx context.Context, id string) (Game, error)
	// AddMove stores m as the move of ply m.Ply, together with next (the
	// header after the move: Ply m.Ply+1, Version one more than the
	// stored one, clocks, result, draw offer), in one transaction, only if
	// the stored game has exactly m.Ply moves and the version next.Version-1.
	// Otherwise nothing changes and the error is ErrConflict (ErrNotFound
	// for no game). It returns once the move is durable.
	AddMove(ctx context.Context, m Move, next Header) error
	// Update writes next (a resignation, a draw offer, a flag fall, a seat
	// joined) only if the stored version is next.Version-1; else
	// ErrConflict. The moves are not touched; next.Ply must equal the
	// stored ply.
	Update(ctx context.Context, next Header) error
	// TakeBack removes the moves from ply next.Ply on and writes next (the
	// header after the take-back), in one transaction, only if the stored
	// version is next.Version-1 and the stored game has more than next.Ply
	// moves; else ErrConflict (ErrNotFound for no game). It returns once
	// the change is durable.
	TakeBack(ctx context.Context, next Header) error
	// List gives the headers of the games the filter keeps.
	List(ctx context.Context, f Filter) ([]Header, error)
	// Subscribe sends an Event for every stored change until ctx ends or
	// the store closes; then the channel closes.
	Subscribe(ctx context.Context) (<-chan Event, error)
	// Check reads and writes the store: the health check.
	Check(ctx context.Context) error
	Accounts
	Puzzles
	Community
	Tournaments
	Notifications
	Bots
	Live
	// Close ends the subscriptions and releases the database; every call
	// after it returns ErrClosed.
	Close() error
}
