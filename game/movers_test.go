package game_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// TestMovers: from the start and from a position with the second seat to
// move, each move is given to the seat that made it, and s is unchanged.
func TestMovers(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want []game.Player
	}{
		{"", []game.Player{0, 1, 0}},
		{"B:Wa1,a2,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6", []game.Player{1, 0, 1}},
	} {
		rules, err := game.New("pommel", nil)
		if err != nil {
			t.Fatal(err)
		}
		s := rules.Start()
		if c.fen != "" {
			if s, err = rules.ParseFEN(c.fen); err != nil {
				t.Fatal(err)
			}
		}
		for range c.want {
			s.Play(s.Moves(nil)[0])
		}
		before := s.FEN()
		if got := game.Movers(s, len(c.want)); !slices.Equal(got, c.want) {
			t.Errorf("from %q: movers %v, want %v", c.fen, got, c.want)
		}
		if s.FEN() != before {
			t.Errorf("Movers changed the position: %s, then %s", before, s.FEN())
		}
	}
}
