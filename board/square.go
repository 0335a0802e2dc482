package board

import (
	"fmt"
	"strings"
	"unicode/utf8"
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
// rank numbers on the left and the files below. Every column is as wide as
// the widest glyph, at least two characters, and glyphs are aligned to the
// right, so the file letter stands under a glyph's last character: with
// glyphs of up to two characters the drawing is the classic one, and a
// game with stacks can draw a whole stack in a cell.
func (b *Board) renderSquare(glyph func(Cell) string) string {
	maxX, maxY := 0, 0
	for c := range b.names {
		maxX, maxY = max(maxX, b.xs[c]), max(maxY, b.ys[c])
	}
	at := make(map[[2]int]string, len(b.names))
	width := 2
	for c := range b.names {
		gl := glyph(Cell(c))
		at[[2]int{b.xs[c], b.ys[c]}] = gl
		width = max(width, utf8.RuneCountInString(gl))
	}
	pad := func(s string) string {
		return strings.Repeat(" ", width-utf8.RuneCountInString(s)) + s
	}
	var sb strings.Builder
	for y := maxY; y >= 0; y-- {
		fmt.Fprintf(&sb, "%2d ", y+1)
		for x := 0; x <= maxX; x++ {
			s := "."
			if gl := at[[2]int{x, y}]; gl != "" {
				s = gl
			}
			sb.WriteString(pad(s) + " ")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("   ")
	for x := 0; x <= maxX; x++ {
		sb.WriteString(pad(string(rune('a'+x))) + " ")
	}
	sb.WriteString("\n")
	return strings.ReplaceAll(sb.String(), " \n", "\n")
}
