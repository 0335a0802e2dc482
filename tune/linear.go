package tune

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/arbiter-games/arbiter/game"
)

// A model is the set's evaluations written as linear functions of the
// weights around one point, so that a trial of new weights is a dot
// product per position rather than a whole evaluation.
//
// Most of an evaluation is a sum of counts times weights, but not all:
// Checkers 2011 hunts only when one side leads by HuntLead, and a weight
// times a number divided by 100 rounds. So the model is made where the fit
// stands: each weight's coefficient is the change one more point of it
// makes, and the model is checked at two nearby random points. A position
// whose evaluation the model misses at either is evaluated in full at
// every trial, so every error the fit computes is the one the game's own
// evaluation gives, except for a position that behaves linearly at all
// three probes and not at the point tried; the fit's final errors are
// computed in full.
type model struct {
	weights, players int
	// coef[(i*players+p)*weights+j] is weight j's coefficient in
	// position i's evaluation for player p, base[i*players+p] the rest.
	coef []int32
	base []int64
	// full lists the positions evaluated in full; isFull marks them.
	full   []int
	isFull []bool
}

// probes is how many nearby random points a model is checked at.
const probes = 2

// newModel makes the model of set's evaluations by g around the weights
// vals, checking it at points up to spread away from vals in each weight
// not fixed.
func (t *tuner) newModel(ctx context.Context, vals []int, fixed map[int]bool, spread int) (*model, error) {
	n, players, w := len(t.set.States), t.set.Players, len(vals)
	m := &model{weights: w, players: players, coef: make([]int32, n*players*w), base: make([]int64, n*players)}
	at, err := t.evaluateAll(vals)
	if err != nil {
		return nil, err
	}
	linear := make([]bool, n)
	for i := range linear {
		linear[i] = true
	}
	trial := append([]int(nil), vals...)
	for j := range w {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		trial[j]++
		up, err := t.evaluateAll(trial)
		if err != nil {
			return nil, err
		}
		trial[j]--
		for k := range at {
			d := up[k] - at[k]
			if d != int64(int32(d)) {
				linear[k/players] = false
			}
			m.coef[k*w+j] = int32(d)
		}
	}
	for k := range at {
		m.base[k] = at[k] - m.dot(k, vals)
	}
	rng := rand.New(rand.NewPCG(uint64(spread), uint64(w)))
	for range probes {
		for j := range trial {
			trial[j] = vals[j]
			if !fixed[j] {
				trial[j] += rng.IntN(2*spread+1) - spread
			}
		}
		got, err := t.evaluateAll(trial)
		if err != nil {
			return nil, err
		}
		for k := range got {
			if got[k] != m.base[k]+m.dot(k, trial) {
				linear[k/players] = false
			}
		}
	}
	m.isFull = make([]bool, n)
	for i, ok := range linear {
		if !ok {
			m.full = append(m.full, i)
			m.isFull[i] = true
		}
	}
	return m, nil
}

// dot is the model's evaluation of row k (a position and a player) at
// vals, less its base.
func (m *model) dot(k int, vals []int) int64 {
	row := m.coef[k*m.weights : (k+1)*m.weights]
	var sum int64
	for j, c := range row {
		sum += int64(c) * int64(vals[j])
	}
	return sum
}

// linear is the share of positions the model computes.
func (m *model) linear() float64 {
	n := len(m.base) / m.players
	return float64(n-len(m.full)) / float64(n)
}

// evaluateAll evaluates every position in full with the weights vals:
// entry i*players+p is position i's evaluation for player p.
func (t *tuner) evaluateAll(vals []int) ([]int64, error) {
	ev, err := t.evaluation(vals)
	if err != nil {
		return nil, err
	}
	players := t.set.Players
	out := make([]int64, len(t.set.States)*players)
	t.parallel(len(t.set.States), func(lo, hi int, _ int) {
		for i := lo; i < hi; i++ {
			e := ev.Evaluate(t.set.States[i])
			for p := range players {
				out[i*players+p] = int64(e[p])
			}
		}
	})
	return out, nil
}

// evaluation is g's evaluation with the weights vals.
func (t *tuner) evaluation(vals []int) (game.Evaluation, error) {
	if err := game.SetWeightValues(t.w, vals); err != nil {
		return nil, err
	}
	return t.g.EvaluationOf(t.w)
}

// parallel runs f over t.workers fixed slices of n items.
func (t *tuner) parallel(n int, f func(lo, hi, worker int)) {
	chunk := (n + t.workers - 1) / t.workers
	var wg sync.WaitGroup
	for w := range t.workers {
		wg.Go(func() { f(w*chunk, min(n, (w+1)*chunk), w) })
	}
	wg.Wait()
}

// errorOf is errorOf for the model at weights vals: positions the model
// cannot compute are evaluated in full.
func (m *model) errorOf(t *tuner, vals []int, k float64) (Errors, error) {
	var ev game.Evaluation
	if len(m.full) > 0 {
		var err error
		if ev, err = t.evaluation(vals); err != nil {
			return Errors{}, err
		}
	}
	set := t.set
	return t.sumErrors(k, func(i int) (e [game.MaxPlayers]int) {
		if m.isFull[i] {
			return ev.Evaluate(set.States[i])
		}
		for p := range set.Players {
			r := i*set.Players + p
			e[p] = int(m.base[r] + m.dot(r, vals))
		}
		return e
	}), nil
}

// sumErrors is the mean squared errors, fitted and held out, at scale k
// of the evaluations eval gives position by position. It runs on the
// tuner's workers over fixed slices of the set, so the sums, and so the
// result, are the same every time.
func (t *tuner) sumErrors(k float64, eval func(i int) [game.MaxPlayers]int) Errors {
	set := t.set
	sums := make([][2]float64, t.workers)
	t.parallel(len(set.States), func(lo, hi, w int) {
		for i := lo; i < hi; i++ {
			side := 1
			if trainIndex(i) {
				side = 0
			}
			sums[w][side] += set.squaredErrorOf(eval(i), k, i)
		}
	})
	return set.total(sums)
}

// squaredErrorOf is position i's mean squared error over the players
// when it is evaluated e.
func (set *Set) squaredErrorOf(e [game.MaxPlayers]int, k float64, i int) float64 {
	top := math.Inf(-1)
	for p := range set.Players {
		top = max(top, float64(e[p]))
	}
	var exp [game.MaxPlayers]float64
	sum := 0.0
	for p := range set.Players {
		exp[p] = math.Exp(k * (float64(e[p]) - top))
		sum += exp[p]
	}
	total := 0.0
	for p := range set.Players {
		d := exp[p]/sum - float64(set.Points[i][p])
		total += d * d
	}
	return total / float64(set.Players)
}

// total turns the workers' sums of squared errors, fitted and held out,
// into mean errors.
func (set *Set) total(sums [][2]float64) Errors {
	var total [2]float64
	for _, s := range sums {
		total[0] += s[0]
		total[1] += s[1]
	}
	n := len(set.States)
	validation := n / holdOut
	return Errors{Train: total[0] / float64(n-validation), Validation: total[1] / float64(validation)}
}

// misses counts the positions, among those the model computes, whose
// evaluation in full at vals differs from the model's.
func (m *model) misses(t *tuner, vals []int) (int, error) {
	got, err := t.evaluateAll(vals)
	if err != nil {
		return 0, err
	}
	missed := 0
	for i, full := range m.isFull {
		if full {
			continue
		}
		for p := range m.players {
			k := i*m.players + p
			if got[k] != m.base[k]+m.dot(k, vals) {
				missed++
				break
			}
		}
	}
	return missed, nil
}
