package punt

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// reach is how many cells a pile of each height may move: a single pawn
// 1 to 3, a pile of two 1 or 2, a higher pile 1. reach[0] is unused.
var reach = [4]int{0, 3, 2, 1}

// Moves appends the legal moves of the player to move: every pile the
// player controls off their own end-row, in each forward and sideways
// direction, to every cell within its reach that it gets to across empty
// cells; the first pile on the way is the last cell it may land on.
func (s *State) Moves(buf []game.Move) []game.Move {
	t := s.g.t
	p := &s.pos
	me := p.toMove
	dirs := t.dirs[me][:t.nDirs]
	for m := p.ctrl[me] & t.mobile[me]; m != 0; m &= m - 1 {
		c := board.Cell(bits.TrailingZeros64(m))
		n := reach[min(p.height[c], 3)]
		for _, d := range dirs {
			near := &t.near[c][d]
			for i := 0; i < n; i++ {
				x := near[i]
				if x == board.None {
					break
				}
				buf = append(buf, game.Step(c, x))
				if p.occ>>x&1 != 0 {
					break
				}
			}
		}
	}
	return buf
}
