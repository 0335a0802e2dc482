package puzzle

import (
	"fmt"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/review"
)

// Exact puzzles: in a position the endgame tables hold (Pommel's today),
// a won position whose mover has exactly one move that keeps the win is
// a puzzle by the tables' word, without a search and without a margin:
// "win in N: find the only winning move". The line goes on as a searched
// one does: the opponent answers with the reply that loses slowest, and
// the solver's next move must again be the only one that keeps the win,
// up to MaxMoves solver moves, or to the end of the game.

// moveValue is what m does for s's mover by the tables (review's
// ValueAfter of the child).
func moveValue(t *endgame.Tables, s game.State, m game.Move) (endgame.Value, bool) {
	s.Play(m)
	defer s.Undo()
	return review.ValueAfter(t, s)
}

// onlyWin is s's one move that keeps its table win, with the value
// (win in how many plies) and the best of the other moves' values; ok is
// false when s is not a table win or has two or more winning moves, or a
// child the tables cannot answer.
func onlyWin(t *endgame.Tables, s game.State) (win game.Move, v, other endgame.Value, ok bool) {
	if sv, held := review.TableValue(t, s); !held || sv.Kind != endgame.Win {
		return win, v, other, false
	}
	wins := 0
	other = endgame.Value{Kind: endgame.Loss}
	for _, m := range s.Moves(nil) {
		mv, held := moveValue(t, s, m)
		if !held {
			return win, v, other, false
		}
		if mv.Kind == endgame.Win {
			wins++
			win, v = m, mv
		} else if mv.Kind == endgame.Draw {
			other = mv
		}
	}
	return win, v, other, wins == 1
}

// slowestLoss is the reply of s's mover, lost by the tables, that loses
// the latest; ok is false when the tables cannot answer a child.
func slowestLoss(t *endgame.Tables, s game.State) (game.Move, bool) {
	var best game.Move
	bestPlies := -1
	for _, m := range s.Moves(nil) {
		mv, held := moveValue(t, s, m)
		if !held {
			return best, false
		}
		// The mover is lost, so every reply loses; the longest loss is
		// the defence a player would choose.
		if mv.Kind == endgame.Loss && mv.Plies > bestPlies {
			best, bestPlies = m, mv.Plies
		}
	}
	return best, bestPlies >= 0
}

// tablePosition judges s0 by the tables alone; ok is false when the
// tables do not make it a puzzle.
func (j judge) tablePosition(s0 game.State) (Puzzle, bool, error) {
	t := j.cfg.Tables
	if len(s0.Moves(nil)) < 2 {
		return Puzzle{}, false, nil
	}
	first, v, other, ok := onlyWin(t, s0)
	if !ok {
		return Puzzle{}, false, nil
	}
	// The lead is a win (1) over the best other move: a draw (1/2) or a
	// loss (0).
	margin := 1.0
	if other.Kind == endgame.Draw {
		margin = 0.5
	}
	s := s0.Clone()
	solution := []game.Move{first}
	s.Play(first)
	for solverMoves := 1; solverMoves < j.cfg.MaxMoves && !s.Result().Over(); solverMoves++ {
		reply, ok := slowestLoss(t, s)
		if !ok {
			break
		}
		s.Play(reply)
		next, _, o, ok := onlyWin(t, s)
		if !ok {
			s.Undo()
			break
		}
		if o.Kind == endgame.Draw {
			margin = min(margin, 0.5)
		}
		solution = append(solution, reply, next)
		s.Play(next)
	}
	p, ok, err := j.make(s0, solution, margin)
	if err != nil || !ok {
		return p, ok, err
	}
	p.Table = fmt.Sprintf("win in %d", v.Plies)
	p.Themes = addTheme(p.Themes, Endgame)
	return p, true, nil
}
