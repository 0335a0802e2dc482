package board

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// The lengths of a regular hexagon whose opposite sides are one unit apart
// (so that neighbouring hexagons' centres are one unit apart): half the
// square root of 3 is the distance between the centres of two neighbouring
// columns or rows, hexRadius the distance from the centre to a corner.
const (
	halfRoot3 = 0.86602540378443864676
	hexRadius = 0.57735026918962576451
)

// labelRoom is the side of the square a label is given in Geometry's
// ViewBox: room for two characters at a font size of half a unit.
const labelRoom = 1.0

// Point is a place in the drawing's unit space. One unit is the distance
// between the centres of two neighbouring cells (two cells side by side on
// a square board; diagonal neighbours are the square root of 2 apart); x
// grows to the right and y downwards, as in SVG.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// MarshalJSON writes the point rounded to 4 decimals, so that the same
// geometry always gives the same text, whatever the last bits of a turn.
func (p Point) MarshalJSON() ([]byte, error) {
	type plain Point
	return json.Marshal(plain{round4(p.X), round4(p.Y)})
}

// Rect is an axis-aligned rectangle in unit space; MinY is its top edge.
type Rect struct {
	MinX float64 `json:"minX"`
	MinY float64 `json:"minY"`
	MaxX float64 `json:"maxX"`
	MaxY float64 `json:"maxY"`
}

// MarshalJSON writes the rectangle rounded to 4 decimals, as Point does.
func (r Rect) MarshalJSON() ([]byte, error) {
	type plain Rect
	return json.Marshal(plain{round4(r.MinX), round4(r.MinY), round4(r.MaxX), round4(r.MaxY)})
}

// Width is the rectangle's extent along x.
func (r Rect) Width() float64 { return r.MaxX - r.MinX }

// Height is the rectangle's extent along y.
func (r Rect) Height() float64 { return r.MaxY - r.MinY }

// Contains tells whether p lies in the rectangle or on its edge.
func (r Rect) Contains(p Point) bool {
	return p.X >= r.MinX && p.X <= r.MaxX && p.Y >= r.MinY && p.Y <= r.MaxY
}

// grow returns the smallest rectangle that holds r and p.
func (r Rect) grow(p Point) Rect {
	return Rect{min(r.MinX, p.X), min(r.MinY, p.Y), max(r.MaxX, p.X), max(r.MaxY, p.Y)}
}

// CellShape is one cell as drawn: its name in the project's notation, its
// centre and its outline, a closed polygon whose corners are listed in
// order (the last joins the first).
type CellShape struct {
	Cell    Cell    `json:"cell"`
	Name    string  `json:"name"`
	Center  Point   `json:"center"`
	Outline []Point `json:"outline"`
}

// Label is a coordinate written beside the board, a column or file letter,
// a rank or cell number or a row letter, centred at a point outside every
// outline. Labels turn with the board, so each still stands next to the
// line of cells it names; their text stays upright.
type Label struct {
	Text string `json:"text"`
	At   Point  `json:"at"`
}

// Geometry is everything needed to draw a board seen from one side, with
// no case per kind of board: each cell's shape, the coordinates along the
// edges and the rectangles around them. The board's centre is the origin
// in every turn, and a turn is a rotation about it.
type Geometry struct {
	// Board is the board's ID and Turn the rotation, as given to
	// Board.Geometry.
	Board string `json:"board"`
	Turn  int    `json:"turn"`
	// Cells lists every cell in cell order.
	Cells  []CellShape `json:"cells"`
	Labels []Label     `json:"labels"`
	// Bounds is the smallest rectangle that holds every outline.
	Bounds Rect `json:"bounds"`
	// ViewBox holds Bounds and a square of side one unit centred on every
	// label: an SVG viewBox that shows the whole board and its
	// coordinates.
	ViewBox Rect `json:"viewBox"`
}

// Geometry lays the board out for drawing, turned counter-clockwise by
// turn degrees, one of Turns(): the turns Draw takes, so that a drawing in
// a browser and one at a terminal show the same view. The view from seat
// p of n players is 360·p/n degrees: half a turn for the second of two
// players, a third of a turn more for each seat on the hexhex board, which
// brings that seat's home edge to the bottom. Cell names do not change.
//
// Pommel's boards are hexagons with flat sides up in columns, the hexhex
// board hexagons with pointed tops in rows, square boards squares; cell
// a1 is where the rules put it (bottom left, or the left of the bottom row
// on the hexhex board) in the turn of 0 degrees.
//
// The result is new at every call and belongs to the caller.
func (b *Board) Geometry(turn int) (Geometry, error) {
	if !slices.Contains(b.Turns(), turn) {
		return Geometry{}, fmt.Errorf("board %s: cannot be drawn turned by %d degrees (allowed: %s)", b.id, turn, joinInts(b.Turns()))
	}
	if len(b.names) == 0 {
		return Geometry{}, fmt.Errorf("board %s: has no cells to draw", b.id)
	}
	place := b.unitPlace()
	corners := cellCorners(b.kind)
	g := Geometry{Board: b.id, Turn: turn, Cells: make([]CellShape, len(b.names))}
	for c, name := range b.names {
		centre := place(b.xs[c], b.ys[c])
		outline := make([]Point, len(corners))
		for i, k := range corners {
			outline[i] = turnPoint(Point{centre.X + k.X, centre.Y + k.Y}, turn)
		}
		g.Cells[c] = CellShape{Cell: Cell(c), Name: name, Center: turnPoint(centre, turn), Outline: outline}
	}
	for _, l := range b.geometryLabels() {
		g.Labels = append(g.Labels, Label{Text: l.text, At: turnPoint(place(l.x, l.y), turn)})
	}
	g.Bounds = outlineBounds(g.Cells)
	g.ViewBox = g.Bounds
	for _, l := range g.Labels {
		g.ViewBox = g.ViewBox.grow(Point{l.At.X - labelRoom/2, l.At.Y - labelRoom/2})
		g.ViewBox = g.ViewBox.grow(Point{l.At.X + labelRoom/2, l.At.Y + labelRoom/2})
	}
	return g, nil
}

// unitPlace returns the map from the board's own coordinates to unit
// space, before any turn: the board's centre at the origin, y downwards.
// The scales follow from the neighbours: in Pommel's doubled coordinates
// (x, y±2) is straight above or below, so y counts half units, and (x±1,
// y±1) is one unit away, so columns are half the root of 3 apart; the
// hexhex board's doubled-width coordinates are the same turned a quarter.
func (b *Board) unitPlace() func(x, y int) Point {
	sx, sy := 1.0, 1.0
	switch b.kind {
	case HexColumns:
		sx, sy = halfRoot3, 0.5
	case HexHex:
		sx, sy = 0.5, halfRoot3
	}
	cx := float64(slices.Min(b.xs)+slices.Max(b.xs)) / 2
	cy := float64(slices.Min(b.ys)+slices.Max(b.ys)) / 2
	return func(x, y int) Point {
		return Point{sx * (float64(x) - cx), -sy * (float64(y) - cy)}
	}
}

// cellCorners lists the corners of a cell around its centre, clockwise on
// the screen: a flat-topped hexagon on Pommel's boards, a pointy-topped one
// on the hexhex board, a unit square on square boards. The hexagons' flat
// sides are half a unit from the centre, so neighbours share a side.
func cellCorners(kind Kind) []Point {
	switch kind {
	case HexColumns:
		return []Point{
			{hexRadius, 0}, {hexRadius / 2, 0.5}, {-hexRadius / 2, 0.5},
			{-hexRadius, 0}, {-hexRadius / 2, -0.5}, {hexRadius / 2, -0.5},
		}
	case HexHex:
		return []Point{
			{0, -hexRadius}, {0.5, -hexRadius / 2}, {0.5, hexRadius / 2},
			{0, hexRadius}, {-0.5, hexRadius / 2}, {-0.5, -hexRadius / 2},
		}
	}
	return []Point{{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}}
}

// turnPoint turns p counter-clockwise on the screen about the origin by a
// multiple of 60 degrees. The sines and cosines of those angles are taken
// from a table, so that a half turn is an exact change of sign. With y
// downwards, counter-clockwise takes (1, 0) towards (0, -1).
func turnPoint(p Point, turn int) Point {
	sixth := ((turn/60)%6 + 6) % 6
	cos := [6]float64{1, 0.5, -0.5, -1, -0.5, 0.5}[sixth]
	sin := [6]float64{0, halfRoot3, halfRoot3, 0, -halfRoot3, -halfRoot3}[sixth]
	return Point{p.X*cos + p.Y*sin, -p.X*sin + p.Y*cos}
}

// outlineBounds is the smallest rectangle holding every corner of every
// cell; cells must not be empty.
func outlineBounds(cells []CellShape) Rect {
	first := cells[0].Center
	r := Rect{first.X, first.Y, first.X, first.Y}
	for _, c := range cells {
		for _, p := range c.Outline {
			r = r.grow(p)
		}
	}
	return r
}

// round4 rounds to 4 decimals, and minus zero to zero, so that what is
// written does not depend on rounding noise of 1e-16.
func round4(v float64) float64 {
	r := math.Round(v*1e4) / 1e4
	if r == 0 {
		return 0
	}
	return r
}
