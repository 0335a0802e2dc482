package store

import (
	"context"
	"time"
)

// PuzzleRating is an account's Glicko-2 puzzle rating in one game id
// (apart from its game rating: solving is not playing).
type PuzzleRating struct {
	Game       string
	Rating     float64
	RD         float64
	Volatility float64
	// Attempts counts the account's rated attempts in the game.
	Attempts int
	Updated  time.Time
}

// PuzzleState is a puzzle's Glicko-2 rating as players' first attempts
// moved it, with how many rated attempts it had and how many solved it.
type PuzzleState struct {
	ID         string
	Game       string
	Rating     float64
	RD         float64
	Volatility float64
	Plays      int
	Solved     int
}

// PuzzleAttempt is an account's attempt at a puzzle. Player and Puzzle
// are the ratings to start from when the store holds none yet (a new
// player, a puzzle at its generator's rating).
type PuzzleAttempt struct {
	Account string
	Puzzle  string
	Game    string
	Solved  bool
	At      time.Time
	Player  PuzzleRating
	Start   PuzzleState
}

// PuzzleRater gives the ratings after an attempt from those before it:
// the rating rules are the caller's, the store only runs them inside the
// transaction that records the attempt. It changes the Glicko fields;
// the store keeps the counts.
type PuzzleRater func(player PuzzleRating, puzzle PuzzleState, solved bool) (PuzzleRating, PuzzleState)

// PuzzleOutcome is what recording an attempt did: Rated when it was the
// account's first attempt at the puzzle, and so changed both ratings;
// Before and Player are the account's rating before and after (equal
// when not rated), Puzzle the puzzle's after.
type PuzzleOutcome struct {
	Rated  bool
	Before PuzzleRating
	Player PuzzleRating
	Puzzle PuzzleState
}

// Puzzles keeps puzzle ratings: the accounts' and the puzzles' own, and
// each account's first attempt at each puzzle.
type Puzzles interface {
	// PuzzleRatings gives an account's puzzle ratings, by game id.
	PuzzleRatings(ctx context.Context, account string) ([]PuzzleRating, error)
	// PuzzleStates gives the stored ratings of a game's puzzles: those
	// some account attempted (the others keep their start).
	PuzzleStates(ctx context.Context, game string) ([]PuzzleState, error)
	// AttemptedPuzzles gives the ids of the puzzles of a game the
	// account attempted.
	AttemptedPuzzles(ctx context.Context, account, game string) ([]string, error)
	// RecordPuzzleAttempt stores a.Account's attempt at a.Puzzle if it
	// is the account's first, and then, in the same transaction, rates
	// the account and the puzzle by rate; a later attempt (a concurrent
	// one too: the attempt's key decides) changes nothing and is
	// answered with the ratings as they stand. ErrNoAccount when the
	// account is not there (or is deleted).
	RecordPuzzleAttempt(ctx context.Context, a PuzzleAttempt, rate PuzzleRater) (PuzzleOutcome, error)
}
