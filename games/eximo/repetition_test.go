package eximo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// history is the test's own record of the positions of a game, as FENs
// (which name the side to move), to count repetitions the plain way.
type history []string

func (h history) repeats() int {
	n := 0
	for _, fen := range h {
		if fen == h[len(h)-1] {
			n++
		}
	}
	return n
}

// checkRepetition compares the state's Result with the plain count: the
// third occurrence of the position draws (the positions checked here all
// have men and moves on both sides).
func checkRepetition(t *testing.T, s game.State, h history, step int) {
	t.Helper()
	if got, want := s.Result().Reason == game.Repetition, h.repeats() >= 3; got != want {
		t.Fatalf("step %d, %s: Result %v, but the position occurred %d times", step, s.FEN(), s.Result(), h.repeats())
	}
}

// TestRepetitionWithUndo walks the drop cycle back and forth (each step plays
// the cycle's next move or takes the last one back, always after a draw),
// so that positions occur again and again, some after moves were taken
// back, and compares Result with a plain count of the FENs at every step;
// half way the walk goes on with a copy, which must count the same.
func TestRepetitionWithUndo(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), dropCycleFEN)
	h := history{s.FEN()}
	rng := rand.New(rand.NewPCG(3, 3))
	draws := 0
	for step := range 400 {
		if step == 200 && len(h) > 1 {
			// The walk goes on with a copy, whose Undo leaves the
			// original as it was.
			c := s.Clone()
			c.Undo()
			if s.FEN() != h[len(h)-1] {
				t.Fatalf("Undo on the copy changed the original to %s", s.FEN())
			}
			s, h = c, h[:len(h)-1]
			checkRepetition(t, s, h, step)
		}
		// A drawn position can only be taken back.
		if len(h) > 1 && (rng.IntN(3) == 0 || s.Result().Over()) {
			s.Undo()
			h = h[:len(h)-1]
		} else {
			if err := game.PlayMoves(s, dropCycle[(len(h)-1)%len(dropCycle):][:1]); err != nil {
				t.Fatal(err)
			}
			h = append(h, s.FEN())
		}
		checkRepetition(t, s, h, step)
		if s.Result().Reason == game.Repetition {
			draws++
		}
	}
	if draws == 0 {
		t.Error("the walk never reached a third occurrence: the test is too weak")
	}
}

// TestRepetitionOnRandomGames: in random games with moves taken back
// now and then, Result never sees a repetition the plain count does not.
func TestRepetitionOnRandomGames(t *testing.T) {
	g := newGame(t)
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20 {
		s := g.Start()
		h := history{s.FEN()}
		for step := 0; step < 300 && !s.Result().Over(); step++ {
			if len(h) > 1 && rng.IntN(4) == 0 {
				s.Undo()
				h = h[:len(h)-1]
			} else {
				moves := s.Moves(nil)
				s.Play(moves[rng.IntN(len(moves))])
				h = append(h, s.FEN())
			}
			checkRepetition(t, s, h, step)
		}
	}
}

// TestRepetitionAcrossClone: a copy knows the positions played before it
// was made. The drop cycle played once, then again on a copy, reaches the
// third occurrence of the start.
func TestRepetitionAcrossClone(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), dropCycleFEN)
	if err := game.PlayMoves(s, dropCycle); err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if err := game.PlayMoves(c, dropCycle); err != nil {
		t.Fatal(err)
	}
	if r := c.Result(); r.Reason != game.Repetition {
		t.Errorf("the copy after the second cycle: %v, want a draw by repetition", r)
	}
	if r := s.Result(); r.Over() {
		t.Errorf("the original after one cycle: %v, want the game to go on", r)
	}
}
