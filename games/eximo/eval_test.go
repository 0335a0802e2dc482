package eximo_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/eximo"
)

func evaluate(t testing.TB, g game.Game, fen string) [game.MaxPlayers]int {
	t.Helper()
	return gametest.Position(t, g, fen).(game.Evaluator).Evaluate()
}

// mirror returns the position seen from the other side: every man moves to
// the same file on the mirrored rank and changes colour, and the other
// side is to move.
func mirror(s game.State) string {
	b := s.Game().Board()
	var lists [2][]string
	for c := range board.Cell(b.Len()) {
		if o := s.Owner(c); o != game.NoPlayer {
			lists[1-o] = append(lists[1-o], b.Name(c^0x38))
		}
	}
	side := "W"
	if s.ToMove() == eximo.White {
		side = "B"
	}
	return side + ":W" + strings.Join(lists[eximo.White], ",") + ":B" + strings.Join(lists[eximo.Black], ",")
}

func TestEvaluate(t *testing.T) {
	g := newGame(t)
	// Even but for the tempo of Black, who moves first.
	tempo := g.(game.Tunable).Weights().(*eximo.Weights).Tempo
	if e := evaluate(t, g, ""); e[eximo.Black]-tempo != e[eximo.White] {
		t.Errorf("the start is not even: %v (tempo %d)", e, tempo)
	}
	if e := evaluate(t, g, "B:Wd7,e7:Bd2"); e[eximo.White] <= e[eximo.Black] {
		t.Errorf("two men are not worth more than one: %v", e)
	}
	// Advancement counts from each side's own first row.
	if a, b := evaluate(t, g, "B:Wh8:Bd5"), evaluate(t, g, "B:Wh8:Bd2"); a[eximo.Black] <= b[eximo.Black] {
		t.Errorf("an advanced black man is not worth more: %v vs %v", a, b)
	}
	if a, b := evaluate(t, g, "B:Wd4:Ba1"), evaluate(t, g, "B:Wd7:Ba1"); a[eximo.White] <= b[eximo.White] {
		t.Errorf("an advanced white man is not worth more: %v vs %v", a, b)
	}
	// A man about to leave is worth a man more with two free cells in the
	// zone (two drops) than with a full zone (the man is simply lost).
	full := "B:Wa8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,d7"
	free := "B:Wa8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,a2,h2,d7"
	if a, b := evaluate(t, g, free), evaluate(t, g, full); a[eximo.Black] <= b[eximo.Black] {
		t.Errorf("a runner with room to drop is not worth more: %v vs %v", a, b)
	}
	// A man the opponent can capture (d5xd3) costs.
	if a, b := evaluate(t, g, "B:Wd5:Bd4"), evaluate(t, g, "B:Wd6:Bd4"); a[eximo.Black] >= b[eximo.Black] {
		t.Errorf("a man that can be captured costs nothing: %v vs %v", a, b)
	}
	// The evaluation is the same from both sides: the mirrored position
	// swaps the scores, over positions of random games.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		s := g.Start()
		for ply := 0; ply < 60 && !s.Result().Over(); ply++ {
			e := s.(game.Evaluator).Evaluate()
			m := evaluate(t, g, mirror(s))
			if m[eximo.Black] != e[eximo.White] || m[eximo.White] != e[eximo.Black] {
				t.Fatalf("%s scores %v, its mirror %s scores %v", s.FEN(), e, mirror(s), m)
			}
			moves := s.Moves(nil)
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
}

func TestEvaluateAllocs(t *testing.T) {
	ev := newGame(t).Start().(game.Evaluator)
	if n := testing.AllocsPerRun(100, func() { ev.Evaluate() }); n != 0 {
		t.Errorf("Evaluate allocates %v times", n)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	g := newGame(b)
	s := gametest.MustParse(b, g, "B:Wf3,h3,b6,c6,f6,g6,b7,c7,e7,g7,b8,e8,f8:Bb1,c1,d1,e1,f1,g2,c3,e3,b4,d4,e5")
	ev := s.(game.Evaluator)
	for b.Loop() {
		ev.Evaluate()
	}
}

// TestEvaluationFeatures scores positions by weights that count one
// feature each, so each count is the evaluation itself.
func TestEvaluationFeatures(t *testing.T) {
	g := gametest.NewGame(t, "eximo")
	tests := []struct {
		name string
		w    eximo.Weights
		fen  string
		want [2]int
	}{
		// Black's men go up the board, White's down: from a5 White steps
		// to a4 and b4, from d4 Black to c5, d5 and e5.
		{"mobility", eximo.Weights{Mobility: 1}, "W:Wa5:Bd4", [2]int{3, 2}},
		{"edge", eximo.Weights{Edge: 1}, "W:Wa5,h8,d8:Bd4", [2]int{0, 2}},
		{"tempo, White to move", eximo.Weights{Tempo: 1}, "W:Wa5:Bd4", [2]int{0, 1}},
		{"tempo, Black to move", eximo.Weights{Tempo: 1}, "B:Wa5:Bd4", [2]int{1, 0}},
	}
	for _, tt := range tests {
		s := gametest.Position(t, g, tt.fen)
		e := eximo.Evaluation(tt.w).Evaluate(s)
		if [2]int{e[0], e[1]} != tt.want {
			t.Errorf("%s: %s scores %v, want %v", tt.name, tt.fen, e[:2], tt.want)
		}
	}
}
