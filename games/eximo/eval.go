package eximo

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/game"
)

// Weights are the evaluation's weights, in hundredths of a man.
type Weights struct {
	Man int
	// Runner is what a man standing a step from the far row, with an
	// empty far-row cell in front of it, adds for each man that leaving
	// would earn net: drops minus the man that leaves, so +1 with two
	// free cells in the zone, 0 with one, and -1 with a full zone, where
	// the man is simply lost.
	Runner int
	// Hanging is the cost of each man the opponent could capture now.
	// Quiescence resolves the captures of the player to move; this counts
	// the threats against it.
	Hanging int
	// Advance[r] is the bonus of a man r rows in front of its own first
	// row: a man that goes forward only is worth more the nearer it is to
	// leaving the board for drops.
	Advance [7]int
	// Mobility is the bonus per forward step to an empty cell.
	Mobility int
	// Edge is the bonus per man on the a or h file, which no sideways or
	// diagonal capture across the board's side can take.
	Edge int
	// Tempo is the bonus of the player to move.
	Tempo int
}

// edgeFiles are the a and h files.
const edgeFiles uint64 = 0x8181818181818181

// DefaultWeights returns the weights Evaluate uses. Each was kept because
// alpha-beta with it beat alpha-beta without it in node-limited matches
// (100 games, 20,000 nodes a move); so was the evaluation as a whole, 81%
// against a plain material count. Mobility (a bonus per step) lost and is
// left out; an advance table twice as steep, one half as steep and a
// linear one all lost.
func DefaultWeights() Weights {
	return Weights{Man: 100, Runner: 40, Hanging: 20, Advance: [7]int{0, 2, 4, 8, 14, 22, 32}}
}

// rowMask[p][r] is the row r rows in front of p's first row.
var rowMask = func() (m [2][7]uint64) {
	for r := range 7 {
		m[Black][r] = 0xff << (8 * r)
		m[White][r] = 0xff << (8 * (7 - r))
	}
	return m
}()

// Evaluate scores the position for each player by DefaultWeights. It
// implements game.Evaluator and does not allocate.
func (s *State) Evaluate() [game.MaxPlayers]int {
	return s.evaluate(&s.g.t.weights)
}

// evaluate scores the position for each player: material, advancement
// towards the far row, a man about to leave the board for drops, and the
// men the opponent can capture. It reads only bitboards.
func (s *State) evaluate(w *Weights) [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	t := s.g.t
	empty := ^(s.pos.men[Black] | s.pos.men[White])
	for p := range game.Player(2) {
		mine, theirs := s.pos.men[p], s.pos.men[1-p]
		v := w.Man * bits.OnesCount64(mine)
		for r := 1; r < len(w.Advance); r++ {
			v += w.Advance[r] * bits.OnesCount64(mine&rowMask[p][r])
		}
		// The far-row cells a man of the last row but one can step to.
		last := mine & rowMask[p][6]
		var exits uint64
		for _, sh := range t.shift[p][:nForward] {
			exits |= sh.apply(last) & empty
		}
		if exits != 0 {
			drops := min(bits.OnesCount64(t.zone[p]&empty), 2)
			v += w.Runner * (drops - 1)
		}
		// A man of p can be captured in the opponent's direction d when an
		// enemy man stands next to it against d and the cell beyond it in
		// d is empty; p's own direction d is the opposite of the
		// opponent's, so t.shift[p][d] looks beyond.
		var hanging uint64
		for d := range nDirs {
			hanging |= t.shift[1-p][d].apply(theirs) & mine & t.shift[p][d].apply(empty)
		}
		v -= w.Hanging * bits.OnesCount64(hanging)
		if w.Mobility != 0 {
			for _, sh := range t.shift[p][:nForward] {
				v += w.Mobility * bits.OnesCount64(sh.apply(mine)&empty)
			}
		}
		v += w.Edge * bits.OnesCount64(mine&edgeFiles)
		e[p] = v
	}
	e[s.pos.toMove] += w.Tempo
	return e
}

// Evaluation returns a game.Evaluation of Eximo by w, for an engine:
// ai.WithEvaluation(eximo.Evaluation(w)).
func Evaluation(w Weights) game.Evaluation { return &evaluation{w} }

// evaluation is a copy of its weights, so nothing can change it.
type evaluation struct{ w Weights }

func (e *evaluation) Judges(s game.State) bool {
	_, ok := s.(*State)
	return ok
}

func (e *evaluation) Evaluate(s game.State) [game.MaxPlayers]int {
	return s.(*State).evaluate(&e.w)
}
