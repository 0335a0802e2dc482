package match

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestOpeningsIgnoreMoveOrder: the random opening plies are drawn from
// the moves in canonical order, so that the same seed draws the same
// moves however the game lists them (a build whose move generation
// orders them otherwise plays the same openings).
func TestOpeningsIgnoreMoveOrder(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	shuffle := rand.New(rand.NewPCG(1, 2))
	for ply := range 12 {
		moves := s.Moves(nil)
		want, wantText := drawMove(rand.New(rand.NewPCG(7, uint64(ply))), moves, g.Board())
		for range 5 {
			permuted := slices.Clone(moves)
			shuffle.Shuffle(len(permuted), func(i, j int) { permuted[i], permuted[j] = permuted[j], permuted[i] })
			got, text := drawMove(rand.New(rand.NewPCG(7, uint64(ply))), permuted, g.Board())
			if got != want || text != wantText {
				t.Fatalf("ply %d: the same seed drew %s from a shuffled list, %s from the game's", ply+1, text, wantText)
			}
		}
		if _, texts := CanonicalMoves(moves, g.Board()); !slices.IsSorted(texts) || len(texts) != len(moves) {
			t.Fatalf("ply %d: canonical order %v is not sorted by text", ply+1, texts)
		}
		s.Play(want)
	}
}
