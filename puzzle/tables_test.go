package puzzle

import (
	"context"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
)

// TestTablePuzzle: with Pommel's tables of two pieces, a won position
// with one winning move is an exact puzzle, its first move the only one
// that keeps the win by the tables; a position with two winning moves
// is none, whatever a search would say.
func TestTablePuzzle(t *testing.T) {
	_, tables := endgametest.Build(t, "pommel", nil, 2)
	for _, tc := range []struct {
		fen  string
		want bool
	}{
		// A captain against a soldier: only a1-a5 keeps the win (in 9
		// plies); the three other moves lose.
		{"W:WKa1:Bf3", true},
		// Here a4-a5 and others win: no move is the only one.
		{"W:WKa4:Bc6", false},
	} {
		s := position(t, "pommel", tc.fen)
		p, ok, err := FindIn(context.Background(), s, Config{Tables: tables})
		if err != nil || ok != tc.want {
			t.Fatalf("%s: found %v (%v), want %v", tc.fen, ok, err, tc.want)
		}
		if !ok {
			continue
		}
		wins := 0
		for _, m := range s.Moves(nil) {
			if v, held := moveValue(tables, s, m); held && v.Kind == endgame.Win {
				wins++
				if m.Text(s.Game().Board()) != p.Solution[0] {
					t.Errorf("%s: the solution starts %s, but %s wins", tc.fen, p.Solution[0], m.Text(s.Game().Board()))
				}
			}
		}
		if wins != 1 || p.Table != "win in 9" || len(p.Solution)%2 != 1 || !slices.Contains(p.Themes, Endgame) {
			t.Errorf("%s: %d winning moves, puzzle %+v", tc.fen, wins, p)
		}
	}
}
