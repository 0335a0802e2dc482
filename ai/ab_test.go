package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// TestPlayedFilter: the bit filter in front of the played positions
// never hides one of them, and a hash whose filter bit is set but which
// was not played is still not reported as played.
func TestPlayedFilter(t *testing.T) {
	s := newState(t, "pommel", "")
	rng := rand.New(rand.NewPCG(3, 4))
	var buf []game.Move
	for range 20 {
		buf = s.Moves(buf[:0])
		s.Play(buf[rng.IntN(len(buf))])
	}
	e := mustEngine(t, "ab").(*ab)
	e.Search(context.Background(), s, Limits{Depth: 1}, nil)
	if len(e.played) != 20 {
		t.Fatalf("%d played positions, want 20", len(e.played))
	}
	for h := range e.played {
		if !e.wasPlayed(h) {
			t.Errorf("played hash %x not found", h)
		}
		// h^1 has h's filter bit, which is set: the map decides.
		if _, ok := e.played[h^1]; !ok && e.wasPlayed(h^1) {
			t.Errorf("hash %x, with the filter bit of played %x, reported played", h^1, h)
		}
	}
	if e.wasPlayed(s.Hash()) {
		t.Error("the root position is reported played before the root")
	}
}

// playCounter is a game state that counts the moves played on it and on
// its clones.
type playCounter struct {
	game.State
	plays *int64
}

func (c playCounter) Play(m game.Move) { *c.plays++; c.State.Play(m) }

func (c playCounter) Clone() game.State { return playCounter{c.State.Clone(), c.plays} }

// TestABCountsPlayedPositions: ab's nodes are the positions it plays a
// move into, as perft counts, plus the root once per iteration.
func TestABCountsPlayedPositions(t *testing.T) {
	for _, tc := range []struct {
		id    string
		depth int
	}{{"pommel", 5}, {"punt-heks-match-3p", 3}} {
		var plays int64
		s := playCounter{newState(t, tc.id, ""), &plays}
		info := mustEngine(t, "ab").Search(context.Background(), s, Limits{Depth: tc.depth}, nil)
		if info.Depth != tc.depth || info.Nodes != plays+int64(tc.depth) {
			t.Errorf("%s: %d nodes at depth %d, want %d plays + %d iterations", tc.id, info.Nodes, info.Depth, plays, tc.depth)
		}
	}
}

// judged is a game state seen only through game.State and
// game.Evaluator, as every game can be.
type judged struct{ game.State }

func (j judged) Evaluate() [game.MaxPlayers]int { return j.State.(game.Evaluator).Evaluate() }

func (j judged) Clone() game.State { return judged{j.State.Clone()} }

// tested is a judged state that also answers the leaf tests, from its
// list of moves, and counts how often it was asked.
type tested struct {
	judged
	asked *int
}

func (t tested) HasMove() bool { *t.asked++; return len(t.Moves(nil)) > 0 }

func (t tested) HasCapture() bool {
	*t.asked++
	moves := t.Moves(nil)
	return len(moves) > 0 && moves[0].IsCapture()
}

func (t tested) Clone() game.State { return tested{judged{t.State.Clone()}, t.asked} }

// TestLeafTesterSearchesTheSameTree: a state that tells whether it has a
// move and must capture is searched exactly as one whose moves are listed
// (same nodes, score and line), by ab at its horizon and by mcts at the
// end of its playouts, and the engines ask it.
func TestLeafTesterSearchesTheSameTree(t *testing.T) {
	skipUnderRace(t)
	for _, id := range []string{"pommel", "eximo", "checkers-2011", "punt-match", "punt-heks-match-3p"} {
		depth := 4
		if id == "punt-heks-match-3p" {
			depth = 3
		}
		s := newState(t, id, "")
		rng := rand.New(rand.NewPCG(5, 6))
		var buf []game.Move
		for range 12 {
			buf = s.Moves(buf[:0])
			s.Play(buf[rng.IntN(len(buf))])
		}
		for _, tc := range []struct {
			spec string
			lim  Limits
		}{{"ab", Limits{Depth: depth}}, {"mcts", Limits{Nodes: 300}}} {
			asked := 0
			want := mustEngine(t, tc.spec).Search(context.Background(), judged{s}, tc.lim, nil)
			got := mustEngine(t, tc.spec).Search(context.Background(), tested{judged{s}, &asked}, tc.lim, nil)
			if got.Nodes != want.Nodes || got.Score != want.Score || !slices.Equal(got.PV, want.PV) {
				t.Errorf("%s %s: with the tester %d nodes, score %d, line %v; without %d, %d, %v",
					id, tc.spec, got.Nodes, got.Score, got.PV, want.Nodes, want.Score, want.PV)
			}
			if asked == 0 {
				t.Errorf("%s %s: the search never asked the tester", id, tc.spec)
			}
		}
	}
}

// TestPickOrder: pick hands out the moves in the order of a plain
// selection sort that takes the first of the best scored remaining moves
// and swaps it to the front, ties (scores from a few values) included.
func TestPickOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	e := &ab{}
	for round := range 500 {
		n := 1 + rng.IntN(60)
		values := 1 + rng.IntN(6)
		moves := make([]game.Move, n)
		scores := make([]int64, n)
		for i := range moves {
			moves[i] = game.Step(board.Cell(i), board.Cell(i+1))
			scores[i] = int64(rng.IntN(values))<<16 | int64(i)
		}
		wantMoves, wantScores := slices.Clone(moves), slices.Clone(scores)
		for i := range wantMoves {
			best := i
			for j := i + 1; j < n; j++ {
				if wantScores[j]>>16 > wantScores[best]>>16 {
					best = j
				}
			}
			wantMoves[i], wantMoves[best] = wantMoves[best], wantMoves[i]
			wantScores[i], wantScores[best] = wantScores[best], wantScores[i]
		}
		const ply = 3
		e.scores[ply] = scores
		e.ties[ply] = ties{}
		for i := range moves {
			e.pick(ply, moves, i)
		}
		if !slices.Equal(moves, wantMoves) || !slices.Equal(e.scores[ply], wantScores) {
			t.Fatalf("round %d: picked %v, want %v", round, e.scores[ply], wantScores)
		}
	}
}
