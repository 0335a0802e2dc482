package all

import (
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// weightDirs is where each package keeps its weights files.
var weightDirs = map[string]string{
	"pommel": "../pommel", "pommel-76": "../pommel", "eximo": "../eximo", "checkers-2011": "../checkers2011",
	"punt-match": "../punt", "punt-heks-match": "../punt", "punt-heks-match-3p": "../punt",
}

// TestEveryGameHasItsWeights: every game can be tuned, each id plays with
// the weights of its own file (a game that read another id's file, or
// none, would show here), and the game's evaluation is the one its
// weights make.
func TestEveryGameHasItsWeights(t *testing.T) {
	t.Parallel()
	for _, d := range game.All() {
		g, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		tg, ok := g.(game.Tunable)
		if !ok {
			t.Errorf("%s: not tunable", d.ID)
			continue
		}
		w := tg.Weights()
		data, err := os.ReadFile(weightDirs[d.ID] + "/weights/" + d.ID + ".json")
		if err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		file := reflect.New(reflect.TypeOf(w).Elem()).Interface()
		if err := game.ParseWeights(data, d.ID, file); err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		if !slices.Equal(game.WeightValues(w), game.WeightValues(file)) {
			t.Errorf("%s plays with %v, its file holds %v", d.ID, game.WeightValues(w), game.WeightValues(file))
		}
		ev, err := tg.EvaluationOf(w)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for s := g.Start(); !s.Result().Over() && s.Ply() < 60; s.Play(randomMove(s, rng)) {
			if own := s.(game.Evaluator).Evaluate(); own != ev.Evaluate(s) {
				t.Fatalf("%s %s: the game's own evaluation %v, by its weights %v", d.ID, s.FEN(), own, ev.Evaluate(s))
			}
		}
		if _, err := tg.EvaluationOf(42); err == nil {
			t.Errorf("%s: weights of another type accepted", d.ID)
		}
	}
}

func randomMove(s game.State, rng *rand.Rand) game.Move {
	moves := s.Moves(nil)
	return moves[rng.IntN(len(moves))]
}

// TestTempo: with every weight 0 but Tempo's 1, each game scores 1 for
// the player to move and 0 for the others, along random games.
func TestTempo(t *testing.T) {
	t.Parallel()
	for _, d := range game.All() {
		g, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		tg := g.(game.Tunable)
		ev, err := tg.EvaluationOf(onlyWeight(t, tg, "Tempo"))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for s := g.Start(); !s.Result().Over() && s.Ply() < 40; s.Play(randomMove(s, rng)) {
			var want [game.MaxPlayers]int
			want[s.ToMove()] = 1
			if got := ev.Evaluate(s); got != want {
				t.Fatalf("%s %s: %v, want %v", d.ID, s.FEN(), got, want)
			}
		}
	}
}

// onlyWeight returns g's weights with name at 1 and every other at 0.
func onlyWeight(t *testing.T, g game.Tunable, name string) any {
	t.Helper()
	w := g.Weights()
	names := game.WeightNames(w)
	i := slices.Index(names, name)
	if i < 0 {
		t.Fatalf("%v has no %s", names, name)
	}
	vals := make([]int, len(names))
	vals[i] = 1
	if err := game.SetWeightValues(w, vals); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestPuntPiles: Pile counts the cells each player controls, which
// Owner tells.
func TestPuntPiles(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"} {
		g, err := game.New(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		tg := g.(game.Tunable)
		ev, err := tg.EvaluationOf(onlyWeight(t, tg, "Pile"))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		for s := g.Start(); !s.Result().Over() && s.Ply() < 60; s.Play(randomMove(s, rng)) {
			var want [game.MaxPlayers]int
			for c := range g.Board().Len() {
				if o := s.Owner(board.Cell(c)); o != game.NoPlayer {
					want[o]++
				}
			}
			if got := ev.Evaluate(s); got != want {
				t.Fatalf("%s %s: %v, want %v", id, s.FEN(), got, want)
			}
		}
	}
}
