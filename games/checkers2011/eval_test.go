package checkers2011_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/checkers2011"
)

func evaluate(t testing.TB, g game.Game, fen string) [game.MaxPlayers]int {
	t.Helper()
	return gametest.Position(t, g, fen).(game.Evaluator).Evaluate()
}

// evaluateBy scores fen by the weights w instead of the game's own.
func evaluateBy(t testing.TB, g game.Game, w checkers2011.Weights, fen string) [game.MaxPlayers]int {
	t.Helper()
	return checkers2011.Evaluation(w).Evaluate(gametest.Position(t, g, fen))
}

// mirror returns the position seen from the other side: every stack moves
// to the same file on the mirrored rank with every piece's colour changed,
// and the other side is to move.
func mirror(s game.State) string {
	b := s.Game().Board()
	st := s.(game.Stacker)
	var stacks [board.MaxCells]string
	var buf []game.Piece
	for c := range board.Cell(b.Len()) {
		buf = st.Stack(c, buf[:0])
		var sb strings.Builder
		for _, p := range buf {
			sb.WriteByte("wbWB"[int(1-p.Owner)+2*int(p.Rank)])
		}
		stacks[c^0x38] = sb.String()
	}
	var items []string
	for c := range board.Cell(b.Len()) {
		if stacks[c] != "" {
			items = append(items, b.Name(c)+"="+stacks[c])
		}
	}
	side := "B:"
	if s.ToMove() == checkers2011.Black {
		side = "W:"
	}
	return side + strings.Join(items, ",")
}

func TestEvaluate(t *testing.T) {
	const w, bl = checkers2011.White, checkers2011.Black
	g := newGame(t)
	weights := *g.(*checkers2011.Game).Weights().(*checkers2011.Weights)
	// The start is even but for the tempo of White, to move.
	if e := evaluate(t, g, ""); e[w]-weights.Tempo != e[bl] {
		t.Errorf("the start is not even: %v (tempo %d)", e, weights.Tempo)
	}
	if e := evaluate(t, g, "W:d4=W,e6=b"); e[w] <= e[bl] {
		t.Errorf("a king is not worth more than a soldier: %v", e)
	}
	// A stack counts for its commander: a black soldier held under a
	// white one is worth less to Black than a free one.
	held, free := evaluate(t, g, "W:d4=bw,h8=b"), evaluate(t, g, "W:d4=w,h8=b,a7=b")
	if held[w]-held[bl] <= free[w]-free[bl] {
		t.Errorf("a prisoner does not count: %v vs %v", held, free)
	}
	// Own pieces under an enemy commander are not worth what free ones are.
	if a, b := evaluate(t, g, "W:d4=wb,h1=w"), evaluate(t, g, "W:d4=b,c3=w,h1=w"); a[w] >= b[w] {
		t.Errorf("a white prisoner counts as much as a free soldier: %v vs %v", a, b)
	}
	// Stacks count: the same pieces in two stacks are worth more than in
	// one, since a side loses when it commands none.
	if a, b := evaluate(t, g, "W:d2=w,e2=w,h8=b"), evaluate(t, g, "W:d2=ww,h8=b"); a[w] <= b[w] {
		t.Errorf("two stacks are not worth more than one: %v vs %v", a, b)
	}
	// Far ahead, a king closing in on the enemy's last stack is better.
	// The king's steps differ between the two cells, so mobility is left
	// out: this is the hunt's own weight at work.
	hunt := weights
	hunt.Mobility = 0
	near, far := evaluateBy(t, g, hunt, "W:a1=w,b1=w,c1=w,e6=W,g7=b"), evaluateBy(t, g, hunt, "W:a1=w,b1=w,c1=w,a2=W,g7=b")
	if near[w] <= far[w] || near[bl] != far[bl] {
		t.Errorf("a king closing in is not worth more: %v vs %v", near, far)
	}
	// Advancement counts from each side's own first rank.
	if a, b := evaluate(t, g, "W:d6=w,h8=b"), evaluate(t, g, "W:d2=w,h8=b"); a[w] <= b[w] {
		t.Errorf("an advanced white soldier is not worth more: %v vs %v", a, b)
	}
	if a, b := evaluate(t, g, "W:a1=w,d3=b"), evaluate(t, g, "W:a1=w,d7=b"); a[bl] <= b[bl] {
		t.Errorf("an advanced black soldier is not worth more: %v vs %v", a, b)
	}
	// The evaluation is the same from both sides: the mirrored position
	// swaps the scores, over positions of random games.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		s := g.Start()
		for ply := 0; ply < 100 && !s.Result().Over(); ply++ {
			e := s.(game.Evaluator).Evaluate()
			m := evaluate(t, g, mirror(s))
			if m[bl] != e[w] || m[w] != e[bl] {
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
	ev := g.Start().(game.Evaluator)
	for b.Loop() {
		ev.Evaluate()
	}
}
