package lab

import (
	"math"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
)

// LeadDeadZone is the margin, in the engines' units (hundredths of a
// piece), within which nobody leads: half a piece. An evaluation from -50
// to +50 is level, so that a search that swings from +0.4 to -0.4 of a
// piece makes no lead change, and a winner that saw itself 0.4 of a piece
// down was not behind (drama).
const LeadDeadZone = 50

// GameMeasures are the measures of one game that Ludii's metrics and
// Browne's aesthetic criteria define; docs/lab/README.md gives each one's
// definition and source.
type GameMeasures struct {
	// DecisionFactor is the mean number of legal moves in the positions
	// with more than one (Ludii's DecisionFactor).
	DecisionFactor float64
	// Evaluated reports that the game has a static evaluation
	// (game.Evaluator, the one the ab engine applies at its leaves): the
	// four measures below are meaningless without it.
	Evaluated bool
	// Narrowness and ClarityVariance are the means, over the positions
	// with a choice, of PlyStats.Narrowness and PlyStats.Spread.
	Narrowness, ClarityVariance float64
	// Uncertainty is the mean, over the positions after every move, of
	// how level the static evaluation says the game is (see uncertainty).
	Uncertainty float64
	// Stability is the variance of each player's static advantage over
	// the positions of the game (the start and the one after each move),
	// in pieces², averaged over the players.
	Stability float64
	// CoverageUsed is the share of the board's cells some move started
	// on, passed, landed on, took from or dropped on; CoverageOccupied the
	// share that held a piece at some point, the start included.
	CoverageUsed, CoverageOccupied float64
	// Travel is the mean number of cells a move travelled, leg by leg.
	Travel float64
	// StateRepetition and PositionalRepetition are the share of the
	// game's positions (the start and the one after each move) that
	// repeat an earlier one: with the player to move, and by the board
	// alone.
	StateRepetition, PositionalRepetition float64
}

// meter gathers a game's measures while it is replayed.
type meter struct {
	b       *board.Board
	players int
	// used and occupied mark the cells some move used and those that
	// ever held a piece.
	used, occupied []bool
	// states and boards are the positions seen, with and without the
	// player to move; stateRepeats and boardRepeats count the positions
	// that repeated one, seen all of them.
	states, boards             map[string]bool
	stateRepeats, boardRepeats int
	seen                       int
	advantages                 [][]float64  // each player's static advantage, position by position
	stack                      []game.Piece // a buffer for reading stacks
}

// newMeter starts measuring a game from s, its start position.
func newMeter(s game.State) *meter {
	g := s.Game()
	m := &meter{b: g.Board(), players: g.Players(), used: make([]bool, g.Board().Len()),
		occupied: make([]bool, g.Board().Len()), states: map[string]bool{}, boards: map[string]bool{},
		advantages: make([][]float64, g.Players())}
	m.position(s)
	return m
}

// move counts the cells a move used, from its effects.
func (m *meter) move(e game.Effects) {
	names := append([]string(nil), e.Path...)
	for _, c := range e.Captured {
		names = append(names, c.Cell)
	}
	for _, d := range e.Drops {
		names = append(names, d.Cell)
	}
	for _, n := range names {
		if c, ok := m.b.Parse(n); ok {
			m.used[c] = true
		}
	}
}

// position reads the position s, the start or the one after a move: the
// cells it occupies, whether it repeats, and its static evaluation.
func (m *meter) position(s game.State) {
	for c := range m.b.Len() {
		if s.Owner(board.Cell(c)) != game.NoPlayer {
			m.occupied[c] = true
		}
	}
	onBoard := m.boardKey(s)
	state := onBoard + string(rune('0'+int(s.ToMove())))
	m.seen++
	if m.boards[onBoard] {
		m.boardRepeats++
	}
	if m.states[state] {
		m.stateRepeats++
	}
	m.boards[onBoard], m.states[state] = true, true
	if ev, ok := s.(game.Evaluator); ok {
		sc := ev.Evaluate()
		for p := range m.players {
			m.advantages[p] = append(m.advantages[p], float64(advantage(sc, p, m.players)))
		}
	}
}

// boardKey writes what stands on every cell of s, bottom first, cell by
// cell: two positions with the same key have the same board.
func (m *meter) boardKey(s game.State) string {
	var key strings.Builder
	st, stacked := s.(game.Stacker)
	for c := range m.b.Len() {
		cell := board.Cell(c)
		switch {
		case stacked:
			m.stack = st.Stack(cell, m.stack[:0])
			for _, p := range m.stack {
				key.WriteByte(byte('a' + 2*int(p.Owner) + int(p.Rank)))
			}
		case s.Owner(cell) != game.NoPlayer:
			key.WriteByte(byte('a' + int(s.Owner(cell))))
		}
		key.WriteByte('/')
	}
	return key.String()
}

// finish sums the game up, from its plies.
func (m *meter) finish(plies []PlyStats, evaluated bool) GameMeasures {
	gm := GameMeasures{Evaluated: evaluated}
	var legal, narrow, spread, travel, uncertain []float64
	for _, ps := range plies {
		travel = append(travel, float64(ps.Travel))
		if evaluated {
			uncertain = append(uncertain, uncertainty(ps.Static))
		}
		if ps.Legal < 2 {
			continue
		}
		legal = append(legal, float64(ps.Legal))
		if evaluated {
			narrow = append(narrow, ps.Narrowness)
			spread = append(spread, ps.Spread)
		}
	}
	gm.DecisionFactor, gm.Travel = mean(legal), mean(travel)
	if evaluated {
		gm.Narrowness, gm.ClarityVariance, gm.Uncertainty = mean(narrow), mean(spread), mean(uncertain)
		var v []float64
		for _, a := range m.advantages {
			v = append(v, variance(a)/1e4)
		}
		gm.Stability = mean(v)
	}
	gm.CoverageUsed, gm.CoverageOccupied = share(m.used), share(m.occupied)
	if m.seen > 0 {
		gm.StateRepetition = float64(m.stateRepeats) / float64(m.seen)
		gm.PositionalRepetition = float64(m.boardRepeats) / float64(m.seen)
	}
	return gm
}

// share is the share of true values.
func share(v []bool) float64 {
	n := 0
	for _, x := range v {
		if x {
			n++
		}
	}
	if len(v) == 0 {
		return 0
	}
	return float64(n) / float64(len(v))
}

// variance is the population variance of values, 0 for none.
func variance(values []float64) float64 {
	mu := mean(values)
	var sum float64
	for _, x := range values {
		sum += (x - mu) * (x - mu)
	}
	if len(values) == 0 {
		return 0
	}
	return sum / float64(len(values))
}

// advantage is player p's static evaluation less the best of the others',
// as the ab engine judges a position at its leaves.
func advantage(sc [game.MaxPlayers]int, p, players int) int {
	best := math.MinInt
	for q := range players {
		if q != p && sc[q] > best {
			best = sc[q]
		}
	}
	return sc[p] - best
}

// lead is who is ahead of a position by per-player values v (scores or
// evaluations): the first seat's value less the second's in a game of
// two, the leader's less the runner-up's in a game of more (never
// negative: how close the race is).
func lead(v [game.MaxPlayers]int, players int) int {
	if players == 2 {
		return v[0] - v[1]
	}
	top, second := math.MinInt, math.MinInt
	for p := range players {
		switch {
		case v[p] > top:
			top, second = v[p], top
		case v[p] > second:
			second = v[p]
		}
	}
	return top - second
}

// uncertainty is how undecided a position whose static lead is d is: 1
// when level, falling towards 0 as the lead grows, 0.54 at a lead of
// DecisiveMargin (two pieces). It is 1 - |2p - 1| for the chance p =
// 1/(1 + e^(-d/DecisiveMargin)) that a logistic model of the lead gives
// the side ahead.
func uncertainty(d int) float64 {
	return 1 - math.Abs(math.Tanh(float64(d)/(2*DecisiveMargin)))
}

// clarity reads the choice the mover faces in s among moves: the share of
// them clearly best (narrowness) and the variance of their values (in
// pieces²), each move valued one ply deep by the game's static evaluation
// from the mover's side (a move that ends the game: ±EvalCap, 0 for a
// draw). ok is false when the game has no static evaluation. s is left as
// it was.
func clarity(s game.State, moves []game.Move) (narrowness, spread float64, ok bool) {
	ev, ok := s.(game.Evaluator)
	if !ok || len(moves) < 2 {
		return 0, 0, ok
	}
	me, players := int(s.ToMove()), s.Game().Players()
	values := make([]float64, 0, len(moves))
	for _, m := range moves {
		s.Play(m)
		values = append(values, float64(moveValue(s, ev, me, players)))
		s.Undo()
	}
	return narrowShare(values), variance(values) / 1e4, true
}

// moveValue is the value for player me of the position s after a move.
func moveValue(s game.State, ev game.Evaluator, me, players int) int {
	r := s.Result()
	if r.Over() {
		switch match.Share(r, game.Player(me), players) { // by the game's places
		case 1:
			return EvalCap
		case 0:
			return -EvalCap
		}
		return 0 // a shared first place, or a draw
	}
	return max(-EvalCap, min(EvalCap, advantage(ev.Evaluate(), me, players)))
}

// narrowShare is the share of values at or above the mean plus three
// quarters of the way to the best (Ludii's ClarityNarrowness threshold;
// a position whose moves are all equal counts all of them, 1, where
// Ludii's strict comparison would count none).
func narrowShare(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	mu, best := mean(values), math.Inf(-1)
	for _, v := range values {
		best = max(best, v)
	}
	threshold := mu + 0.75*(best-mu)
	n := 0
	for _, v := range values {
		if v >= threshold-1e-9 {
			n++
		}
	}
	return float64(n) / float64(len(values))
}

// travel is the number of cells a move's path crosses, leg by leg: a
// leg along a line counts the steps along it, one that is on no line
// (none in these games) counts one.
func travel(b *board.Board, path []string) int {
	n := 0
	for i := 1; i < len(path); i++ {
		from, ok1 := b.Parse(path[i-1])
		to, ok2 := b.Parse(path[i])
		if !ok1 || !ok2 {
			continue
		}
		n += legLength(b, from, to)
	}
	return n
}

// legLength is the steps from one cell to another along their line.
func legLength(b *board.Board, from, to board.Cell) int {
	d, ok := b.DirTo(from, to)
	if !ok {
		return 1
	}
	for i, c := range b.Ray(from, d) {
		if c == to {
			return i + 1
		}
	}
	return 1
}
