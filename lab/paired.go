package lab

import (
	"fmt"
	"github.com/arbiter-games/arbiter/game"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Paired comparisons. Two runs with the same seed, openings (book,
// random plies, start position) and games give game i the same opening
// and seats in both: the runs differ only in what was changed (an option,
// an engine), so the difference in a game's outcome is the change's
// effect on that game. A paired bootstrap resamples the games (game i of
// both runs together) and so keeps what the openings share, which an
// unpaired comparison counts as noise: the paired interval is narrower
// whenever the openings matter. Runs that cannot be paired are compared
// with an unpaired bootstrap, each run resampled on its own, and the table
// says so.

// The bootstrap's settings: fixed, so that a comparison gives the same
// interval every time it is made.
const (
	bootstrapResamples = 10_000
	bootstrapSeed      = 22
)

// outcome is what one game gives each measure of a comparison.
type outcome struct {
	identity string // the same for games that repeat move for move
	first    float64
	draw     float64
	plies    float64
	engines  map[string]float64
}

// outcomeOf reads a game's outcome: the points of the seat that moved
// first (a win 1, a shared first place its share, a draw 1/n), whether
// it was drawn, its length, and each engine's points.
func outcomeOf(d GameData, first int) outcome {
	n := len(d.Seats)
	o := outcome{plies: float64(len(d.Opening) + len(d.Moves)), engines: map[string]float64{}}
	moves := slices.Clone(d.Opening)
	for _, m := range d.Moves {
		moves = append(moves, m.Move)
	}
	o.identity = d.From + "|" + strings.Join(d.Seats, " ") + "|" + strings.Join(moves, " ")
	points := func(seat int) float64 {
		switch {
		case len(d.Winners) == 0:
			return 1 / float64(max(n, 1))
		case slices.Contains(d.Winners, seat):
			return 1 / float64(len(d.Winners))
		}
		return 0
	}
	o.first = points(first)
	if len(d.Winners) == 0 {
		o.draw = 1
	}
	for seat, name := range d.Seats {
		o.engines[name] += points(seat)
	}
	return o
}

// measure is one row of the differences: its name, how a game gives its
// value (ok false when the game has none), and how a difference is
// written.
type measure struct {
	name  string
	value func(o outcome) (float64, bool)
	unit  string  // "points" for shares in percentage points, "plies"
	scale float64 // 100 for shares
}

// measures are the differences a comparison gives: the first player's
// score, the draw rate, the mean length and each engine's score.
func measures(a, b []GameData) []measure {
	ms := []measure{
		{"first player's score", func(o outcome) (float64, bool) { return o.first, true }, "points", 100},
		{"draws", func(o outcome) (float64, bool) { return o.draw, true }, "points", 100},
		{"plies: mean", func(o outcome) (float64, bool) { return o.plies, true }, "plies", 1},
	}
	// An engine's score is a measure where the runs have several engines;
	// in self-play the one engine scores a fair share in every game.
	names := map[string]int{}
	for _, games := range [][]GameData{a, b} {
		seen := map[string]bool{}
		for _, d := range games {
			for _, s := range d.Seats {
				seen[s] = true
			}
		}
		for s := range seen {
			if len(seen) > 1 {
				names[s]++
			}
		}
	}
	var both []string
	for name, runs := range names {
		if runs == 2 {
			both = append(both, name)
		}
	}
	slices.Sort(both)
	for _, name := range both {
		ms = append(ms, measure{name + "'s score", func(o outcome) (float64, bool) { v, ok := o.engines[name]; return v, ok }, "points", 100})
	}
	return ms
}

// Difference is B − A for one measure with its 95% bootstrap interval,
// over N games (pairs of games when Paired).
type Difference struct {
	Diff   float64 `json:"diff"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	N      int     `json:"n"`
	Paired bool    `json:"paired"`
}

// steady reports whether the interval holds no difference at all: the
// data do not show a change.
func (d Difference) steady() bool { return d.N > 0 && d.Lo <= 0 && d.Hi >= 0 }

// pairable says why two runs' games cannot be paired game by game, ""
// when they can: the same game, seed, book, random plies, start and
// games (the options may differ: that is what a variant is).
func pairable(a, b Manifest) string {
	for _, f := range []struct {
		name string
		x, y any
	}{{"game", a.Game, b.Game}, {"seed", a.Seed, b.Seed}, {"openings book", bookText(a.Book), bookText(b.Book)}, {"opening plies", a.Opening, b.Opening},
		{"random plies' order", openingOrderText(a), openingOrderText(b)},
		{"from", fromText(a.From), fromText(b.From)}, {"games", a.Games, b.Games}} {
		if x, y := fmt.Sprint(f.x), fmt.Sprint(f.y); x != y {
			return fmt.Sprintf("%s %s and %s", f.name, x, y)
		}
	}
	return ""
}

// pairedDifference is B − A over the games with the same index in both
// runs, each pair of distinct games counted once, by a paired bootstrap.
func pairedDifference(a, b runGames, m measure) Difference {
	byIndex := map[int]outcome{}
	for _, d := range a.games {
		byIndex[d.Index] = outcomeOf(d, a.first)
	}
	seen := map[string]bool{}
	var diffs []float64
	for _, d := range b.games {
		oa, ok := byIndex[d.Index]
		if !ok {
			continue
		}
		ob := outcomeOf(d, b.first)
		va, okA := m.value(oa)
		vb, okB := m.value(ob)
		if key := oa.identity + "\n" + ob.identity; okA && okB && !seen[key] {
			seen[key] = true
			diffs = append(diffs, vb-va)
		}
	}
	d := bootstrap(diffs, nil)
	d.Paired = true
	return d
}

// unpairedDifference is B − A with each run's distinct games resampled on
// their own.
func unpairedDifference(a, b runGames, m measure) Difference {
	return bootstrap(distinctValues(b, m), distinctValues(a, m))
}

// runGames are a run's games and the seat that moves first in them (the
// option first=, or the side to move of the run's --from).
type runGames struct {
	games []GameData
	first int
}

// gamesOf pairs a run's games with its first mover.
func gamesOf(s *Summary, games []GameData) runGames {
	g, err := game.New(s.Run.Game, s.Run.Options)
	if err != nil {
		return runGames{games: games}
	}
	return runGames{games: games, first: int(firstMover(g, s.Run.From))}
}

// distinctValues are a measure's values over a run's distinct games.
func distinctValues(r runGames, m measure) []float64 {
	seen := map[string]bool{}
	var out []float64
	for _, d := range r.games {
		o := outcomeOf(d, r.first)
		if v, ok := m.value(o); ok && !seen[o.identity] {
			seen[o.identity] = true
			out = append(out, v)
		}
	}
	return out
}

// bootstrap is the mean of x less the mean of y (y nil: the mean of x)
// with the 2.5% and 97.5% quantiles of the same difference over
// bootstrapResamples resamples, x and y each drawn with replacement from
// itself. With no values the difference is NaN-free zero over N 0.
func bootstrap(x, y []float64) Difference {
	if len(x) == 0 || y != nil && len(y) == 0 {
		return Difference{}
	}
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(x))))
	d := Difference{Diff: mean(x) - meanOrZero(y), N: len(x)}
	if y != nil {
		d.N = min(len(x), len(y))
	}
	stats := make([]float64, bootstrapResamples)
	for r := range stats {
		stats[r] = resampledMean(rng, x) - resampledMeanOrZero(rng, y)
	}
	slices.Sort(stats)
	d.Lo, d.Hi = quantile(stats, 0.025), quantile(stats, 0.975)
	return d
}

// resampledMean is the mean of len(x) values drawn from x with
// replacement.
func resampledMean(rng *rand.Rand, x []float64) float64 {
	sum := 0.0
	for range x {
		sum += x[rng.IntN(len(x))]
	}
	return sum / float64(len(x))
}

func meanOrZero(y []float64) float64 {
	if y == nil {
		return 0
	}
	return mean(y)
}

func resampledMeanOrZero(rng *rand.Rand, y []float64) float64 {
	if y == nil {
		return 0
	}
	return resampledMean(rng, y)
}

// differences are B − A for every measure, paired when the runs can be.
func differences(a, b *Summary, gamesA, gamesB []GameData) (ms []measure, diffs []Difference, why string) {
	why = pairable(a.Run, b.Run)
	ms = measures(gamesA, gamesB)
	ra, rb := gamesOf(a, gamesA), gamesOf(b, gamesB)
	for _, m := range ms {
		if why == "" {
			diffs = append(diffs, pairedDifference(ra, rb, m))
		} else {
			diffs = append(diffs, unpairedDifference(ra, rb, m))
		}
	}
	return ms, diffs, why
}

// text writes a difference as "+3.2 [-1.0, +7.5] points, paired, n = 40".
func (d Difference) text(m measure) string {
	how := "paired"
	if !d.Paired {
		how = "unpaired"
	}
	if d.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%s [%s, %s] %s, %s, n = %d", signed1(m.scale*d.Diff), signed1(m.scale*d.Lo), signed1(m.scale*d.Hi),
		m.unit, how, d.N)
}

// signed1 writes x signed with one decimal, "+0.0" for anything that
// rounds to zero (never "-0.0").
func signed1(x float64) string {
	r := math.Round(x*10) / 10
	if r == 0 {
		r = 0 // -0 too
	}
	return fmt.Sprintf("%+.1f", r)
}
