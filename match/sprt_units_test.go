package match

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// allResults are every finished result of a game of n players as far as
// shares go: each set of winners, the empty one (a draw of all) included.
func allResults(n int) []game.Result {
	var out []game.Result
	for set := range 1 << n {
		var r game.Result
		r.Reason = game.NoMoves
		for p := range n {
			if set&(1<<p) != 0 {
				r.Winners = r.Winners.Add(game.Player(p))
			}
		}
		out = append(out, r)
	}
	return out
}

// TestUnitsCellsFromShare: the cells of the model are exactly the unit
// totals that n games can give, found here by playing every result of
// every game of a unit through Share, the function the table scores by.
func TestUnitsCellsFromShare(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		u := NewUnits(n)
		want := make([]bool, len(u.Counts))
		var walk func(games int, total float64)
		walk = func(games int, total float64) {
			if games == n {
				k := int(math.Round(total / float64(n) * float64(len(u.Counts)-1)))
				want[k] = true
				return
			}
			for _, r := range allResults(n) {
				walk(games+1, total+Share(r, game.Player(games), n))
			}
		}
		walk(0, 0)
		if got := u.reachable(); !slices.Equal(got, want) {
			t.Errorf("%d players: cells %v, Share gives %v", n, got, want)
		}
		if n == 2 && (len(u.Counts) != 5 || slices.Contains(want, false)) {
			t.Errorf("two players: %d cells, reachable %v; want the pentanomial's five", len(u.Counts), want)
		}
	}
}

// TestUnitsAdd: a unit's scores land in the cell of their total, on the
// pentanomial's cells for two players; a unit of the wrong size or with a
// score no game gives is refused and changes nothing.
func TestUnitsAdd(t *testing.T) {
	three := NewUnits(3)
	for _, unit := range [][]float64{{0, 0, 0}, {1, 1, 1}, {1. / 3, 0.5, 1}, {0.5, 1. / 3, 1}, {0, 1. / 3, 0}} {
		if err := three.Add(unit...); err != nil {
			t.Fatalf("Add(%v): %v", unit, err)
		}
		sum := 0.0
		for _, x := range unit {
			sum += x
		}
		if k := int(math.Round(sum * 6)); three.Counts[k] == 0 {
			t.Errorf("Add(%v): cell %d (sum %g in sixths) is empty: %v", unit, k, sum, three.Counts)
		}
	}
	if three.Total() != 5 || three.Counts[11] != 2 {
		t.Errorf("counts %v, total %d; want 5 units, 2 of them in cell 11", three.Counts, three.Total())
	}
	if got, want := three.String(), "[0:1 0.33:1 1.83:2 3:1]"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	before := slices.Clone(three.Counts)
	for _, c := range []struct {
		unit []float64
		want string
	}{
		{[]float64{1, 1}, "a unit of 2 games, want 3"},
		{[]float64{1, 1, 1, 1}, "a unit of 4 games, want 3"},
		{[]float64{0.25, 0, 0}, "game score 0.25 is not 0, 0.333, 0.5 or 1"},
		{[]float64{0, math.NaN(), 0}, "game score NaN is not"},
		{[]float64{0, 0, 2}, "game score 2 is not"},
		{[]float64{-0.5, 0, 0}, "game score -0.5 is not"},
	} {
		if err := three.Add(c.unit...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Add(%v) = %v, want an error with %q", c.unit, err, c.want)
		}
	}
	if !slices.Equal(three.Counts, before) {
		t.Errorf("refused units changed the counts to %v", three.Counts)
	}
	two := NewUnits(2)
	if err := two.Add(1./3, 0); err == nil || !strings.Contains(err.Error(), "is not 0, 0.5 or 1") {
		t.Errorf("two players: Add(1/3, 0) = %v, want a refusal", err)
	}
}

// TestUnitsLLRIsPentanomialLLR: pairs of two-player scores counted as
// units give the cells of the pentanomial counted by hand, and the same
// LLR and Elo to the last bit.
func TestUnitsLLRIsPentanomialLLR(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 3))
	scores := []float64{0, 0.5, 1}
	for _, s := range []SPRT{DefaultSPRT(), {-10, 30, 0.05, 0.1}, {-300, -100, 0.2, 0.05}} {
		for _, pairs := range []int{0, 1, 7, 300} {
			u, p := NewUnits(2), Pentanomial{}
			for range pairs {
				a, b := scores[rng.IntN(3)], scores[rng.IntN(3)]
				if err := u.Add(a, b); err != nil {
					t.Fatal(err)
				}
				p[int(2*(a+b))]++
			}
			if !slices.Equal(u.Counts, p[:]) {
				t.Fatalf("units %v, pentanomial %v", u.Counts, p)
			}
			if got, want := s.UnitsLLR(u), s.LLR(p); got != want {
				t.Errorf("%v %v: UnitsLLR %v, LLR %v", s, p, got, want)
			}
			if got, want := u.EloText(), p.EloText(); got != want {
				t.Errorf("%v: Elo %s, pentanomial %s", p, got, want)
			}
		}
	}
}

// logLikelihood is sum n_i log p_i.
func logLikelihood(n, p []float64) float64 {
	l := 0.0
	for i := range n {
		l += n[i] * math.Log(p[i])
	}
	return l
}

// TestUnitsLLRMaximises checks the three-player LLR against its
// definition: each hypothesis's fitted distribution is a distribution
// with the hypothesis's mean, no step that keeps both raises its
// likelihood (the log-likelihood is concave, so that makes it the
// maximum), and the LLR is the difference of the two maxima.
func TestUnitsLLRMaximises(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 4))
	for _, c := range []struct {
		counts map[int]int
		s      SPRT
	}{
		{map[int]int{0: 5, 3: 7, 6: 20, 9: 4, 12: 3, 18: 1}, SPRT{0, 20, 0.05, 0.05}},
		{map[int]int{2: 1, 11: 3, 14: 2}, SPRT{-50, 50, 0.05, 0.05}},
		{map[int]int{18: 40}, SPRT{0, 200, 0.05, 0.05}},
		{map[int]int{}, SPRT{0, 5, 0.05, 0.05}},
	} {
		u := NewUnits(3)
		for k, n := range c.counts {
			u.Counts[k] = n
		}
		x, n := u.cells()
		total := 0.0
		for _, ni := range n {
			total += ni
		}
		var best [2]float64
		for h, elo := range []float64{c.s.Elo0, c.s.Elo1} {
			mean := expectedShare(elo, 3)
			q := make([]float64, len(n))
			for i := range n {
				q[i] = n[i] / total
			}
			lambda := fitMean(q, x, mean)
			p := make([]float64, len(q))
			sum, got := 0.0, 0.0
			for i := range q {
				p[i] = q[i] / (1 + lambda*(x[i]-mean))
				sum += p[i]
				got += p[i] * x[i]
			}
			if math.Abs(sum-1) > 1e-9 || math.Abs(got-mean) > 1e-9 {
				t.Fatalf("%v at elo %g: sum %g, mean %g (want %g)", c.counts, elo, sum, got, mean)
			}
			best[h] = logLikelihood(n, p)
			for range 200 {
				d := feasibleStep(rng, p, x)
				for _, eps := range []float64{1e-3, -1e-3} {
					moved := slices.Clone(p)
					inside := true
					for i := range moved {
						moved[i] += eps * d[i]
						inside = inside && moved[i] > 0
					}
					if l := logLikelihood(n, moved); inside && l > best[h]+1e-12*math.Abs(best[h]) {
						t.Fatalf("%v at elo %g: a step raises the log-likelihood from %.12g to %.12g", c.counts, elo, best[h], l)
					}
				}
			}
		}
		if got, want := c.s.UnitsLLR(u), best[1]-best[0]; math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("%v %v: LLR %.12g, the maxima differ by %.12g", c.counts, c.s, got, want)
		}
	}
}

// feasibleStep is a random step d that keeps a distribution p one, with
// its mean: sum d_i = 0 and sum d_i x_i = 0. It is p_i w_i, w random and
// made orthogonal to p and to p∘x, so that each cell moves in proportion
// to its own size and none leaves the simplex for small steps.
func feasibleStep(rng *rand.Rand, p, x []float64) []float64 {
	w := make([]float64, len(p))
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	a := slices.Clone(p)
	b := make([]float64, len(p))
	for i := range b {
		b[i] = p[i] * x[i]
	}
	dot := func(u, v []float64) float64 {
		s := 0.0
		for i := range u {
			s += u[i] * v[i]
		}
		return s
	}
	// Gram-Schmidt: b made orthogonal to a, then w to both.
	for i, f := 0, dot(b, a)/dot(a, a); i < len(b); i++ {
		b[i] -= f * a[i]
	}
	for _, e := range [][]float64{a, b} {
		f := dot(w, e) / dot(e, e)
		for i := range w {
			w[i] -= f * e[i]
		}
	}
	for i := range w {
		w[i] *= p[i]
	}
	return w
}

// TestExpectedShareRoundTrips: the n-player Elo formula is the logistic
// one for two, gives 1/n at no difference, rises with the difference,
// agrees with strengths 10^(elo/400) shared out, and eloOfShare inverts it.
func TestExpectedShareRoundTrips(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		last := 0.0
		for _, d := range []float64{-1000, -400, -20, -0.5, 0, 0.5, 5, 20, 137, 400, 1000} {
			s := expectedShare(d, n)
			strength := math.Pow(10, d/400)
			if want := strength / (strength + float64(n-1)); math.Abs(s-want) > 1e-12 {
				t.Errorf("n %d, elo %g: share %g, strengths give %g", n, d, s, want)
			}
			if !(s > last && s < 1) {
				t.Errorf("n %d, elo %g: share %g, not between %g and 1", n, d, s, last)
			}
			last = s
			if back := eloOfShare(s, n); math.Abs(back-d) > 1e-9*max(1, math.Abs(d)) {
				t.Errorf("n %d: elo %g → share %g → elo %g", n, d, s, back)
			}
		}
		if s := expectedShare(0, n); math.Abs(s-1/float64(n)) > 1e-15 {
			t.Errorf("n %d: share %g at elo 0, want 1/%d", n, s, n)
		}
		if !math.IsInf(eloOfShare(0, n), -1) || !math.IsInf(eloOfShare(1, n), 1) || !math.IsInf(eloOfShare(-0.1, n), -1) || !math.IsInf(eloOfShare(1.5, n), 1) {
			t.Errorf("n %d: the ends are not ±Inf", n)
		}
	}
	for _, d := range []float64{-300, 0, 7, 300} {
		if a, b := expectedShare(d, 2), 1/(1+math.Pow(10, -d/400)); a != b {
			t.Errorf("two players at %g: %g, logistic %g", d, a, b)
		}
	}
}

// threeUnits are three-player counts from a map of cell to units.
func threeUnits(cells map[int]int) Units {
	u := NewUnits(3)
	for k, n := range cells {
		u.Counts[k] = n
	}
	return u
}

// TestUnitsEloThreePlayers: the estimate is the Elo of the mean share per
// game, the interval the normal one over units, through the n-player
// formula; no units give NaN, all-perfect units +inf.
func TestUnitsEloThreePlayers(t *testing.T) {
	// Cells 6 and 12: points 1 and 2 of 3, shares 1/3 and 2/3, half each:
	// mean 0.5, variance (1/6)² over 20 units.
	half := 1.959964 * math.Sqrt(1./36/20)
	inv := func(s float64) float64 { return 400 * math.Log10(2*s/(1-s)) }
	inf := math.Inf(1)
	for _, c := range []struct {
		u           Units
		elo, lo, hi float64
		text        string
	}{
		{u: threeUnits(map[int]int{6: 10, 12: 10}), elo: inv(0.5), lo: inv(0.5 - half), hi: inv(0.5 + half), text: "+120 [+69, +172]"},
		{u: threeUnits(map[int]int{6: 4}), elo: 0, lo: 0, hi: 0, text: "0 [0, 0]"},
		{u: threeUnits(map[int]int{18: 3}), elo: inf, lo: inf, hi: inf, text: "+inf [+inf, +inf]"},
		{u: threeUnits(map[int]int{0: 3}), elo: -inf, lo: -inf, hi: -inf, text: "-inf [-inf, -inf]"},
		{u: threeUnits(map[int]int{0: 1, 18: 1}), elo: inv(0.5), lo: -inf, hi: inf, text: "+120 [-inf, +inf]"},
	} {
		elo, lo, hi := c.u.Elo()
		if !near(elo, c.elo) || !near(lo, c.lo) || !near(hi, c.hi) {
			t.Errorf("%v: Elo %g [%g, %g], want %g [%g, %g]", c.u, elo, lo, hi, c.elo, c.lo, c.hi)
		}
		if got := c.u.EloText(); got != c.text {
			t.Errorf("%v: EloText %q, want %q", c.u, got, c.text)
		}
	}
	if elo, lo, hi := NewUnits(3).Elo(); !math.IsNaN(elo) || !math.IsNaN(lo) || !math.IsNaN(hi) || NewUnits(3).EloText() != "-" {
		t.Errorf("no units: Elo %g [%g, %g], want NaN", elo, lo, hi)
	}
}

// TestUnitsLLRFiniteThreePlayers: no units, every unit in one cell (each
// cell in turn), very many units and the widest hypotheses give a finite
// ratio; no units give next to none (the priors alone, far inside the
// bounds), and many perfect units favour H1, many lost ones H0.
func TestUnitsLLRFiniteThreePlayers(t *testing.T) {
	for _, s := range []SPRT{DefaultSPRT(), {-1000, 1000, 0.05, 0.05}, {999, 1000, 0.05, 0.05}, {-1000, -999, 0.05, 0.05}} {
		if llr := s.UnitsLLR(NewUnits(3)); !(math.Abs(llr) < 0.1) {
			t.Errorf("%v: no units, LLR %g", s, llr)
		}
		for k, ok := range NewUnits(3).reachable() {
			if !ok {
				continue
			}
			for _, n := range []int{1, 1e9} {
				u := threeUnits(map[int]int{k: n})
				llr := s.UnitsLLR(u)
				if math.IsNaN(llr) || math.IsInf(llr, 0) {
					t.Errorf("%v: %d units in cell %d, LLR %g", s, n, k, llr)
				}
				if n > 1 && (k == 0 && !(llr < 0) || k == 18 && !(llr > 0)) {
					t.Errorf("%v: %d units in cell %d, LLR %g of the wrong sign", s, n, k, llr)
				}
			}
		}
	}
}

// TestUnitsLLRRisesThreePlayers: a unit moved to a better cell raises the
// ratio, one more perfect unit raises it and one more lost unit lowers it.
func TestUnitsLLRRisesThreePlayers(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	reach := NewUnits(3).reachable()
	var cells []int
	for k, ok := range reach {
		if ok {
			cells = append(cells, k)
		}
	}
	for _, base := range []Units{threeUnits(map[int]int{0: 30, 3: 10, 6: 50, 9: 20, 12: 25, 18: 8}), threeUnits(nil), threeUnits(map[int]int{6: 10})} {
		llr := s.UnitsLLR(base)
		for i, k := range cells[:len(cells)-1] {
			if base.Counts[k] == 0 {
				continue
			}
			moved := threeUnits(nil)
			copy(moved.Counts, base.Counts)
			moved.Counts[k]--
			moved.Counts[cells[i+1]]++
			if got := s.UnitsLLR(moved); !(got > llr) {
				t.Errorf("%v → %v: LLR %g, not above %g", base, moved, got, llr)
			}
		}
		better, worse := threeUnits(nil), threeUnits(nil)
		copy(better.Counts, base.Counts)
		copy(worse.Counts, base.Counts)
		better.Counts[18]++
		worse.Counts[0]++
		if up, down := s.UnitsLLR(better), s.UnitsLLR(worse); !(up > llr && down < llr) {
			t.Errorf("%v: LLR %g; with a perfect unit %g, with a lost one %g", base, llr, up, down)
		}
	}
}

// threeGameOdds are the first player's chances in one game of three, with
// a mean share of the point at elo over each of two equal others: given
// shares of games won with one other (1/2) and of draws of all (1/3), the
// rest is a win alone or a loss, in the proportion that gives the
// expected share, and tilt moves chances from the loss to the win.
func threeGameOdds(elo, shared, drawn, tilt float64) (shares, odds []float64) {
	win := expectedShare(elo, 3) - shared/2 - drawn/3 + tilt
	return []float64{0, 1. / 3, 0.5, 1}, []float64{1 - win - shared - drawn, drawn, shared, win}
}

// runThreeSPRT draws units of three games from the odds at elo, the games
// of a unit sharing an opening that tilts all three of them one way or
// the other (evenly about none, so the mean share stays the one at elo),
// until the test decides or maxUnits pass ("" then), and returns the
// verdict and the units played.
func runThreeSPRT(rng *rand.Rand, s SPRT, elo float64, maxUnits int) (string, int) {
	u := NewUnits(3)
	for n := 1; n <= maxUnits; n++ {
		tilt := 0.1 * (2*rng.Float64() - 1) // the opening: up to a tenth of a game either way
		shares, odds := threeGameOdds(elo, 0.1, 0.1, tilt)
		unit := make([]float64, 3)
		for g := range unit {
			x, i := rng.Float64(), 0
			for i < len(odds)-1 && x >= odds[i] {
				x -= odds[i]
				i++
			}
			unit[g] = shares[i]
		}
		if err := u.Add(unit...); err != nil {
			panic(err)
		}
		if v := s.Verdict(s.UnitsLLR(u)); v != "" {
			return v, n
		}
	}
	return "", maxUnits
}

// TestThreePlayerSPRTErrorRates simulates three-player matches at the
// Elo of each hypothesis and counts wrong verdicts, as
// TestSPRTErrorRates does for two: at elo0 the share of "H1 accepted"
// must stay within alpha, at elo1 that of "H0 accepted" within beta,
// each with a margin of three binomial standard deviations. The openings
// tilt each unit's games alike, so that the games of a unit are not
// independent, as in a real match. Under -short it makes 40 runs a side of a wide test; else 400 of a
// narrower one.
func TestThreePlayerSPRTErrorRates(t *testing.T) {
	s, runs := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}, 40
	if !testing.Short() {
		s, runs = SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.1}, 400
	}
	rng := rand.New(rand.NewPCG(24, 5))
	for _, c := range []struct {
		elo   float64
		wrong string
		rate  float64
	}{{s.Elo0, "H1 accepted", s.Alpha}, {s.Elo1, "H0 accepted", s.Beta}} {
		wrong, undecided, units := 0, 0, 0
		for range runs {
			v, n := runThreeSPRT(rng, s, c.elo, 100000)
			units += n
			switch v {
			case c.wrong:
				wrong++
			case "":
				undecided++
			}
		}
		limit := c.rate + 3*math.Sqrt(c.rate*(1-c.rate)/float64(runs))
		t.Logf("%v at elo %g: %d of %d wrong (%.3f, limit %.3f), %.0f units a run",
			s, c.elo, wrong, runs, float64(wrong)/float64(runs), limit, float64(units)/float64(runs))
		if undecided > 0 || float64(wrong)/float64(runs) > limit {
			t.Errorf("at elo %g: %d of %d runs wrong, %d undecided; limit %.3f", c.elo, wrong, runs, undecided, limit)
		}
	}
}
