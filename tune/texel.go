package tune

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/minimize"
)

// Set is a position file read back: the positions, each player's points
// from the game each came from, and which positions are held out to
// check the fit.
type Set struct {
	Header  Header
	Players int
	States  []game.State
	Points  [][game.MaxPlayers]float32
}

// holdOut is one position in holdOut kept out of the fit: the fit is
// judged on them, so that a fit that learns the training positions by
// heart shows.
const holdOut = 10

// Train and Validation tell whether position i is fitted or held out.
func trainIndex(i int) bool { return i%holdOut != holdOut-1 }

// Load reads a position file of g.
func Load(r io.Reader, g game.Game) (*Set, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	if !sc.Scan() {
		return nil, fmt.Errorf("empty position file")
	}
	h, err := parseHeader(sc.Text())
	if err != nil {
		return nil, err
	}
	if h.Game != g.ID() || h.Options != g.Options().String() {
		return nil, fmt.Errorf("the positions are of %s, not %s", describe(h.Game, h.Options), describe(g.ID(), g.Options().String()))
	}
	set := &Set{Header: h, Players: g.Players()}
	for line := 2; sc.Scan(); line++ {
		if err := set.add(g, sc.Text()); err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if len(set.States) > MaxPositions {
			return nil, fmt.Errorf("more than %d positions", MaxPositions)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(set.States) < holdOut {
		return nil, fmt.Errorf("%d positions: at least %d are needed", len(set.States), holdOut)
	}
	return set, nil
}

// add reads one line: a FEN, a tab, each player's points.
func (set *Set) add(g game.Game, line string) error {
	fen, result, ok := strings.Cut(line, "\t")
	if !ok {
		return fmt.Errorf("%s: write a FEN, a tab and the points", clip.Quote(line))
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		return err
	}
	fields := strings.Fields(result)
	if len(fields) != set.Players {
		return fmt.Errorf("points %s: give one number for each of %d players", clip.Quote(result), set.Players)
	}
	var pts [game.MaxPlayers]float32
	sum := 0.0
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !(x >= 0 && x <= 1) {
			return fmt.Errorf("points %s: each is from 0 to 1", clip.Quote(result))
		}
		pts[i] = float32(x)
		sum += x
	}
	if math.Abs(sum-1) > 0.01 {
		return fmt.Errorf("points %s: they add up to 1", clip.Quote(result))
	}
	set.States = append(set.States, s)
	set.Points = append(set.Points, pts)
	return nil
}

// Errors is the fit's mean squared error on the fitted and the held-out
// positions.
type Errors struct{ Train, Validation float64 }

// errorOf is the mean squared error of ev's predictions at scale k: for
// each position, player p is predicted to score softmax(k·e)[p] of the
// evaluations e, which for two players is the logistic curve of k times
// the difference, and each prediction is compared with the points p
// scored. It runs on workers goroutines over fixed slices of the set, so
// the sum, and so the result, is the same every time.
func (set *Set) errorOf(ev game.Evaluation, k float64, workers int) Errors {
	t := &tuner{set: set, workers: workers}
	return t.sumErrors(k, func(i int) [game.MaxPlayers]int { return ev.Evaluate(set.States[i]) })
}

// Config says how Tune works.
type Config struct {
	Workers int
	// Steps are the sizes of the changes tried, largest first.
	Steps []int
	// Fixed names the weights held as they are: the unit the others are
	// counted in (a soldier's 100).
	Fixed []string
	// Progress, when set, is told each change kept.
	Progress func(Step)
	// Note, when set, is told of each linear model made.
	Note func(string)
}

// Step is one change Tune kept.
type Step struct {
	Name     string
	From, To int
	Errors   Errors
}

// Result is what a fit found.
type Result struct {
	Weights       any // a pointer to the weights struct
	K             float64
	Before, After Errors
	// Evaluations counts the trials, Confirmations those judged again by
	// the evaluation in full, Models the linear models made.
	Evaluations, Confirmations, Models int
}

// minGain is the least fall of the error, as a share of it, that a pass
// must make for another pass at the same step size.
const minGain = 2e-5

// DefaultSteps returns the sizes of change Tune tries by default, big
// changes first.
func DefaultSteps() []int { return []int{32, 16, 8, 4, 2, 1} }

// Tune fits g's weights, starting from the game's own, to set. It first
// fits the scale k with the starting weights, then, for each step size,
// passes over the weights trying each one up and down by the step and
// keeping a change that lowers the training error, until a pass keeps
// nothing or gains next to nothing; k is fitted again after each step
// size.
//
// A trial is judged first through a linear model of the evaluations (see
// model), made again at the start of each step size. A change the model
// finds better is judged again by the evaluation in full and kept only if
// that error is lower too, so every error the fit keeps and reports is
// the evaluation's own, and each change kept lowers it: the fit ends.
func Tune(ctx context.Context, set *Set, g game.Tunable, cfg Config) (Result, error) {
	if cfg.Workers < 1 || cfg.Workers > MaxWorkers {
		return Result{}, fmt.Errorf("workers %d: give 1 to %d", cfg.Workers, MaxWorkers)
	}
	w := g.Weights()
	names := game.WeightNames(w)
	vals := game.WeightValues(w)
	fixed := map[int]bool{}
	for _, f := range cfg.Fixed {
		i := indexOf(names, f)
		if i < 0 {
			return Result{}, fmt.Errorf("no weight named %s", clip.Quote(f))
		}
		fixed[i] = true
	}
	t := &tuner{set: set, g: g, w: w, workers: cfg.Workers, fixed: fixed, names: names, cfg: cfg}
	res := Result{Weights: w}
	k, before, err := t.fitK(vals)
	if err != nil {
		return res, err
	}
	res.Before = before
	best := before
	for _, step := range cfg.Steps {
		if err := t.remodel(ctx, vals, 2*step); err != nil {
			return t.stopped(ctx, res, vals, k, best, err)
		}
		if best, err = t.descend(ctx, vals, step, k, best); err != nil {
			return t.stopped(ctx, res, vals, k, best, err)
		}
		// The unit stays, so the scale moves little: fitted again once a
		// step size is done.
		if k, best, err = t.fitK(vals); err != nil {
			return res, err
		}
	}
	return t.result(res, vals, k, best), nil
}

// stopped is the result of a fit stopped by err: what it had reached if
// the context was cancelled, err otherwise.
func (t *tuner) stopped(ctx context.Context, res Result, vals []int, k float64, best Errors, err error) (Result, error) {
	if ctx.Err() != nil {
		return t.result(res, vals, k, best), nil
	}
	return res, err
}

// descend makes passes at one step size until one keeps nothing or gains
// next to nothing.
func (t *tuner) descend(ctx context.Context, vals []int, step int, k float64, best Errors) (Errors, error) {
	for {
		passStart := best.Train
		changed, err := t.pass(ctx, vals, step, k, &best)
		if err != nil {
			return best, err
		}
		// A pass that gains next to nothing ends the step size: the
		// last digits of the error are the positions' noise, and
		// passes at that level cost minutes for no strength.
		if !changed || passStart-best.Train < minGain*passStart {
			return best, nil
		}
	}
}

// pass tries every weight not fixed once, up and down by step, keeping
// each change that lowers the training error.
func (t *tuner) pass(ctx context.Context, vals []int, step int, k float64, best *Errors) (bool, error) {
	changed := false
	for i := range vals {
		if t.fixed[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return changed, err
		}
		moved, errs, err := t.tryBoth(vals, i, step, k, *best)
		if err != nil {
			return changed, err
		}
		if moved != 0 {
			changed = true
			if t.cfg.Progress != nil {
				t.cfg.Progress(Step{Name: t.names[i], From: vals[i] - moved, To: vals[i], Errors: errs})
			}
			*best = errs
		}
	}
	return changed, nil
}

// tryBoth tries weight i up by step, then down, and keeps the first
// that lowers the training error below best's, by the model and then by
// the evaluation in full; it returns the change kept (0 for none) and
// the evaluation's errors with it.
func (t *tuner) tryBoth(vals []int, i, step int, k float64, best Errors) (int, Errors, error) {
	for _, d := range []int{step, -step} {
		vals[i] += d
		t.evaluations++
		byModel, err := t.model.errorOf(t, vals, k)
		if err != nil {
			return 0, best, err
		}
		if byModel.Train < best.Train {
			t.confirmations++
			errs, err := t.fullErrors(vals, k)
			if err != nil {
				return 0, best, err
			}
			if errs.Train < best.Train {
				return d, errs, nil
			}
		}
		vals[i] -= d
	}
	return 0, best, nil
}

// remodel makes the model of the evaluations around vals, checked up to
// spread away, and says so.
func (t *tuner) remodel(ctx context.Context, vals []int, spread int) error {
	m, err := t.newModel(ctx, vals, t.fixed, spread)
	if err != nil {
		return err
	}
	t.model = m
	t.models++
	if t.cfg.Note != nil {
		t.cfg.Note(fmt.Sprintf("linear model %d: %.1f%% of positions computed by it, the rest in full", t.models, 100*m.linear()))
	}
	return nil
}

// tuner holds what one fit works with.
type tuner struct {
	set     *Set
	g       game.Tunable
	w       any
	workers int
	fixed   map[int]bool
	names   []string
	cfg     Config
	model   *model
	// models, evaluations and confirmations count the models made, the
	// trials and the trials judged again in full.
	models, evaluations, confirmations int
}

// fullErrors judges the weights vals at scale k by the evaluation in full.
func (t *tuner) fullErrors(vals []int, k float64) (Errors, error) {
	ev, err := t.evaluation(vals)
	if err != nil {
		return Errors{}, err
	}
	return t.set.errorOf(ev, k, t.workers), nil
}

// fitK finds the scale that fits vals best, by golden-section search of
// log k between 1e-5 and 1 (an evaluation's hundredths of a piece make k
// near 0.01). The evaluations do not depend on k: they are made once.
func (t *tuner) fitK(vals []int) (float64, Errors, error) {
	evals, err := t.evaluateAll(vals)
	if err != nil {
		return 0, Errors{}, err
	}
	at := func(x float64) float64 { return t.errorsOf(evals, math.Exp(x)).Train }
	k := math.Exp(minimize.Golden(math.Log(1e-5), math.Log(1.0), 25, at))
	return k, t.errorsOf(evals, k), nil
}

// errorsOf is the errors of the evaluations evals (see evaluateAll) at
// scale k.
func (t *tuner) errorsOf(evals []int64, k float64) Errors {
	players := t.set.Players
	return t.sumErrors(k, func(i int) (e [game.MaxPlayers]int) {
		for p := range players {
			e[p] = int(evals[i*players+p])
		}
		return e
	})
}

// result fills in what the fit ended with.
func (t *tuner) result(res Result, vals []int, k float64, best Errors) Result {
	// The weights struct holds the last trial's numbers: set the kept ones.
	_ = game.SetWeightValues(t.w, vals)
	res.K, res.After = k, best
	res.Evaluations, res.Confirmations, res.Models = t.evaluations, t.confirmations, t.models
	return res
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// describe names a game and its options.
func describe(id, options string) string {
	if options == "" {
		return id
	}
	return id + " (" + options + ")"
}
