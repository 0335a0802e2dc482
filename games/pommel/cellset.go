package pommel

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
)

// cellSet is a set of cells as a bit mask, cell c on bit c: the 76 cells of
// the larger board fit in two words (the 45-cell board leaves hi zero). The
// move generator works on these masks instead of a board of pieces, so
// that a whole side's steps or captures are a few shifts. Two named words
// rather than an array: the compiler keeps a struct of two words in
// registers, where an array indexed by a variable goes through memory.
type cellSet struct{ lo, hi uint64 }

// only returns the set holding c alone.
func only(c board.Cell) cellSet {
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

func (s cellSet) empty() bool { return s.lo|s.hi == 0 }

func (s cellSet) and(o cellSet) cellSet { return cellSet{s.lo & o.lo, s.hi & o.hi} }

func (s cellSet) or(o cellSet) cellSet { return cellSet{s.lo | o.lo, s.hi | o.hi} }

func (s cellSet) andNot(o cellSet) cellSet { return cellSet{s.lo &^ o.lo, s.hi &^ o.hi} }

func (s cellSet) count() int { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

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
