package board

import "fmt"

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

// renderHexColumns draws flat-topped hexagons, three characters per column
// and one line per doubled-coordinate step:
//
//	 __
//	/a2\__
//	\__/b2\
//	/a1\__/
//	\__/b1\
//	   \__/
func (b *Board) renderHexColumns(glyph func(Cell) string) string {
	maxX, maxY := 0, 0
	for c := range b.names {
		maxX, maxY = max(maxX, b.xs[c]), max(maxY, b.ys[c])
	}
	g := newGrid(maxY+4, 3*(maxX+1)+1)
	for c := range b.names {
		x, top := 3*b.xs[c], maxY-b.ys[c]
		g.put(top, x+1, "__")
		g.put(top+1, x, "/"+b.label(Cell(c), glyph, 2)+`\`)
		g.put(top+2, x, `\__/`)
	}
	for x := 0; x <= maxX; x++ {
		g.put(maxY+3, 3*x+1, fmt.Sprintf("%c", 'a'+x))
	}
	return g.String()
}
