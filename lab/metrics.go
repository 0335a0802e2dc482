package lab

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// PlyStats is one move of one game: the position it was played in and
// what it did, as plies.csv lists it.
type PlyStats struct {
	Game  int    // the game's index, 0 for the first
	Ply   int    // 1 for the first move
	Mover int    // the seat that moved
	Move  string // in the project's notation
	Legal int    // legal moves in the position: the branching factor
	// Taken counts the pieces the move took, Cells the cells it took
	// them from.
	Taken, Cells int
	Capture      bool // the move captured (took pieces by jumping or leaping them)
	Chain        bool // a capture of more than one leg
	Leaps        int  // legs that took more than one cell
	Promoted     bool
	Drops        int
	Sandwiches   int  // cells that lost pieces with no leg reaching them
	Takeover     bool // the move landed on a stack another player commanded
	ScoreChanged bool // the move changed a player's score
	Scored       bool // the move raised its mover's own score
	// Searched is false for the random plies of the opening, which have
	// no search behind them.
	Searched     bool
	Score, Depth int   // the search's score from the mover's side, its depth
	Nodes        int64 // the search's nodes
	// Eval is the search's score from the first seat's side in a game of
	// two, from the mover's own side in a game of more, capped at
	// ±EvalCap so that a found win does not swamp the means.
	Eval int
	// What the position after the move holds, read on the board and by
	// the game's own static evaluation (game.Evaluator, the one the ab
	// engine applies at its leaves, so that old runs can be measured
	// again): every player's pieces on the board; the score lead in a game
	// that scores and the static evaluation's lead, capped at ±EvalCap
	// (both from the first seat's side in a game of two, the leader's
	// margin over the runner-up in a game of more: see lead).
	Pieces, ScoreLead, Static int
	// Narrowness and Spread read the choice the mover faced (see clarity);
	// 0 in a position with one legal move.
	Narrowness, Spread float64
	// Travel is the number of cells the move crossed, leg by leg.
	Travel int
}

// EvalCap bounds the evaluations the lab averages: ab's scores are in
// hundredths of a piece, a found win near ±ai.Mate.
const EvalCap = 2000

// GameStats is one game, as games.csv lists it.
type GameStats struct {
	Index      int
	Seats      []string // the engine in each seat, in turn order
	Result     string   // the Result tag: "1-0", "1/2-1/2", ...
	Reason     string
	Winners    []int
	Plies      int
	Decisions  int     // positions with more than one legal move
	Branching  float64 // legal moves per position, the mean over the game
	Captures   int     // moves that captured
	Taken      int     // pieces taken, by captures and sandwiches
	Chains     int
	Leaps      int
	Promotions int
	Drops      int
	Sandwiches int
	Takeovers  int
	// ScoreChanges counts the moves that changed a score; Scores are the
	// final scores, in games that score.
	ScoreChanges int
	Scores       []int
	LeadChanges  int
	// From and Moves are the game's start (a FEN, "" for the game's own
	// start) and its moves from there, opening included: games with the
	// same start and moves are the same game (see distinctGames).
	From  string
	Moves []string
	// Arc is the engines' view of the game (Decided false for a draw, a
	// shared first place or a winner that never searched); Signals the
	// players telling events point at.
	Arc     Arc
	Decided bool
	Signals Signals
	// Measures are the game's Ludii and Browne measures.
	Measures GameMeasures
}

// analyseGame replays one game, counting what each move did from its
// effects, and returns the game's and its plies' data.
func analyseGame(g game.Game, d GameData) (GameStats, []PlyStats, error) {
	gs := GameStats{Index: d.Index, Seats: d.Seats, Reason: d.Reason, Winners: d.Winners, Scores: d.Scores}
	res, err := d.result()
	if err != nil {
		return gs, nil, err
	}
	gs.Result = record.ResultText(res, g.Players())
	s, err := d.start(g)
	if err != nil {
		return gs, nil, err
	}
	moves := append([]string(nil), d.Opening...)
	for _, m := range d.Moves {
		moves = append(moves, m.Move)
	}
	gs.From, gs.Moves = d.From, moves
	var plies []PlyStats
	var leaders []int
	legal := 0
	m := newMeter(s)
	for i, text := range moves {
		ps, lead, err := analysePly(s, text, m)
		leaders = append(leaders, lead)
		if err != nil {
			return gs, nil, fmt.Errorf("game %d, ply %d: %w", d.Index+1, i+1, err)
		}
		ps.Game, ps.Ply = d.Index, i+1
		if k := i - len(d.Opening); k >= 0 {
			sr := d.Moves[k]
			ps.Searched, ps.Score, ps.Depth, ps.Nodes = true, sr.Score, sr.Depth, sr.Nodes
			ps.Eval = evalFor(sr.Score, ps.Mover, g.Players())
		}
		gs.add(ps)
		legal += ps.Legal
		plies = append(plies, ps)
	}
	if r := s.Result(); r.Reason != res.Reason || r.Winners != res.Winners {
		return gs, nil, fmt.Errorf("game %d: the moves end in %q, the game says %q", d.Index+1,
			r.Describe(g), res.Describe(g))
	}
	gs.Plies = len(plies)
	if gs.Plies > 0 {
		gs.Branching = float64(legal) / float64(gs.Plies)
	}
	gs.LeadChanges = leadChanges(plies, g.Players())
	gs.Arc, gs.Decided = arcOf(plies, d.Winners)
	gs.Signals = signalsOf(plies, leaders)
	_, evaluated := s.(game.Evaluator)
	gs.Measures = m.finish(plies, evaluated)
	return gs, plies, nil
}

// analysePly reads one move in s, says what it did, plays it and tells
// the meter. ahead is the player ahead after it (by score in a game that
// scores, else by pieces on the board), -1 when none is ahead alone.
func analysePly(s game.State, text string, m *meter) (ps PlyStats, ahead int, err error) {
	mv, err := game.ParseMove(s, text)
	if err != nil {
		return PlyStats{}, -1, err
	}
	e, err := game.MoveEffects(s, mv)
	if err != nil {
		return PlyStats{}, -1, err
	}
	legal := s.Moves(nil)
	ps = PlyStats{Mover: int(s.ToMove()), Move: text, Legal: len(legal), Travel: travel(s.Game().Board(), e.Path)}
	ps.count(e)
	ps.Narrowness, ps.Spread, _ = clarity(s, legal)
	m.move(e)
	s.Play(mv)
	m.position(s)
	pieces, err := ps.after(s, e)
	if err != nil {
		return PlyStats{}, -1, err
	}
	if e.Scores != nil {
		return ps, leader(e.Scores), nil
	}
	return ps, leader(pieces), nil
}

// after reads the position s after the move: the pieces on the board (and
// each player's, returned), the score lead and the static evaluation.
func (ps *PlyStats) after(s game.State, e game.Effects) ([]int, error) {
	counts, err := game.CountPieces(s)
	if err != nil {
		return nil, err
	}
	n := s.Game().Players()
	pieces := make([]int, n)
	for p := range pieces {
		pieces[p] = counts[p].Pieces
		ps.Pieces += counts[p].Pieces
	}
	if e.Scores != nil {
		var scores [game.MaxPlayers]int
		copy(scores[:], e.Scores)
		ps.ScoreLead = lead(scores, n)
	}
	if ev, ok := s.(game.Evaluator); ok {
		ps.Static = max(-EvalCap, min(EvalCap, lead(ev.Evaluate(), n)))
	}
	return pieces, nil
}

// count reads a move's effects.
func (ps *PlyStats) count(e game.Effects) {
	legs := map[int]int{} // cells taken per leg
	for _, c := range e.Captured {
		ps.Cells++
		ps.Taken += len(c.Taken)
		if c.Leg == 0 {
			ps.Sandwiches++
		} else {
			legs[c.Leg]++
		}
	}
	for _, n := range legs {
		if n > 1 {
			ps.Leaps++
		}
	}
	ps.Capture = e.Capture
	ps.Chain = e.Capture && len(e.Path) > 2
	ps.Promoted = e.Promoted != ""
	ps.Drops = len(e.Drops)
	// What stands under the mover and its prisoners on its last cell was
	// there before: a takeover when another player commanded it.
	if under := len(e.Landed) - len(e.Moving) - len(e.Prisoners); !e.Removed && under > 0 {
		ps.Takeover = e.Landed[under-1].Owner != e.Player
	}
	for p, d := range e.ScoreChange {
		if d != 0 {
			ps.ScoreChanged = true
		}
		if d > 0 && p == int(e.Player) {
			ps.Scored = true
		}
	}
}

// add counts one ply into the game's totals.
func (gs *GameStats) add(ps PlyStats) {
	if ps.Legal > 1 {
		gs.Decisions++
	}
	gs.Taken += ps.Taken
	gs.Leaps += ps.Leaps
	gs.Drops += ps.Drops
	gs.Sandwiches += ps.Sandwiches
	for _, c := range []struct {
		yes bool
		n   *int
	}{{ps.Capture, &gs.Captures}, {ps.Chain, &gs.Chains}, {ps.Promoted, &gs.Promotions},
		{ps.Takeover, &gs.Takeovers}, {ps.ScoreChanged, &gs.ScoreChanges}} {
		if c.yes {
			*c.n++
		}
	}
}

// evalFor turns a search's score, from the mover's side, into the side
// the lab plots: the first seat's in a game of two (the searches are
// zero-sum), the mover's own in a game of more; capped at ±EvalCap.
func evalFor(score, mover, players int) int {
	if players == 2 && mover != 0 {
		score = -score
	}
	return max(-EvalCap, min(EvalCap, score))
}

// leadChanges counts how often the engines' view of who leads changed.
// In a game of two the leader is the side the first seat's evaluation
// favours by more than LeadDeadZone (an evaluation within it favours no
// one and changes nothing); in a game of more it is the last mover that
// thought itself ahead by more than LeadDeadZone, since one search says
// nothing of how the others stand among themselves.
func leadChanges(plies []PlyStats, players int) int {
	leader, changes := -1, 0
	for _, ps := range plies {
		if !ps.Searched {
			continue
		}
		now := -1
		switch {
		case players == 2 && ps.Eval > LeadDeadZone:
			now = 0
		case players == 2 && ps.Eval < -LeadDeadZone:
			now = 1
		case players > 2 && ps.Score > LeadDeadZone:
			now = ps.Mover
		}
		if now < 0 {
			continue
		}
		if leader >= 0 && now != leader {
			changes++
		}
		leader = now
	}
	return changes
}

// key is what makes the game itself: its start and its moves.
func (gs *GameStats) key() string { return gs.From + "|" + strings.Join(gs.Moves, " ") }
