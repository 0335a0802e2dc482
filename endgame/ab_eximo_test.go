package endgame_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	_ "github.com/arbiter-games/arbiter/games/eximo"
)

// TestDeepSearchAgreesEximo: in positions Eximo's tables of 3 pieces
// hold, every forced result ab finds without the tables (9 plies deep)
// is the tables' (a win in n is a win in at most n, a loss a loss), and
// ab given the tables scores the position by their value.
func TestDeepSearchAgreesEximo(t *testing.T) {
	if testing.Short() {
		t.Skip("deep searches: the full run only")
	}
	tb := builtTables(t, "eximo", 3)
	rng := rand.New(rand.NewPCG(41, 3))
	forced, checked := 0, 0
	for _, ms := range tb.Manifest().Materials {
		m, err := endgame.ParseMaterial(ms.Material)
		if err != nil {
			t.Fatal(err)
		}
		for tries := 0; tries < 2000 && checked < 15*len(tb.Manifest().Materials); tries++ {
			i := rng.Uint64N(tb.Indexes(m))
			want, held, err := tb.At(m, i)
			if err != nil {
				t.Fatal(err)
			}
			if !held {
				continue
			}
			s, err := tb.Position(m, i)
			if err != nil || len(s.Moves(nil)) == 0 {
				continue
			}
			checked++
			fen := s.(interface{ FEN() string }).FEN()
			eng, err := ai.New("ab", 1)
			if err != nil {
				t.Fatal(err)
			}
			info := eng.Search(context.Background(), s, ai.Limits{Depth: 9}, nil)
			switch {
			case info.Score > ai.Mate-ai.MaxDepth:
				forced++
				if n := ai.Mate - info.Score; want.Kind != endgame.Win || want.Plies > n {
					t.Errorf("%s: ab wins in %d plies, the tables say %v", fen, n, want)
				}
			case info.Score < -ai.Mate+ai.MaxDepth:
				forced++
				if want.Kind != endgame.Loss {
					t.Errorf("%s: ab loses in %d plies, the tables say %v", fen, ai.Mate+info.Score, want)
				}
			}
			withTables, err := ai.New("ab", 1, ai.WithTables(tb))
			if err != nil {
				t.Fatal(err)
			}
			info = withTables.Search(context.Background(), s, ai.Limits{Depth: 3}, nil)
			if wins := info.Score > ai.Mate-ai.MaxDepth; wins != (want.Kind == endgame.Win) {
				t.Errorf("%s: ab with the tables scores %d, the tables say %v", fen, info.Score, want)
			}
		}
	}
	t.Logf("%d held positions searched, %d forced results found by ab", checked, forced)
	if checked == 0 || forced < checked/4 {
		t.Errorf("ab found %d forced results in %d positions: the check checks little", forced, checked)
	}
}
