package reviews

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/puzzle"
)

// withPuzzles is replayCompute that also "finds" one puzzle a game when
// asked, its id the game's first move (so two games that open alike
// find the same puzzle), as a real search would find the same position.
func withPuzzles(ctx context.Context, in Input) (Result, error) {
	res, err := replayCompute(ctx, in)
	if err != nil || !in.Puzzles {
		return res, err
	}
	rules, err := game.New(in.Rules, in.Options)
	if err != nil {
		return Result{}, err
	}
	res.Puzzles = []puzzle.Puzzle{{ID: "pommel-" + in.Moves[0], Game: in.Rules, FEN: rules.Start().FEN(), Solution: in.Moves[:1]}}
	return res, nil
}

// TestReviewFindsPuzzles: a service with Puzzles asks its workers for
// the puzzles of every game reviewed; they are stored once a position,
// marked with the game they came from, and listed in the order found,
// page by page, by Found's cursor.
func TestReviewFindsPuzzles(t *testing.T) {
	for name, target := range queues(t) {
		t.Run(name, func(t *testing.T) {
			q := target(t)
			s := open(t, Config{Queue: q, Nodes: 500, Puzzles: true, Workers: 1, Compute: withPuzzles})
			ctx := context.Background()
			a, b := finished(t, "ga", 6), finished(t, "gb", 8) // the same first move: one puzzle
			c := finished(t, "gc", 6)
			c.Input.Moves = c.Input.Moves[1:]
			c.Input.StartFEN = afterFirst(t)
			for _, g := range []Game{a, b, c} {
				if _, _, err := s.Request(ctx, g, Requester{}); err != nil {
					t.Fatal(err)
				}
				if r := waitState(t, s, g.ID, Done, Failed); r.State != Done || len(r.Result.Puzzles) != 1 {
					t.Fatalf("%s: review %s %q, %d puzzles", g.ID, r.State, r.Error, len(r.Result.Puzzles))
				}
			}
			var all []puzzle.Puzzle
			var at Cursor
			for range 5 {
				ps, next, err := s.Found(ctx, at, 1)
				if err != nil {
					t.Fatal(err)
				}
				if len(ps) == 0 {
					break
				}
				all, at = append(all, ps...), next
			}
			if len(all) != 2 {
				t.Fatalf("found %+v, want two puzzles (two games found the same)", all)
			}
			if all[0].SourceGame != "ga" || all[0].Source != "game ga" || all[1].SourceGame != "gc" {
				t.Errorf("sources %q %q and %q, want ga then gc", all[0].SourceGame, all[0].Source, all[1].SourceGame)
			}
			for _, limit := range []int{0, -1, MaxFound + 1} {
				if _, _, err := s.Found(ctx, Cursor{}, limit); err == nil {
					t.Errorf("Found with limit %d: no error", limit)
				}
			}
		})
	}
}

// afterFirst is Pommel's position after the first legal move.
func afterFirst(t *testing.T) string {
	t.Helper()
	rules, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
	if err := game.PlayMoves(st, game.MoveTexts(st)[:1]); err != nil {
		t.Fatal(err)
	}
	return st.FEN()
}

// TestEngineFindsPuzzles: the site's computation finds the puzzle of a
// reviewed game's position, rechecked, when asked, and none otherwise.
func TestEngineFindsPuzzles(t *testing.T) {
	// Black to move: only g2xe4 leaves no man for h3 to take back
	// (package puzzle's TestFindsTheWinningCapture).
	in := Input{Rules: "eximo", StartFEN: "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2", Moves: []string{"e3xg3"}, Nodes: 2000}
	res, err := Engine(nil)(context.Background(), in)
	if err != nil || len(res.Puzzles) != 0 {
		t.Fatalf("without Puzzles: %d puzzles (%v), want none", len(res.Puzzles), err)
	}
	in.Puzzles = true
	if res, err = Engine(nil)(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if len(res.Puzzles) != 1 || res.Puzzles[0].Solution[0] != "g2xe4" || res.Puzzles[0].Ply != 0 {
		t.Fatalf("puzzles %+v, want the one starting g2xe4", res.Puzzles)
	}
}
