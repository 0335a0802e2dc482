package board

import (
	"fmt"
	"slices"
)

// Directions on a HexHex board, in doubled-width coordinates: a cell (x, y)
// touches (x±2, y) in its own row and (x±1, y±1) in the rows above and
// below. Opposite directions are three apart.
const (
	HexHexE  = iota // along the row, to the right
	HexHexNE        // up and to the right
	HexHexNW        // up and to the left
	HexHexW         // along the row, to the left
	HexHexSW        // down and to the left
	HexHexSE        // down and to the right
)

var hexHexDirs = []Vector{{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}}

// NewHexHex builds a hexagon of hexagons with side cells on each edge,
// pointy sides up, as Punt-Heks-Match uses. The rows run horizontally and
// are named a, b, c... from the bottom; the cells of a row are numbered
// 1.. from the left. Row a holds side cells, the middle row 2·side-1.
//
// In doubled-width coordinates row y (a = 0) starts at x = |y-(side-1)|
// and its cells are two apart, so that the middle row starts at x = 0 and
// every cell sits half a cell to the side of the cells above and below it.
// Cell order is by row, then number: a1 < a5 < b1.
func NewHexHex(side int) *Board {
	if side < 1 {
		panic(fmt.Sprintf("NewHexHex(%d): the side must be at least 1", side))
	}
	rows := 2*side - 1
	var cells []cellSpec
	for y := 0; y < rows; y++ {
		off := max(y-(side-1), side-1-y)
		for k := 0; k < rows-off; k++ {
			cells = append(cells, cellSpec{name: fmt.Sprintf("%c%d", 'a'+y, k+1), x: 2*k + off, y: y})
		}
	}
	return build(fmt.Sprintf("hexhex%d", len(cells)), HexHex, cells, hexHexDirs)
}

// frameHexHexCell draws a pointy-topped hexagon around a glyph that starts
// at p, sharing its bars and slopes with its neighbours:
//
//	  / \ / \
//	 | w | . |
//	/ \ / \ / \
func frameHexHexCell(cv *canvas, p pos) {
	cv.put(pos{p.line - 1, p.col}, "/", frameStyle)
	cv.put(pos{p.line - 1, p.col + 2}, `\`, frameStyle)
	cv.put(pos{p.line, p.col - 1}, "|", frameStyle)
	cv.put(pos{p.line, p.col + GlyphWidth}, "|", frameStyle)
	cv.put(pos{p.line + 1, p.col}, `\`, frameStyle)
	cv.put(pos{p.line + 1, p.col + 2}, "/", frameStyle)
}

// hexHexRotation turns doubled-width coordinates about centre by turn
// degrees counter-clockwise, a sixth of a turn at a time: each sixth takes
// every direction to the next one (E to NE, NE to NW, ...), which is the
// linear map (dx, dy) -> ((dx-3dy)/2, (dx+dy)/2). dx+dy is even on every
// cell of a hexhex board, so the halves are exact.
func hexHexRotation(turn int, centre point) func(point) point {
	return func(p point) point {
		dx, dy := p.x-centre.x, p.y-centre.y
		for range turn / 60 {
			dx, dy = (dx-3*dy)/2, (dx+dy)/2
		}
		return point{centre.x + dx, centre.y + dy}
	}
}

// hexHexLabels puts each row's letter before its first cell and the
// number of its last cell after it, and the cell numbers under the bottom
// row and over the top one, where the lines of equal numbers leave the
// board (they run up-left from the bottom row to the middle one, then
// up-right). Every label stands on a cell the board would have if it were
// one ring larger, so it turns with the board.
func (b *Board) hexHexLabels() []label {
	minY, maxY := slices.Min(b.ys), slices.Max(b.ys)
	first, last := map[int]int{}, map[int]int{}
	for c := range b.names {
		x, y := b.xs[c], b.ys[c]
		if f, ok := first[y]; !ok || x < b.xs[f] {
			first[y] = c
		}
		if l, ok := last[y]; !ok || x > b.xs[l] {
			last[y] = c
		}
	}
	var ls []label
	for c, name := range b.names {
		letter, number := nameParts(name)
		x, y, cell := b.xs[c], b.ys[c], Cell(c)
		if first[y] == c {
			ls = append(ls, label{x - 2, y, letter, cell})
		}
		if last[y] == c {
			ls = append(ls, label{x + 2, y, number, cell})
		}
		// The last cells of the bottom and top rows have their number
		// beside them already.
		if y == minY && last[y] != c {
			ls = append(ls, label{x + 1, y - 1, number, cell})
		}
		if y == maxY && last[y] != c {
			ls = append(ls, label{x + 1, y + 1, number, cell})
		}
	}
	return ls
}
