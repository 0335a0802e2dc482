package board

import (
	"fmt"
	"strings"
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

// renderSquare draws one row of text per rank, top rank first, with the
// rank numbers on the left and the files below.
func (b *Board) renderSquare(glyph func(Cell) string) string {
	maxX, maxY := 0, 0
	for c := range b.names {
		maxX, maxY = max(maxX, b.xs[c]), max(maxY, b.ys[c])
	}
	at := make(map[[2]int]Cell, len(b.names))
	for c := range b.names {
		at[[2]int{b.xs[c], b.ys[c]}] = Cell(c)
	}
	var sb strings.Builder
	for y := maxY; y >= 0; y-- {
		fmt.Fprintf(&sb, "%2d ", y+1)
		for x := 0; x <= maxX; x++ {
			s := " ."
			if c, ok := at[[2]int{x, y}]; ok {
				if gl := glyph(c); gl != "" {
					s = b.label(c, glyph)
				}
			}
			sb.WriteString(s + " ")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("   ")
	for x := 0; x <= maxX; x++ {
		fmt.Fprintf(&sb, " %c ", 'a'+x)
	}
	sb.WriteString("\n")
	return strings.ReplaceAll(sb.String(), " \n", "\n")
}
