package endgame_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// TestDeepSearchAgrees searches random table positions with ab, which
// knows nothing of the tables, to a depth of 9 plies, and checks that
// every forced result it finds within its horizon is the tables': a win
// it finds in n plies is a win in the tables in at most n, a loss a loss.
func TestDeepSearchAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("deep searches: the full run only")
	}
	tb := builtTables(t, "pommel", 3)
	rng := rand.New(rand.NewPCG(23, 3))
	forced, exact, checked := 0, 0, 0
	for _, ms := range tb.Manifest().Materials {
		m, err := endgame.ParseMaterial(ms.Material)
		if err != nil {
			t.Fatal(err)
		}
		for range 12 {
			s, err := tb.Position(m, rng.Uint64N(tb.Indexes(m)))
			if err != nil || len(s.Moves(nil)) == 0 {
				continue // not a position, or nothing to search
			}
			want, err := tb.Probe(s)
			if err != nil {
				t.Fatal(err)
			}
			eng, err := ai.New("ab", 1)
			if err != nil {
				t.Fatal(err)
			}
			info := eng.Search(context.Background(), s, ai.Limits{Depth: 9}, nil)
			checked++
			fen := s.(interface{ FEN() string }).FEN()
			switch {
			case info.Score > ai.Mate-ai.MaxDepth:
				forced++
				n := ai.Mate - info.Score
				if want.Kind != endgame.Win || want.Plies > n {
					t.Errorf("%s: ab wins in %d plies, the tables say %v", fen, n, want)
				}
				if want.Plies == n {
					exact++
				}
			case info.Score < -ai.Mate+ai.MaxDepth:
				forced++
				if n := ai.Mate + info.Score; want.Kind != endgame.Loss {
					t.Errorf("%s: ab loses in %d plies, the tables say %v", fen, n, want)
				} else if want.Plies == n {
					exact++
				}
			}
		}
	}
	t.Logf("%d positions searched, %d forced results found by ab, %d of them at the tables' distance", checked, forced, exact)
	if forced < checked/4 {
		t.Errorf("ab found only %d forced results in %d positions: the check checks little", forced, checked)
	}
}

// builtTables builds and opens the tables of game id up to pieces in a
// folder of the test's.
func builtTables(t *testing.T, id string, pieces int) *endgame.Tables {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := endgame.Build(t.Context(), endgame.Config{Game: g, Pieces: pieces, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	tb, err := endgame.Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
