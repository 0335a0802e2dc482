package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/games/checkers2011"
	"github.com/arbiter-games/arbiter/games/eximo"
	"github.com/arbiter-games/arbiter/games/pommel"
	"github.com/arbiter-games/arbiter/games/punt"
)

// weightCase is a game with its evaluation by the default weights and by
// other ones.
type weightCase struct {
	id         string
	def, other game.Evaluation
}

func weightCases() []weightCase {
	pw := pommel.DefaultWeights()
	pw.Captain, pw.Advance = 400, 6
	ew := eximo.DefaultWeights()
	ew.Man, ew.Hanging = 300, 0
	cw := checkers2011.DefaultWeights()
	cw.Commander, cw.Mobility = 0, 10
	tw := punt.DefaultWeights()
	tw.Threat, tw.OnWay[1] = 0, 10
	cases := []weightCase{
		{"pommel", ownEvaluation("pommel"), pommel.Evaluation(pw)},
		{"pommel-76", ownEvaluation("pommel-76"), pommel.Evaluation(pw)},
		{"eximo", ownEvaluation("eximo"), eximo.Evaluation(ew)},
		{"checkers-2011", ownEvaluation("checkers-2011"), checkers2011.Evaluation(cw)},
		{"punt-match", ownEvaluation("punt-match"), punt.Evaluation(tw)},
		{"punt-heks-match-3p", ownEvaluation("punt-heks-match-3p"), punt.Evaluation(tw)},
	}
	if testing.Short() {
		// Pommel's evaluation on the bigger board, the slowest of the
		// cases: the full run searches it.
		cases = slices.DeleteFunc(cases, func(c weightCase) bool { return c.id == "pommel-76" })
	}
	return cases
}

// ownEvaluation is the evaluation by the weights game id plays with.
func ownEvaluation(id string) game.Evaluation {
	g, err := game.New(id, nil)
	if err != nil {
		panic(err)
	}
	tg := g.(game.Tunable)
	ev, err := tg.EvaluationOf(tg.Weights())
	if err != nil {
		panic(err)
	}
	return ev
}

// midgame plays 12 random plies from the start, so that the searches
// below meet varied positions.
func midgame(t *testing.T, id string) game.State {
	s := newState(t, id, "")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 12 {
		moves := s.Moves(nil)
		if len(moves) == 0 || s.Result().Over() {
			break
		}
		s.Play(moves[rng.IntN(len(moves))])
	}
	return s
}

// summary is what a search found, for comparing two searches.
func summary(s game.State, info Info) string {
	var pv []string
	for _, m := range info.PV {
		pv = append(pv, m.Text(s.Game().Board()))
	}
	return fmt.Sprintf("move %s score %d depth %d nodes %d pv %s err %v",
		info.Move.Text(s.Game().Board()), info.Score, info.Depth, info.Nodes, strings.Join(pv, " "), info.Err)
}

func search(t *testing.T, spec string, s game.State, lim Limits, opts ...Option) string {
	t.Helper()
	e, err := New(spec, 1, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return summary(s, e.Search(context.Background(), s, lim, nil))
}

// TestDefaultWeightsSearchTheSame: an engine given the weights the game
// plays with (its weights file)
// searches exactly as one left with the game's own evaluation (same move,
// score, line and node count at a fixed depth or node count), and other
// weights change the search.
func TestDefaultWeightsSearchTheSame(t *testing.T) {
	skipUnderRace(t)
	for _, tc := range weightCases() {
		for _, spec := range []string{"ab", "mcts", "level=4"} {
			t.Run(tc.id+" "+spec, func(t *testing.T) {
				s := midgame(t, tc.id)
				lim := Limits{Depth: 4, Nodes: 3000}
				own := search(t, spec, s, lim)
				if got := search(t, spec, s, lim, WithEvaluation(tc.def)); got != own {
					t.Errorf("default weights: %s\nown evaluation: %s", got, own)
				}
				if got := search(t, spec, s, lim, WithEvaluation(tc.other)); got == own {
					t.Errorf("other weights searched as the default ones: %s", got)
				}
			})
		}
	}
}

// TestTwoWeightSetsAtOnce: two engines with different weights search one
// state at the same time (run with -race) and each finds what it finds
// alone.
func TestTwoWeightSetsAtOnce(t *testing.T) {
	for _, tc := range weightCases() {
		t.Run(tc.id, func(t *testing.T) {
			s := midgame(t, tc.id)
			lim := Limits{Depth: 3}
			evals := []game.Evaluation{tc.def, tc.other}
			var alone []string
			for _, ev := range evals {
				alone = append(alone, search(t, "ab", s, lim, WithEvaluation(ev)))
			}
			together := make([]string, len(evals))
			engines := make([]Engine, len(evals))
			for i, ev := range evals {
				e, err := New("ab", 1, WithEvaluation(ev))
				if err != nil {
					t.Fatal(err)
				}
				engines[i] = e
			}
			var wg sync.WaitGroup
			for i, e := range engines {
				wg.Go(func() { together[i] = summary(s, e.Search(context.Background(), s, lim, nil)) })
			}
			wg.Wait()
			if !slices.Equal(together, alone) {
				t.Errorf("searching at once:\n%s\nalone:\n%s", strings.Join(together, "\n"), strings.Join(alone, "\n"))
			}
		})
	}
}

// TestEvaluationRefused: engines that do not evaluate refuse an
// evaluation, and an evaluation of another game fails the search with an
// error instead of judging positions it does not know.
func TestEvaluationRefused(t *testing.T) {
	ev := WithEvaluation(pommel.Evaluation(pommel.DefaultWeights()))
	for _, spec := range []string{"uct", "random"} {
		if _, err := New(spec, 1, ev); err == nil || !strings.Contains(err.Error(), "does not evaluate") {
			t.Errorf("%s with an evaluation: got %v, want a refusal", spec, err)
		}
	}
	s := newState(t, "eximo", "")
	for _, spec := range []string{"ab", "mcts", "level=3"} {
		e, err := New(spec, 1, ev)
		if err != nil {
			t.Fatal(err)
		}
		info := e.Search(context.Background(), s, Limits{Depth: 2, Nodes: 100}, nil)
		if info.Err == nil || !strings.Contains(info.Err.Error(), "cannot judge positions of eximo") {
			t.Errorf("%s with Pommel's evaluation on Eximo: got %v, want an error", spec, info.Err)
		}
	}
}
