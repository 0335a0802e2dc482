package board

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// near is the tolerance of the property tests: far above the rounding of
// a few float operations, far below anything visible.
const near = 1e-9

// geometryBoards are the boards the server draws: Pommel's two, the 8x8
// board of Eximo and Checkers 2011, Punt-Match's 7x7 and the hexhex board.
func geometryBoards() []*Board {
	return []*Board{NewHexColumns(7, 7), NewHexColumns(9, 9), NewSquare(8, 8), NewSquare(7, 7), NewHexHex(5)}
}

// propertyBoards adds odd shapes to the drawn boards: the smallest
// hexhex boards and a board that is not square.
func propertyBoards() []*Board {
	return append(geometryBoards(), NewHexHex(1), NewHexHex(2), NewSquare(3, 2), NewHexColumns(4, 3))
}

func mustGeometry(t *testing.T, b *Board, turn int) Geometry {
	t.Helper()
	g, err := b.Geometry(turn)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func dist(p, q Point) float64 { return math.Hypot(p.X-q.X, p.Y-q.Y) }

// TestGeometryGolden pins every drawn board in every turn as JSON, one
// file per board, and as SVG, one file per board and turn. The JSON
// golden is spread over lines, one cell or label per line, but holds
// exactly what json.Marshal writes; read back, it gives the geometry to
// the 4 decimals it is written with.
func TestGeometryGolden(t *testing.T) {
	for _, b := range geometryBoards() {
		var views []Geometry
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			views = append(views, g)
			checkGolden(t, fmt.Sprintf("geometry-%s-%d.svg.golden", b.ID(), turn), svgOf(g))
		}
		text := geometryJSON(t, views)
		checkGolden(t, "geometry-"+b.ID()+".golden", text)

		marshalled, err := json.Marshal(views)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(text)); err != nil {
			t.Fatalf("%s: the golden JSON does not parse: %v", b.ID(), err)
		}
		if !bytes.Equal(compact.Bytes(), marshalled) {
			t.Errorf("%s: the golden JSON is not what json.Marshal writes", b.ID())
		}
		var back []Geometry
		if err := json.Unmarshal(marshalled, &back); err != nil {
			t.Fatal(err)
		}
		for i := range views {
			// Each coordinate is off by at most half the last decimal,
			// so a point by that times the root of 2.
			if !sameGeometry(back[i], views[i], 0.5e-4*math.Sqrt2) || back[i].Turn != views[i].Turn ||
				back[i].Bounds != roundRect(views[i].Bounds) || back[i].ViewBox != roundRect(views[i].ViewBox) {
				t.Errorf("%s turned %d: read back from JSON, the geometry differs", b.ID(), views[i].Turn)
			}
		}
	}
}

// geometryJSON writes geometries as a JSON array with one cell or label
// per line, so that a change shows in a diff as the lines it touches.
func geometryJSON(t *testing.T, views []Geometry) string {
	t.Helper()
	js := func(v any) string {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	var sb strings.Builder
	sb.WriteString("[\n")
	for i, g := range views {
		fmt.Fprintf(&sb, "{\"board\":%s,\"turn\":%d,\"cells\":[\n", js(g.Board), g.Turn)
		for j, c := range g.Cells {
			sb.WriteString(js(c) + comma(j, len(g.Cells)))
		}
		sb.WriteString("],\"labels\":[\n")
		for j, l := range g.Labels {
			sb.WriteString(js(l) + comma(j, len(g.Labels)))
		}
		fmt.Fprintf(&sb, "],\"bounds\":%s,\"viewBox\":%s}%s", js(g.Bounds), js(g.ViewBox), comma(i, len(views)))
	}
	sb.WriteString("]\n")
	return sb.String()
}

func comma(i, n int) string {
	if i == n-1 {
		return "\n"
	}
	return ",\n"
}

func roundRect(r Rect) Rect {
	return Rect{round4(r.MinX), round4(r.MinY), round4(r.MaxX), round4(r.MaxY)}
}

// sameGeometry compares two geometries point by point within tol.
func sameGeometry(a, b Geometry, tol float64) bool {
	if a.Board != b.Board || len(a.Cells) != len(b.Cells) || len(a.Labels) != len(b.Labels) {
		return false
	}
	for i, c := range a.Cells {
		d := b.Cells[i]
		if c.Cell != d.Cell || c.Name != d.Name || dist(c.Center, d.Center) > tol || len(c.Outline) != len(d.Outline) {
			return false
		}
		for j, p := range c.Outline {
			if dist(p, d.Outline[j]) > tol {
				return false
			}
		}
	}
	for i, l := range a.Labels {
		if l.Text != b.Labels[i].Text || dist(l.At, b.Labels[i].At) > tol {
			return false
		}
	}
	return true
}

// svgOf draws a geometry as the browser will: one polygon per cell with
// its data-cell, the cell's name in it and the labels around, a1 filled
// in another colour to find it at a glance. The fill is translucent, so
// overlapping cells would show darker, and gaps show the white ground.
func svgOf(g Geometry) string {
	var sb strings.Builder
	vb := g.ViewBox
	fmt.Fprintf(&sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%s %s %s %s\" width=\"%d\" height=\"%d\">\n",
		num(vb.MinX), num(vb.MinY), num(vb.Width()), num(vb.Height()), int(math.Round(vb.Width()*60)), int(math.Round(vb.Height()*60)))
	fmt.Fprintf(&sb, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"white\"/>\n", num(vb.MinX), num(vb.MinY), num(vb.Width()), num(vb.Height()))
	sb.WriteString("<g stroke=\"#503c28\" stroke-width=\"0.02\" fill-opacity=\"0.6\">\n")
	for _, c := range g.Cells {
		points := make([]string, len(c.Outline))
		for i, p := range c.Outline {
			points[i] = num(p.X) + "," + num(p.Y)
		}
		fill := "#e8c88a"
		if c.Name == "a1" {
			fill = "#6a9ad0"
		}
		fmt.Fprintf(&sb, "<polygon data-cell=%q points=%q fill=%q/>\n", c.Name, strings.Join(points, " "), fill)
	}
	sb.WriteString("</g>\n<g font-family=\"sans-serif\" text-anchor=\"middle\">\n")
	for _, c := range g.Cells {
		fmt.Fprintf(&sb, "<text x=\"%s\" y=\"%s\" font-size=\"0.3\" fill=\"#5a4a3a\">%s</text>\n", num(c.Center.X), num(c.Center.Y+0.1), c.Name)
	}
	for _, l := range g.Labels {
		fmt.Fprintf(&sb, "<text x=\"%s\" y=\"%s\" font-size=\"0.4\" font-weight=\"bold\">%s</text>\n", num(l.At.X), num(l.At.Y+0.14), l.Text)
	}
	sb.WriteString("</g>\n</svg>\n")
	return sb.String()
}

func num(v float64) string { return strconv.FormatFloat(round4(v), 'f', -1, 64) }

// TestGeometryRefuses: a turn the board does not allow and a board with
// no cells are errors that say what is wrong.
func TestGeometryRefuses(t *testing.T) {
	tests := []struct {
		b    *Board
		turn int
		want string
	}{
		{NewSquare(8, 8), 90, "board square8x8: cannot be drawn turned by 90 degrees (allowed: 0, 180)"},
		{NewHexColumns(7, 7), 60, "board hexcol45: cannot be drawn turned by 60 degrees (allowed: 0, 180)"},
		{NewHexHex(5), 360, "board hexhex61: cannot be drawn turned by 360 degrees (allowed: 0, 60, 120, 180, 240, 300)"},
		{NewHexHex(5), -60, "allowed: 0, 60, 120, 180, 240, 300"},
		{NewSquare(0, 3), 0, "board square0x3: has no cells to draw"},
	}
	for _, tc := range tests {
		g, err := tc.b.Geometry(tc.turn)
		if err == nil || !strings.Contains(err.Error(), tc.want) || g.Cells != nil {
			t.Errorf("%s turned %d: %d cells, error %v; want the error %q", tc.b.ID(), tc.turn, len(g.Cells), err, tc.want)
		}
	}
}

// TestGeometryNeighbours: in every turn, a cell's neighbour on a line is
// one unit away (a diagonal step on a square board the root of 2), and
// their outlines share a side, two corners (a diagonal step: one corner).
func TestGeometryNeighbours(t *testing.T) {
	for _, b := range propertyBoards() {
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			for c := range b.Len() {
				for d := range b.Dirs() {
					n := b.Neighbor(Cell(c), d)
					if n == None {
						continue
					}
					wantDist, wantShared := 1.0, 2
					if v := b.Direction(d); b.Kind() == Square && v.DX != 0 && v.DY != 0 {
						wantDist, wantShared = math.Sqrt2, 1
					}
					a, z := g.Cells[c], g.Cells[n]
					if got := dist(a.Center, z.Center); math.Abs(got-wantDist) > near {
						t.Errorf("%s turned %d: %s and %s are %v apart, want %v", b.ID(), turn, a.Name, z.Name, got, wantDist)
					}
					if got := sharedCorners(a.Outline, z.Outline); got != wantShared {
						t.Errorf("%s turned %d: %s and %s share %d corners, want %d", b.ID(), turn, a.Name, z.Name, got, wantShared)
					}
				}
			}
		}
	}
}

func sharedCorners(a, b []Point) int {
	n := 0
	for _, p := range a {
		if slices.ContainsFunc(b, func(q Point) bool { return dist(p, q) <= near }) {
			n++
		}
	}
	return n
}

// TestGeometryNoOverlap: no two cells' centres are closer than one unit,
// and no corner of a cell lies inside another cell, so cells never
// overlap.
func TestGeometryNoOverlap(t *testing.T) {
	for _, b := range propertyBoards() {
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			for i, a := range g.Cells {
				for _, z := range g.Cells[i+1:] {
					if d := dist(a.Center, z.Center); d < 1-near {
						t.Errorf("%s turned %d: %s and %s are only %v apart", b.ID(), turn, a.Name, z.Name, d)
					}
					for _, p := range a.Outline {
						if depth(p, z.Outline) > near {
							t.Errorf("%s turned %d: a corner of %s lies %v inside %s", b.ID(), turn, a.Name, depth(p, z.Outline), z.Name)
						}
					}
				}
			}
		}
	}
}

// depth is how far p lies inside a convex polygon: the distance to the
// nearest side's line, negative when p is outside.
func depth(p Point, poly []Point) float64 {
	d := math.Inf(1)
	for i, a := range poly {
		z := poly[(i+1)%len(poly)]
		// The corners go clockwise on the screen (y down), so the inside
		// is on the right of each side as drawn: a positive cross product.
		cross := (z.X-a.X)*(p.Y-a.Y) - (z.Y-a.Y)*(p.X-a.X)
		d = min(d, cross/dist(a, z))
	}
	return d
}

// edgeDistance is the distance from p to the nearest point of a polygon's
// sides.
func edgeDistance(p Point, poly []Point) float64 {
	d := math.Inf(1)
	for i, a := range poly {
		z := poly[(i+1)%len(poly)]
		// The nearest point of the side is a + s(z-a), s clamped to [0, 1].
		vx, vy := z.X-a.X, z.Y-a.Y
		s := max(0, min(1, ((p.X-a.X)*vx+(p.Y-a.Y)*vy)/(vx*vx+vy*vy)))
		d = min(d, dist(p, Point{a.X + s*vx, a.Y + s*vy}))
	}
	return d
}

// TestGeometryBounds: Bounds holds every outline and touches one on each
// of its sides; ViewBox holds Bounds and room around every label; every
// label stands outside every cell, at least a quarter unit from its
// outline.
func TestGeometryBounds(t *testing.T) {
	for _, b := range propertyBoards() {
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			var corners []Point
			for _, c := range g.Cells {
				corners = append(corners, c.Outline...)
				if !g.Bounds.Contains(c.Center) {
					t.Errorf("%s turned %d: the centre of %s is out of bounds", b.ID(), turn, c.Name)
				}
			}
			for _, p := range corners {
				if !g.Bounds.Contains(p) {
					t.Errorf("%s turned %d: corner %v is out of bounds %v", b.ID(), turn, p, g.Bounds)
				}
			}
			touches := func(f func(Point) bool) bool { return slices.ContainsFunc(corners, f) }
			if !touches(func(p Point) bool { return p.X == g.Bounds.MinX }) || !touches(func(p Point) bool { return p.X == g.Bounds.MaxX }) ||
				!touches(func(p Point) bool { return p.Y == g.Bounds.MinY }) || !touches(func(p Point) bool { return p.Y == g.Bounds.MaxY }) {
				t.Errorf("%s turned %d: bounds %v are not tight", b.ID(), turn, g.Bounds)
			}
			box := g.ViewBox
			if !box.Contains(Point{g.Bounds.MinX, g.Bounds.MinY}) || !box.Contains(Point{g.Bounds.MaxX, g.Bounds.MaxY}) {
				t.Errorf("%s turned %d: the view box %v does not hold the bounds %v", b.ID(), turn, box, g.Bounds)
			}
			for _, l := range g.Labels {
				half := labelRoom / 2
				if !box.Contains(Point{l.At.X - half, l.At.Y - half}) || !box.Contains(Point{l.At.X + half, l.At.Y + half}) {
					t.Errorf("%s turned %d: label %q at %v has no room in the view box %v", b.ID(), turn, l.Text, l.At, box)
				}
				for _, c := range g.Cells {
					if depth(l.At, c.Outline) > 0 || edgeDistance(l.At, c.Outline) < 0.25 {
						t.Errorf("%s turned %d: label %q at %v is inside %s or less than 0.25 from it", b.ID(), turn, l.Text, l.At, c.Name)
					}
				}
			}
		}
	}
}

// TestGeometryTurnsBack: every turned view, turned back, is the view of
// 0 degrees, cells, names and labels alike; so a turn is a rotation about
// the board's centre and nothing else.
func TestGeometryTurnsBack(t *testing.T) {
	for _, b := range propertyBoards() {
		straight := mustGeometry(t, b, 0)
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			back := (360 - turn) % 360
			for i := range g.Cells {
				c := &g.Cells[i]
				c.Center = turnPoint(c.Center, back)
				for j := range c.Outline {
					c.Outline[j] = turnPoint(c.Outline[j], back)
				}
			}
			for i := range g.Labels {
				g.Labels[i].At = turnPoint(g.Labels[i].At, back)
			}
			if !sameGeometry(g, straight, near) {
				t.Errorf("%s turned %d and back by %d is not the view of 0 degrees", b.ID(), turn, back)
			}
		}
	}
}

// TestGeometrySeatViews: each turn brings the right edge of the board to
// the bottom of the view, a1 where the rules put it at 0 degrees, and each
// seat's home edge at the bottom of its own view (360·seat/players): on
// the three-player hexhex board, Black's upper left edge at 120 and Red's
// upper right edge at 240. The bottom cells are listed left to right.
func TestGeometrySeatViews(t *testing.T) {
	tests := []struct {
		b      *Board
		turn   int
		bottom string
	}{
		{NewSquare(8, 8), 0, "a1 b1 c1 d1 e1 f1 g1 h1"},
		{NewSquare(8, 8), 180, "h8 g8 f8 e8 d8 c8 b8 a8"},
		{NewSquare(7, 7), 180, "g7 f7 e7 d7 c7 b7 a7"},
		{NewHexColumns(7, 7), 0, "b1 d1 f1"},
		{NewHexColumns(7, 7), 180, "f7 d7 b7"},
		{NewHexColumns(9, 9), 0, "b1 d1 f1 h1"},
		{NewHexColumns(9, 9), 180, "h9 f9 d9 b9"},
		{NewHexHex(5), 0, "a1 a2 a3 a4 a5"},
		{NewHexHex(5), 60, "e1 d1 c1 b1 a1"},
		{NewHexHex(5), 120, "i1 h1 g1 f1 e1"},
		{NewHexHex(5), 180, "i5 i4 i3 i2 i1"},
		{NewHexHex(5), 240, "e9 f8 g7 h6 i5"},
		{NewHexHex(5), 300, "a5 b6 c7 d8 e9"},
	}
	for _, tc := range tests {
		g := mustGeometry(t, tc.b, tc.turn)
		lowest := slices.MaxFunc(g.Cells, func(a, z CellShape) int { return cmpFloat(a.Center.Y, z.Center.Y) }).Center.Y
		var bottom []CellShape
		for _, c := range g.Cells {
			if c.Center.Y > lowest-near {
				bottom = append(bottom, c)
			}
		}
		slices.SortFunc(bottom, func(a, z CellShape) int { return cmpFloat(a.Center.X, z.Center.X) })
		var names []string
		for _, c := range bottom {
			names = append(names, c.Name)
		}
		if got := strings.Join(names, " "); got != tc.bottom {
			t.Errorf("%s turned %d: the bottom row is %s, want %s", tc.b.ID(), tc.turn, got, tc.bottom)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b-near:
		return -1
	case a > b+near:
		return 1
	}
	return 0
}

// TestGeometryAgreesWithDraw: in every turn, cells and labels stand in the
// same order, left to right and top to bottom, in the geometry as in the
// text drawing, so the browser and the terminal show the same view.
func TestGeometryAgreesWithDraw(t *testing.T) {
	for _, b := range propertyBoards() {
		labels := b.geometryLabels()
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			l := b.newLayout(turn)
			type placed struct {
				name string
				text pos
				at   Point
			}
			var all []placed
			for c, shape := range g.Cells {
				all = append(all, placed{shape.Name, l.at(b.xs[c], b.ys[c]), shape.Center})
			}
			for i, lb := range labels {
				all = append(all, placed{"label " + lb.text, l.at(lb.x, lb.y), g.Labels[i].At})
			}
			for _, p := range all {
				for _, q := range all {
					if cmpFloat(p.at.Y, q.at.Y) != cmp.Compare(p.text.line, q.text.line) || cmpFloat(p.at.X, q.at.X) != cmp.Compare(p.text.col, q.text.col) {
						t.Fatalf("%s turned %d: %s and %s stand in another order than in the text drawing", b.ID(), turn, p.name, q.name)
					}
				}
			}
		}
	}
}

// TestGeometryJSONRounds: points and rectangles are written to 4
// decimals, rounding noise and minus zero as 0, in lowerCamel keys.
func TestGeometryJSONRounds(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{Point{-1e-17, hexRadius / 2}, `{"x":0,"y":0.2887}`},
		{Point{math.Copysign(0, -1), -halfRoot3}, `{"x":0,"y":-0.866}`},
		{Rect{-4.00004, -3.99994, 4, 2.5}, `{"minX":-4,"minY":-3.9999,"maxX":4,"maxY":2.5}`},
		{Label{"a", Point{1.23456, 7}}, `{"text":"a","at":{"x":1.2346,"y":7}}`},
	}
	for _, tc := range tests {
		data, err := json.Marshal(tc.v)
		if err != nil || string(data) != tc.want {
			t.Errorf("json.Marshal(%+v) = %s, %v; want %s", tc.v, data, err, tc.want)
		}
	}
}
