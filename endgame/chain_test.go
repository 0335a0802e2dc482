package endgame

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestChainThroughLastRow builds the tables a soldier's capture chain
// needs when it passes its last row without stopping there: the soldier
// stays a soldier (RULINGS section 1), so the position after the chain is
// in MvK, not KvK, and the tables must score the chain by that.
func TestChainThroughLastRow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 2.2 million positions: the full run only")
	}
	g := mustGame(t, "pommel", nil)
	b, err := newBuilder(Config{Game: g, Pieces: 4, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	kkk, _ := ParseMaterial("KvKKK")
	mkkk, _ := ParseMaterial("MvKKK")
	for _, m := range b.materials {
		if m.Total() < 4 || m == kkk || m == mkkk {
			vals := make([]uint16, b.layouts[m].size())
			if err := b.solveMaterial(t.Context(), b.layouts[m], vals); err != nil {
				t.Fatal(err)
			}
			b.solved[m] = vals
		}
	}
	value := func(fen string) Value {
		s, err := g.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		pieces := s.(game.Placer).Placement(nil)
		m := materialOf(pieces)
		return decode(b.solved[m][b.layouts[m].index(pieces, s.ToMove())])
	}
	// White's a4 must take: a4xa6xc5 passes a6, White's last cell of
	// column a, and ends on c5 a soldier. Its only capture, so the
	// position is worth one ply more than the one after it.
	s, err := g.ParseFEN("W:Wa4:BKa2,Ka5,Kb6")
	if err != nil {
		t.Fatal(err)
	}
	moves := s.Moves(nil)
	if len(moves) != 1 || moves[0].Text(g.Board()) != "a4xa6xc5" {
		t.Fatalf("moves %v, want the one chain a4xa6xc5", moves)
	}
	after, promoted := value("B:Wc5:BKa2"), value("B:WKc5:BKa2")
	if after == promoted {
		t.Fatalf("the test cannot tell: soldier or captain on c5, Black's value is %v", after)
	}
	want := Value{Kind: Win, Plies: after.Plies + 1}
	if after.Kind == Win {
		want = Value{Kind: Loss, Plies: after.Plies + 1}
	}
	if got := value("W:Wa4:BKa2,Ka5,Kb6"); got != want {
		t.Errorf("W:Wa4:BKa2,Ka5,Kb6 is %v, want %v (after the chain, with a soldier on c5: %v; with a captain: %v)", got, want, after, promoted)
	}
}
