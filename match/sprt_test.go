package match

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseSPRTReads(t *testing.T) {
	for _, c := range []struct {
		text string
		want SPRT
	}{
		{"elo0=0,elo1=5,alpha=0.05,beta=0.05", SPRT{0, 5, 0.05, 0.05}},
		{"beta=0.1, alpha=0.2 ,elo1=10,elo0=-3", SPRT{-3, 10, 0.2, 0.1}},
		{"elo1=10", SPRT{0, 10, 0.05, 0.05}},
		{"alpha=0.5,beta=0.5", SPRT{0, 5, 0.5, 0.5}},
		{"elo0=-1000,elo1=1000", SPRT{-1000, 1000, 0.05, 0.05}},
		{"elo0=0.5,elo1=2.5e0", SPRT{0.5, 2.5, 0.05, 0.05}},
	} {
		got, err := ParseSPRT(c.text)
		if err != nil || got != c.want {
			t.Errorf("ParseSPRT(%q) = %+v, %v; want %+v", c.text, got, err, c.want)
			continue
		}
		if again, err := ParseSPRT(got.String()); err != nil || again != got {
			t.Errorf("ParseSPRT(%q) = %+v, %v; want %+v back", got.String(), again, err, got)
		}
	}
}

func TestParseSPRTRefuses(t *testing.T) {
	long := "elo0=0," + strings.Repeat("x", 300)
	for _, c := range []struct {
		text, want string
	}{
		{"", "empty spec"},
		{"  ", "empty spec"},
		{long, "longer than 200 bytes"},
		{"elo0", "not key=value"},
		{"=1", "not key=value"},
		{"elo0=", "not key=value"},
		{"elo0=0,,elo1=5", "not key=value"},
		{"elo0=0,", "not key=value"},
		{"gamma=1", `unknown key "gamma"`},
		{"ELO0=1", `unknown key "ELO0"`},
		{strings.Repeat("k", 150) + "=1", "…, want elo0"},
		{"elo0=1,elo0=2", "elo0 given twice"},
		{"elo0=NaN", "elo0=NaN is not a finite number"},
		{"elo1=Inf", "elo1=Inf is not a finite number"},
		{"elo1=-inf", "elo1=-inf is not a finite number"},
		{"elo1=1e400", "not a finite number"},
		{"elo1=five", "elo1=five is not a finite number"},
		{"elo1=1e6", "elo1=1e+06 is outside [-1000, 1000]"},
		{"elo0=-1001,elo1=0", "elo0=-1001 is outside"},
		{"elo0=5,elo1=5", "elo0=5 must be below elo1=5"},
		{"elo0=6,elo1=5", "elo0=6 must be below elo1=5"},
		{"elo0=10", "elo0=10 must be below elo1=5"},
		{"alpha=0", "alpha=0 is outside (0, 0.5]"},
		{"alpha=-0.05", "alpha=-0.05 is outside"},
		{"alpha=0.51", "alpha=0.51 is outside"},
		{"beta=0", "beta=0 is outside (0, 0.5]"},
		{"beta=1", "beta=1 is outside"},
	} {
		_, err := ParseSPRT(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSPRT(%.40q) = %v, want an error with %q", c.text, err, c.want)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 200 {
			t.Errorf("ParseSPRT(%.40q): error is not one short line: %q", c.text, msg)
		}
	}
}

// TestCheckRefusesFilledIn: a test filled in by hand, not parsed, is
// checked too, NaN included (which every comparison lets through).
func TestCheckRefusesFilledIn(t *testing.T) {
	nan := math.NaN()
	for _, s := range []SPRT{
		{nan, 5, 0.05, 0.05}, {0, nan, 0.05, 0.05}, {0, 5, nan, 0.05}, {0, 5, 0.05, nan},
		{0, math.Inf(1), 0.05, 0.05}, {}, {5, 0, 0.05, 0.05},
	} {
		if err := s.Check(); err == nil {
			t.Errorf("%+v.Check() = nil, want a refusal", s)
		}
	}
	if err := DefaultSPRT().Check(); err != nil {
		t.Errorf("DefaultSPRT().Check() = %v", err)
	}
}

// TestBoundsAndVerdict: alpha = beta = 0.05 gives fishtest's familiar
// bounds of ±2.94; unequal error rates give unequal bounds.
func TestBoundsAndVerdict(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if lo, hi := s.LowerBound(), s.UpperBound(); math.Abs(lo+2.9444) > 1e-4 || math.Abs(hi-2.9444) > 1e-4 {
		t.Errorf("bounds %g, %g; want ±2.9444", lo, hi)
	}
	u := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.01, Beta: 0.2}
	// ln(0.2/0.99) and ln(0.8/0.01).
	if lo, hi := u.LowerBound(), u.UpperBound(); math.Abs(lo+1.5994) > 1e-4 || math.Abs(hi-4.3820) > 1e-4 {
		t.Errorf("bounds %g, %g; want -1.5994, 4.3820", lo, hi)
	}
	for _, c := range []struct {
		llr  float64
		want string
	}{
		{3, "H1 accepted"}, {2.9445, "H1 accepted"}, {2.94, ""}, {0, ""}, {-2.94, ""},
		{-2.9445, "H0 accepted"}, {-10, "H0 accepted"},
	} {
		if got := s.Verdict(c.llr); got != c.want {
			t.Errorf("Verdict(%g) = %q, want %q", c.llr, got, c.want)
		}
	}
}

func TestPentanomialAdd(t *testing.T) {
	var p Pentanomial
	for _, pair := range [][2]float64{{0, 0}, {0, 0.5}, {0.5, 0}, {1, 0}, {0.5, 0.5}, {0, 1}, {0.5, 1}, {1, 1}} {
		if err := p.Add(pair[0], pair[1]); err != nil {
			t.Fatalf("Add(%g, %g): %v", pair[0], pair[1], err)
		}
	}
	if want := (Pentanomial{1, 2, 3, 1, 1}); p != want {
		t.Errorf("counts %v, want %v", p, want)
	}
	if p.Pairs() != 8 || p.String() != "[1 2 3 1 1]" {
		t.Errorf("Pairs %d, String %q", p.Pairs(), p.String())
	}
	for _, bad := range [][2]float64{{0.25, 0}, {0, -1}, {2, 0}, {math.NaN(), 1}, {1, math.Inf(1)}} {
		if err := p.Add(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "is not 0, 0.5 or 1") {
			t.Errorf("Add(%g, %g) = %v, want a refusal", bad[0], bad[1], err)
		}
	}
	if want := (Pentanomial{1, 2, 3, 1, 1}); p != want {
		t.Errorf("a refused pair changed the counts to %v", p)
	}
}

// TestLLRRises: a pair moved to a better cell, or one more WW pair,
// raises the ratio; one more LL pair lowers it. (One more DD pair may
// lower it: a score of a half is below the midpoint of the hypotheses.)
func TestLLRRises(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	for _, base := range []Pentanomial{{30, 120, 300, 130, 35}, {1, 1, 1, 1, 1}, {0, 0, 10, 0, 0}, {}} {
		llr := s.LLR(base)
		for i := range 4 {
			if base[i] == 0 {
				continue // no pair there to move
			}
			moved := base
			moved[i]--
			moved[i+1]++
			if got := s.LLR(moved); !(got > llr) {
				t.Errorf("%v → %v: LLR %g, not above %g", base, moved, got, llr)
			}
		}
		better, worse := base, base
		better[4]++
		worse[0]++
		if up, down := s.LLR(better), s.LLR(worse); !(up > llr && down < llr) {
			t.Errorf("%v: LLR %g; with a WW pair %g, with an LL pair %g", base, llr, up, down)
		}
	}
}

// TestLLRSymmetric: mirroring the counts (the engines swapped) and the
// hypotheses turns the ratio round, and a symmetric test of symmetric
// counts is undecided.
func TestLLRSymmetric(t *testing.T) {
	for _, p := range []Pentanomial{{30, 120, 300, 130, 35}, {0, 3, 0, 9, 2}, {7, 0, 0, 0, 0}} {
		mirror := Pentanomial{p[4], p[3], p[2], p[1], p[0]}
		s := SPRT{Elo0: -2, Elo1: 7, Alpha: 0.05, Beta: 0.05}
		turned := SPRT{Elo0: -7, Elo1: 2, Alpha: 0.05, Beta: 0.05}
		if a, b := s.LLR(mirror), -turned.LLR(p); math.Abs(a-b) > 1e-9*max(1, math.Abs(a)) {
			t.Errorf("%v: LLR of the mirror %g, minus the turned test's %g", p, a, b)
		}
	}
	even := SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if got := even.LLR(Pentanomial{10, 40, 100, 40, 10}); math.Abs(got) > 1e-9 {
		t.Errorf("symmetric LLR %g, want 0", got)
	}
}

// TestLLRFinite: empty counts, all pairs in one cell, and very many pairs
// give a finite ratio of the right sign.
func TestLLRFinite(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	for _, c := range []struct {
		p    Pentanomial
		sign float64
	}{
		{Pentanomial{}, 0}, {Pentanomial{1, 0, 0, 0, 0}, -1}, {Pentanomial{0, 0, 0, 0, 1}, 1},
		{Pentanomial{0, 0, 0, 0, 1e9}, 1}, {Pentanomial{1e9, 0, 0, 0, 0}, -1},
		{Pentanomial{0, 0, 1e6, 0, 0}, -1}, {Pentanomial{0, 1e6, 0, 1e6, 0}, -1},
	} {
		llr := s.LLR(c.p)
		if math.IsNaN(llr) || math.IsInf(llr, 0) {
			t.Errorf("LLR(%v) = %g", c.p, llr)
			continue
		}
		if c.sign == 0 && math.Abs(llr) > 0.01 || c.sign*llr < 0 {
			t.Errorf("LLR(%v) = %g, want sign %g", c.p, llr, c.sign)
		}
	}
}

// TestFitMean: the fitted distribution is a distribution with the asked
// mean, on the pentanomial's five scores and on uneven ones such as a
// three-player unit's.
func TestFitMean(t *testing.T) {
	pair := []float64{0, 0.25, 0.5, 0.75, 1}
	three := []float64{0, 2. / 18, 3. / 18, 7. / 18, 0.5, 12. / 18, 1}
	for _, c := range []struct {
		x, q []float64
	}{
		{pair, []float64{0.1, 0.2, 0.4, 0.2, 0.1}},
		{pair, []float64{0.9, 0.025, 0.025, 0.025, 0.025}},
		{pair, []float64{1e-6, 1e-6, 1e-6, 1e-6, 1 - 4e-6}},
		{three, []float64{0.3, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1}},
		{three, []float64{1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1 - 6e-6}},
		{[]float64{0, 1}, []float64{0.5, 0.5}},
	} {
		for _, mean := range []float64{0.01, 0.3, 1. / 3, 0.5, 0.507, 0.99} {
			lambda := fitMean(c.q, c.x, mean)
			sum, got := 0.0, 0.0
			for i, qi := range c.q {
				p := qi / (1 + lambda*(c.x[i]-mean))
				if !(p > 0) {
					t.Errorf("q %v mean %g: p_%d = %g", c.q, mean, i, p)
				}
				sum += p
				got += p * c.x[i]
			}
			if math.Abs(sum-1) > 1e-9 || math.Abs(got-mean) > 1e-9 {
				t.Errorf("q %v mean %g: sum %g, mean %g", c.q, mean, sum, got)
			}
		}
	}
}

// TestLLRAgainstBruteForce checks LLR against the log-likelihood ratio of
// maximisations done without any Lagrange multiplier: a grid search over
// the three free coordinates of the constrained simplex, narrowed around
// the best point step by step (the log-likelihood is concave there, so the
// narrowing cannot leave the maximum behind).
func TestLLRAgainstBruteForce(t *testing.T) {
	for _, c := range []struct {
		p Pentanomial
		s SPRT
	}{
		{Pentanomial{3, 5, 10, 7, 4}, SPRT{0, 5, 0.05, 0.05}},
		{Pentanomial{1, 2, 3, 2, 1}, SPRT{-10, 10, 0.05, 0.05}},
		{Pentanomial{20, 1, 5, 1, 30}, SPRT{0, 50, 0.05, 0.05}},
		{Pentanomial{40, 9, 2, 3, 1}, SPRT{-300, -100, 0.05, 0.05}},
		{Pentanomial{0, 6, 14, 0, 2}, SPRT{0, 20, 0.05, 0.05}},
	} {
		var counts [5]float64
		for i, n := range c.p {
			counts[i] = max(float64(n), sprtPrior) // the documented prior
		}
		want := bestLogLikelihood(counts, expectedScore(c.s.Elo1)) - bestLogLikelihood(counts, expectedScore(c.s.Elo0))
		if got := c.s.LLR(c.p); math.Abs(got-want) > 1e-7 {
			t.Errorf("%v %v: LLR %.9f, brute force %.9f", c.p, c.s, got, want)
		}
	}
}

// bestLogLikelihood is the largest sum n_i log p_i over distributions p
// with mean score `mean`, found by narrowing grid search over p_1..p_3
// (p_4 then follows from the mean and p_0 from the total).
func bestLogLikelihood(n [5]float64, mean float64) float64 {
	// Start inside the simplex: a little on the middle cells, the rest on
	// the two ends in the share that gives the mean.
	little := 0.1 * min(mean, 1-mean)
	centre := [3]float64{little, little, little}
	best, half := logLikelihoodAt(n, mean, centre), 0.5
	for range 28 {
		next := centre
		for a := -5; a <= 5; a++ {
			for b := -5; b <= 5; b++ {
				for c := -5; c <= 5; c++ {
					x := [3]float64{centre[0] + half*float64(a)/5, centre[1] + half*float64(b)/5, centre[2] + half*float64(c)/5}
					if l := logLikelihoodAt(n, mean, x); l > best {
						best, next = l, x
					}
				}
			}
		}
		centre, half = next, half/2
	}
	return best
}

// logLikelihoodAt is sum n_i log p_i for the distribution with p_1..p_3
// from x and the given mean, or -Inf outside the simplex.
func logLikelihoodAt(n [5]float64, mean float64, x [3]float64) float64 {
	p4 := mean - 0.25*x[0] - 0.5*x[1] - 0.75*x[2]
	p := [5]float64{1 - x[0] - x[1] - x[2] - p4, x[0], x[1], x[2], p4}
	l := 0.0
	for i := range p {
		if !(p[i] > 0) {
			return math.Inf(-1)
		}
		l += n[i] * math.Log(p[i])
	}
	return l
}

func TestPentanomialElo(t *testing.T) {
	inf := math.Inf(1)
	logit := func(s float64) float64 { return 400 * math.Log10(s/(1-s)) }
	// {0,0,10,0,30}: pair scores 0.5 (a quarter) and 1; mean 0.875,
	// variance 0.25*0.75*0.5² = 0.046875 over 40 pairs.
	half := 1.959964 * math.Sqrt(0.046875/40)
	for _, c := range []struct {
		p            Pentanomial
		elo, lo, hi  float64
		wantNaN      bool
		intervalText string
	}{
		{p: Pentanomial{}, wantNaN: true, intervalText: "-"},
		{p: Pentanomial{0, 0, 12, 0, 0}, intervalText: "0 [0, 0]"},
		{p: Pentanomial{0, 0, 0, 0, 3}, elo: inf, lo: inf, hi: inf, intervalText: "+inf [+inf, +inf]"},
		{p: Pentanomial{3, 0, 0, 0, 0}, elo: -inf, lo: -inf, hi: -inf, intervalText: "-inf [-inf, -inf]"},
		{p: Pentanomial{1, 0, 0, 0, 1}, elo: 0, lo: -inf, hi: inf, intervalText: "0 [-inf, +inf]"},
		{p: Pentanomial{0, 0, 10, 0, 30}, elo: logit(0.875), lo: logit(0.875 - half), hi: logit(0.875 + half), intervalText: "+338 [+250, +485]"},
	} {
		elo, lo, hi := c.p.Elo()
		if c.wantNaN {
			if !math.IsNaN(elo) || !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Errorf("%v: Elo %g [%g, %g], want NaN", c.p, elo, lo, hi)
			}
		} else if !near(elo, c.elo) || !near(lo, c.lo) || !near(hi, c.hi) {
			t.Errorf("%v: Elo %g [%g, %g], want %g [%g, %g]", c.p, elo, lo, hi, c.elo, c.lo, c.hi)
		}
		if got := c.p.EloText(); got != c.intervalText {
			t.Errorf("%v: EloText %q, want %q", c.p, got, c.intervalText)
		}
	}
}

// near is equality for finite values within 1e-9, and sameness for
// infinite ones.
func near(a, b float64) bool {
	if math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b))
}

// pairOdds is the pentanomial distribution of pairs between engines elo
// apart (logistic), whose games are independent with the given share of
// draws.
func pairOdds(elo, draws float64) [5]float64 {
	s := expectedScore(elo)
	game := [3]float64{1 - s - draws/2, draws, s - draws/2} // loss, draw, win
	var odds [5]float64
	for a, pa := range game {
		for b, pb := range game {
			odds[a+b] += pa * pb
		}
	}
	return odds
}

// runSPRT draws pairs from odds until the test decides, or maxPairs pass
// ("" then), and returns the verdict and the pairs played.
func runSPRT(rng *rand.Rand, s SPRT, odds [5]float64, maxPairs int) (string, int) {
	var p Pentanomial
	for n := 1; n <= maxPairs; n++ {
		u, cell := rng.Float64(), 0
		for cell < 4 && u >= odds[cell] {
			u -= odds[cell]
			cell++
		}
		p[cell]++
		if v := s.Verdict(s.LLR(p)); v != "" {
			return v, n
		}
	}
	return "", maxPairs
}

// TestSPRTErrorRates simulates matches at the Elo of each hypothesis and
// counts wrong verdicts: at elo0 the share of "H1 accepted" must stay
// within alpha, at elo1 the share of "H0 accepted" within beta, each with
// a margin of three binomial standard deviations (the test's overshoot
// past the bounds usually keeps the rates below alpha and beta). Under
// -short it makes 50 runs a side of a wide test; else 500 of a narrower.
func TestSPRTErrorRates(t *testing.T) {
	s, runs := SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}, 50
	if !testing.Short() {
		s, runs = SPRT{Elo0: 0, Elo1: 15, Alpha: 0.05, Beta: 0.1}, 500
	}
	rng := rand.New(rand.NewPCG(24, 1))
	for _, c := range []struct {
		elo   float64
		wrong string
		rate  float64
	}{{s.Elo0, "H1 accepted", s.Alpha}, {s.Elo1, "H0 accepted", s.Beta}} {
		odds := pairOdds(c.elo, 0.4)
		wrong, undecided, pairs := 0, 0, 0
		for range runs {
			v, n := runSPRT(rng, s, odds, 100000)
			pairs += n
			switch v {
			case c.wrong:
				wrong++
			case "":
				undecided++
			}
		}
		limit := c.rate + 3*math.Sqrt(c.rate*(1-c.rate)/float64(runs))
		t.Logf("%v at elo %g: %d of %d wrong (%.3f, limit %.3f), %.0f pairs a run",
			s, c.elo, wrong, runs, float64(wrong)/float64(runs), limit, float64(pairs)/float64(runs))
		if undecided > 0 || float64(wrong)/float64(runs) > limit {
			t.Errorf("at elo %g: %d of %d runs wrong, %d undecided; limit %.3f", c.elo, wrong, runs, undecided, limit)
		}
	}
}

// TestPentanomialEloPublishedCases: logistic Elo estimates and 95%
// intervals of five pentanomial counts, as another engine-testing tool's
// test suite publishes them (rounded to hundredths).
func TestPentanomialEloPublishedCases(t *testing.T) {
	for _, c := range []struct {
		p           Pentanomial
		lo, elo, hi float64
	}{
		{Pentanomial{485, 1923, 2942, 1937, 594}, 1.21, 5.11, 9.02},
		{Pentanomial{261, 739, 2683, 737, 253}, -5.00, -0.67, 3.66},
		{Pentanomial{63, 252, 385, 250, 74}, -7.38, 3.39, 14.17},
		{Pentanomial{527, 1007, 1932, 933, 511}, -9.16, -3.75, 1.66},
		{Pentanomial{175, 305, 694, 291, 157}, -14.57, -5.36, 3.85},
	} {
		elo, lo, hi := c.p.Elo()
		if math.Abs(elo-c.elo) > 0.006 || math.Abs(lo-c.lo) > 0.006 || math.Abs(hi-c.hi) > 0.006 {
			t.Errorf("%v: Elo %.3f [%.3f, %.3f], want %.2f [%.2f, %.2f]", c.p, elo, lo, hi, c.elo, c.lo, c.hi)
		}
	}
}

// BenchmarkLLR: the cost of one ratio, paid after every pair of a match.
func BenchmarkLLR(b *testing.B) {
	s, p := DefaultSPRT(), Pentanomial{30, 120, 300, 130, 35}
	for b.Loop() {
		s.LLR(p)
	}
}
