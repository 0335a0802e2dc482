package pommel

import (
	"embed"

	"github.com/arbiter-games/arbiter/game"
)

// weightFiles holds the evaluation's weights for each game id of the
// package, as arbiter tune wrote them (docs/tuning.md says how each was
// made and what it gained); an id without a file evaluates with
// DefaultWeights.
//
//go:embed weights/*.json
var weightFiles embed.FS

// weightsFor returns the weights the game id evaluates with.
func weightsFor(id string) Weights { return game.LoadWeights(weightFiles, id, DefaultWeights()) }

// Weights returns a copy of the weights the game evaluates with, for a
// tuner (game.Tunable).
func (g *Game) Weights() any {
	w := g.t.weights
	return &w
}

// EvaluationOf returns the game's evaluation by w, a *Weights
// (game.Tunable).
func (g *Game) EvaluationOf(w any) (game.Evaluation, error) {
	return game.EvaluationFrom(w, Evaluation)
}
