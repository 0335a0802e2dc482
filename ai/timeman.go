package ai

import (
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// MoverClock is what the mover's clock reads as its search starts, the
// engine's view of it: the time left, the increment it gains after the
// move, and the moves until the next time control (0 when none comes:
// Fischer or sudden death). The rule behind it is a timecontrol.Control.
type MoverClock struct {
	Left, Increment time.Duration
	MovesToGo       int
}

// On reports whether the clock is given: a search with no time left has
// no clock to plan by.
func (c MoverClock) On() bool { return c.Left > 0 }

// TimePlan is what a search may spend on one move of a clock: after Soft
// it starts no new iteration, at Hard it stops mid-iteration.
type TimePlan struct {
	Soft, Hard time.Duration
}

// The rules of PlanTime.
const (
	// Reserve is never planned to be spent: a move has to reach the
	// clock, through a pipe for an external engine, on a machine that may
	// be busy. On the project's 2-core machine under a load of 13 to 19,
	// a busy thread was measured waiting for a core 100 ms at the 99th
	// percentile and 430 ms at worst (3000 spells of 10 ms); in 13,000
	// moves at 1s+10ms a move overran its hard limit by 220 ms at the 99th
	// percentile and by 790 ms once, and a search of a millisecond cost
	// 7 ms on average. Kept aside, a late answer costs time, not the
	// game. A clock with less than Reserve left answers at once until its
	// increments fill it up.
	Reserve = 600 * time.Millisecond
	// defaultMovesToGo is how many moves the time left has to last when
	// the clock does not say: a game of these ids often lasts 40 moves a
	// side and more, and the increment pays for the later ones.
	defaultMovesToGo = 40
	// incShare is the share of the increment a move spends: the rest
	// banks time against a busy machine's delays.
	incShare = 0.5
	// refill is how far above Reserve a search starts to spend its whole
	// share of the increment; below, it spends less, in proportion, so
	// that a clock running low fills up again instead of hovering over
	// the reserve.
	refill = 300 * time.Millisecond
	// maxStretch bounds Hard as a multiple of Soft: a search that runs
	// late, or extends its budget in an unclear position, stays within a
	// few moves' share.
	maxStretch = 5
	// minThink is the least either limit gives: a search always gets to
	// finish its first iteration's first nodes.
	minThink = time.Millisecond
)

// PlanTime is the time manager's budget for one move on clock c. What may
// be spent is the time left beyond Reserve; Soft is the share of it that
// the remaining moves allow plus incShare of the increment (less while
// the spendable time is under refill); Hard is at most maxStretch
// times that, and at most half of the spendable time plus the increment's
// share unless this is the last move before the control. Both are at
// least a millisecond, even with nothing to spend.
func PlanTime(c MoverClock) TimePlan {
	spendable := c.Left - Reserve
	if spendable <= 0 {
		return TimePlan{Soft: minThink, Hard: minThink}
	}
	togo := defaultMovesToGo
	if c.MovesToGo > 0 {
		togo = c.MovesToGo
	}
	// In floating point: the increment may be hours, and times a
	// duration in nanoseconds that would overflow.
	inc := time.Duration(float64(c.Increment) * incShare * min(1, float64(spendable)/float64(refill)))
	soft := spendable/time.Duration(togo) + inc
	hardCap := spendable
	if togo > 1 {
		hardCap = min(spendable, spendable/2+inc)
	}
	hard := min(hardCap, soft*maxStretch)
	soft = min(soft, hard)
	return TimePlan{Soft: max(soft, minThink), Hard: max(hard, minThink)}
}

// The rules of an iterative search's stop decision (see timeManager).
const (
	// unclearStretch multiplies the soft budget when the best move changed
	// in the last iteration, droppedStretch when its score dropped by
	// more than scoreDrop.
	unclearStretch = 2.0
	droppedStretch = 1.5
	scoreDrop      = 30
	// stableIterations of one best move make it clear: the soft budget
	// shrinks to clearShare.
	stableIterations = 4
	clearShare       = 0.5
	// nextIterationGrowth is how much longer than all the iterations so
	// far the next one is taken to last: one that cannot end before the
	// hard limit is not started, since an aborted iteration is wasted.
	nextIterationGrowth = 1.5
)

// timeManager decides, after each iteration of a search on a clock,
// whether to start another: it tracks how stable the best move is.
type timeManager struct {
	plan       TimePlan
	iterations int
	lastMove   game.Move
	lastScore  int
	stable     int // iterations in a row with the same best move
}

// enough reports whether the search, elapsed into its move, should stop
// after an iteration that found best among moves legal moves: at once for
// a forced move, else when the soft budget, stretched or shrunk by how
// clear the position looks, is spent, or when the next iteration could not
// end before the hard limit.
func (tm *timeManager) enough(moves int, best Info, elapsed time.Duration) bool {
	tm.iterations++
	changed := tm.iterations > 1 && best.Move != tm.lastMove
	dropped := tm.iterations > 1 && tm.lastScore-best.Score > scoreDrop
	if changed || tm.iterations == 1 {
		tm.stable = 0
	} else {
		tm.stable++
	}
	tm.lastMove, tm.lastScore = best.Move, best.Score
	if moves == 1 {
		return true
	}
	scale := 1.0
	switch {
	case changed:
		scale = unclearStretch
	case dropped:
		scale = droppedStretch
	case tm.stable >= stableIterations:
		scale = clearShare
	}
	soft := min(time.Duration(float64(tm.plan.Soft)*scale), tm.plan.Hard)
	return elapsed >= soft || time.Duration(float64(elapsed)*(1+nextIterationGrowth)) >= tm.plan.Hard
}
