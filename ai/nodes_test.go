package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestTinyNodeLimitsGiveALegalMove: a node limit so small that the first
// iteration cannot finish must still give a legal move, not none (an
// Eximo search of 50 nodes once returned the zero move).
func TestTinyNodeLimitsGiveALegalMove(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	for _, id := range []string{"pommel", "eximo", "checkers-2011", "punt-match", "punt-heks-match-3p"} {
		rng := rand.New(rand.NewPCG(5, 6))
		for game := range 4 {
			s := newState(t, id, "")
			for range 20 * game {
				moves := s.Moves(nil)
				if len(moves) == 0 || s.Result().Over() {
					break
				}
				s.Play(moves[rng.IntN(len(moves))])
			}
			if s.Result().Over() {
				continue
			}
			for _, nodes := range []int64{1, 2, 5, 50} {
				checkLegal(t, id, s, nodes)
			}
		}
	}
}

func checkLegal(t *testing.T, id string, s game.State, nodes int64) {
	t.Helper()
	e, err := New("ab", 1)
	if err != nil {
		t.Fatal(err)
	}
	info := e.Search(context.Background(), s, Limits{Nodes: nodes}, nil)
	if info.Err != nil || !slices.Contains(s.Moves(nil), info.Move) {
		t.Errorf("%s %s at %d nodes: move %v, error %v", id, s.FEN(), nodes, info.Move, info.Err)
	}
}
