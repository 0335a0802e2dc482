package board

import "fmt"

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

// renderHexHex draws pointy-topped hexagons, two text lines per row and
// four characters per cell, with the row letter on the left of each row:
//
//	    / \ / \
//	b  |b1 |b2 |
//	  / \ / \ / \
//	a|a1 |a2 |a3 |
//	  \ / \ / \ /
//
// Each cell has room for three characters, so that a glyph can show a
// pile's top colour and a two-digit height (Punt's w12). An empty glyph
// draws the cell's name.
func (b *Board) renderHexHex(glyph func(Cell) string) string {
	maxX, maxY := 0, 0
	for c := range b.names {
		maxX, maxY = max(maxX, b.xs[c]), max(maxY, b.ys[c])
	}
	// The cell at (x, y) has its left bar at text column 2x+3 and its
	// text on line 2(maxY-y)+1; the lines above and below hold the slopes
	// it shares with its neighbours.
	g := newGrid(2*maxY+3, 2*maxX+8)
	firstX := map[int]int{}
	for c := range b.names {
		x, y := b.xs[c], b.ys[c]
		left, line := 2*x+3, 2*(maxY-y)+1
		g.put(line-1, left+1, "/")
		g.put(line-1, left+3, `\`)
		g.put(line, left, "|"+b.label(Cell(c), glyph, 3)+"|")
		g.put(line+1, left+1, `\`)
		g.put(line+1, left+3, "/")
		if fx, ok := firstX[y]; !ok || x < fx {
			firstX[y] = x
		}
	}
	for y, x := range firstX {
		g.put(2*(maxY-y)+1, 2*x, fmt.Sprintf("%c", 'a'+y))
	}
	return g.String()
}
