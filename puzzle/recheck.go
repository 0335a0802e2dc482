package puzzle

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/review"
)

// Rechecking a puzzle after it was found: its solution replayed move by
// move and judged again by a deeper search than the one that verified it,
// and by the endgame tables where they hold the position. It is how a
// shipped set is checked (puzzles' tests, docs/puzzles.md): a puzzle whose
// solution a deeper look does not confirm is a puzzle that tells a player
// a wrong answer.

// The recheck's defaults.
const (
	// DefaultRecheckFactor is how much deeper than a puzzle's own
	// verifying search the recheck searches when Recheck.Nodes is 0.
	DefaultRecheckFactor = 4
	// DefaultRecheckMargin is the least lead a solver move must keep at
	// the deeper search: the review's "mistake" drop. The generator asks
	// for DefaultMargin (a quarter of the point) at two depths; a deeper
	// look moves every lead a little, so the recheck asks that the move
	// stay the best and every other move stay at least a mistake — still
	// clearly worse — not that the lead stay above the generator's bar.
	DefaultRecheckMargin = review.MistakeDrop
	// DefaultReplySlack is how much less a reply of the solution may
	// expect than the deeper search's best reply, from the replier's side:
	// a reply a few hundredths worse is the same defence seen a ply
	// deeper, not a wrong line (the review's "inaccuracy" drop).
	DefaultReplySlack = review.InaccuracyDrop
)

// Recheck says how a puzzle is rechecked.
type Recheck struct {
	// Nodes is the deeper search (0: DefaultRecheckFactor times the
	// puzzle's VerifyNodes, at most MaxNodes); it must exceed the
	// puzzle's VerifyNodes.
	Nodes int64
	// Margin is the least lead the solver's every move must keep at the
	// deeper search (0: DefaultRecheckMargin).
	Margin float64
	// ReplySlack bounds how much worse than the best a reply may be (0:
	// DefaultReplySlack).
	ReplySlack float64
	// Tables, when not nil, judge the positions they hold instead of the
	// search; Scorer scores positions (nil: ab, as Find's default).
	Tables *endgame.Tables
	Scorer Scorer
}

// Fault is one move of a solution that the recheck does not confirm.
type Fault struct {
	// Index is the move's place in the solution (0: the first solver
	// move; odd indexes are replies); Move its text.
	Index int
	Move  string
	Why   string
}

func (f Fault) String() string { return fmt.Sprintf("move %d (%s): %s", f.Index+1, f.Move, f.Why) }

// RecheckPuzzle replays p's solution from its FEN and judges every move
// again: a solver move must be the deeper search's best, ahead of every
// other by the margin (or the only move), and a reply within the slack
// of the best reply; in a position the tables hold, a solver move must be
// the only move that keeps the position's value (a win or a draw; a lost
// position is no puzzle), and a reply must keep its side's value. It
// answers the faults found, none when the solution holds; an error is a
// puzzle that cannot be replayed (an unknown game, a bad FEN or move) or
// a failed search.
func RecheckPuzzle(ctx context.Context, p Puzzle, rc Recheck) ([]Fault, error) {
	s, moves, err := Replay(p)
	if err != nil {
		return nil, err
	}
	rc, curve, err := rc.resolve(s.Game(), p)
	if err != nil {
		return nil, err
	}
	var faults []Fault
	for i, m := range moves {
		why, err := rc.judge(ctx, s, m, curve, i%2 == 0)
		if err != nil {
			return nil, err
		}
		if why != "" {
			faults = append(faults, Fault{Index: i, Move: p.Solution[i], Why: why})
		}
		s.Play(m)
	}
	return faults, nil
}

// Replay parses p's position (the game's default options) and its
// solution's moves, each legal in turn; it answers the position before
// the first move.
func Replay(p Puzzle) (game.State, []game.Move, error) {
	g, err := game.New(p.Game, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	s, err := g.ParseFEN(p.FEN)
	if err != nil {
		return nil, nil, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	if len(p.Solution)%2 == 0 {
		return nil, nil, fmt.Errorf("puzzle %s: a solution of %d moves: it must start and end with a solver move", p.ID, len(p.Solution))
	}
	start := s.Clone()
	moves := make([]game.Move, len(p.Solution))
	for i, text := range p.Solution {
		if s.Result().Over() {
			return nil, nil, fmt.Errorf("puzzle %s: move %d (%s) after the end of the game", p.ID, i+1, text)
		}
		m, err := game.ParseMove(s, text)
		if err != nil {
			return nil, nil, fmt.Errorf("puzzle %s: move %d: %w", p.ID, i+1, err)
		}
		moves[i] = m
		s.Play(m)
	}
	return start, moves, nil
}

// resolve fills in rc's defaults for p.
func (rc Recheck) resolve(g game.Game, p Puzzle) (Recheck, review.Curve, error) {
	if rc.Nodes == 0 {
		rc.Nodes = min(MaxNodes, DefaultRecheckFactor*max(p.VerifyNodes, DefaultVerify))
	}
	if rc.Margin == 0 {
		rc.Margin = DefaultRecheckMargin
	}
	if rc.ReplySlack == 0 {
		rc.ReplySlack = DefaultReplySlack
	}
	switch {
	case rc.Nodes <= p.VerifyNodes || rc.Nodes > MaxNodes:
		return rc, review.Curve{}, fmt.Errorf("puzzle: a recheck of %d nodes: give more than the puzzle's %d, up to %d", rc.Nodes, p.VerifyNodes, MaxNodes)
	case !(rc.Margin > 0 && rc.Margin <= 1), !(rc.ReplySlack > 0 && rc.ReplySlack <= 1):
		return rc, review.Curve{}, fmt.Errorf("puzzle: a recheck margin %g and slack %g: give each above 0, up to 1", rc.Margin, rc.ReplySlack)
	}
	curve, ok := review.CurveFor(g.ID())
	if !ok {
		return rc, curve, fmt.Errorf("puzzle: no win-chance curve for %s", g.ID())
	}
	if rc.Scorer == nil {
		rc.Scorer = abScorer{rc.Tables}
	}
	return rc, curve, nil
}

// judge answers why m, played in s, is not confirmed ("" when it is):
// solver says whether s's mover is the solver.
func (rc Recheck) judge(ctx context.Context, s game.State, m game.Move, curve review.Curve, solver bool) (string, error) {
	legal := s.Moves(nil)
	if len(legal) == 1 {
		return "", nil
	}
	if _, held := review.TableValue(rc.Tables, s); held {
		return rc.judgeByTables(s, m, solver), nil
	}
	lines, err := rc.Scorer.Lines(ctx, s, rc.Nodes)
	if err != nil {
		return "", err
	}
	if len(lines) < 2 || len(lines[0].PV) == 0 {
		return fmt.Sprintf("the search at %d nodes scored %d of %d moves", rc.Nodes, len(lines), len(legal)), nil
	}
	b := s.Game().Board()
	best := curve.Expected(lines[0].Score)
	played := -1.0
	second := 0.0
	for _, l := range lines {
		e := curve.Expected(l.Score)
		if len(l.PV) > 0 && l.PV[0] == m {
			played = e
		} else {
			second = max(second, e)
		}
	}
	switch {
	case played < 0:
		return fmt.Sprintf("the search at %d nodes did not score it", rc.Nodes), nil
	case !solver && played < best-rc.ReplySlack:
		return fmt.Sprintf("a weak reply at %d nodes: it expects %.3f, %s expects %.3f", rc.Nodes, played, lines[0].PV[0].Text(b), best), nil
	case solver && lines[0].PV[0] != m:
		return fmt.Sprintf("not the best at %d nodes: %s expects %.3f, it %.3f", rc.Nodes, lines[0].PV[0].Text(b), best, played), nil
	case solver && played-second < rc.Margin:
		return fmt.Sprintf("its lead at %d nodes is %.3f, under the margin %.2f", rc.Nodes, played-second, rc.Margin), nil
	}
	return "", nil
}

// judgeByTables judges m in a position the tables hold: the move must
// keep the mover's value; a solver move must be the only one that does,
// and the value must not be a loss.
func (rc Recheck) judgeByTables(s game.State, m game.Move, solver bool) string {
	sv, _ := review.TableValue(rc.Tables, s)
	mv, held := moveValue(rc.Tables, s, m)
	switch {
	case !held:
		return "the tables hold the position but not the one after it"
	case mv.Kind != sv.Kind:
		return fmt.Sprintf("the tables: it turns a %s into a %s", sv.Kind, mv.Kind)
	case !solver:
		return ""
	case sv.Kind == endgame.Loss:
		return "the tables: the solver is lost whatever they play"
	}
	keep := 0
	for _, o := range s.Moves(nil) {
		if ov, ok := moveValue(rc.Tables, s, o); ok && ov.Kind == sv.Kind {
			keep++
		}
	}
	if keep > 1 {
		return fmt.Sprintf("the tables: %d moves keep the %s", keep, sv.Kind)
	}
	return ""
}
