package match

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// SPRT is a sequential probability ratio test between two hypotheses about
// the Elo difference of the first engine over the others: H0, elo = Elo0,
// and H1, elo = Elo1 (Elo0 < Elo1, logistic Elo; with n players, the
// difference over each of n-1 equal others, see ExpectedShare). Alpha is
// the chance of accepting H1 when H0 holds, Beta that of accepting H0 when
// H1 holds.
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
// It is Units of two players, under the name fishtest gives it.
type Pentanomial [5]int

// Add counts one pair from the first engine's scores in its two games,
// each 0, 0.5 or 1.
func (p *Pentanomial) Add(first, second float64) error {
	u := p.Units()
	if err := u.Add(first, second); err != nil {
		return err
	}
	copy(p[:], u.Counts)
	return nil
}

// Units are the same counts as the units of two players.
func (p Pentanomial) Units() Units {
	return Units{Players: 2, Counts: slices.Clone(p[:])}
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p.Units().Total() }

// String writes the counts from two losses to two wins, "[3 10 40 12 5]".
func (p Pentanomial) String() string {
	return fmt.Sprint([5]int(p))
}

// LLR is the log-likelihood ratio of H1 against H0 given the pairs, in the
// pentanomial model of fishtest's GSPRT: UnitsLLR of two players.
func (s SPRT) LLR(p Pentanomial) float64 { return s.UnitsLLR(p.Units()) }

// Elo estimates the first engine's Elo difference from the pairs, with a
// 95% interval over pairs, as Units.Elo does.
func (p Pentanomial) Elo() (elo, lo, hi float64) { return p.Units().Elo() }

// EloText writes the estimate as Stats.EloText does, "+12 [+3, +21]", and
// "-" with no pairs.
func (p Pentanomial) EloText() string { return p.Units().EloText() }
