package pommel

import (
	"github.com/arbiter-games/arbiter/board"
)

// The 45-cell board's undo stack (State.undo) holds what each move
// changed, packed into words and ending with a header word, so that Undo
// reads the header first and knows what lies below it:
//
//	quiet move:  hash, header
//	capture:     taken, [captains taken,] hash, header
//	swap:        White's pieces, Black's, the captains, hash, header
//
// hash is the position's before the move: Undo copies it back, and the
// repetition rule reads it (see State.repeats). A random game makes a new
// State, and the room its stack needs was most of the bytes a game
// allocated: the collector's work, and memory the processor had not seen
// yet at every game. Two or three words a move instead of the 64 bytes of
// a position (and 16 more for a separate history) is less of both. The
// price: taking a move back from its record is slower than copying a
// position back (docs/speed.md, issue 24's second round).
//
// The 76-cell board's (State.positions) holds the positions before each
// move whole, and Undo copies one back. Taking a move back from its
// changes there reads cells in both words of a set, and the branches on
// which word a cell is in cost a third of the perft that plays every leaf.
const (
	fromBits     = 0 // 8 bits: the moving piece's start
	toBits       = 8 // 8 bits: where it ended
	wasCaptain   = 1 << 16
	tookPieces   = 1 << 17 // a capture: the taken pieces are below
	tookCaptains = 1 << 18 // the captains it took: below the taken pieces
	swapped      = 1 << 19 // the pie rule's swap: a whole position is below
	sinceBits    = 32      // 32 bits: the position's since before the move
)

// header is the last word of a move's record.
func header(from, to board.Cell, flags uint64, since int32) uint64 {
	return uint64(from)<<fromBits | uint64(to)<<toBits | flags | uint64(uint32(since))<<sinceBits
}

// pushMove records a move from from to to (by a captain if captain), which
// took the pieces taken (of which captains taken), before Play changes
// the position.
func (s *State) pushMove(from, to board.Cell, captain bool, taken, captainsTaken cellSet) {
	var flags uint64
	if captain {
		flags |= wasCaptain
	}
	if !taken.empty() {
		flags |= tookPieces
		s.undo = append(s.undo, taken.lo)
		if !captainsTaken.empty() {
			flags |= tookCaptains
			s.undo = append(s.undo, captainsTaken.lo)
		}
	}
	s.undo = append(s.undo, s.pos.hash, header(from, to, flags, s.pos.since))
}

// pushSwap records the position before the pie rule's swap whole.
func (s *State) pushSwap() {
	p := &s.pos
	s.undo = append(s.undo, p.pieces[White].lo, p.pieces[Black].lo, p.captains.lo, p.hash, header(0, 0, swapped, p.since))
}

// popMove takes the last record off the stack and restores the position
// from it. The stack must not be empty. Every move passes the turn (the
// swap too), so the player who moved is the one not to move.
func (s *State) popMove() {
	p := &s.pos
	me := 1 - p.toMove
	p.toMove = me
	n := len(s.undo) - 1
	h := s.undo[n]
	n--
	p.hash = s.undo[n]
	p.since = int32(uint32(h >> sinceBits))
	if h&swapped != 0 {
		n -= 3
		w := s.undo[n : n+3]
		p.pieces[White], p.pieces[Black], p.captains = cellSet{lo: w[0]}, cellSet{lo: w[1]}, cellSet{lo: w[2]}
		p.count[White], p.count[Black] = uint8(p.pieces[White].count()), uint8(p.pieces[Black].count())
		s.undo = s.undo[:n]
		return
	}
	from, to := board.Cell(h>>fromBits), board.Cell(h>>toBits)
	captain := h&wasCaptain != 0
	p.pieces[me] = p.pieces[me].andNot(setOf(to)).or(setOf(from))
	p.captains = p.captains.andNot(setOf(to))
	if captain {
		p.captains = p.captains.or(setOf(from))
	}
	var captains cellSet
	if h&tookCaptains != 0 {
		n--
		captains.lo = s.undo[n]
	}
	if h&tookPieces != 0 {
		n--
		p.restore(cellSet{lo: s.undo[n]}, captains, 1-me)
	}
	s.undo = s.undo[:n]
}

// repeats counts how many times the current position has occurred since
// the last irreversible move, itself included. Every move passes the
// turn, so only every second position back can have the same player to
// move.
func (s *State) repeats() int {
	if !s.t.narrow {
		n := 1
		for i := len(s.positions) - 2; i >= int(s.pos.since); i -= 2 {
			if s.positions[i].hash == s.pos.hash {
				n++
			}
		}
		return n
	}
	return s.narrowRepeats()
}

// narrowRepeats is repeats on the 45-cell board. The moves since the last
// irreversible one are all a captain's quiet slides, two words each, the
// hash first: the hash of the position two plies back is four words from
// the end, and so on.
func (s *State) narrowRepeats() int {
	n := 1
	for back, i := 2, len(s.undo)-4; back <= s.ply-int(s.pos.since); back, i = back+2, i-4 {
		if s.undo[i] == s.pos.hash {
			n++
		}
	}
	return n
}
