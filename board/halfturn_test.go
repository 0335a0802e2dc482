package board

import "testing"

// TestHalfTurn checks on every board the games use that the half turn is
// a symmetry of the board: it maps cells to cells one to one, twice is
// the identity, it keeps every line (a neighbour in direction d becomes a
// neighbour in the opposite direction), and it exchanges the bottom and
// the top rows.
func TestHalfTurn(t *testing.T) {
	tests := []struct {
		name             string
		b                *Board
		bottom, top      string
		centre           string // a cell the half turn fixes, or ""
		cornerA, cornerB string
	}{
		{"square 8x8", NewSquare(8, 8), "a1", "h8", "", "a1", "h8"},
		{"square 7x7", NewSquare(7, 7), "a1", "g7", "d4", "b2", "f6"},
		{"hex columns 45", NewHexColumns(7, 7), "b1", "f7", "d4", "a1", "g6"},
		{"hex columns 76", NewHexColumns(9, 9), "b1", "h9", "", "e4", "e5"},
		{"hexhex 5", NewHexHex(5), "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.b
			seen := make(map[Cell]bool)
			for c := range Cell(b.Len()) {
				img := b.HalfTurn(c)
				if img == None || seen[img] {
					t.Fatalf("%s turns to %v, which is no cell or taken twice", b.Name(c), img)
				}
				seen[img] = true
				if b.HalfTurn(img) != c {
					t.Fatalf("two half turns take %s to %s", b.Name(c), b.Name(b.HalfTurn(img)))
				}
				for d := range b.Dirs() {
					n := b.Neighbor(c, d)
					if n == None {
						continue
					}
					if got := b.Neighbor(img, b.Opposite(d)); got != b.HalfTurn(n) {
						t.Fatalf("%s's neighbour in direction %d does not turn to the neighbour of %s in the opposite one", b.Name(c), d, b.Name(img))
					}
				}
			}
			checkPair := func(x, y string) {
				if x == "" {
					return
				}
				cx, _ := b.Parse(x)
				cy, _ := b.Parse(y)
				if b.HalfTurn(cx) != cy {
					t.Errorf("%s turns to %s, want %s", x, b.Name(b.HalfTurn(cx)), y)
				}
			}
			checkPair(tt.bottom, tt.top)
			checkPair(tt.cornerA, tt.cornerB)
			checkPair(tt.centre, tt.centre)
			if b.HalfTurn(Cell(b.Len())) != None {
				t.Errorf("a cell off the board turns to a cell")
			}
		})
	}
}

// TestHalfTurnNone checks that a board without the symmetry says so.
func TestHalfTurnNone(t *testing.T) {
	b := build("lopsided", Square, []cellSpec{{"a1", 0, 0}, {"b1", 1, 0}, {"a2", 0, 1}}, squareDirs)
	if got := b.HalfTurn(0); got != None {
		t.Errorf("a board with no half-turn symmetry turns a1 to %v, want None", got)
	}
}
