package ai

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

func newState(t testing.TB, id, fen string) game.State {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return g.Start()
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustEngine(t testing.TB, spec string) Engine {
	t.Helper()
	e, err := New(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestTactics: at a fixed depth or node count, the engines find the move
// that wins.
func TestTactics(t *testing.T) {
	tests := []struct {
		name, id, fen, want string
	}{
		// Of two captures, the chain of three wins: the leap of two leaves
		// Black the chain's pieces.
		{"the chain that wins", "pommel", "W:Wd1,g1:Bd2,e3,f5,g2,g3", "d1xd3xf4xf6"},
	}
	for _, tc := range tests {
		for _, spec := range []string{"ab", "mcts"} {
			t.Run(tc.name+" "+spec, func(t *testing.T) {
				s := newState(t, tc.id, tc.fen)
				fen := s.FEN()
				info := mustEngine(t, spec).Search(context.Background(), s, Limits{Depth: 4, Nodes: 20000}, nil)
				if got := info.Move.Text(s.Game().Board()); got != tc.want {
					t.Errorf("%s: %s played %s (score %d), want %s", tc.fen, spec, got, info.Score, tc.want)
				}
				if s.FEN() != fen {
					t.Error("the search changed the state it was given")
				}
			})
		}
	}
}

func TestSpecs(t *testing.T) {
	for _, good := range []string{"random", "uct", "uct:c=1,playout=50", "ab", "ab:depth=4", "mcts", "mcts:cutoff=0,c=1", "ai:level=1", "level=6"} {
		if _, err := New(good, 1); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
	for _, bad := range []string{"", "chess", "ab:depth=0", "ab:deep=3", "ai", "ai:level=7", "uct:c"} {
		if _, err := New(bad, 1); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestDeterministic: the same seed and node limit give the same move.
func TestDeterministic(t *testing.T) {
	for _, spec := range []string{"uct", "ab", "mcts", "random"} {
		s := newState(t, "pommel", "")
		a := mustEngine(t, spec).Search(context.Background(), s, Limits{Nodes: 3000}, nil)
		b := mustEngine(t, spec).Search(context.Background(), s, Limits{Nodes: 3000}, nil)
		if a.Move != b.Move || a.Nodes != b.Nodes {
			t.Errorf("%s: %v/%d then %v/%d", spec, a.Move, a.Nodes, b.Move, b.Nodes)
		}
	}
}

// TestABBeatsRandom: a sanity check of strength through whole games.
func TestABBeatsRandom(t *testing.T) {
	wins := 0
	for i := 0; i < 4; i++ {
		s := newState(t, "pommel", "")
		ab, rnd := mustEngine(t, "ab"), Engine(newRandom("random", uint64(i)))
		seats := []Engine{ab, rnd}
		me := game.Player(0)
		if i%2 == 1 {
			seats, me = []Engine{rnd, ab}, 1
		}
		if _, err := PlayGame(context.Background(), s, seats, Limits{Depth: 2}); err != nil {
			t.Fatal(err)
		}
		if r := s.Result(); r.Winners.Has(me) && r.Winners.Len() == 1 {
			wins++
		}
	}
	if wins < 4 {
		t.Errorf("ab at depth 2 won %d of 4 games against random", wins)
	}
}
