package punt

import (
	"embed"
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// weightFiles holds the evaluation's weights for each game id of the
// package, as arbiter tune wrote them (docs/strength.md says how each was
// made and what it gained); an id without a file evaluates with
// DefaultWeights.
//
//go:embed weights/*.json
var weightFiles embed.FS

// weightsFor returns the weights the game id evaluates with. The files
// are part of the build, and a test reads every one, so a file that does
// not parse is a programming error.
func weightsFor(id string) Weights {
	data, err := weightFiles.ReadFile("weights/" + id + ".json")
	if err != nil {
		return DefaultWeights()
	}
	var w Weights
	if err := game.ParseWeights(data, id, &w); err != nil {
		panic(fmt.Sprintf("punt: weights/%s.json: %v", id, err))
	}
	return w
}

// Weights returns a copy of the weights the game evaluates with, for a
// tuner (game.Tunable).
func (g *Game) Weights() any {
	w := g.t.weights
	return &w
}

// EvaluationOf returns the game's evaluation by w, a *Weights
// (game.Tunable).
func (g *Game) EvaluationOf(w any) (game.Evaluation, error) {
	weights, ok := w.(*Weights)
	if !ok {
		return nil, fmt.Errorf("punt: weights of type %T, not *punt.Weights", w)
	}
	return Evaluation(*weights), nil
}
