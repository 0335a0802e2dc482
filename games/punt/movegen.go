package punt

import (
	"math/bits"
	"slices"

	"github.com/arbiter-games/arbiter/game"
)

// reach is how many cells a pile of each height may move: a single pawn
// 1 to 3, a pile of two 1 or 2, a higher pile 1. reach[0] is unused.
var reach = [4]int{0, 3, 2, 1}

// landings[far][blocked] is how many cells of a ray a pile lands on when
// it may go far cells along it (its reach, or fewer at the edge) and
// blocked tells which of the ray's first two cells are occupied (bit 0 the
// first, bit 1 the second): it goes on up to the first occupied cell.
var landings = [4][4]uint8{
	{0, 0, 0, 0},
	{1, 1, 1, 1},
	{2, 1, 2, 1},
	{3, 1, 2, 1},
}

// Moves appends the legal moves of the player to move: every pile the
// player controls off their own end-row, in each forward and sideways
// direction, to every cell within its reach that it gets to across empty
// cells; the first pile on the way is the last cell it may land on.
//
// Moves is most of a playout's time, so it has no branch that depends on
// the board: it makes room for three moves per pile and direction first,
// copies a ray's three moves every time and keeps as many as the pile can
// make (landings), so that the next ray's moves overwrite the others.
func (s *State) Moves(buf []game.Move) []game.Move {
	t := s.g.t
	p := &s.pos
	me := p.toMove
	piles := p.ctrl[me] & t.mobile[me]
	buf = slices.Grow(buf, bits.OnesCount64(piles)*t.nDirs*len(ray{}.moves))
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
			blocked := occ>>r.first&1 | occ>>r.second&1<<1
			*(*[3]game.Move)(out[n:]) = r.moves
			n += int(landings[min(far, int(r.n))][blocked])
		}
	}
	return buf[:len(buf)+n]
}
