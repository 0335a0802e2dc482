// Package reviews runs the computer reviews of finished games as jobs of
// a River job queue (github.com/riverqueue/river), the queue the lab uses
// too: on the site's PostgreSQL database, or in an SQLite file beside
// the site's store. A review is asked for once per game (a unique key on
// the game in the reviews' own table, and a unique River job); its job
// carries everything a worker needs (the rules, the options, the start,
// the moves), so that the site's own workers and "arbiter work" processes
// on other machines do the same work without reaching the site's store.
// A worker writes the result into the queue's results table once (ON
// CONFLICT DO NOTHING): a job done twice, its first worker killed and
// the job rescued, stores one result.
//
// The review itself (the searches, the marks, the accuracy) is computed
// by a Compute function the caller gives, package review's; this package
// decides who may ask, how often, and keeps the state: queued, running,
// done or failed.
//
// It knows no HTTP: the server maps its refusals (Error) to statuses.
package reviews

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/puzzle"
)

// Input is what a review is computed from: a job carries it whole.
type Input struct {
	// Rules is the game's rules id ("pommel", "checkers2011", ...).
	Rules   string            `json:"rules"`
	Options map[string]string `json:"options,omitempty"`
	// StartFEN is where the game started ("" for the rules' start).
	StartFEN string `json:"startFen,omitempty"`
	// Moves are the game's moves in the board's notation.
	Moves []string `json:"moves"`
	// Nodes is the search of each position, in nodes: a fixed budget, so
	// that a review does not depend on the machine or its load.
	Nodes int64 `json:"nodes"`
	// Puzzles asks the worker to find the game's puzzles too (package
	// puzzle, at its defaults), for the site's puzzle pool.
	Puzzles bool `json:"puzzles,omitempty"`
}

// Move is the review of one move, judged in the position before it
// (package review's Move, as the queue stores it).
type Move struct {
	Ply  int    `json:"ply"`
	Seat int    `json:"seat"`
	Move string `json:"move"`
	// Score is the position's evaluation before the move, from the
	// mover's point of view, in hundredths of a piece (as the analysis
	// gives it; ScoreText writes it as the records do); Best and Line
	// the search's best move and line there.
	Score     int      `json:"score"`
	ScoreText string   `json:"scoreText"`
	Best      string   `json:"best"`
	Line      []string `json:"line"`
	// Played is the played move's score, by the same search; Loss is
	// Score less Played, in hundredths of a piece.
	Played int `json:"played"`
	Loss   int `json:"loss"`
	// WinChance is the mover's expected score before the move (0 to 1),
	// After the same after it, Drop the fall (never below 0).
	WinChance float64 `json:"winChance"`
	After     float64 `json:"after"`
	Drop      float64 `json:"drop"`
	// Mark is "", "inaccuracy", "mistake" or "blunder".
	Mark string `json:"mark,omitempty"`
	// Forced says the move was the only legal one (never marked).
	Forced bool `json:"forced,omitempty"`
	// Exact is the endgame tables' word on the move ("win in 23 → draw"),
	// "" when the tables have none.
	Exact string `json:"exact,omitempty"`
}

// The marks a move may get.
const (
	Inaccuracy = "inaccuracy"
	Mistake    = "mistake"
	Blunder    = "blunder"
)

// Counts are one seat's marks.
type Counts struct {
	Inaccuracy int `json:"inaccuracy"`
	Mistake    int `json:"mistake"`
	Blunder    int `json:"blunder"`
}

// Result is a finished review.
type Result struct {
	Moves []Move `json:"moves"`
	// Accuracy and Counts have one entry per seat, in turn order.
	Accuracy []float64 `json:"accuracy"`
	Counts   []Counts  `json:"counts"`
	// Nodes is the search of each position the review was made with.
	Nodes int64 `json:"nodes"`
	// Puzzles are the puzzles found in the game (when Input.Puzzles),
	// each rechecked by a deeper search before it is kept.
	Puzzles []puzzle.Puzzle `json:"puzzles,omitempty"`
}

// Compute computes a review. It must be a pure function of its input
// (the same input, the same result, on any machine), stop soon after
// ctx is done, and may panic: the worker contains it.
type Compute func(ctx context.Context, in Input) (Result, error)

// State is where a review stands.
type State string

// The states of a review.
const (
	Queued  State = "queued"
	Running State = "running"
	Done    State = "done"
	Failed  State = "failed"
)

// Review is a review as it stands: its result once done, the reason once
// failed.
type Review struct {
	Game  string
	State State
	// Result is set when State is Done.
	Result *Result
	// Error says why, when State is Failed.
	Error string
	// Requested is when it was asked for.
	Requested time.Time
	// job is its River job's id while the job is on the queue, else 0.
	job int64
}

// Code is a kind of refusal, which the server maps to a status.
type Code string

// The refusals.
const (
	// NotFound: no review was asked for this game (or no such game).
	NotFound Code = "not_found"
	// Unfinished: the game goes on, or has no move to review.
	Unfinished Code = "game_not_over"
	// Forbidden: the requester may not ask for this game's review.
	Forbidden Code = "forbidden"
	// RateLimited: the requester has too many reviews queued, or asked
	// for too many in the last hour.
	RateLimited Code = "rate_limited"
	// Full: the queue holds as many reviews as it may.
	Full Code = "queue_full"
	// Invalid: the game cannot be reviewed as given (too long, unknown
	// rules).
	Invalid Code = "invalid"
	// Closed: the service is stopping.
	Closed Code = "shutting_down"
)

// Error is a refusal: a code and a message for people.
type Error struct {
	Code    Code
	Message string
	// RetryAfter, for RateLimited and Full, is when to ask again.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode is err's code, "" when it is no refusal.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// GameOf is a game of the hall as a review needs it. Every game of
// arbiter is public: its id is its spectator link (hall.SpectatorURL),
// and GET /api/games/{id} and its record answer anyone who has it, so a
// review, which tells nothing the record does not, may be asked by
// anyone who can read the game; the limits hold each requester all the
// same. Public stays a field so that private games, when they come,
// keep their reviews to their players.
func GameOf(v hall.View) Game {
	return Game{ID: v.ID, Over: v.Result != nil, Public: true,
		Input: Input{Rules: v.Game, Options: v.Options, StartFEN: v.StartFEN, Moves: v.Moves}}
}

// IsPlayer reports whether account holds a seat of v.
func IsPlayer(v hall.View, account string) bool {
	return account != "" && slices.Contains(v.Accounts, account)
}
