package pommel

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
)

// cellSet is a set of cells as a bit mask, cell c on bit c: the 76 cells of
// the larger board fit in two words (the 45-cell board leaves the second
// word zero). The move generator works on these masks instead of a board
// of pieces, so that a whole side's steps or captures are a few shifts.
type cellSet [2]uint64

// only returns the set holding c alone.
func only(c board.Cell) cellSet {
	var s cellSet
	s[c>>6&1] = 1 << (c & 63)
	return s
}

func (s cellSet) has(c board.Cell) bool { return s[c>>6&1]>>(c&63)&1 != 0 }

func (s cellSet) empty() bool { return s[0]|s[1] == 0 }

func (s cellSet) and(o cellSet) cellSet { return cellSet{s[0] & o[0], s[1] & o[1]} }

func (s cellSet) or(o cellSet) cellSet { return cellSet{s[0] | o[0], s[1] | o[1]} }

func (s cellSet) andNot(o cellSet) cellSet { return cellSet{s[0] &^ o[0], s[1] &^ o[1]} }

func (s cellSet) count() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// up moves every cell k places up the cell order (0 < k < 64).
func (s cellSet) up(k uint) cellSet {
	k &= 63
	return cellSet{s[0] << k, s[1]<<k | s[0]>>(64-k)}
}

// down moves every cell k places down the cell order (0 < k < 64).
func (s cellSet) down(k uint) cellSet {
	k &= 63
	return cellSet{s[0]>>k | s[1]<<(64-k), s[1] >> k}
}

// lowest returns the lowest cell of s, or board.None when s is empty.
func (s cellSet) lowest() board.Cell {
	if s[0] != 0 {
		return board.Cell(bits.TrailingZeros64(s[0]))
	}
	if s[1] != 0 {
		return board.Cell(64 + bits.TrailingZeros64(s[1]))
	}
	return board.None
}

// highest returns the highest cell of s, or board.None when s is empty.
func (s cellSet) highest() board.Cell {
	if s[1] != 0 {
		return board.Cell(127 - bits.LeadingZeros64(s[1]))
	}
	if s[0] != 0 {
		return board.Cell(63 - bits.LeadingZeros64(s[0]))
	}
	return board.None
}
