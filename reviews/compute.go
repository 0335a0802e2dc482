package reviews

import (
	"context"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/review"
)

// Engine is the review's computation (package review) with the endgame
// tables given (one folder for each game and rules; nil: none): the
// Compute of the site's workers and of "arbiter work". A worker with
// other tables than the site's gives the positions they hold another
// exact value, so every worker is given the same --tables.
func Engine(tables []*endgame.Tables) Compute {
	return func(ctx context.Context, in Input) (Result, error) {
		rules, err := game.New(in.Rules, in.Options)
		if err != nil {
			return Result{}, err
		}
		start := rules.Start()
		if in.StartFEN != "" {
			if start, err = rules.ParseFEN(strings.TrimSpace(in.StartFEN)); err != nil {
				return Result{}, fmt.Errorf("the start %s: %v", clip.Quote(in.StartFEN), err)
			}
		}
		moves, err := parseMoves(start, in.Moves)
		if err != nil {
			return Result{}, err
		}
		t := review.TablesFor(tables, rules)
		r, err := review.Game(ctx, rules, start, moves, review.Config{Nodes: in.Nodes, Tables: t})
		if err != nil {
			return Result{}, err
		}
		res := fromReview(r)
		if in.Puzzles && len(in.Options) == 0 {
			// The puzzle pool is of each game's default rules: a game
			// of other options gives none.
			if res.Puzzles, err = findPuzzles(ctx, rules, start, moves, t); err != nil {
				return Result{}, err
			}
		}
		return res, nil
	}
}

// findPuzzles finds the game's puzzles as 'arbiter puzzles' does, and
// keeps those a deeper search confirms, as the shipped sets are built
// (docs/puzzles.md).
func findPuzzles(ctx context.Context, rules game.Game, start game.State, moves []game.Move, t *endgame.Tables) ([]puzzle.Puzzle, error) {
	found, err := puzzle.Find(ctx, rules, start, moves, puzzle.Config{Tables: t})
	if err != nil {
		return nil, err
	}
	var kept []puzzle.Puzzle
	for _, p := range found {
		faults, err := puzzle.RecheckPuzzle(ctx, p, puzzle.Recheck{Tables: t})
		if err != nil {
			return nil, err
		}
		if len(faults) == 0 {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// parseMoves reads the moves, each in the position it is played in.
func parseMoves(start game.State, texts []string) ([]game.Move, error) {
	s := start.Clone()
	moves := make([]game.Move, 0, len(texts))
	for i, text := range texts {
		m, err := game.ParseMove(s, text)
		if err != nil {
			return nil, fmt.Errorf("move %d %s: %v", i+1, clip.Quote(text), err)
		}
		moves = append(moves, m)
		s.Play(m)
	}
	return moves, nil
}

// fromReview is a review as the queue keeps it.
func fromReview(r review.Result) Result {
	out := Result{Nodes: r.Nodes, Moves: make([]Move, len(r.Moves)),
		Accuracy: make([]float64, len(r.Seats)), Counts: make([]Counts, len(r.Seats))}
	for i, m := range r.Moves {
		out.Moves[i] = Move{Ply: m.Ply, Seat: int(m.Seat), Move: m.Move, Score: m.Score, ScoreText: m.ScoreText,
			Best: m.Best, Line: m.Line, Played: m.Played, Loss: m.Loss, WinChance: m.WinChance, After: m.After,
			Drop: m.Drop, Mark: string(m.Mark), Forced: m.Forced, Exact: m.Table}
	}
	for i, s := range r.Seats {
		out.Accuracy[i] = s.Accuracy
		out.Counts[i] = Counts{Inaccuracy: s.Inaccuracies, Mistake: s.Mistakes, Blunder: s.Blunders}
	}
	return out
}
