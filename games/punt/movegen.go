package punt

import (
	"math/bits"
	"slices"

	"github.com/arbiter-games/arbiter/game"
)

// reach is how many cells a pile of each height may move: a single pawn
// 1 to 3, a pile of two 1 or 2, a higher pile 1. reach[0] is unused.
var reach = [4]int{0, 3, 2, 1}

// farOf[h] is reach for every height a pile can have (33 at most), so
// that Moves reads it without a branch.
var farOf = func() (f [maxCells]uint8) {
	for h := 1; h < maxCells; h++ {
		f[h] = uint8(reach[min(h, 3)])
	}
	return f
}()

// Moves appends the legal moves of the player to move: every pile the
// player controls off their own end-row, in each forward and sideways
// direction, to every cell within its reach that it gets to across empty
// cells; the first pile on the way is the last cell it may land on.
//
// Moves is most of a playout's time, so it has no branch that depends on
// the board: it makes room for three moves per pile and direction first,
// copies a ray's three moves every time and keeps as many as the pile
// lands on (ray.landings), so that the next ray's moves overwrite the
// others. The pie rule's Swap, when it is a move, comes last.
func (s *State) Moves(buf []game.Move) []game.Move {
	buf = s.ruleMoves(buf)
	if s.ply == 1 && s.swappable {
		buf = withSwap(buf)
	}
	return buf
}

// withSwap appends the pie rule's Swap. It is a function of its own so
// that Moves stays small enough to be inlined where the concrete type is
// known.
//
//go:noinline
func withSwap(buf []game.Move) []game.Move { return append(buf, game.Swap()) }

// ruleMoves appends the moves of the rules, as Moves says. It is Moves'
// loop alone: a check of the pie rule inside it cost Moves a few percent,
// the registers it took being spilled in the loop.
func (s *State) ruleMoves(buf []game.Move) []game.Move {
	t := s.g.t
	p := &s.pos
	me := p.toMove
	piles := p.ctrl[me] & t.mobile[me]
	if s.g.allStuck && (piles == 0 || s.allStuckOver()) {
		return s.passes(buf)
	}
	buf = slices.Grow(buf, bits.OnesCount64(piles)*t.nDirs*len(ray{}.moves))
	out := buf[len(buf):cap(buf)]
	n := 0
	occ := p.occ
	slots := t.slots[me][:t.nDirs]
	for ; piles != 0; piles &= piles - 1 {
		c := bits.TrailingZeros64(piles)
		far := farOf[p.height[c]%maxCells] % 4
		rays := &t.rays[c]
		for _, slot := range slots {
			r := &rays[slot]
			blocked := occ>>(r.first%maxCells)&1 | occ>>(r.second%maxCells)&1<<1
			*(*[3]game.Move)(out[n:]) = r.moves
			n += int(r.landings[far][blocked])
		}
	}
	return buf[:len(buf)+n]
}

// HasMove reports whether the player to move has a legal move, as a
// non-empty Moves would: a pile it controls off its end-row with a
// neighbour in one of its directions (a pile may land on any pile). With
// end=all-stuck, a player who controls a pile has a move, a pass if
// nothing else, while the game goes on (allStuckOver).
// Engines ask it at the horizon instead of listing the moves.
func (s *State) HasMove() bool {
	me := s.pos.toMove
	if s.g.allStuck {
		return s.pos.ctrl[me] != 0 && !s.allStuckOver()
	}
	return s.pos.ctrl[me]&s.g.t.mobile[me] != 0
}

// HasCapture reports false: Punt has no captures, so every position is
// quiet to an engine's search.
func (s *State) HasCapture() bool { return false }
