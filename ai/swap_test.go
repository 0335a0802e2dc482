package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// swapState is a game with the pie rule after its first move: the second
// player may swap.
func swapState(t *testing.T, id string) game.State {
	t.Helper()
	g, err := game.New(id, map[string]string{"swap": "on"})
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	s.Play(s.Moves(nil)[0])
	if !slices.Contains(s.Moves(nil), game.Swap()) {
		t.Fatalf("%s: no swap at ply 1", id)
	}
	return s
}

// TestSearchWithSwap: every engine searches the position where swap is a
// move and answers a legal move, swap or another; the game goes on after
// it.
func TestSearchWithSwap(t *testing.T) {
	specs := []string{"ab:depth=3", "mcts", "uct", "ai:level=2", "random"}
	games := []string{"pommel", "eximo", "checkers-2011", "punt-match", "punt-heks-match", "pommel-76"}
	if testing.Short() {
		games = games[:2]
	}
	lim := Limits{Nodes: 300, MoveTime: 5 * time.Second}
	for _, spec := range specs {
		for _, id := range games {
			s := swapState(t, id)
			e := mustEngine(t, spec)
			for range 2 {
				info := e.Search(context.Background(), s, lim, nil)
				if info.Err != nil {
					t.Fatalf("%s %s: %v", spec, id, info.Err)
				}
				if !slices.Contains(s.Moves(nil), info.Move) {
					t.Fatalf("%s %s: %s is not a legal move of %s", spec, id, info.Move.Text(s.Game().Board()), s.FEN())
				}
				s.Play(info.Move)
			}
		}
	}
}

// TestSearchLinesScoresSwap: alpha-beta scores swap among the root moves,
// like any move.
func TestSearchLinesScoresSwap(t *testing.T) {
	for _, id := range []string{"pommel", "punt-match"} {
		s := swapState(t, id)
		n := len(s.Moves(nil))
		lines, ok := mustEngine(t, "ab:depth=2").(LineSearcher)
		if !ok {
			t.Fatal("ab searches no lines")
		}
		info := lines.SearchLines(context.Background(), s, Limits{Depth: 2}, n, nil)
		found := slices.ContainsFunc(info.Lines, func(l Line) bool { return len(l.PV) > 0 && l.PV[0].IsSwap() })
		if len(info.Lines) != n || !found {
			t.Errorf("%s: %d lines of %d moves, swap among them %v", id, len(info.Lines), n, found)
		}
	}
}
