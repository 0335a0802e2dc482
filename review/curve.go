package review

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// The win-chance curve: a score s of the review's search, from the
// mover's point of view, predicts the mover's share of the point as
//
//	E(s) = 1 / (1 + (players-1)·exp(-(k·s + b)))
//
// For two players b is 0 and this is the tuning's logistic curve of k·s
// (tune/texel.go's softmax(k·e) for two players): 1/2 at 0, and what one
// player gains the other loses. With three, ab scores the mover against
// the best of the others (mine less the best other's), which is 0 or
// below for most movers of an even position, so the curve gets an offset
// b of its own: with b = 0 it would be the softmax of three players of
// whom the two others stand equal, 1/3 at 0, and the fit found that
// worse than no curve at all (k at its least) — a mover level with the
// best of the others is ahead of the third and expects more than a
// third. k (and b with three players) are fitted per game id to the
// results of self-play games whose positions were scored by the
// review's own search at its node budget (Fit, `arbiter review fit`),
// not taken from chess or from the evaluation's tuning: a search score
// is not a static evaluation. A win or loss the search or the tables
// found (a score within decidedBand of ±ai.Mate) is 1 or 0 whatever the
// curve.

// decidedBand is how far from ±ai.Mate a score is a forced result, as
// ai.ScoreText writes it ("win7").
const decidedBand = 1000

// Curve is one game id's win-chance curve, with the fit that made it.
type Curve struct {
	// Game is the id, Players its seats.
	Game    string
	Players int
	// K is the scale, per hundredth of a piece; Offset is b, 0 with two
	// players.
	K      float64
	Offset float64
	// KLow and KHigh bound K's 95% interval (a bootstrap over the fit's
	// games); Error is the fit's mean squared error.
	KLow, KHigh float64
	Error       float64
	// Nodes is the review search the fit scored positions with; Games and
	// Positions what it fitted; Command the command that made it.
	Nodes            int64
	Games, Positions int
	Command          string
}

// Expected is the mover's expected score for a score s from the mover's
// point of view: 1 for a forced win, 0 for a forced loss, else E(s).
func (c Curve) Expected(s int) float64 {
	switch {
	case s > ai.Mate-decidedBand:
		return 1
	case s < -ai.Mate+decidedBand:
		return 0
	}
	return expected(c.K, c.Offset, c.Players, float64(s))
}

// expected is E(s) at scale k and offset b for players players.
func expected(k, b float64, players int, s float64) float64 {
	return 1 / (1 + float64(players-1)*math.Exp(-(k*s+b)))
}

// check refuses a curve that cannot judge g's positions.
func (c Curve) check(g game.Game) error {
	switch {
	case c.Game != g.ID():
		return fmt.Errorf("review: the curve is of %s, not of %s", c.Game, g.ID())
	case c.Players != g.Players():
		return fmt.Errorf("review: the curve of %s is for %d players, the game seats %d", c.Game, c.Players, g.Players())
	case !(c.K > 0) || math.IsInf(c.K, 0):
		return fmt.Errorf("review: the curve of %s has scale %v; want a positive number", c.Game, c.K)
	case math.IsNaN(c.Offset) || math.IsInf(c.Offset, 0) || c.Players == 2 && c.Offset != 0:
		return fmt.Errorf("review: the curve of %s has offset %v; want a number, 0 with two players", c.Game, c.Offset)
	}
	return nil
}

// curvesJSON holds the fitted curves, one for each game id: made by
// `arbiter review fit`, the command each records.
//
//go:embed curves.json
var curvesJSON []byte

// CurveFor returns the fitted curve of a game id, and false for an id
// that has none.
func CurveFor(id string) (Curve, bool) {
	curves, err := Curves()
	if err != nil {
		return Curve{}, false
	}
	for _, c := range curves {
		if c.Game == id {
			return c, true
		}
	}
	return Curve{}, false
}

// Curves returns every fitted curve, as curves.json lists them. Each call
// decodes afresh, so no caller can change another's.
func Curves() ([]Curve, error) {
	var curves []Curve
	if err := json.Unmarshal(curvesJSON, &curves); err != nil {
		return nil, fmt.Errorf("review: curves.json: %w", err)
	}
	return curves, nil
}
