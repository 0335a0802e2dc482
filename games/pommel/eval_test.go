package pommel_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/pommel"
)

func TestEvaluate(t *testing.T) {
	eval := func(id, fen string) [game.MaxPlayers]int {
		g := gametest.NewGame(t, id)
		s := gametest.Position(t, g, fen)
		return s.(game.Evaluator).Evaluate()
	}
	for _, id := range ids {
		if e := eval(id, ""); e[0] != e[1] {
			t.Errorf("%s start is not even: %v", id, e)
		}
	}
	if e := eval("pommel", "W:WKd4:Bd5"); e[0] <= e[1] {
		t.Errorf("a captain is not worth more than a soldier: %v", e)
	}
	// Advancing costs a little (soldiers that stay back keep their lines
	// closed), and each side's advance is measured from its own side.
	if a, b := eval("pommel", "W:Wd5:Bg6"), eval("pommel", "W:Wd2:Bg6"); a[0] >= b[0] || b[0]-a[0] > 50 {
		t.Errorf("advancing three rows: %v vs %v", a, b)
	}
	if a, b := eval("pommel", "W:Wg5:Bd2"), eval("pommel", "W:Wg5:Bd5"); a[1] >= b[1] {
		t.Errorf("Black's advance is not measured from the top: %v vs %v", a, b)
	}
	if a, b := eval("pommel", "W:WKd4:Bd5,e5"), eval("pommel", "W:WKd4:Bd5,e5,f5"); a[0]-a[1] <= 0 || b[0]-b[1] >= 0 {
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
