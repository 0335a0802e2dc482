package lab

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// Measures are Ludii's metrics and Browne's criteria over a run's
// distinct games, as summary.json's "measures" holds them;
// docs/lab/README.md defines each one and gives its source.
type Measures struct {
	// OutcomeUniformity is 1 less the mean over the seats of the variance
	// of the seat's outcome (1 a win, -1 a loss, ranks between: see
	// utilities): 1 when every game ends alike for every seat.
	OutcomeUniformity float64 `json:"outcomeUniformity"`
	// Imbalance is the seats' scores' distance from a fair share, 0 for
	// a fair game, 1 when one seat wins every game (see imbalance), with
	// its 95% bootstrap interval.
	Imbalance Interval `json:"imbalance"`
	// DecisionFactor is the legal moves per real decision.
	DecisionFactor float64 `json:"decisionFactor"`
	// Evaluated reports that the game has a static evaluation: Narrowness,
	// ClarityVariance, Uncertainty, Stability and StaticEval are there
	// only then.
	Evaluated       bool    `json:"evaluated"`
	Narrowness      float64 `json:"clarityNarrowness,omitempty"`
	ClarityVariance float64 `json:"clarityVariance,omitempty"`
	Uncertainty     float64 `json:"uncertainty,omitempty"`
	Stability       float64 `json:"stability,omitempty"`
	// CoverageUsed and CoverageOccupied are the shares of the board used
	// and ever occupied, the mean over the games; Travel the cells a move
	// crosses.
	CoverageUsed     float64 `json:"coverageUsed"`
	CoverageOccupied float64 `json:"coverageOccupied"`
	Travel           float64 `json:"moveDistance"`
	// StateRepetition and PositionalRepetition are the shares of
	// positions that repeat an earlier one of their game.
	StateRepetition      float64 `json:"stateRepetition"`
	PositionalRepetition float64 `json:"positionalRepetition"`
	// GameTree is log10 of the game-tree complexity, b^d for the mean
	// branching b and the mean length d; StateSpace log10 of an upper
	// bound on the positions (see stateSpaceBound).
	GameTree   float64 `json:"gameTreeLog10"`
	StateSpace float64 `json:"stateSpaceLog10"`
	// Pieces, ScoreLead and StaticEval are curves over the game: every
	// player's pieces on the board, the score lead (games that score)
	// and the static evaluation's lead (see PlyStats).
	Pieces     Curve  `json:"pieces"`
	ScoreLead  *Curve `json:"scoreLead,omitempty"`
	StaticEval *Curve `json:"staticEval,omitempty"`
}

// Interval is a value with its 95% interval.
type Interval struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// measure fills the summary's measures from its distinct games and their
// plies.
func (s *Summary) measure(g game.Game, games []GameStats, plies []PlyStats) {
	n := g.Players()
	m := &s.Measures
	m.OutcomeUniformity = outcomeUniformity(games, n)
	m.Imbalance = imbalance(games, n)
	var decision, narrow, spread, uncertain, stable, used, occupied, travel, state, board []float64
	evaluated := len(games) > 0
	for _, gs := range games {
		gm := gs.Measures
		evaluated = evaluated && gm.Evaluated
		decision = append(decision, gm.DecisionFactor)
		narrow, spread = append(narrow, gm.Narrowness), append(spread, gm.ClarityVariance)
		uncertain, stable = append(uncertain, gm.Uncertainty), append(stable, gm.Stability)
		used, occupied = append(used, gm.CoverageUsed), append(occupied, gm.CoverageOccupied)
		travel = append(travel, gm.Travel)
		state, board = append(state, gm.StateRepetition), append(board, gm.PositionalRepetition)
	}
	m.DecisionFactor, m.Evaluated = mean(decision), evaluated
	if evaluated {
		m.Narrowness, m.ClarityVariance = mean(narrow), mean(spread)
		m.Uncertainty, m.Stability = mean(uncertain), mean(stable)
	}
	m.CoverageUsed, m.CoverageOccupied, m.Travel = mean(used), mean(occupied), mean(travel)
	m.StateRepetition, m.PositionalRepetition = mean(state), mean(board)
	if s.Branching.Mean > 0 {
		m.GameTree = s.Plies.Mean * math.Log10(s.Branching.Mean)
	}
	most := startPieces(g)
	for _, ps := range plies {
		most = max(most, ps.Pieces)
	}
	m.StateSpace = stateSpaceBound(g, most)
	m.curves(g, plies, s.Plies.Max, evaluated)
}

// curves fills the curves over the game.
func (m *Measures) curves(g game.Game, plies []PlyStats, longest int, evaluated bool) {
	always := func(v func(PlyStats) int) func(PlyStats) (float64, bool) {
		return func(ps PlyStats) (float64, bool) { return float64(v(ps)), true }
	}
	w := bucketWidth(longest)
	m.Pieces = plyCurve(plies, w, always(func(ps PlyStats) int { return ps.Pieces }))
	if scores(g) {
		c := plyCurve(plies, w, always(func(ps PlyStats) int { return ps.ScoreLead }))
		m.ScoreLead = &c
	}
	if evaluated {
		c := plyCurve(plies, w, always(func(ps PlyStats) int { return ps.Static }))
		m.StaticEval = &c
	}
}

// plyCurve is a quantity's curve over the plies, in buckets of w plies;
// value reads it from a ply, ok false when the ply has none.
func plyCurve(plies []PlyStats, w int, value func(PlyStats) (float64, bool)) Curve {
	var all []float64
	byBucket := map[int][]float64{}
	for _, ps := range plies {
		v, ok := value(ps)
		if !ok {
			continue
		}
		b := (ps.Ply - 1) / w
		byBucket[b] = append(byBucket[b], v)
		all = append(all, v)
	}
	return curve(byBucket, all, w)
}

// scores reports whether the game keeps scores (Punt).
func scores(g game.Game) bool {
	_, ok := g.Start().(game.Scorer)
	return ok
}

// utilities are each seat's outcome of a game as Ludii ranks it, from
// the seats' places (GameStats.places): the k seats sharing place p share
// ranks p to p+k-1, and rank r is worth 1 - 2(r-1)/(n-1): 1 for a win, -1
// for a loss in a game of two, 0 for a draw (every seat shares every
// rank).
func utilities(places []int) []float64 {
	n := len(places)
	u := make([]float64, n)
	for p, place := range places {
		shared := 0
		for _, other := range places {
			if other == place {
				shared++
			}
		}
		r := float64(place) + float64(shared-1)/2
		u[p] = 1
		if n > 1 {
			u[p] = 1 - 2*(r-1)/float64(n-1)
		}
	}
	return u
}

// places are the seats' places in the game of n seats (1 is first), as
// the game package places a result: the winners first, the others by
// their scores.
func (gs GameStats) places(n int) []int {
	var r game.Result
	for _, p := range gs.Winners {
		if p >= 0 && p < game.MaxPlayers {
			r.Winners = r.Winners.Add(game.Player(p))
		}
	}
	copy(r.Scores[:], gs.Scores)
	return r.Places(n)
}

// outcomeUniformity is Ludii's OutcomeUniformity: 1 less the mean over the
// seats of the variance of the seat's utility over the games.
func outcomeUniformity(games []GameStats, n int) float64 {
	if len(games) == 0 {
		return 0
	}
	perSeat := make([][]float64, n)
	for _, gs := range games {
		for p, u := range utilities(gs.places(n)) {
			perSeat[p] = append(perSeat[p], u)
		}
	}
	var v []float64
	for _, u := range perSeat {
		v = append(v, variance(u))
	}
	return 1 - mean(v)
}

// bootstrapRounds fixes imbalance's resampling (with bootstrapSeed, the
// comparisons' seed), so that the same games always give the same
// interval.
const bootstrapRounds = 1000

// imbalance is the distance of the seats' scores s_p (a win 1, a first
// place shared by k seats 1/k, a draw 1/n) from the fair share 1/n:
// sqrt(n/(n-1) * sum_p (s_p - 1/n)^2), 0 when every seat scores its fair
// share, 1 when one seat wins every game. Its interval is the 2.5th to
// 97.5th percentile over bootstrapRounds resamples of the games.
func imbalance(games []GameStats, n int) Interval {
	if len(games) == 0 || n < 2 {
		return Interval{Hi: 1}
	}
	points := make([][]float64, len(games))
	for i, gs := range games {
		points[i] = seatPoints(gs.places(n))
	}
	all := make([]int, len(games))
	for i := range all {
		all[i] = i
	}
	out := Interval{Value: imbalanceOf(points, all, n)}
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(games))))
	values := make([]float64, bootstrapRounds)
	pick := make([]int, len(games))
	for r := range values {
		for i := range pick {
			pick[i] = rng.IntN(len(games))
		}
		values[r] = imbalanceOf(points, pick, n)
	}
	slices.Sort(values)
	out.Lo, out.Hi = quantile(values, 0.025), quantile(values, 0.975)
	return out
}

// seatPoints are each seat's points from one game, by its places: the
// seats sharing first place share the point.
func seatPoints(places []int) []float64 {
	first := 0
	for _, place := range places {
		if place == 1 {
			first++
		}
	}
	pts := make([]float64, len(places))
	for p, place := range places {
		if place == 1 {
			pts[p] = 1 / float64(first)
		}
	}
	return pts
}

// imbalanceOf is the imbalance of the games picked (by index, repeats
// allowed).
func imbalanceOf(points [][]float64, picked []int, n int) float64 {
	sum := make([]float64, n)
	for _, i := range picked {
		for p, x := range points[i] {
			sum[p] += x
		}
	}
	fair, sq := 1/float64(n), 0.0
	for p := range sum {
		d := sum[p]/float64(len(picked)) - fair
		sq += d * d
	}
	return math.Sqrt(float64(n) / float64(n-1) * sq)
}

// startPieces counts the pieces on the game's start position.
func startPieces(g game.Game) int {
	counts, err := game.CountPieces(g.Start())
	if err != nil {
		return 0
	}
	total := 0
	for _, c := range counts {
		total += c.Pieces
	}
	return total
}

// stateSpaceBound is log10 of an upper bound on the game's positions with
// at most most pieces on the board: every player to move, times every way
// to put m ≤ most pieces of k = 2n kinds (each player's two ranks) on the
// C cells. Without stacks, one piece a cell: the sum over m of C(C, m)
// k^m. With stacks (Checkers 2011, Punt), the pieces form ordered stacks:
// the sum over m of k^m C(m+C-1, C-1), the ways to cut a row of m pieces
// into C stacks. Pieces the rules can never place (a man on its own
// promotion row) are counted anyway: an upper bound, not an estimate.
func stateSpaceBound(g game.Game, most int) float64 {
	cells, n := g.Board().Len(), g.Players()
	kinds := 2 * float64(n)
	stacks := false
	if d, ok := game.Lookup(g.ID()); ok && d.FEN != nil {
		stacks = d.FEN.Stacks()
	}
	var terms []float64 // log10 of each term of the sum
	for m := 0; m <= most; m++ {
		if !stacks && m > cells {
			break
		}
		ways := logChoose(cells, m)
		if stacks {
			ways = logChoose(m+cells-1, cells-1)
		}
		terms = append(terms, float64(m)*math.Log10(kinds)+ways)
	}
	return math.Log10(float64(n)) + logSum(terms)
}

// logChoose is log10 of the binomial coefficient C(a, b).
func logChoose(a, b int) float64 {
	la, _ := math.Lgamma(float64(a + 1))
	lb, _ := math.Lgamma(float64(b + 1))
	lab, _ := math.Lgamma(float64(a - b + 1))
	return (la - lb - lab) / math.Ln10
}

// logSum is log10 of the sum of the numbers whose log10 are terms.
func logSum(terms []float64) float64 {
	if len(terms) == 0 {
		return 0
	}
	top := slices.Max(terms)
	sum := 0.0
	for _, t := range terms {
		sum += math.Pow(10, t-top)
	}
	return top + math.Log10(sum)
}

// features says which of the per-game counts a game can have, by its
// rules: a row for a count the game can never make (leaps in Eximo) is
// left out of the report.
func features(g game.Game) map[string]bool {
	family := ""
	for _, f := range []string{"pommel", "eximo", "checkers-2011", "punt"} {
		if strings.HasPrefix(g.ID(), f) {
			family = f
		}
	}
	if family == "" { // a game this table does not know yet: every row
		return map[string]bool{"captures": true, "taken": true, "chains": true, "leadChanges": true, "leaps": true,
			"promotions": true, "drops": true, "sandwiches": true, "takeovers": true, "scoreChanges": true}
	}
	custodial := false
	if c, ok := g.(game.Custodian); ok {
		custodial = c.Custodial()
	}
	stacks := false
	if d, ok := game.Lookup(g.ID()); ok && d.FEN != nil {
		stacks = d.FEN.Stacks()
	}
	return map[string]bool{
		"captures": family != "punt", "taken": family != "punt", "chains": family != "punt", // Punt takes nothing off the board
		"leadChanges":  true,
		"leaps":        family == "pommel",                              // only Pommel takes a whole line in one leg
		"promotions":   family == "pommel" || family == "checkers-2011", // Eximo's men and Punt's pawns never promote
		"drops":        family == "eximo",                               // Eximo's men leaving the far row drop new ones
		"sandwiches":   custodial,                                       // Checkers 2011
		"takeovers":    stacks,                                          // landing on a stack or a pile
		"scoreChanges": scores(g),                                       // Punt
	}
}
