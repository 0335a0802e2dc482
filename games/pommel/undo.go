package pommel

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The undo stack holds what a move changed, not the position before it:
// a word or two a move instead of a 64-byte position. A random game makes
// a new State, and the room its stack needs was most of the bytes a game
// allocated: the collector's work, and memory the processor had not seen
// yet at every game. Each record is a run of words ending with its
// header, so that Undo reads the header first and knows what lies below
// it:
//
//	quiet move:  header
//	capture:     taken.lo, [taken.hi,] [captains taken .lo, [.hi,]] header
//	swap:        the six words of the three sets, hash, header
//
// A second word of a set is there only when it is not zero: never on the
// 45-cell board. The hash is not kept: Undo takes it back as Play made
// it, key by key, and the repetition rule works the hashes of earlier
// positions out the same way (see State.repeats).
//
// The header's bits:
const (
	fromBits       = 0 // 8 bits: the moving piece's start
	toBits         = 8 // 8 bits: where it ended
	wasCaptain     = 1 << 16
	tookPieces     = 1 << 17 // a capture: the taken pieces are below
	tookHi         = 1 << 18 // ... with a second word
	tookCaptains   = 1 << 19 // the captains it took: below the taken pieces
	tookCaptainsHi = 1 << 20 // ... with a second word
	swapped        = 1 << 21 // the pie rule's swap: the three sets are below
	moverBit       = 22      // the player who moved
	sinceBits      = 32      // 32 bits: the position's since before the move
)

// header is the last word of a move's record.
func header(from, to board.Cell, flags uint64, mover game.Player, since int) uint64 {
	return uint64(from)<<fromBits | uint64(to)<<toBits | flags | uint64(mover)<<moverBit | uint64(uint32(since))<<sinceBits
}

// pushSet pushes the words of s (its second only when not zero) and
// returns flag, or flag|hiFlag when it pushed two.
func (s *State) pushSet(set cellSet, flag, hiFlag uint64) uint64 {
	s.undo = append(s.undo, set.lo)
	if set.hi != 0 {
		s.undo = append(s.undo, set.hi)
		return flag | hiFlag
	}
	return flag
}

// popSet takes off the stack, below its top n, the set that pushSet
// pushed with hi telling whether it had a second word; it returns the set
// and the new n.
func (s *State) popSet(n int, hi bool) (cellSet, int) {
	var set cellSet
	if hi {
		n--
		set.hi = s.undo[n]
	}
	n--
	set.lo = s.undo[n]
	return set, n
}

// pushMove records a move of the player to move from from to to, which
// took the pieces taken (of which captains taken), before Play changes
// the position.
func (s *State) pushMove(from, to board.Cell, captain bool, taken, captainsTaken cellSet) {
	var flags uint64
	if captain {
		flags |= wasCaptain
	}
	if !taken.empty() {
		flags |= s.pushSet(taken, tookPieces, tookHi)
		if !captainsTaken.empty() {
			flags |= s.pushSet(captainsTaken, tookCaptains, tookCaptainsHi)
		}
	}
	s.undo = append(s.undo, header(from, to, flags, s.pos.toMove, s.since))
}

// pushSwap records the position before the pie rule's swap whole.
func (s *State) pushSwap() {
	p := &s.pos
	s.undo = append(s.undo, p.pieces[White].lo, p.pieces[White].hi, p.pieces[Black].lo, p.pieces[Black].hi,
		p.captains.lo, p.captains.hi, p.hash, header(0, 0, swapped, p.toMove, s.since))
}

// popMove takes the last record off the stack and restores the position
// and since from it. The stack must not be empty.
func (s *State) popMove() {
	t := s.g.t
	n := len(s.undo) - 1
	h := s.undo[n]
	p := &s.pos
	me := game.Player(h >> moverBit & 1)
	p.toMove = me
	s.since = int(uint32(h >> sinceBits))
	if h&swapped != 0 {
		n -= 7
		w := s.undo[n : n+7]
		p.pieces[White], p.pieces[Black], p.captains = cellSet{w[0], w[1]}, cellSet{w[2], w[3]}, cellSet{w[4], w[5]}
		p.count[White], p.count[Black] = uint8(p.pieces[White].count()), uint8(p.pieces[Black].count())
		p.hash = w[6]
		s.undo = s.undo[:n]
		return
	}
	from, to := board.Cell(h>>fromBits), board.Cell(h>>toBits)
	captain := h&wasCaptain != 0
	p.hash ^= t.sideKey ^ t.keys[int(from)*4+kindKey(me, captain)] ^ t.keys[int(to)*4+kindKey(me, p.captains.has(to))]
	p.pieces[me] = p.pieces[me].andNot(setOf(to)).or(setOf(from))
	p.captains = p.captains.andNot(setOf(to))
	if captain {
		p.captains = p.captains.or(setOf(from))
	}
	var captains cellSet
	if h&tookCaptains != 0 {
		captains, n = s.popSet(n, h&tookCaptainsHi != 0)
	}
	if h&tookPieces != 0 {
		var taken cellSet
		taken, n = s.popSet(n, h&tookHi != 0)
		p.restore(t, taken, captains, 1-me)
	}
	s.undo = s.undo[:n]
}

// repeats counts how many times the current position has occurred since
// the last irreversible move, itself included. The moves since then are
// all a captain's quiet slides, one word each, and each passes the turn:
// going back record by record, the hash of each earlier position is the
// later one's with the slide's keys taken out, and only every second one
// can have the same player to move.
func (s *State) repeats() int {
	t := s.g.t
	n, hash := 1, s.pos.hash
	// After back records, hash is the position's back plies ago.
	for back := 1; back <= s.ply-s.since; back++ {
		h := s.undo[len(s.undo)-back]
		kind := kindKey(game.Player(h>>moverBit&1), true)
		hash ^= t.sideKey ^ t.keys[int(h>>fromBits&0xff)*4+kind] ^ t.keys[int(h>>toBits&0xff)*4+kind]
		if back%2 == 0 && hash == s.pos.hash {
			n++
		}
	}
	return n
}
