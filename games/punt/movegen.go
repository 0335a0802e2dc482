package punt

import (
	"math/bits"
	"slices"

	"github.com/arbiter-games/arbiter/game"
)

// reach is how many cells a pile of each height may move: a single pawn
// 1 to 3, a pile of two 1 or 2, a higher pile 1. reach[0] is unused.
var reach = [4]int{0, 3, 2, 1}

// Moves appends the legal moves of the player to move: every pile the
// player controls off their own end-row, in each forward and sideways
// direction, to every cell within its reach that it gets to across empty
// cells; the first pile on the way is the last cell it may land on.
//
// Moves is most of a playout's time. It makes room for the most moves the
// piles can have first, then copies each move from its ray: no growth
// check per move, and no move built field by field.
func (s *State) Moves(buf []game.Move) []game.Move {
	t := s.g.t
	p := &s.pos
	me := p.toMove
	piles := p.ctrl[me] & t.mobile[me]
	buf = slices.Grow(buf, bits.OnesCount64(piles)*t.nDirs*len(ray{}.cells))
	out := buf[len(buf):cap(buf)]
	n := 0
	occ := p.occ
	slots := t.slots[me][:t.nDirs]
	for ; piles != 0; piles &= piles - 1 {
		c := bits.TrailingZeros64(piles)
		far := reach[min(p.height[c], 3)]
		rays := &t.rays[c]
		for _, slot := range slots {
			r := &rays[slot]
			for i := range min(far, int(r.n)) {
				out[n] = r.moves[i]
				n++
				if occ>>r.cells[i]&1 != 0 {
					break
				}
			}
		}
	}
	return buf[:len(buf)+n]
}
