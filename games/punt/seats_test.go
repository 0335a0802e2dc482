package punt_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
)

// TestStartPositions pins every seat's home cells (RULINGS section 4):
// on the square board ranks 1-2 and 6-7, 14 pawns each; on the hex board
// rows a-b and h-i, or for three players rows a-b, the two lines along the
// upper-left edge (e1-i1 and d1-i2) and the two along the upper-right edge
// (e9-i5 and d8-i4), 11 pawns each.
func TestStartPositions(t *testing.T) {
	tests := []struct{ id, fen string }{
		{"punt-match", "W:a1=w,b1=w,c1=w,d1=w,e1=w,f1=w,g1=w,a2=w,b2=w,c2=w,d2=w,e2=w,f2=w,g2=w,a6=b,b6=b,c6=b,d6=b,e6=b,f6=b,g6=b,a7=b,b7=b,c7=b,d7=b,e7=b,f7=b,g7=b"},
		{"punt-heks-match", "W:a1=w,a2=w,a3=w,a4=w,a5=w,b1=w,b2=w,b3=w,b4=w,b5=w,b6=w,h1=b,h2=b,h3=b,h4=b,h5=b,h6=b,i1=b,i2=b,i3=b,i4=b,i5=b"},
		{"punt-heks-match-3p", "W:a1=w,a2=w,a3=w,a4=w,a5=w,b1=w,b2=w,b3=w,b4=w,b5=w,b6=w,d1=b,d8=r,e1=b,e2=b,e8=r,e9=r,f1=b,f2=b,f7=r,f8=r,g1=b,g2=b,g6=r,g7=r,h1=b,h2=b,h5=r,h6=r,i1=b,i2=b,i4=r,i5=r"},
	}
	for _, tc := range tests {
		s := gametest.NewGame(t, tc.id).Start()
		if got := s.FEN(); got != tc.fen {
			t.Errorf("%s start:\n got %s\nwant %s", tc.id, got, tc.fen)
		}
		if s.ToMove() != punt.White || s.Ply() != 0 {
			t.Errorf("%s starts with player %d to move at ply %d", tc.id, s.ToMove(), s.Ply())
		}
	}
}

// TestSeatsDoNotOverlap: every seat has the same number of pawns, each on
// its own cell, and the home cells of two seats never meet.
func TestSeatsDoNotOverlap(t *testing.T) {
	for _, tc := range []struct {
		id      string
		perSeat int
	}{{"punt-match", 14}, {"punt-heks-match", 11}, {"punt-heks-match-3p", 11}} {
		g := gametest.NewGame(t, tc.id)
		s := g.Start()
		count := make([]int, g.Players())
		for c := 0; c < g.Board().Len(); c++ {
			stack := s.(game.Stacker).Stack(board.Cell(c), nil)
			if len(stack) > 1 {
				t.Errorf("%s: %d pawns on %s at the start", tc.id, len(stack), g.Board().Name(board.Cell(c)))
			}
			for _, p := range stack {
				count[p.Owner]++
			}
		}
		for p, n := range count {
			if n != tc.perSeat {
				t.Errorf("%s: %s has %d pawns, want %d", tc.id, g.PlayerName(game.Player(p)), n, tc.perSeat)
			}
		}
	}
}

// dirNames names the board's directions as the rules page does.
func dirNames(g game.Game, dirs []int) []string {
	names := []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
	if g.Board().Kind() == board.HexHex {
		names = []string{"E", "NE", "NW", "W", "SW", "SE"}
	}
	var out []string
	for _, d := range dirs {
		out = append(out, names[d])
	}
	slices.Sort(out)
	return out
}

// TestSeatGeometry pins every seat's end-row (the edge opposite its home)
// and its forward and sideways directions (RULINGS section 4).
func TestSeatGeometry(t *testing.T) {
	tests := []struct {
		id                string
		seat              game.Player
		endRow            string
		forward, sideways string
	}{
		{"punt-match", punt.White, "a7 b7 c7 d7 e7 f7 g7", "N", "E W"},
		{"punt-match", punt.Black, "a1 b1 c1 d1 e1 f1 g1", "S", "E W"},
		{"punt-heks-match", punt.White, "i1 i2 i3 i4 i5", "NE NW", "E W"},
		{"punt-heks-match", punt.Black, "a1 a2 a3 a4 a5", "SE SW", "E W"},
		{"punt-heks-match-3p", punt.White, "i1 i2 i3 i4 i5", "NE NW", "E W"},
		{"punt-heks-match-3p", punt.Black, "a5 b6 c7 d8 e9", "E SE", "NE SW"},
		{"punt-heks-match-3p", punt.Red, "a1 b1 c1 d1 e1", "SW W", "NW SE"},
	}
	for _, tc := range tests {
		g := gametest.NewGame(t, tc.id).(*punt.Game)
		var end []string
		for c := 0; c < g.Board().Len(); c++ {
			if g.EndRow(tc.seat, board.Cell(c)) {
				end = append(end, g.Board().Name(board.Cell(c)))
			}
		}
		name := tc.id + " " + g.PlayerName(tc.seat)
		if got := strings.Join(end, " "); got != tc.endRow {
			t.Errorf("%s: end-row %s, want %s", name, got, tc.endRow)
		}
		fwd, side := g.Directions(tc.seat)
		if got := strings.Join(dirNames(g, fwd), " "); got != tc.forward {
			t.Errorf("%s: forward %s, want %s", name, got, tc.forward)
		}
		if got := strings.Join(dirNames(g, side), " "); got != tc.sideways {
			t.Errorf("%s: sideways %s, want %s", name, got, tc.sideways)
		}
		// The end-row is the edge opposite the home edge: no home cell is
		// on it, and a forward step from any end-row cell leaves the board.
		home := g.Start()
		for c := 0; c < g.Board().Len(); c++ {
			cell := board.Cell(c)
			if home.Owner(cell) == tc.seat && g.EndRow(tc.seat, cell) {
				t.Errorf("%s: home cell %s is on the end-row", name, g.Board().Name(cell))
			}
			if !g.EndRow(tc.seat, cell) {
				continue
			}
			for _, d := range fwd {
				if n := g.Board().Neighbor(cell, d); n != board.None {
					t.Errorf("%s: end-row cell %s has a forward neighbour %s", name, g.Board().Name(cell), g.Board().Name(n))
				}
			}
		}
	}
}

// TestEveryCellOffTheEndRowHasAMove: a lone pawn anywhere but on its own
// end-row can move, for every seat. The engine relies on it: a player has
// a legal move exactly when they control a pile off their end-row.
func TestEveryCellOffTheEndRowHasAMove(t *testing.T) {
	for _, id := range refIDs {
		g := gametest.NewGame(t, id).(*punt.Game)
		b := g.Board()
		for p := 0; p < g.Players(); p++ {
			seat := game.Player(p)
			for c := 0; c < b.Len(); c++ {
				fen := fmt.Sprintf("%c:%s=%c", "WBR"[p], b.Name(board.Cell(c)), "wbr"[p])
				s := gametest.MustParse(t, g, fen)
				n := len(s.Moves(nil))
				if g.EndRow(seat, board.Cell(c)) != (n == 0) {
					t.Errorf("%s: %s's lone pawn on %s has %d moves", id, g.PlayerName(seat), b.Name(board.Cell(c)), n)
				}
				if over := s.Result().Reason == game.Scored; over != (n == 0) {
					t.Errorf("%s: %s's lone pawn on %s: %d moves but scored end %v", id, g.PlayerName(seat), b.Name(board.Cell(c)), n, over)
				}
			}
		}
	}
}
