package ai

import (
	"context"
	"testing"
	"time"

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
	for _, good := range []string{"random", "uct", "uct:c=1,playout=50", "ab", "ab:depth=4", "ab:nplayer=brs", "ab:nplayer=paranoid,threads=2", "mcts", "mcts:cutoff=0,c=1", "mcts:tt=1", "ai:level=1", "level=6"} {
		if _, err := New(good, 1); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
	for _, bad := range []string{"", "chess", "ab:depth=0", "ab:deep=3", "ab:nplayer=maxn", "ab:nplayer=", "ab:nplayer=BRS", "ai", "ai:level=7", "uct:c", "uct:playout=0", "mcts:tt=2", "ai:level=0"} {
		// A refused spec gives a plain nil engine, never a typed nil
		// that compares unequal to nil.
		if e, err := New(bad, 1); err == nil || e != nil {
			t.Errorf("%q: engine %v, error %v; want nil and an error", bad, e, err)
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

// TestMCTSSelectsOverProvenDraw: a proven draw is worth its share, no more,
// so a move that has scored better so far is explored before it, a proven
// win is taken before anything, and a proven loss comes last.
func TestMCTSSelectsOverProvenDraw(t *testing.T) {
	e := &mcts{c: 0.7}
	draw := &[game.MaxPlayers]float64{0.5, 0.5}
	win := &[game.MaxPlayers]float64{1, 0}
	loss := &[game.MaxPlayers]float64{0, 1}
	good := &mnode{visits: 10, reward: [game.MaxPlayers]float64{8, 2}}
	drawn := &mnode{visits: 10, reward: [game.MaxPlayers]float64{5, 5}, proven: draw}
	lost := &mnode{visits: 1, proven: loss}
	n := &mnode{visits: 21, children: []*mnode{drawn, lost, good}}
	if got := e.selectChild(n, 0); got != good {
		t.Errorf("selected %+v, want the unproven child scoring 0.8", got)
	}
	won := &mnode{visits: 1, proven: win}
	n.children = append(n.children, won)
	if got := e.selectChild(n, 0); got != won {
		t.Errorf("selected %+v, want the proven win", got)
	}
	n.children = []*mnode{lost, drawn}
	if got := e.selectChild(n, 0); got != drawn {
		t.Errorf("selected %+v, want the proven draw over the proven loss", got)
	}
}

// TestDepthCaps: ab:depth=N and the levels' depths cap a search even when
// it is given time; level 6 searches deeper than level 5 in the same time.
func TestDepthCaps(t *testing.T) {
	s := newState(t, "pommel", "")
	lim := Limits{MoveTime: 2 * time.Second, Nodes: 200_000}
	for spec, want := range map[string]int{"ab:depth=2": 2, "ai:level=3": 2, "ai:level=4": 3, "ai:level=5": 4} {
		if got := mustEngine(t, spec).Search(context.Background(), s, lim, nil).Depth; got != want {
			t.Errorf("%s searched to depth %d, want %d", spec, got, want)
		}
	}
	if got := mustEngine(t, "ai:level=6").Search(context.Background(), s, lim, nil).Depth; got <= 4 {
		t.Errorf("level 6 searched to depth %d with 200,000 nodes, want more than level 5's 4", got)
	}
	for n := 2; n < len(levels); n++ {
		if levels[n].depth < levels[n-1].depth || levels[n].depthN < levels[n-1].depthN || levels[n].blunder > levels[n-1].blunder || levels[n].blunderN > levels[n-1].blunderN {
			t.Errorf("level %d is not at least as deep and careful as level %d", n, n-1)
		}
	}
}

// TestABKnowsTheGameHistory: a position already played in the game counts
// as a draw in the search. White, a captain down, plays a2-b3 back into
// the position it left four plies ago (score 0) instead of the move it
// would choose on the evaluation alone.
func TestABKnowsTheGameHistory(t *testing.T) {
	s := newState(t, "pommel", "W:WKa2,Ka3:BKg6,Kf1,Kc5")
	if err := game.PlayMoves(s, []string{"a2-b3", "g6-g5", "b3-a2", "g5-g6"}); err != nil {
		t.Fatal(err)
	}
	info := mustEngine(t, "ab").Search(context.Background(), s, Limits{Depth: 3}, nil)
	if got := info.Move.Text(s.Game().Board()); got != "a2-b3" || info.Score != 0 {
		t.Errorf("played %s (score %d), want the repetition a2-b3 (score 0)", got, info.Score)
	}
	if s.Ply() != 4 {
		t.Errorf("the search changed the game: ply %d", s.Ply())
	}
}

// TestMCTSSharesTranspositions: nodes reached by different orders of moves
// share one record of their position, which has at least the visits of
// each of them; without tt they keep their own.
func TestMCTSSharesTranspositions(t *testing.T) {
	for _, tt := range []bool{true, false} {
		e := newMCTS("mcts", 1, mctsConfig{c: 0.7, cutoff: 8, scale: 150, transpose: tt, treeMiB: defaultTreeMiB})
		s := newState(t, "pommel", "")
		e.Search(context.Background(), s, Limits{Nodes: 5000}, nil)
		byHash := map[uint64][]*mnode{}
		var walk func(n *mnode)
		walk = func(n *mnode) {
			byHash[n.hash] = append(byHash[n.hash], n)
			for _, c := range n.children {
				walk(c)
			}
		}
		walk(e.root)
		shared := 0
		for _, nodes := range byHash {
			if len(nodes) < 2 {
				continue
			}
			for _, n := range nodes[1:] {
				if tt && (n.shared != nodes[0].shared || n.shared.visits < n.visits) {
					t.Fatalf("transposed nodes do not share their position: %+v %+v", n.shared, nodes[0].shared)
				}
				if !tt && n.shared != nil {
					t.Fatal("tt=0 shares statistics")
				}
			}
			shared++
		}
		if shared == 0 {
			t.Errorf("tt=%v: no position reached by two orders of moves in 5000 iterations", tt)
		}
	}
}
