package board

import (
	"fmt"
	"slices"
)

// Directions on a Square board; opposite directions are four apart.
const (
	SqN  = iota // towards higher ranks
	SqNE        //
	SqE         // towards higher files
	SqSE        //
	SqS         //
	SqSW        //
	SqW         //
	SqNW        //
)

var squareDirs = []Vector{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// NewSquare builds a board of files x ranks squares. Files are named a..
// from the left, ranks 1.. from the bottom; cell numbers run by rank, then
// file, so that a1 < h1 < a2 in cell order.
func NewSquare(files, ranks int) *Board {
	var cells []cellSpec
	for y := 0; y < ranks; y++ {
		for x := 0; x < files; x++ {
			cells = append(cells, cellSpec{name: fmt.Sprintf("%c%d", 'a'+x, y+1), x: x, y: y})
		}
	}
	return build(fmt.Sprintf("square%dx%d", files, ranks), Square, cells, squareDirs)
}

// squareLabels writes the rank numbers on both sides of the board and the
// file letters above and below it.
func (b *Board) squareLabels() []label {
	minX, maxX := slices.Min(b.xs), slices.Max(b.xs)
	minY, maxY := slices.Min(b.ys), slices.Max(b.ys)
	var ls []label
	for c, name := range b.names {
		file, rank := nameParts(name)
		x, y := b.xs[c], b.ys[c]
		if x == minX {
			ls = append(ls, label{minX - 1, y, rank, None}, label{maxX + 1, y, rank, None})
		}
		if y == minY {
			ls = append(ls, label{x, minY - 1, file, None}, label{x, maxY + 1, file, None})
		}
	}
	return ls
}
