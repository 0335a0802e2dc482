package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Units counts the units of a sequential test by the first player's points
// over the unit. A unit is a rotation: the n games that a match of n
// players plays from one opening with the seats rotated, so that the first
// player sits in every seat once; for two players it is the pentanomial's
// pair. Points are counted in steps of 1/L, L the least common multiple of
// 1 to n, in which every share a game can give (see Share: 0, 1/w for a
// first place shared by w, 1) is a whole number: Counts[k] is the number
// of units in which the first player scored k steps, k from 0 to n·L. For
// two players L is 2, the steps are half points and Counts are the
// pentanomial's five cells. Counting units rather than games is what keeps
// the variance honest when openings are unequal.
type Units struct {
	Players int   // n, 2 or more
	Counts  []int // n·L + 1 cells, see NewUnits
}

// NewUnits are empty counts for a game of n players, n from 2 up.
func NewUnits(n int) Units {
	return Units{Players: n, Counts: make([]int, n*stepsPerPoint(n)+1)}
}

// stepsPerPoint is L, the least common multiple of 1 to n: the steps a
// point is cut into so that a share 1/w of it, w up to n, is whole.
func stepsPerPoint(n int) int {
	l := 1
	for w := 2; w <= n; w++ {
		a, b := l, w
		for b != 0 {
			a, b = b, a%b
		}
		l = l / a * w
	}
	return l
}

// gameShares are the shares of a point one game of n players can give a
// seat, from 0 up, with each one's steps of 1/L. They are the values Share
// returns, computed the same way, so they compare exactly.
func gameShares(n int) (shares []float64, steps []int) {
	l := stepsPerPoint(n)
	shares, steps = []float64{0}, []int{0}
	for w := n; w >= 2; w-- {
		shares, steps = append(shares, 1/float64(w)), append(steps, l/w)
	}
	return append(shares, 1), append(steps, l)
}

// shareList names the shares of a game of n players for an error:
// "0, 0.5 or 1".
func shareList(n int) string {
	shares, _ := gameShares(n)
	texts := make([]string, len(shares))
	for i, x := range shares {
		texts[i] = fmt.Sprintf("%.3g", x)
	}
	last := len(texts) - 1
	return strings.Join(texts[:last], ", ") + " or " + texts[last]
}

// Add counts one unit from the first player's scores in its n games, each
// a share that a game of n players can give (0, 0.5 or 1 for two).
func (u *Units) Add(scores ...float64) error {
	if len(scores) != u.Players {
		return fmt.Errorf("sprt: a unit of %d games, want %d", len(scores), u.Players)
	}
	shares, steps := gameShares(u.Players)
	total := 0
	for _, x := range scores {
		i := indexOf(shares, x)
		if i < 0 {
			return fmt.Errorf("sprt: game score %g is not %s", x, shareList(u.Players))
		}
		total += steps[i]
	}
	u.Counts[total]++
	return nil
}

// indexOf is the index of x in xs, or -1.
func indexOf(xs []float64, x float64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// Total is the number of units counted.
func (u Units) Total() int {
	n := 0
	for _, c := range u.Counts {
		n += c
	}
	return n
}

// score is the first player's mean score per game in a unit of k steps.
func (u Units) score(k int) float64 {
	return float64(k) / float64(len(u.Counts)-1)
}

// reachable says which totals n games can give: the cells of the model.
// For two players that is all five; for three, 15 of the 19 (no unit
// scores a sixth of a point, for one).
func (u Units) reachable() []bool {
	_, steps := gameShares(u.Players)
	reach := make([]bool, len(u.Counts))
	reach[0] = true
	for range u.Players {
		next := make([]bool, len(reach))
		for k, ok := range reach {
			for _, s := range steps {
				if ok && k+s < len(next) {
					next[k+s] = true
				}
			}
		}
		reach = next
	}
	return reach
}

// cells are the model's support, from 0 up: every total the n games can
// give (and any other that was counted), each with its mean score per
// game and its count, sprtPrior for an empty one.
func (u Units) cells() (scores, counts []float64) {
	for k, ok := range u.reachable() {
		if !ok && u.Counts[k] == 0 {
			continue
		}
		c := float64(u.Counts[k])
		if c == 0 {
			c = sprtPrior
		}
		scores, counts = append(scores, u.score(k)), append(counts, c)
	}
	return scores, counts
}

// String writes the counts that are not zero as points over the unit and
// units, "[0:3 0.33:1 1.5:12 3:2]", points rounded to hundredths.
func (u Units) String() string {
	l := float64(stepsPerPoint(u.Players))
	var items []string
	for k, c := range u.Counts {
		if c != 0 {
			items = append(items, strconv.FormatFloat(math.Round(100*float64(k)/l)/100, 'f', -1, 64)+":"+strconv.Itoa(c))
		}
	}
	return "[" + strings.Join(items, " ") + "]"
}

// sprtPrior replaces each empty cell before the likelihoods are fitted, as
// fishtest does: with no unit in a cell, or none at all, the fitted
// distributions would put zero on a cell that the other hypothesis needs,
// or the mean could be pinned to 0 or 1, and the ratio would be NaN or
// infinite. The prior is too small to move the ratio once units come in.
const sprtPrior = 1e-3

// UnitsLLR is the log-likelihood ratio of H1 against H0 given the units,
// in the model of fishtest's GSPRT generalised from the pentanomial's five
// cells to the unit scores n games can give: under each hypothesis the
// distribution over the cells is the one nearest the observed frequencies
// (the maximum likelihood one) among those whose mean is the expected
// share at that hypothesis's Elo, and LLR = sum n_i log(p1_i/p0_i). Empty
// cells count sprtPrior units, so for a test that passes Check the result
// is always finite: the cells always include 0 and 1, and the expected
// shares lie strictly between.
func (s SPRT) UnitsLLR(u Units) float64 {
	scores, counts := u.cells()
	total := 0.0
	for _, c := range counts {
		total += c
	}
	freq := make([]float64, len(counts))
	for i := range counts {
		freq[i] = counts[i] / total
	}
	s0, s1 := expectedShare(s.Elo0, u.Players), expectedShare(s.Elo1, u.Players)
	lambda0 := fitMean(freq, scores, s0)
	lambda1 := fitMean(freq, scores, s1)
	llr := 0.0
	for i, n := range counts {
		// p_i = freq_i / (1 + lambda (x_i - s)): freq_i cancels in the ratio.
		llr += n * (math.Log1p(lambda0*(scores[i]-s0)) - math.Log1p(lambda1*(scores[i]-s1)))
	}
	return llr
}

// expectedShare is the first player's expected share of a game of n
// players when it is elo stronger than each of n-1 equal others: its
// strength 10^(elo/400) over the sum of all n, 1 / (1 + (n-1) 10^(-elo/400)).
// For two players it is the logistic Elo model's score.
func expectedShare(elo float64, n int) float64 {
	return 1 / (1 + float64(n-1)*math.Pow(10, -elo/400))
}

// expectedScore is the logistic Elo model's score per game at elo.
func expectedScore(elo float64) float64 { return expectedShare(elo, 2) }

// eloOfShare inverts expectedShare: the Elo over each of n-1 others that a
// mean share implies, -Inf at 0 or below and +Inf at 1 or above, exact at
// the ends, where rounding could leave a huge finite number.
func eloOfShare(share float64, n int) float64 {
	switch {
	case share <= 0:
		return math.Inf(-1)
	case share >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10((1/share-1)/float64(n-1))
}

// fitMean returns the Lagrange multiplier lambda of the maximum likelihood
// distribution p_i = q_i / (1 + lambda (x_i - mean)) with the given mean,
// for frequencies q that are all positive on scores x in ascending order,
// and a mean strictly between the first and the last score. Lambda solves
// g(lambda) = sum q_i d_i / (1 + lambda d_i) = 0 with d_i = x_i - mean; g
// falls strictly on the interval where every 1 + lambda d_i > 0, from +Inf
// to -Inf, so bisection finds the one root. At the root the p_i also sum
// to 1.
func fitMean(q, x []float64, mean float64) float64 {
	// The ends, where the last or the first p_i is unbounded.
	lo, hi := -1/(x[len(x)-1]-mean), 1/(mean-x[0])
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break // the interval is down to adjacent floats
		}
		g := 0.0
		for i, qi := range q {
			d := x[i] - mean
			g += qi * d / (1 + mid*d)
		}
		if g > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// Elo estimates the first player's Elo difference over each of the others
// from the units, with a 95% interval from the normal approximation to the
// mean score per unit: mean ± 1.96 sqrt(var/N), var the variance of the
// unit scores, each end clipped to [0, 1] before it is turned into Elo by
// the inverse of expectedShare, so an end beyond a perfect or a zero score
// is +Inf or -Inf. With no units every value is NaN, as in Stats.Elo.
func (u Units) Elo() (elo, lo, hi float64) {
	n := float64(u.Total())
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean, variance := 0.0, 0.0
	for k, c := range u.Counts {
		mean += float64(c) * u.score(k) / n
	}
	for k, c := range u.Counts {
		d := u.score(k) - mean
		variance += float64(c) * d * d / n
	}
	half := z95 * math.Sqrt(variance/n)
	return eloOfShare(mean, u.Players), eloOfShare(mean-half, u.Players), eloOfShare(mean+half, u.Players)
}

// EloText writes the estimate as Stats.EloText does, "+12 [+3, +21]", and
// "-" with no units.
func (u Units) EloText() string {
	d, lo, hi := u.Elo()
	if math.IsNaN(d) {
		return "-"
	}
	return fmt.Sprintf("%s [%s, %s]", eloNumber(d), eloNumber(lo), eloNumber(hi))
}
