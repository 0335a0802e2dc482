// Package rating rates players: Glicko-2 ratings updated after every rated
// game (two or three players, scored pairwise by placing), and the fixed
// ratings of the AI levels, measured by Bradley-Terry maximum likelihood
// over games between the levels (docs/ratings.md). Pure arithmetic: no I/O
// apart from reading the embedded levels.json.
package rating

import "math"

// Glicko is a Glicko-2 rating on the Glicko scale (the scale of Elo
// ratings: 1500 for a new player, 400 points for odds of 10 to 1).
type Glicko struct {
	Rating, RD, Volatility float64
}

// The system's constants. Tau restrains how fast the volatility moves
// (Glickman suggests 0.3 to 1.2); MinRD keeps a settled player's rating
// moving after a few hundred games; a rating whose RD is above
// ProvisionalRD is shown as provisional.
const (
	StartRating     = 1500
	StartRD         = 350
	StartVolatility = 0.06
	Tau             = 0.75
	MinRD           = 45
	ProvisionalRD   = 110
)

// glickoScale turns Glicko-scale numbers into Glicko-2's (173.7178 =
// 400/ln 10).
const glickoScale = 400 / math.Ln10

// volatilityTolerance is the convergence tolerance of step 5 (Glickman's ε).
const volatilityTolerance = 1e-6

// New is the rating of a player who has not played.
func New() Glicko {
	return Glicko{Rating: StartRating, RD: StartRD, Volatility: StartVolatility}
}

// Provisional reports whether the rating is still too uncertain to show
// as settled.
func (g Glicko) Provisional() bool { return g.RD > ProvisionalRD }

// Outcome is one game of a rating period against one opponent: Score is
// 1 for a win, 0.5 for a draw, 0 for a loss.
type Outcome struct {
	Opponent Glicko
	Score    float64
}

// Period is Glickman's update of one rating period ("Example of the
// Glicko-2 system", steps 1 to 8) with the given tau. Without outcomes only
// the RD grows (step 6). It applies no floor to the RD.
func Period(p Glicko, outcomes []Outcome, tau float64) Glicko {
	mu := (p.Rating - StartRating) / glickoScale
	phi := p.RD / glickoScale
	// Steps 3 and 4: the estimated variance v and the improvement delta.
	var info, gain float64
	for _, o := range outcomes {
		g := impact(o.Opponent.RD / glickoScale)
		e := expected(mu, (o.Opponent.Rating-StartRating)/glickoScale, g)
		info += g * g * e * (1 - e)
		gain += g * (o.Score - e)
	}
	if len(outcomes) == 0 || info <= 0 || math.IsInf(1/info, 0) {
		// Step 6 alone: nothing was learnt (no games, or games whose
		// results were certain beyond float precision).
		grown := math.Sqrt(phi*phi + p.Volatility*p.Volatility)
		return Glicko{Rating: p.Rating, RD: grown * glickoScale, Volatility: p.Volatility}
	}
	v := 1 / info
	delta := v * gain
	sigma := newVolatility(phi, p.Volatility, v, delta, tau)
	preRating := math.Sqrt(phi*phi + sigma*sigma)
	newPhi := 1 / math.Sqrt(1/(preRating*preRating)+1/v)
	newMu := mu + newPhi*newPhi*gain
	return Glicko{Rating: newMu*glickoScale + StartRating, RD: newPhi * glickoScale, Volatility: sigma}
}

// impact is Glickman's g(φ): how much a result against an opponent whose
// deviation is phi says.
func impact(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is Glickman's E: the expected score of mu against opponent.
func expected(mu, opponent, g float64) float64 {
	return 1 / (1 + math.Exp(-g*(mu-opponent)))
}

// newVolatility is step 5: the root of Glickman's f found by the Illinois
// algorithm (regula falsi that halves the stale end's value).
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	lo := a
	var hi float64
	if excess := delta*delta - phi*phi - v; excess > 0 {
		hi = math.Log(excess)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		hi = a - k*tau
	}
	fLo, fHi := f(lo), f(hi)
	for math.Abs(hi-lo) > volatilityTolerance {
		c := lo + (lo-hi)*fLo/(fHi-fLo)
		fC := f(c)
		if fC*fHi <= 0 {
			lo, fLo = hi, fHi
		} else {
			fLo /= 2
		}
		hi, fHi = c, fC
	}
	return math.Exp(lo / 2)
}

// Game rates one finished rated game as one rating period for every
// player: players[i] meets every other player j once, scoring 1 if it
// placed better (places[i] < places[j]), 0.5 on an equal place, 0 if it
// placed worse, against j's rating before the game. Every new RD is
// floored at MinRD. It works for any number of players; places must hold
// one place per player (else Game panics: a caller's mistake).
func Game(players []Glicko, places []int) []Glicko {
	if len(places) != len(players) {
		panic("rating.Game: one place per player")
	}
	rated := make([]Glicko, len(players))
	for i, p := range players {
		var outcomes []Outcome
		for j, q := range players {
			if j != i {
				outcomes = append(outcomes, Outcome{Opponent: q, Score: PairScore(places[i], places[j])})
			}
		}
		r := Period(p, outcomes, Tau)
		r.RD = max(r.RD, MinRD)
		rated[i] = r
	}
	return rated
}

// PairScore is the score of the player placed mine against the player
// placed theirs (a lower place is better): 1, 0.5 or 0.
func PairScore(mine, theirs int) float64 {
	switch {
	case mine < theirs:
		return 1
	case mine == theirs:
		return 0.5
	}
	return 0
}
