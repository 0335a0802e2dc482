package all_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/checkers2011"
	"github.com/arbiter-games/arbiter/games/eximo"
	"github.com/arbiter-games/arbiter/games/pommel"
	"github.com/arbiter-games/arbiter/games/punt"
)

// weighted is a game package's evaluation by weights: the ids it judges,
// its evaluation by the default weights and by other ones.
type weighted struct {
	pkg        string
	ids        []string
	def, other game.Evaluation
}

func weightedGames() []weighted {
	pw := pommel.DefaultWeights()
	pw.Advance = 5
	ew := eximo.DefaultWeights()
	ew.Hanging = 0
	cw := checkers2011.DefaultWeights()
	cw.King = 400
	tw := punt.DefaultWeights()
	tw.Threat = 0
	return []weighted{
		{"pommel", []string{"pommel", "pommel-76"}, pommel.Evaluation(pommel.DefaultWeights()), pommel.Evaluation(pw)},
		{"eximo", []string{"eximo"}, eximo.Evaluation(eximo.DefaultWeights()), eximo.Evaluation(ew)},
		{"checkers2011", []string{"checkers-2011"}, checkers2011.Evaluation(checkers2011.DefaultWeights()), checkers2011.Evaluation(cw)},
		{"punt", []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"}, punt.Evaluation(punt.DefaultWeights()), punt.Evaluation(tw)},
	}
}

// TestEvaluationByWeights checks every game's evaluation by weights on the
// positions of random games: by the weights the game plays with (its
// weights file) it agrees with the state's own Evaluate, by other weights it differs somewhere, and it
// judges the states of its own games only.
func TestEvaluationByWeights(t *testing.T) {
	for _, w := range weightedGames() {
		t.Run(w.pkg, func(t *testing.T) {
			for _, d := range game.All() {
				s := gametest.NewGame(t, d.ID).Start()
				own := slices.Contains(w.ids, d.ID)
				if w.def.Judges(s) != own || w.other.Judges(s) != own {
					t.Fatalf("judges a %s state: %v, want %v", d.ID, w.def.Judges(s), own)
				}
			}
			for _, id := range w.ids {
				checkWeights(t, gametest.NewGame(t, id), w)
			}
		})
	}
}

func checkWeights(t *testing.T, g game.Game, w weighted) {
	rng := rand.New(rand.NewPCG(5, uint64(len(g.ID()))))
	differs := false
	tg := g.(game.Tunable)
	def, err := tg.EvaluationOf(tg.Weights())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		s := g.Start()
		var buf []game.Move
		for {
			own := s.(game.Evaluator).Evaluate()
			if got := def.Evaluate(s); got != own {
				t.Fatalf("%s at %s: the game's weights give %v, Evaluate %v", g.ID(), s.FEN(), got, own)
			}
			differs = differs || w.other.Evaluate(s) != own
			if buf = s.Moves(buf[:0]); len(buf) == 0 || s.Result().Over() {
				break
			}
			s.Play(buf[rng.IntN(len(buf))])
		}
	}
	if !differs {
		t.Errorf("%s: other weights never changed the evaluation", g.ID())
	}
}
