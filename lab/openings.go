package lab

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// A balanced book is what lab --openings wants: positions a few plies
// in that a deep search finds near level, so that a run measures the
// game rather than one opening's edge. BuildBook finds every position
// the legal moves reach after Plies plies (or a sample of them when there
// are too many), evaluates each with an alpha-beta search to Depth plies,
// and keeps the Count nearest level.

// BookConfig describes a book to build.
type BookConfig struct {
	Game game.Game
	// Start is the position the book's move prefixes start from: the
	// game's start, or a --from position.
	Start game.State
	Plies int // 1 or more
	Count int // the openings kept, 1 or more
	Depth int // the evaluating search's depth, 1 to ai.MaxDepth
	// Positions bounds the positions evaluated: when the plies reach more,
	// Positions of them are sampled by random games of Plies plies.
	Positions int
	Seed      uint64
}

// The bounds of a book's settings.
const (
	MaxBookPlies     = 40
	MaxBookPositions = 100_000
)

// BookLine is one opening of a built book: its moves and the search's
// evaluation of the position they reach, from the side to move's point of
// view (ab's hundredths of a piece).
type BookLine struct {
	Moves []string
	Eval  int
	Mover string // the seat to move, by name
}

// check refuses a book that cannot be built, saying what is allowed.
func (bc BookConfig) check() error {
	switch {
	case bc.Plies < 1 || bc.Plies > MaxBookPlies:
		return fmt.Errorf("--plies %d: want 1 to %d", bc.Plies, MaxBookPlies)
	case bc.Count < 1 || bc.Count > bc.Positions:
		return fmt.Errorf("--count %d: want 1 to --positions (%d)", bc.Count, bc.Positions)
	case bc.Depth < 1 || bc.Depth > ai.MaxDepth:
		return fmt.Errorf("--depth %d: want 1 to %d", bc.Depth, ai.MaxDepth)
	case bc.Positions < 1 || bc.Positions > MaxBookPositions:
		return fmt.Errorf("--positions %d: want 1 to %d", bc.Positions, MaxBookPositions)
	}
	return nil
}

// BuildBook builds a balanced book: the same config and seed give the
// same book. progress, if not nil, is told after each evaluation how many
// of how many positions are done.
func BuildBook(ctx context.Context, bc BookConfig, progress Progress) ([]BookLine, error) {
	if err := bc.check(); err != nil {
		return nil, err
	}
	prefixes := reachable(bc.Start, bc.Plies, bc.Positions)
	if prefixes == nil {
		prefixes = sampled(bc.Start, bc.Plies, bc.Positions, bc.Seed)
	}
	if len(prefixes) == 0 {
		return nil, fmt.Errorf("no position %d plies in is still being played: give fewer --plies", bc.Plies)
	}
	var lines []BookLine
	for k, moves := range prefixes {
		line, err := evaluate(ctx, bc, moves)
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
		if progress != nil {
			progress(k+1, len(prefixes))
		}
	}
	slices.SortStableFunc(lines, func(a, b BookLine) int { return cmp.Compare(abs(a.Eval), abs(b.Eval)) })
	return lines[:min(bc.Count, len(lines))], nil
}

// evaluate searches the position after moves with a fresh engine, so
// that no search depends on the ones before it (the book is the same
// whatever order it was built in).
func evaluate(ctx context.Context, bc BookConfig, moves []string) (BookLine, error) {
	s := bc.Start.Clone()
	if err := game.PlayMoves(s, moves); err != nil {
		return BookLine{}, err
	}
	e, err := ai.New("ab:tt=16", bc.Seed)
	if err != nil {
		return BookLine{}, err
	}
	info := e.Search(ctx, s, ai.Limits{Depth: bc.Depth}, nil)
	if ctx.Err() != nil {
		return BookLine{}, ctx.Err()
	}
	return BookLine{Moves: moves, Eval: info.Score, Mover: bc.Game.PlayerName(s.ToMove())}, nil
}

// reachable lists a move prefix for every distinct position (by its hash)
// that plies legal moves reach from start with the game still going, in
// the order of the moves' texts; nil when there are more than limit.
func reachable(start game.State, plies, limit int) [][]string {
	seen := map[uint64]bool{}
	var out [][]string
	var walk func(s game.State, moves []string) bool
	walk = func(s game.State, moves []string) bool {
		if s.Result().Over() {
			return true
		}
		if len(moves) == plies {
			if !seen[s.Hash()] {
				seen[s.Hash()] = true
				out = append(out, slices.Clone(moves))
			}
			return len(out) <= limit
		}
		for _, text := range game.MoveTexts(s) {
			m, _ := game.ParseMove(s, text) // one of s's moves
			s.Play(m)
			ok := walk(s, append(moves, text))
			s.Undo()
			if !ok {
				return false
			}
		}
		return true
	}
	if !walk(start.Clone(), nil) {
		return nil
	}
	return out
}

// sampled lists the move prefixes of up to limit distinct positions that
// random games of plies plies reach from start, for a seed; it gives up
// after limit*20 games, when the positions are fewer than they seemed.
func sampled(start game.State, plies, limit int, seed uint64) [][]string {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	seen := map[uint64]bool{}
	var out [][]string
	for try := 0; try < limit*20 && len(out) < limit; try++ {
		s := start.Clone()
		var moves []string
		for len(moves) < plies && !s.Result().Over() {
			legal := game.MoveTexts(s)
			text := legal[rng.IntN(len(legal))]
			m, _ := game.ParseMove(s, text)
			s.Play(m)
			moves = append(moves, text)
		}
		if !s.Result().Over() && !seen[s.Hash()] {
			seen[s.Hash()] = true
			out = append(out, moves)
		}
	}
	return out
}

// abs is |x|.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BookText writes a built book as lab --openings reads it: a header of
// comments (head, one line each), then one opening a line, its moves and,
// in a comment, the search's evaluation.
func BookText(head []string, lines []BookLine, depth int) string {
	var b strings.Builder
	for _, h := range head {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "%s # %s for %s to move, ab depth %d\n", strings.Join(l.Moves, " "), ai.ScoreText(l.Eval), l.Mover, depth)
	}
	return b.String()
}
