package ai

import (
	"context"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// Several lines at once, for analysis: ab searches the root moves itself,
// the first n of each iteration with the full window and every other one
// with a window whose floor is the n-th best score so far. A move that
// beats the floor comes back with its exact score (the window has no
// ceiling), one that does not is known to be no better than the n best,
// which is all a list of n lines needs; the moves below the root are
// searched as Search searches them. Search itself is unchanged, so a
// game's engine plays as strongly as it did.

// Line is one of the best moves a SearchLines found: its score (as
// Info.Score) and the line of play it starts.
type Line struct {
	Score int
	PV    []game.Move
}

// LineSearcher is an engine that can give its n best moves at once.
type LineSearcher interface {
	// SearchLines is Search, whose Info also holds the n best moves in
	// Lines (fewer when the position has fewer moves), at each report
	// as in the answer.
	SearchLines(ctx context.Context, s game.State, lim Limits, n int, report func(Info)) Info
}

// SearchLines deepens as Search does, each iteration finding the n best
// root moves with their exact scores; it returns the last completed one.
func (e *ab) SearchLines(ctx context.Context, s0 game.State, lim Limits, n int, report func(Info)) Info {
	maxDepth, err := e.prepare(ctx, s0, lim)
	if err != nil {
		return Info{Err: err}
	}
	order := e.s.Moves(nil)
	n = max(1, min(n, len(order)))
	best := Info{Move: order[0], PV: []game.Move{order[0]}, Lines: []Line{{PV: []game.Move{order[0]}}}}
	for depth := 1; depth <= maxDepth; depth++ {
		lines := e.rootLines(depth, order, n)
		if e.stop.stopped && (depth > 1 || len(lines) == 0) {
			break
		}
		best = Info{Move: lines[0].PV[0], Score: lines[0].Score, Depth: depth, Nodes: e.stop.nodes,
			PV: lines[0].PV, Elapsed: time.Since(e.stop.start), Lines: lines}
		if report != nil {
			report(best)
		}
		order = linesFirst(order, lines)
		if e.stop.stopped || len(order) == 1 && lim.Depth == 0 || allDecided(lines, e.probing != nil) {
			break
		}
	}
	best.Nodes, best.Elapsed = e.stop.nodes, time.Since(e.stop.start)
	return best
}

// rootLines searches every root move of moves, in that order, to depth
// and returns the n best, best first (of equal scores the one searched
// first). Stopped, it returns the lines found so far.
func (e *ab) rootLines(depth int, moves []game.Move, n int) []Line {
	s := e.s
	e.pvLen[0] = 0
	e.path[0] = s.Hash()
	if e.stop.tick() {
		return nil
	}
	side := e.rootSide(s)
	var lines []Line
	floor := -infinity // a move must score above it to be one of the n
	for _, m := range moves {
		s.Play(m)
		var score int
		if e.sameSide(s, side) {
			score = e.negamax(depth-1, floor, infinity, 1)
		} else {
			score = -e.negamax(depth-1, -infinity, -floor, 1)
		}
		s.Undo()
		if e.stop.stopped {
			return lines
		}
		if len(lines) == n && score <= floor {
			continue
		}
		pv := append([]game.Move{m}, e.pv[1][1:e.pvLen[1]]...)
		at := len(lines)
		for at > 0 && lines[at-1].Score < score {
			at--
		}
		lines = slices.Insert(lines, at, Line{Score: score, PV: pv})[:min(len(lines)+1, n)]
		if len(lines) == n {
			floor = lines[n-1].Score
		}
	}
	return lines
}

// linesFirst orders the root moves for the next iteration: the lines'
// moves, best first, then the others in the order they had.
func linesFirst(moves []game.Move, lines []Line) []game.Move {
	out := make([]game.Move, 0, len(moves))
	for _, l := range lines {
		out = append(out, l.PV[0])
	}
	for _, m := range moves {
		if !slices.Contains(out[:len(lines)], m) {
			out = append(out, m)
		}
	}
	return out
}

// allDecided tells whether every line ends the game by force, so that a
// deeper search would find the same. With tables a forced result may lie
// further than the search's own depth (a table's win in 80 plies), and
// counts as decided as ab's own iterations count it (see decided).
func allDecided(lines []Line, tables bool) bool {
	for _, l := range lines {
		forced := l.Score > Mate-MaxDepth || l.Score < -Mate+MaxDepth || tables && decided(l.Score)
		if !forced {
			return false
		}
	}
	return true
}
