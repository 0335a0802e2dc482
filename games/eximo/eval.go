package eximo

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/game"
)

// evalWeights are the evaluation's weights, in hundredths of a man.
type evalWeights struct {
	man int
	// adv[r] is the bonus of a man r rows in front of its own first row.
	adv [7]int
	// runner is what a man on the row before the far row gains per man
	// that leaving would earn net (drops minus the man that leaves), when
	// it has an empty far-row cell in front of it.
	runner int
	// mobility is the bonus per ordinary step available.
	mobility int
	// hanging is the penalty per man the opponent could capture now.
	hanging int
}

var weights = evalWeights{
	man:      100,
	adv:      [7]int{0, 2, 4, 8, 14, 22, 32},
	runner:   40,
	mobility: 0,
	hanging:  20,
}

// rowMask[p][r] is the row r rows in front of p's first row.
var rowMask = func() (m [2][7]uint64) {
	for r := range 7 {
		m[Black][r] = 0xff << (8 * r)
		m[White][r] = 0xff << (8 * (7 - r))
	}
	return m
}()

// Evaluate scores the position for each player: material, advancement
// towards the far row, men about to leave the board for drops (worth a man
// when two zone cells are free, nothing when one is, a man lost when the
// zone is full), mobility and men the opponent can capture. It implements
// game.Evaluator and does not allocate.
func (s *State) Evaluate() [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	t := s.g.t
	w := &weights
	occ := s.pos.men[Black] | s.pos.men[White]
	empty := ^occ
	for p := range 2 {
		mine, theirs := s.pos.men[p], s.pos.men[1-p]
		v := w.man * bits.OnesCount64(mine)
		for r := 1; r < 7; r++ {
			v += w.adv[r] * bits.OnesCount64(mine&rowMask[p][r])
		}
		// Men that can step onto an empty far-row cell next move.
		last := mine & rowMask[p][6]
		var leavers, steps uint64
		for d := range nForward {
			sh := t.shift[p][d]
			leavers |= sh.apply(last) & empty
			steps += uint64(bits.OnesCount64(sh.apply(mine) & empty))
		}
		if leavers != 0 {
			free := min(bits.OnesCount64(t.zone[p]&empty), 2)
			v += w.runner * (free - 1)
		}
		v += w.mobility * int(steps)
		if w.hanging != 0 {
			// A man of p is capturable in the opponent's direction d when
			// an enemy man stands behind it in d and the cell beyond it is
			// empty; p's own direction d is the opposite of the opponent's.
			var hit uint64
			for d := range nDirs {
				hit |= t.shift[1-p][d].apply(theirs) & mine & t.shift[p][d].apply(empty)
			}
			v -= w.hanging * bits.OnesCount64(hit)
		}
		e[p] = v
	}
	return e
}
