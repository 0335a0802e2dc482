package pommel_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/pommel"
)

func TestEvaluate(t *testing.T) {
	// The weights the games play with: the start is even but for the
	// mover's tempo, and a captain is worth more than a soldier.
	for _, id := range ids {
		g := gametest.NewGame(t, id)
		w := g.(game.Tunable).Weights().(*pommel.Weights)
		e := g.Start().(game.Evaluator).Evaluate()
		if e[0]-w.Tempo != e[1] {
			t.Errorf("%s start is not even: %v (tempo %d)", id, e, w.Tempo)
		}
		if e := gametest.Position(t, g, "W:WKd4:Bd5").(game.Evaluator).Evaluate(); e[0]-w.Tempo <= e[1] {
			t.Errorf("%s: a captain is not worth more than a soldier: %v", id, e)
		}
	}
	// The hand-chosen weights the tuning started from (DefaultWeights).
	g := gametest.NewGame(t, "pommel")
	eval := func(fen string) [game.MaxPlayers]int {
		return pommel.Evaluation(pommel.DefaultWeights()).Evaluate(gametest.Position(t, g, fen))
	}
	// Advancing costs a little (soldiers that stay back keep their lines
	// closed), and each side's advance is measured from its own side.
	if a, b := eval("W:Wd5:Bg6"), eval("W:Wd2:Bg6"); a[0] >= b[0] || b[0]-a[0] > 50 {
		t.Errorf("advancing three rows: %v vs %v", a, b)
	}
	if a, b := eval("W:Wg5:Bd2"), eval("W:Wg5:Bd5"); a[1] >= b[1] {
		t.Errorf("Black's advance is not measured from the top: %v vs %v", a, b)
	}
	if a, b := eval("W:WKd4:Bd5,e5"), eval("W:WKd4:Bd5,e5,f5"); a[0]-a[1] <= 0 || b[0]-b[1] >= 0 {
		t.Errorf("a captain is worth more than two soldiers and less than three: %v %v", a, b)
	}
}

// TestEvaluationFeatures scores positions by weights that count one
// feature each, so each count is the evaluation itself.
func TestEvaluationFeatures(t *testing.T) {
	g := gametest.NewGame(t, "pommel")
	tests := []struct {
		name string
		w    pommel.Weights
		fen  string
		want [2]int
	}{
		{"pieces", pommel.Weights{Soldier: 1, Captain: 10}, "W:WKa1,c1,d4:Bd5", [2]int{12, 1}},
		// Half-rows from each side's own first row: d4 is 6 above d1; d5 is
		// 4 below d7, the top of column d.
		{"advance", pommel.Weights{Advance: 1}, "W:Wd4:Bd5", [2]int{6, 4}},
		// a1 and c1 are White's first row (Black promotes there); the
		// captain on e1 does not count.
		{"home", pommel.Weights{Home: 1}, "W:Wa1,c1,d4,Ke1:Bd7,d5", [2]int{2, 1}},
		// a3 and g4 are on the sides, d4 and d5 inside.
		{"edge", pommel.Weights{Edge: 1}, "W:Wa3,Kg4,d4:Bd5", [2]int{2, 0}},
		{"tempo, White to move", pommel.Weights{Tempo: 1}, "W:Wa3:Bd5", [2]int{1, 0}},
		{"tempo, Black to move", pommel.Weights{Tempo: 1}, "B:Wa3:Bd5", [2]int{0, 1}},
		// Black could take d4 from d5, landing on d3.
		{"threatened", pommel.Weights{Threatened: 1}, "W:Wd4:Bd5", [2]int{-1, 0}},
		{"not threatened", pommel.Weights{Threatened: 1}, "W:Wa1:Bg6", [2]int{0, 0}},
		{"threatened, Black to move", pommel.Weights{Threatened: 1}, "B:Wd4:Bd5", [2]int{0, -1}},
	}
	for _, tt := range tests {
		s := gametest.Position(t, g, tt.fen)
		e := pommel.Evaluation(tt.w).Evaluate(s)
		if [2]int{e[0], e[1]} != tt.want {
			t.Errorf("%s: %s scores %v, want %v", tt.name, tt.fen, e[:2], tt.want)
		}
	}
}

// TestThreatenedIsTheOtherSidesCapture: the Threatened feature counts
// exactly when the player not to move, put to move, would have a capture,
// at every position of random games on both boards (the 45-cell board
// asks the generator on one word, the 76-cell board the one on two).
func TestThreatenedIsTheOtherSidesCapture(t *testing.T) {
	threatened := pommel.Evaluation(pommel.Weights{Threatened: 1})
	turn := map[byte]string{'W': "B", 'B': "W"}
	for _, id := range ids {
		g := gametest.NewGame(t, id)
		rng := rand.New(rand.NewPCG(1, 24))
		var counted [2]int // positions without and with the threat
		for range 20 {
			s := g.Start()
			for s.Ply() < 300 && !s.Result().Over() {
				fen := s.FEN()
				other := gametest.MustParse(t, g, turn[fen[0]]+fen[1:]).(*pommel.State)
				want := other.HasCapture()
				got := threatened.Evaluate(s)[s.ToMove()] == -1
				if got != want {
					t.Fatalf("%s %s: threatened %v, the other side to move has a capture %v", id, fen, got, want)
				}
				counted[b2i(want)]++
				moves := s.Moves(nil)
				s.Play(moves[rng.IntN(len(moves))])
			}
		}
		if counted[0] == 0 || counted[1] == 0 {
			t.Errorf("%s: positions without and with a threat: %v; want both", id, counted)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
