package match

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// SPRT is a sequential probability ratio test between two hypotheses about
// the Elo difference of the first engine over the second: H0, elo = Elo0,
// and H1, elo = Elo1 (Elo0 < Elo1, logistic Elo). Alpha is the chance of
// accepting H1 when H0 holds, Beta that of accepting H0 when H1 holds.
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
}

// DefaultSPRT is what ParseSPRT uses for a key the text leaves out:
// elo0=0, elo1=5, alpha=0.05, beta=0.05, bounds of the kind fishtest uses
// for a change that should gain a little.
func DefaultSPRT() SPRT {
	return SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
}

const (
	// maxSPRTText bounds the length of an SPRT spec: four keys with long
	// numbers fit many times over.
	maxSPRTText = 200
	// maxSPRTElo bounds |elo0| and |elo1|: beyond it the expected score is
	// so close to 0 or 1 that no match of people's length could tell the
	// hypotheses apart, and at about 6000 it rounds to exactly 0 or 1.
	maxSPRTElo = 1000
)

// ParseSPRT reads "elo0=0,elo1=5,alpha=0.05,beta=0.05": comma-separated
// key=value items in any order, each key at most once; a key left out
// takes its value from DefaultSPRT. It refuses unknown keys, numbers that
// are not finite, |elo| over 1000, alpha or beta outside (0, 0.5], and
// elo0 >= elo1. Its errors (and Check's) say what is wrong, not where the
// text came from: the caller names that, such as the flag --sprt.
func ParseSPRT(text string) (SPRT, error) {
	if len(text) > maxSPRTText {
		return SPRT{}, fmt.Errorf("spec %s is longer than %d bytes", clip.Quote(text), maxSPRTText)
	}
	if strings.TrimSpace(text) == "" {
		return SPRT{}, errors.New(`empty spec, want "elo0=0,elo1=5,alpha=0.05,beta=0.05"`)
	}
	s := DefaultSPRT()
	seen := map[string]bool{}
	for item := range strings.SplitSeq(text, ",") {
		key, value, err := sprtItem(item)
		if err != nil {
			return SPRT{}, err
		}
		if seen[key] {
			return SPRT{}, fmt.Errorf("%s given twice", key)
		}
		seen[key] = true
		*s.field(key) = value
	}
	return s, s.Check()
}

// sprtItem splits one "key=value" item and reads its finite number.
func sprtItem(item string) (string, float64, error) {
	key, value, ok := strings.Cut(item, "=")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || key == "" || value == "" {
		return "", 0, fmt.Errorf("item %s is not key=value", clip.Quote(item))
	}
	if new(SPRT).field(key) == nil {
		return "", 0, fmt.Errorf("unknown key %s, want elo0, elo1, alpha or beta", clip.Quote(key))
	}
	x, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return "", 0, fmt.Errorf("%s=%s is not a finite number", key, clip.Bare(value))
	}
	return key, x, nil
}

// field points at the value a key names, nil for an unknown key.
func (s *SPRT) field(key string) *float64 {
	switch key {
	case "elo0":
		return &s.Elo0
	case "elo1":
		return &s.Elo1
	case "alpha":
		return &s.Alpha
	case "beta":
		return &s.Beta
	}
	return nil
}

// Check says why the test is unusable, or nil. ParseSPRT checks what it
// reads; a caller that fills an SPRT in itself should call Check.
func (s SPRT) Check() error {
	for _, e := range []struct {
		name string
		x    float64
	}{{"elo0", s.Elo0}, {"elo1", s.Elo1}} {
		if !(math.Abs(e.x) <= maxSPRTElo) {
			return fmt.Errorf("%s=%g is outside [-%d, %d]", e.name, e.x, maxSPRTElo, maxSPRTElo)
		}
	}
	if !(s.Elo0 < s.Elo1) {
		return fmt.Errorf("elo0=%g must be below elo1=%g", s.Elo0, s.Elo1)
	}
	for _, e := range []struct {
		name string
		x    float64
	}{{"alpha", s.Alpha}, {"beta", s.Beta}} {
		if !(e.x > 0 && e.x <= 0.5) {
			return fmt.Errorf("%s=%g is outside (0, 0.5]", e.name, e.x)
		}
	}
	return nil
}

// String writes the test as ParseSPRT reads it.
func (s SPRT) String() string {
	return fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g", s.Elo0, s.Elo1, s.Alpha, s.Beta)
}

// LowerBound is the log-likelihood ratio at or below which H0 is accepted.
func (s SPRT) LowerBound() float64 { return math.Log(s.Beta / (1 - s.Alpha)) }

// UpperBound is the log-likelihood ratio at or above which H1 is accepted.
func (s SPRT) UpperBound() float64 { return math.Log((1 - s.Beta) / s.Alpha) }

// Verdict is "H1 accepted" or "H0 accepted" once llr reaches a bound, and
// "" while the test must go on.
func (s SPRT) Verdict(llr float64) string {
	switch {
	case llr >= s.UpperBound():
		return "H1 accepted"
	case llr <= s.LowerBound():
		return "H0 accepted"
	}
	return ""
}

// Pentanomial counts game pairs (one opening, played twice with the seats
// swapped) by the first engine's total score over the pair in half
// points: [0] two losses, [1] a loss and a draw, [2] a win and a loss or
// two draws, [3] a draw and a win, [4] two wins. Counting pairs rather
// than games is what makes the variance honest when openings are unequal.
type Pentanomial [5]int

// pairScores are the first engine's mean scores per game for each cell.
var pairScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// Add counts one pair from the first engine's scores in its two games,
// each 0, 0.5 or 1.
func (p *Pentanomial) Add(first, second float64) error {
	halves := 0
	for _, x := range []float64{first, second} {
		switch x {
		case 0, 0.5, 1:
			halves += int(2 * x)
		default:
			return fmt.Errorf("sprt: game score %g is not 0, 0.5 or 1", x)
		}
	}
	p[halves]++
	return nil
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int {
	n := 0
	for _, c := range p {
		n += c
	}
	return n
}

// String writes the counts from two losses to two wins, "[3 10 40 12 5]".
func (p Pentanomial) String() string {
	return fmt.Sprint([5]int(p))
}

// sprtPrior replaces each empty cell before the likelihoods are fitted, as
// fishtest does: with no pair in a cell, or none at all, the fitted
// distributions would put zero on a cell that the other hypothesis needs,
// or the mean could be pinned to 0 or 1, and the ratio would be NaN or
// infinite. The prior is too small to move the ratio once pairs come in.
const sprtPrior = 1e-3

// LLR is the log-likelihood ratio of H1 against H0 given the pairs, in the
// pentanomial model of fishtest's GSPRT: under each hypothesis the
// distribution over the five cells is the one nearest the observed
// frequencies (the maximum likelihood one) among those whose mean is the
// expected score of that hypothesis's Elo, and LLR = sum n_i log(p1_i/p0_i).
// Empty cells count sprtPrior pairs, so the result is always finite.
func (s SPRT) LLR(p Pentanomial) float64 {
	var counts [5]float64
	total := 0.0
	for i, c := range p {
		counts[i] = float64(c)
		if c == 0 {
			counts[i] = sprtPrior
		}
		total += counts[i]
	}
	var freq [5]float64
	for i := range counts {
		freq[i] = counts[i] / total
	}
	lambda0 := fitMean(freq, expectedScore(s.Elo0))
	lambda1 := fitMean(freq, expectedScore(s.Elo1))
	s0, s1 := expectedScore(s.Elo0), expectedScore(s.Elo1)
	llr := 0.0
	for i, n := range counts {
		// p_i = freq_i / (1 + lambda (x_i - s)): freq_i cancels in the ratio.
		llr += n * (math.Log1p(lambda0*(pairScores[i]-s0)) - math.Log1p(lambda1*(pairScores[i]-s1)))
	}
	return llr
}

// expectedScore is the logistic Elo model's score per game at elo.
func expectedScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// fitMean returns the Lagrange multiplier lambda of the maximum likelihood
// distribution p_i = q_i / (1 + lambda (x_i - mean)) with the given mean,
// for frequencies q that are all positive and a mean strictly inside
// (0, 1). Lambda solves g(lambda) = sum q_i d_i / (1 + lambda d_i) = 0 with
// d_i = x_i - mean; g falls strictly on the interval where every
// 1 + lambda d_i > 0, from +Inf to -Inf, so bisection finds the one root.
// At the root the p_i also sum to 1.
func fitMean(q [5]float64, mean float64) float64 {
	lo, hi := -1/(1-mean), 1/mean // the ends, where p_4 or p_0 is unbounded
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break // the interval is down to adjacent floats
		}
		g := 0.0
		for i, qi := range q {
			d := pairScores[i] - mean
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

// Elo estimates the first engine's Elo difference from the pairs, with a
// 95% interval from the normal approximation to the mean score per pair:
// mean ± 1.96 sqrt(var/N), var the variance of the pair scores, each end
// clipped to [0, 1] before it is turned into Elo, so an end beyond a
// perfect or a zero score is +Inf or -Inf. With no pairs every value is
// NaN, as in Stats.Elo.
func (p Pentanomial) Elo() (elo, lo, hi float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	mean, variance := 0.0, 0.0
	for i, c := range p {
		mean += float64(c) * pairScores[i] / n
	}
	for i, c := range p {
		d := pairScores[i] - mean
		variance += float64(c) * d * d / n
	}
	half := z95 * math.Sqrt(variance/n)
	return eloOfScore(mean), eloOfScore(mean - half), eloOfScore(mean + half)
}

// eloOfScore is elo with the score clipped to [0, 1], and exact at the
// ends, where rounding could leave a huge finite number.
func eloOfScore(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return elo(score)
}

// EloText writes the estimate as Stats.EloText does, "+12 [+3, +21]", and
// "-" with no pairs.
func (p Pentanomial) EloText() string {
	d, lo, hi := p.Elo()
	if math.IsNaN(d) {
		return "-"
	}
	return fmt.Sprintf("%s [%s, %s]", eloNumber(d), eloNumber(lo), eloNumber(hi))
}
