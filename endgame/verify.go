package endgame

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/game"
)

// Report is what Verify found.
type Report struct {
	// Positions is how many positions were checked.
	Positions uint64
	// Failures counts the positions whose value does not follow from
	// their children's; Examples describes the first few.
	Failures uint64
	Examples []string
}

// maxExamples is how many failures a Report describes.
const maxExamples = 10

// Verify checks every position of every material in t against its
// children, with the game's own move generator: a win in N has a move to
// a loss in N-1 (or takes the last enemy piece, N = 1) and none to a
// shorter loss; a loss in N has only moves to wins, the longest in N-1
// (a loss in 0 has no move); a draw has a move to a draw and none to a
// loss. Values that pass this everywhere are the game's values: by
// induction on the distance, every win and loss is forced, and a draw
// that could be won would have a move to a loss. progress, when set, is
// called with positions done and the total now and then.
func Verify(ctx context.Context, t *Tables, workers int, progress func(done, total uint64)) (Report, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var total uint64
	for _, st := range t.materials {
		total += st.l.size()
	}
	v := &verifier{t: t, total: total, progress: progress}
	for _, ms := range t.man.Materials {
		m, err := ParseMaterial(ms.Material)
		if err != nil {
			return v.report(), err
		}
		if err := v.material(ctx, m, workers); err != nil {
			return v.report(), err
		}
	}
	return v.report(), nil
}

// verifier is one Verify's state.
type verifier struct {
	t        *Tables
	total    uint64
	done     atomic.Uint64
	checked  atomic.Uint64
	failures atomic.Uint64
	progress func(done, total uint64)
	mu       sync.Mutex
	examples []string
}

func (v *verifier) report() Report {
	v.mu.Lock()
	defer v.mu.Unlock()
	return Report{Positions: v.checked.Load(), Failures: v.failures.Load(), Examples: append([]string(nil), v.examples...)}
}

// chunk is how many indexes a worker takes at a time.
const chunk = 1 << 14

// material checks every index of m, workers side by side.
func (v *verifier) material(ctx context.Context, m Material, workers int) error {
	st, err := v.t.loaded(m)
	if err != nil {
		return err
	}
	size := st.l.size()
	var next atomic.Uint64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			c := v.newChecker()
			for ctx.Err() == nil {
				from := next.Add(chunk) - chunk
				if from >= size {
					return
				}
				for i := from; i < min(from+chunk, size); i++ {
					if err := c.check(m, st, i); err != nil {
						errs[w] = err
						return
					}
				}
				if d := v.done.Add(min(chunk, size-from)); v.progress != nil && w == 0 {
					v.progress(d, v.total)
				}
			}
			errs[w] = ctx.Err()
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checker checks positions one at a time with scratch of its own.
type checker struct {
	v      *verifier
	st     game.State
	pl     game.Placer
	pieces []game.Placed
	child  []game.Placed
	moves  []game.Move
}

func (v *verifier) newChecker() *checker {
	st := v.t.g.Start()
	return &checker{v: v, st: st, pl: st.(game.Placer)}
}

// check checks index i of material m.
// In drop tables both bounds are checked, each against its own rule for
// the moves beyond the tables (see dropSystem.solve).
func (c *checker) check(m Material, st *stored, i uint64) error {
	if _, code := st.bounds[0].at(i); code == wdlNone {
		return nil
	}
	var toMove game.Player
	c.pieces, toMove = st.l.position(i, c.pieces[:0])
	if err := c.pl.Place(c.pieces, toMove); err != nil {
		return fmt.Errorf("endgame: %s index %d: %v", m, i, err)
	}
	bounds := 1
	if c.v.t.man.Drops {
		bounds = 2
	}
	for x := range bounds {
		got, err := c.v.t.boundValue(m, c.pieces, toMove, x)
		if err != nil {
			return err
		}
		want, err := c.fromChildren(x)
		if err != nil {
			return err
		}
		c.v.checked.Add(1)
		if got != want {
			what := ""
			if bounds == 2 {
				what = fmt.Sprintf(" (bound %d)", x)
			}
			c.v.fail(fmt.Sprintf("%s: the table says %v%s, its moves say %v", c.fen(), got, what, want))
		}
	}
	return nil
}

// fromChildren is the value the position in c.st has by its children's
// values in the tables (bound x of drop tables, where a child beyond the
// tables is a win in 1 when x is to move in it, else a loss in 0).
func (c *checker) fromChildren(x int) (Value, error) {
	c.moves = c.st.Moves(c.moves[:0])
	bestLoss, longestWin, draw := -1, -1, false
	for _, mv := range c.moves {
		var toMove game.Player
		var cm Material
		c.child, toMove, cm = childOf(c.st, c.pl, mv, c.child)
		var cv Value
		switch {
		case cm.Side(toMove) == 0:
			cv = Value{Kind: Loss} // the move took the last enemy piece
		case c.v.t.man.Drops && cm.Total() > c.v.t.man.Pieces:
			if cv = (Value{Kind: Loss}); int(toMove) == x {
				cv = Value{Kind: Win, Plies: 1}
			}
		default:
			var err error
			if cv, err = c.v.t.boundValue(cm, c.child, toMove, x); err != nil {
				return Value{}, err
			}
		}
		switch cv.Kind {
		case Loss:
			if bestLoss < 0 || cv.Plies < bestLoss {
				bestLoss = cv.Plies
			}
		case Win:
			longestWin = max(longestWin, cv.Plies)
		default:
			draw = true
		}
	}
	switch {
	case bestLoss >= 0:
		return Value{Kind: Win, Plies: bestLoss + 1}, nil
	case draw:
		return Value{Kind: Draw}, nil
	}
	return Value{Kind: Loss, Plies: longestWin + 1}, nil
}

func (c *checker) fen() string {
	if f, ok := c.st.(interface{ FEN() string }); ok {
		return f.FEN()
	}
	return "?"
}

// fail counts a failure and keeps its description if there is room.
func (v *verifier) fail(what string) {
	v.failures.Add(1)
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.examples) < maxExamples {
		v.examples = append(v.examples, what)
	}
}
