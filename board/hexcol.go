package board

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Directions on a HexColumns board, in doubled coordinates: a cell (x, y)
// touches (x, y±2) and (x±1, y±1).
const (
	HexN  = iota // up the column
	HexNE        // up and to the right
	HexSE        // down and to the right
	HexS         // down the column
	HexSW        // down and to the left
	HexNW        // up and to the left
)

var hexColumnDirs = []Vector{{0, 2}, {1, 1}, {1, -1}, {0, -2}, {-1, -1}, {-1, 1}}

// NewHexColumns builds a board of hexagons in vertical columns, flat sides
// up, as Pommel uses. Columns are named a, b, c... from the left and cells
// numbered 1.. from the bottom of each column. The columns b, d, f... hold
// long cells; a, c, e... hold long-1 and sit half a cell higher than the
// bottom of their long neighbours. In doubled coordinates, column x, cell n
// has y = 2(n-1) in a long column and 2(n-1)+1 in a short one.
func NewHexColumns(columns, long int) *Board {
	var cells []cellSpec
	for x := 0; x < columns; x++ {
		n, off := long-1, 1
		if x%2 == 1 {
			n, off = long, 0
		}
		for i := 1; i <= n; i++ {
			cells = append(cells, cellSpec{name: fmt.Sprintf("%c%d", 'a'+x, i), x: x, y: 2*(i-1) + off})
		}
	}
	return build(fmt.Sprintf("hexcol%d", len(cells)), HexColumns, cells, hexColumnDirs)
}

// frameHexColumnCell draws a flat-topped hexagon around a glyph that
// starts at p, sharing its top and bottom edges with the cells above and
// below and its corners with the columns beside:
//
//	    ___
//	___/ b \___
//	   \___/ b \
//	___/ . \___/
//	   \___/
func frameHexColumnCell(cv *canvas, p pos) {
	cv.put(pos{p.line - 1, p.col}, "___", frameStyle)
	cv.put(pos{p.line, p.col - 1}, "/", frameStyle)
	cv.put(pos{p.line, p.col + GlyphWidth}, `\`, frameStyle)
	cv.put(pos{p.line + 1, p.col - 1}, `\___/`, frameStyle)
}

// hexColumnLabels puts each column's letter above and below it, and on
// both sides of the board the number of the cells on each line of text:
// the short and the long columns are half a cell apart, so their cells of
// one number sit on two neighbouring lines, and each line says its own.
func (b *Board) hexColumnLabels() []label {
	minY, maxY := slices.Min(b.ys), slices.Max(b.ys)
	minX, maxX := slices.Min(b.xs), slices.Max(b.xs)
	// bottom[k] and rows[k] are the height of cell 1 and the number of
	// cells in the columns x with x mod 2 = k.
	bottom, rows := [2]int{maxY, maxY}, [2]int{}
	letters := map[int]string{}
	for c, name := range b.names {
		letter, number := nameParts(name)
		n, _ := strconv.Atoi(number)
		k := parity(b.xs[c])
		rows[k] = max(rows[k], n)
		bottom[k] = min(bottom[k], b.ys[c])
		letters[b.xs[c]] = letter
	}
	var ls []label
	for x := minX; x <= maxX; x++ {
		ls = append(ls, label{x, maxY + 2, letters[x], None}, label{x, minY - 2, letters[x], None})
	}
	for k := range 2 {
		for n := 1; n <= rows[k]; n++ {
			y := bottom[k] + 2*(n-1)
			ls = append(ls, label{minX - 1, y, strconv.Itoa(n), None}, label{maxX + 1, y, strconv.Itoa(n), None})
		}
	}
	return ls
}

// geometryLabels lists the coordinates a drawing in a browser writes
// around the board: those of the text drawing, but for Pommel's columns
// (see hexColumnGeometryLabels).
func (b *Board) geometryLabels() []label {
	if b.kind == HexColumns {
		return b.hexColumnGeometryLabels()
	}
	return b.labels()
}

// hexColumnGeometryLabels labels Pommel's board the way its rules find a
// cell: a column by its letter, under the column, then a cell by its
// number counted up that column. The short and the long columns are half
// a cell apart, so a number written beside every line would be written
// twice, half a cell apart; here each number is written once, on the
// left, level with the leftmost column's cell that bears it (a1 to a6).
// A number only the long columns reach (7, of b7) goes in that column of
// numbers one cell above the last, where a7 would be: beside b7 it stood
// half a cell over the "6", and a column further out it stood alone in
// the board's corner.
func (b *Board) hexColumnGeometryLabels() []label {
	minY, minX := slices.Min(b.ys), slices.Min(b.xs)
	letters := map[int]string{}
	// leftmost[n] is the leftmost cell numbered n.
	leftmost := map[int]Cell{}
	for c, name := range b.names {
		letter, number := nameParts(name)
		n, _ := strconv.Atoi(number)
		letters[b.xs[c]] = letter
		if first, ok := leftmost[n]; !ok || b.xs[c] < b.xs[first] {
			leftmost[n] = Cell(c)
		}
	}
	var ls []label
	for _, x := range slices.Sorted(maps.Keys(letters)) {
		ls = append(ls, label{x, minY - 2, letters[x], None})
	}
	last := 0 // the height of the number written last
	for _, n := range slices.Sorted(maps.Keys(leftmost)) {
		y := b.ys[leftmost[n]]
		if b.xs[leftmost[n]] != minX && len(ls) > len(letters) {
			y = last + 2
		}
		last = y
		ls = append(ls, label{minX - 1, y, strconv.Itoa(n), None})
	}
	return ls
}

// parity is x mod 2, also for negative x.
func parity(x int) int { return x & 1 }
