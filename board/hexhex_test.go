package board

import (
	"fmt"
	"slices"
	"testing"
)

// TestHexHexCells checks RULINGS section 0 for the side-5 board: 61 cells
// in rows a..i of 5,6,7,8,9,8,7,6,5 cells, numbered from the left, in cell
// order by row then number.
func TestHexHexCells(t *testing.T) {
	b := NewHexHex(5)
	if b.Len() != 61 || b.Dirs() != 6 || b.Kind() != HexHex {
		t.Fatalf("hexhex 5: %d cells, %d directions, kind %d", b.Len(), b.Dirs(), b.Kind())
	}
	var want []string
	for row, n := range []int{5, 6, 7, 8, 9, 8, 7, 6, 5} {
		for k := 1; k <= n; k++ {
			want = append(want, fmt.Sprintf("%c%d", 'a'+row, k))
		}
	}
	if got := b.CellNames(); !slices.Equal(got, want) {
		t.Errorf("cell names in cell order:\n got %v\nwant %v", got, want)
	}
	for _, name := range []string{"a6", "e10", "i6", "j1", "a0"} {
		if _, ok := b.Parse(name); ok {
			t.Errorf("%s is a cell", name)
		}
	}
	for _, tc := range []struct {
		side, cells int
	}{{1, 1}, {2, 7}, {3, 19}, {7, 127}} {
		if got := NewHexHex(tc.side).Len(); got != tc.cells {
			t.Errorf("NewHexHex(%d) has %d cells, want %d", tc.side, got, tc.cells)
		}
	}
}

// TestHexHexNeighbourCounts: 6 neighbours inside, 4 on an edge, 3 at the
// six corners; every relation symmetric and every direction opposite to
// the one three further.
func TestHexHexNeighbourCounts(t *testing.T) {
	b := NewHexHex(5)
	corners := []string{"a1", "a5", "e1", "e9", "i1", "i5"}
	count := map[int][]string{}
	for c := 0; c < b.Len(); c++ {
		n := 0
		for d := 0; d < 6; d++ {
			nb := b.Neighbor(Cell(c), d)
			if nb == None {
				continue
			}
			n++
			if b.Neighbor(nb, b.Opposite(d)) != Cell(c) {
				t.Errorf("%s -> %s in direction %d is not symmetric", b.Name(Cell(c)), b.Name(nb), d)
			}
		}
		count[n] = append(count[n], b.Name(Cell(c)))
	}
	if !slices.Equal(count[3], corners) {
		t.Errorf("cells with 3 neighbours: %v, want the corners %v", count[3], corners)
	}
	if len(count[4]) != 18 || len(count[6]) != 37 || len(count[3])+len(count[4])+len(count[6]) != 61 {
		t.Errorf("neighbour counts: %d cells with 4, %d with 6, others %v", len(count[4]), len(count[6]), count)
	}
	for d := 0; d < 6; d++ {
		if v, o := b.Direction(d), b.Direction(b.Opposite(d)); v.DX != -o.DX || v.DY != -o.DY || b.Opposite(d) != (d+3)%6 {
			t.Errorf("direction %d %v and %d %v are not opposite", d, v, b.Opposite(d), o)
		}
	}
}

// TestHexHexNeighbours names the neighbours of a few cells: the rows below
// the middle row are shifted right, the rows above it left, so e1 touches
// d1 and f1, a1 touches a2, b1 and b2, and b1 has a1 below on its right.
func TestHexHexNeighbours(t *testing.T) {
	b := NewHexHex(5)
	tests := []struct {
		cell string
		want [6]string // E NE NW W SW SE, "" off the board
	}{
		{"e5", [6]string{"e6", "f5", "f4", "e4", "d4", "d5"}},
		{"a1", [6]string{"a2", "b2", "b1", "", "", ""}},
		{"a5", [6]string{"", "b6", "b5", "a4", "", ""}},
		{"e1", [6]string{"e2", "f1", "", "", "", "d1"}},
		{"e9", [6]string{"", "", "f8", "e8", "d8", ""}},
		{"i1", [6]string{"i2", "", "", "", "h1", "h2"}},
		{"i5", [6]string{"", "", "", "i4", "h5", "h6"}},
		{"c3", [6]string{"c4", "d4", "d3", "c2", "b2", "b3"}},
		{"g3", [6]string{"g4", "h3", "h2", "g2", "f3", "f4"}},
		{"b1", [6]string{"b2", "c2", "c1", "", "", "a1"}},
	}
	for _, tc := range tests {
		c := mustCell(t, b, tc.cell)
		var got [6]string
		for d := range got {
			if n := b.Neighbor(c, d); n != None {
				got[d] = b.Name(n)
			}
		}
		if got != tc.want {
			t.Errorf("neighbours of %s (E NE NW W SW SE) = %q, want %q", tc.cell, got, tc.want)
		}
	}
}

func TestHexHexRays(t *testing.T) {
	b := NewHexHex(5)
	tests := []struct {
		from string
		dir  int
		want []string
	}{
		{"a1", HexHexNE, []string{"b2", "c3", "d4", "e5", "f5", "g5", "h5", "i5"}},
		{"a1", HexHexNW, []string{"b1", "c1", "d1", "e1"}},
		{"e1", HexHexE, []string{"e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"}},
		{"i5", HexHexSW, []string{"h5", "g5", "f5", "e5", "d4", "c3", "b2", "a1"}},
		{"e9", HexHexSW, []string{"d8", "c7", "b6", "a5"}},
		{"e5", HexHexNW, []string{"f4", "g3", "h2", "i1"}},
	}
	for _, tc := range tests {
		if got := names(b, b.Ray(mustCell(t, b, tc.from), tc.dir)); !slices.Equal(got, tc.want) {
			t.Errorf("ray from %s in direction %d = %v, want %v", tc.from, tc.dir, got, tc.want)
		}
	}
	if d, ok := b.DirTo(mustCell(t, b, "a1"), mustCell(t, b, "i5")); !ok || d != HexHexNE {
		t.Errorf("DirTo(a1, i5) = %d, %v", d, ok)
	}
	if _, ok := b.DirTo(mustCell(t, b, "a1"), mustCell(t, b, "b3")); ok {
		t.Error("a1 and b3 are not on a line")
	}
}
