package board

import (
	"slices"
	"testing"
)

func names(b *Board, cells []Cell) []string {
	var out []string
	for _, c := range cells {
		out = append(out, b.Name(c))
	}
	return out
}

func mustCell(t *testing.T, b *Board, name string) Cell {
	t.Helper()
	c, ok := b.Parse(name)
	if !ok {
		t.Fatalf("no cell %s", name)
	}
	return c
}

func TestHexColumnsSizes(t *testing.T) {
	for _, tc := range []struct{ columns, long, cells int }{{7, 7, 45}, {9, 9, 76}} {
		if got := NewHexColumns(tc.columns, tc.long).Len(); got != tc.cells {
			t.Errorf("NewHexColumns(%d, %d) has %d cells, want %d", tc.columns, tc.long, got, tc.cells)
		}
	}
}

// TestHexColumnsNeighbours checks RULINGS section 1: b1 is the lowest cell,
// a1 touches b1 and b2, and the six neighbours of (x,y) are (x,y±2) and
// (x±1,y±1).
func TestHexColumnsNeighbours(t *testing.T) {
	b := NewHexColumns(7, 7)
	tests := []struct {
		cell string
		want [6]string // N NE SE S SW NW, "" off the board
	}{
		{"a1", [6]string{"a2", "b2", "b1", "", "", ""}},
		{"b1", [6]string{"b2", "c1", "", "", "", "a1"}},
		{"d3", [6]string{"d4", "e3", "e2", "d2", "c2", "c3"}},
		{"c3", [6]string{"c4", "d4", "d3", "c2", "b3", "b4"}},
		{"g6", [6]string{"", "", "", "g5", "f6", "f7"}},
		{"f7", [6]string{"", "", "g6", "f6", "e6", ""}},
	}
	for _, tc := range tests {
		c := mustCell(t, b, tc.cell)
		for d, want := range tc.want {
			n := b.Neighbor(c, d)
			got := ""
			if n != None {
				got = b.Name(n)
			}
			if got != want {
				t.Errorf("neighbour of %s in direction %d = %q, want %q", tc.cell, d, got, want)
			}
		}
	}
	if x, y := b.Coord(mustCell(t, b, "b1")); x != 1 || y != 0 {
		t.Errorf("b1 at (%d,%d), want (1,0)", x, y)
	}
}

func TestRaysAndDirections(t *testing.T) {
	b := NewHexColumns(7, 7)
	d1 := mustCell(t, b, "d1")
	if got := names(b, b.Ray(d1, HexN)); !slices.Equal(got, []string{"d2", "d3", "d4", "d5", "d6", "d7"}) {
		t.Errorf("ray north of d1 = %v", got)
	}
	if got := names(b, b.Ray(mustCell(t, b, "a1"), HexNE)); !slices.Equal(got, []string{"b2", "c2", "d3", "e3", "f4", "g4"}) {
		t.Errorf("ray north-east of a1 = %v", got)
	}
	if d, ok := b.DirTo(d1, mustCell(t, b, "d5")); !ok || d != HexN {
		t.Errorf("DirTo(d1, d5) = %d, %v", d, ok)
	}
	if _, ok := b.DirTo(d1, mustCell(t, b, "e3")); ok {
		t.Error("d1 and e3 are not on a line")
	}
	for d := 0; d < b.Dirs(); d++ {
		if v, o := b.Direction(d), b.Direction(b.Opposite(d)); v.DX != -o.DX || v.DY != -o.DY {
			t.Errorf("direction %d %v is not opposite to %d %v", d, v, b.Opposite(d), o)
		}
	}
	// Every neighbour relation is symmetric.
	for c := 0; c < b.Len(); c++ {
		for d := 0; d < b.Dirs(); d++ {
			if n := b.Neighbor(Cell(c), d); n != None && b.Neighbor(n, b.Opposite(d)) != Cell(c) {
				t.Errorf("%s -> %s is not symmetric", b.Name(Cell(c)), b.Name(n))
			}
		}
	}
}

func TestSquare(t *testing.T) {
	b := NewSquare(8, 8)
	if b.Len() != 64 || b.Dirs() != 8 {
		t.Fatalf("8x8 board: %d cells, %d directions", b.Len(), b.Dirs())
	}
	// Cell order: by rank, then file (a1 < h1 < a2).
	a1, h1, a2 := mustCell(t, b, "a1"), mustCell(t, b, "h1"), mustCell(t, b, "a2")
	if !(a1 < h1 && h1 < a2) {
		t.Errorf("cell order a1=%d h1=%d a2=%d", a1, h1, a2)
	}
	if got := names(b, b.Ray(mustCell(t, b, "c3"), SqNW)); !slices.Equal(got, []string{"b4", "a5"}) {
		t.Errorf("ray north-west of c3 = %v", got)
	}
	if b.Neighbor(h1, SqE) != None {
		t.Error("h1 has an eastern neighbour")
	}
}

// TestCellsByName: every cell once, in the byte order of the names.
func TestCellsByName(t *testing.T) {
	for _, b := range []*Board{NewHexHex(5), NewSquare(10, 10)} {
		var names []string
		seen := map[Cell]bool{}
		for c := range b.CellsByName() {
			if seen[c] {
				t.Fatalf("%s: cell %s twice", b.ID(), b.Name(c))
			}
			seen[c] = true
			names = append(names, b.Name(c))
		}
		if len(names) != b.Len() || !slices.IsSorted(names) {
			t.Errorf("%s: CellsByName gave %d cells %v, want all %d sorted", b.ID(), len(names), names, b.Len())
		}
	}
}
