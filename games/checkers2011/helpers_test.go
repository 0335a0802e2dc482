package checkers2011_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/checkers2011"
)

// newGame builds Checkers 2011; opts are "key=value" strings.
func newGame(t testing.TB, opts ...string) game.Game {
	t.Helper()
	m := map[string]string{}
	for _, o := range opts {
		k, v, err := game.ParseOption(o)
		if err != nil {
			t.Fatal(err)
		}
		m[k] = v
	}
	g, err := game.New("checkers-2011", m)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func fromFEN(t testing.TB, g game.Game, fen string) game.State {
	t.Helper()
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ruleMoves lists the legal moves by the rules, sorted, ignoring the draw
// safeguards.
func ruleMoves(s game.State) []string {
	var out []string
	for _, m := range s.Moves(nil) {
		out = append(out, m.Text(s.Game().Board()))
	}
	slices.Sort(out)
	return out
}
