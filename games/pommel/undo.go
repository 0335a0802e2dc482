package pommel

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The undo stack holds what a move changed, not the position before it:
// a few words a move instead of a 64-byte position. A random game makes a
// new State, and the room its stack needs was most of the bytes a game
// allocated: the collector's work, and memory the processor had not seen
// yet at every game. Each record is a run of words ending with its header,
// so that Undo reads the header first and knows what lies below it:
//
//	quiet move:  hash, header
//	capture:     taken.lo, taken.hi, [captains taken .lo, .hi,] hash, header
//	swap:        the six words of the three sets, hash, header
//
// hash is the position's before the move. The moves of a run of reversible
// moves (a captain's slides) are all quiet, two words each, so the
// repetition rule finds the hashes of the run's positions at fixed strides
// (see State.repeats).
//
// The header's bits:
const (
	fromBits     = 0 // 8 bits: the moving piece's start
	toBits       = 8 // 8 bits: where it ended
	wasCaptain   = 1 << 16
	tookPieces   = 1 << 17 // a capture: taken's two words are below the hash
	tookCaptains = 1 << 18 // the captains it took: two more words
	swapped      = 1 << 19 // the pie rule's swap: the three sets are below
	moverBit     = 20      // the player who moved
	sinceBits    = 32      // 32 bits: the position's since before the move
)

// quietWords is the length of a quiet move's record.
const quietWords = 2

// header is the last word of a move's record.
func header(from, to board.Cell, flags uint64, mover game.Player, since int) uint64 {
	return uint64(from)<<fromBits | uint64(to)<<toBits | flags | uint64(mover)<<moverBit | uint64(uint32(since))<<sinceBits
}

// pushMove records a move of the player to move in p from from to to,
// which took the pieces taken (of which captains taken), before Play
// changes p.
func (s *State) pushMove(from, to board.Cell, captain bool, taken, captainsTaken cellSet) {
	var flags uint64
	if captain {
		flags |= wasCaptain
	}
	if !taken.empty() {
		flags |= tookPieces
		s.undo = append(s.undo, taken.lo, taken.hi)
		if !captainsTaken.empty() {
			flags |= tookCaptains
			s.undo = append(s.undo, captainsTaken.lo, captainsTaken.hi)
		}
	}
	s.undo = append(s.undo, s.pos.hash, header(from, to, flags, s.pos.toMove, s.since))
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
	n := len(s.undo) - 1
	h := s.undo[n]
	p := &s.pos
	p.hash = s.undo[n-1]
	n--
	me := game.Player(h >> moverBit & 1)
	p.toMove = me
	s.since = int(uint32(h >> sinceBits))
	if h&swapped != 0 {
		n -= 6
		w := s.undo[n : n+6]
		p.pieces[White], p.pieces[Black], p.captains = cellSet{w[0], w[1]}, cellSet{w[2], w[3]}, cellSet{w[4], w[5]}
		p.count[White], p.count[Black] = uint8(p.pieces[White].count()), uint8(p.pieces[Black].count())
		s.undo = s.undo[:n]
		return
	}
	from, to := board.Cell(h>>fromBits), board.Cell(h>>toBits)
	p.pieces[me] = p.pieces[me].andNot(setOf(to)).or(setOf(from))
	p.captains = p.captains.andNot(setOf(to))
	if h&wasCaptain != 0 {
		p.captains = p.captains.or(setOf(from))
	}
	if h&tookCaptains != 0 {
		n -= 2
		p.captains = p.captains.or(cellSet{s.undo[n], s.undo[n+1]})
	}
	if h&tookPieces != 0 {
		n -= 2
		taken := cellSet{s.undo[n], s.undo[n+1]}
		p.pieces[1-me] = p.pieces[1-me].or(taken)
		p.count[1-me] += uint8(bits.OnesCount64(taken.lo) + bits.OnesCount64(taken.hi))
	}
	s.undo = s.undo[:n]
}

// repeats counts how many times the current position has occurred since
// the last irreversible move, itself included. The moves since then are
// all a captain's quiet slides, each record two words with the hash
// first; and each passes the turn, so only every second position back can
// have the same player to move: the hashes to compare are every fourth
// word back.
func (s *State) repeats() int {
	n := 1
	back := s.ply - s.since // positions since the last irreversible move
	for i := len(s.undo) - 2*quietWords; back >= 2; i, back = i-2*quietWords, back-2 {
		if s.undo[i] == s.pos.hash {
			n++
		}
	}
	return n
}
