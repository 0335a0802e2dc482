package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// restrictedPositions plays random Punt-Match games and keeps the
// positions in which the player to move has both a takeover and another
// move.
func restrictedPositions(t *testing.T, want int) []game.State {
	t.Helper()
	g, err := game.New("punt-match", nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var found []game.State
	for len(found) < want {
		s := g.Start()
		for !s.Result().Over() {
			moves := s.Moves(nil)
			takeovers := 0
			for i := range moves {
				if avoidTakeover.declines(s, &moves[i]) {
					takeovers++
				}
			}
			if takeovers > 0 && takeovers < len(moves) && rng.IntN(4) == 0 {
				found = append(found, s.Clone())
				break
			}
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
	return found
}

func TestAvoidTakeoverDeclinesTakeovers(t *testing.T) {
	plainTook := 0
	for _, s := range restrictedPositions(t, 12) {
		info := mustEngine(t, "ab:avoid=takeover").Search(context.Background(), s, Limits{Depth: 2}, nil)
		if info.Err != nil || avoidTakeover.declines(s, &info.Move) {
			t.Fatalf("%s: ab:avoid=takeover chose %v (error %v)", s.FEN(), info.Move, info.Err)
		}
		if !slices.Contains(s.Moves(nil), info.Move) {
			t.Fatalf("%s: ab:avoid=takeover chose an illegal move", s.FEN())
		}
		plain := mustEngine(t, "ab").Search(context.Background(), s, Limits{Depth: 2}, nil)
		if avoidTakeover.declines(s, &plain.Move) {
			plainTook++
		}
	}
	if plainTook == 0 {
		t.Error("plain ab took over in none of the positions: the test shows no handicap")
	}
}

func TestAvoidCaptureDeclinesCaptures(t *testing.T) {
	g, err := game.New("checkers-2011", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Captures are compulsory in Checkers 2011: every move is declined,
	// so the choice is not restricted and the engine plays as usual.
	rng := rand.New(rand.NewPCG(3, 3))
	s := g.Start()
	for n := 0; n < 200 && !s.Result().Over(); n++ {
		moves := s.Moves(nil)
		if moves[0].IsCapture() {
			info := mustEngine(t, "ab:avoid=capture").Search(context.Background(), s, Limits{Depth: 2}, nil)
			if info.Err != nil || !slices.Contains(s.Moves(nil), info.Move) {
				t.Fatalf("%s: a forced capture gave %v, %v", s.FEN(), info.Move, info.Err)
			}
			return
		}
		s.Play(moves[rng.IntN(len(moves))])
	}
	t.Fatal("no capture found in 200 random plies")
}

func TestAvoidRefusesUnknownKinds(t *testing.T) {
	for _, spec := range []string{"ab:avoid=pies", "ab:avoid=", "ab:avoid=CAPTURE"} {
		if _, err := New(spec, 1); err == nil {
			t.Errorf("%s was accepted", spec)
		}
	}
}
