package pommel

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// cellSet is a set of cells as a bit mask, cell c on bit c: the 76 cells of
// the larger board fit in two words (the 45-cell board leaves hi zero). The
// positions keep their pieces in these masks, and the move generator works
// on them instead of a board of pieces, so that a whole side's steps or
// captures are a few shifts. Two named words rather than an array: the
// compiler keeps a struct of two words in registers, where an array indexed
// by a variable goes through memory.
type cellSet struct{ lo, hi uint64 }

// narrowSet is a cellSet of a board of at most 64 cells, in one word: the
// 45-cell board's move generator (movegen_narrow.go) works on these, each
// operation one instruction where the two words take two to five, and with
// half the registers. It has the methods of cellSet, so that the one
// generator's source serves both.
type narrowSet struct{ w uint64 }

// setOf returns the set holding c alone.
func setOf(c board.Cell) cellSet {
	b := uint64(1) << (c & 63)
	if c >= 64 {
		return cellSet{0, b}
	}
	return cellSet{b, 0}
}

func (s cellSet) has(c board.Cell) bool {
	w := s.lo
	if c >= 64 {
		w = s.hi
	}
	return w>>(c&63)&1 != 0
}

// bit returns 1 if s holds c, else 0, without a branch: a shift by 64 or
// more gives 0, so the word c is not in adds nothing (c < 128).
func (s cellSet) bit(c board.Cell) uint64 { return (s.lo>>c | s.hi>>(c-64)) & 1 }

// twoWords tells the generator which set it works on: it is a constant,
// and the compiler drops the code for the other.
func (cellSet) twoWords() bool { return true }

func (s cellSet) empty() bool { return s.lo|s.hi == 0 }

func (s cellSet) and(o cellSet) cellSet { return cellSet{s.lo & o.lo, s.hi & o.hi} }

func (s cellSet) or(o cellSet) cellSet { return cellSet{s.lo | o.lo, s.hi | o.hi} }

func (s cellSet) andNot(o cellSet) cellSet { return cellSet{s.lo &^ o.lo, s.hi &^ o.hi} }

func (s cellSet) count() int { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// moved moves every cell k places (0 < k < 64) up the cell order in
// the directions d < 3, down in the others.
func (s cellSet) moved(d int, k uint) cellSet {
	k &= 63
	if d < 3 {
		return cellSet{s.lo << k, s.hi<<k | s.lo>>(64-k)}
	}
	return cellSet{s.lo>>k | s.hi<<(64-k), s.hi >> k}
}

// lowest returns the lowest cell of s, or board.None when s is empty.
func (s cellSet) lowest() board.Cell {
	if s.lo != 0 {
		return board.Cell(bits.TrailingZeros64(s.lo))
	}
	if s.hi != 0 {
		return board.Cell(64 + bits.TrailingZeros64(s.hi))
	}
	return board.None
}

// highest returns the highest cell of s, or board.None when s is empty.
func (s cellSet) highest() board.Cell {
	if s.hi != 0 {
		return board.Cell(127 - bits.LeadingZeros64(s.hi))
	}
	if s.lo != 0 {
		return board.Cell(63 - bits.LeadingZeros64(s.lo))
	}
	return board.None
}

// pop returns the lowest cell of the non-empty set s and s without it, so
// that a loop visits a set's cells in cell order.
func (s cellSet) pop() (board.Cell, cellSet) {
	if s.lo != 0 {
		return board.Cell(bits.TrailingZeros64(s.lo)), cellSet{s.lo & (s.lo - 1), s.hi}
	}
	return board.Cell(64 + bits.TrailingZeros64(s.hi)), cellSet{0, s.hi & (s.hi - 1)}
}

// putMade writes made[x] for every cell x of s, in cell order, into room
// from room[n] on, and returns the new count: the move generator's made
// moves that land on s. Written in place, each move is copied straight
// from the table into the list; append would copy it through a
// temporary, since growing the list could move it. Word by word: a loop
// over one word needs no test of which word the next cell is in.
func (s cellSet) putMade(room []game.Move, n int, made *[maxCells]game.Move) int {
	for w := s.lo; w != 0; w &= w - 1 {
		room[n] = made[bits.TrailingZeros64(w)]
		n++
	}
	for w := s.hi; w != 0; w &= w - 1 {
		room[n] = made[64+bits.TrailingZeros64(w)]
		n++
	}
	return n
}

// toCellSet is the generator's set of a position's set: itself.
func toCellSet(s cellSet) cellSet { return s }

// toNarrowSet is the narrow generator's set of a position's set, whose
// second word is zero on a board of at most 64 cells.
func toNarrowSet(s cellSet) narrowSet { return narrowSet{s.lo} }

// narrowSetOf returns the narrow set holding c alone (c < 64).
func narrowSetOf(c board.Cell) narrowSet { return narrowSet{uint64(1) << (c & 63)} }

func (s narrowSet) has(c board.Cell) bool { return s.w>>(c&63)&1 != 0 }

func (s narrowSet) bit(c board.Cell) uint64 { return s.w >> c & 1 }

func (narrowSet) twoWords() bool { return false }

func (s narrowSet) empty() bool { return s.w == 0 }

func (s narrowSet) and(o narrowSet) narrowSet { return narrowSet{s.w & o.w} }

func (s narrowSet) or(o narrowSet) narrowSet { return narrowSet{s.w | o.w} }

func (s narrowSet) andNot(o narrowSet) narrowSet { return narrowSet{s.w &^ o.w} }

func (s narrowSet) count() int { return bits.OnesCount64(s.w) }

func (s narrowSet) moved(d int, k uint) narrowSet {
	if d < 3 {
		return narrowSet{s.w << (k & 63)}
	}
	return narrowSet{s.w >> (k & 63)}
}

func (s narrowSet) lowest() board.Cell {
	if s.w == 0 {
		return board.None
	}
	return board.Cell(bits.TrailingZeros64(s.w))
}

func (s narrowSet) highest() board.Cell {
	if s.w == 0 {
		return board.None
	}
	return board.Cell(63 - bits.LeadingZeros64(s.w))
}

func (s narrowSet) putMade(room []game.Move, n int, made *[maxCells]game.Move) int {
	for w := s.w; w != 0; w &= w - 1 {
		room[n] = made[bits.TrailingZeros64(w)]
		n++
	}
	return n
}

func (s narrowSet) pop() (board.Cell, narrowSet) {
	return board.Cell(bits.TrailingZeros64(s.w)), narrowSet{s.w & (s.w - 1)}
}
