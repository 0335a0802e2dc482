package play

import (
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// Waiting is the clock of a game on control tc not begun: every seat's
// full time, and no seat charged until the first move (a server's game,
// where a player may not have opened the invitation yet).
func Waiting(tc timecontrol.Control, seats int) ClockState {
	c := ClockState{Left: make([]time.Duration, seats)}
	for i := range c.Left {
		c.Left[i] = tc.Full()
	}
	return c
}

// ClockState is a clock's reading: each seat's time left at TurnStart,
// the seat to move being charged from TurnStart on. A zero TurnStart is a
// clock that waits for the first move.
type ClockState struct {
	Left      []time.Duration
	TurnStart time.Time
}

// Running reports whether the seat to move is being charged.
func (c ClockState) Running() bool { return !c.TurnStart.IsZero() }

func (c ClockState) clone() ClockState {
	return ClockState{Left: slices.Clone(c.Left), TurnStart: c.TurnStart}
}

// elapsed is how long the seat to move has been charged at now.
func (c ClockState) elapsed(now time.Time) time.Duration {
	if !c.Running() {
		return 0
	}
	return now.Sub(c.TurnStart)
}

// clock runs a time control: its reading, and the readings before each
// move, for take-backs.
type clock struct {
	tc      timecontrol.Control
	at      ClockState
	history []ClockState
	// held, when set, is when the mover's clock was held: it is charged
	// nothing from then until it is resumed (an engine's turn waiting for
	// a worker on a busy server).
	held time.Time
}

// charged is how long the mover has been charged at now: the time since
// TurnStart, or until the clock was held.
func (c *clock) charged(now time.Time) time.Duration {
	if !c.held.IsZero() && now.After(c.held) {
		now = c.held
	}
	return c.at.elapsed(now)
}

// hold stops charging the mover from now on, until resume.
func (c *clock) hold(now time.Time) {
	if c.at.Running() && c.held.IsZero() {
		c.held = now
	}
}

// resume charges the mover again from now: the time it was held is given
// back, as if its turn had started that much later.
func (c *clock) resume(now time.Time) {
	if c.held.IsZero() {
		return
	}
	if now.After(c.held) {
		c.at.TurnStart = c.at.TurnStart.Add(now.Sub(c.held))
	}
	c.held = time.Time{}
}

// afterMove is the reading after mover moved at now: the mover charged
// for its thinking and given its increment (or its next move's time), the
// next seat's time starting.
func (c *clock) afterMove(mover game.Player, now time.Time) ClockState {
	next := c.at.clone()
	next.Left[mover] -= c.charged(now)
	if c.tc.Correspondence() {
		next.Left[mover] = c.tc.PerMove
	} else {
		next.Left[mover] += c.tc.Increment
	}
	next.TurnStart = now
	return next
}

// moved takes the reading after a move, keeping the one before for undo.
func (c *clock) moved(next ClockState) {
	c.history = append(c.history, c.at)
	c.at = next
	c.held = time.Time{}
}

// undone puts the clocks back as they were before the last move; the seat
// to move again starts thinking now, unless the clock was waiting.
func (c *clock) undone(now time.Time) ClockState {
	next := c.at.clone()
	if n := len(c.history); n > 0 {
		next = c.history[n-1].clone()
	}
	if next.Running() {
		next.TurnStart = now
	}
	return next
}

// afterFlag is the reading once the mover's flag fell: its time is up and
// the clock stops there.
func (c *clock) afterFlag(mover game.Player, now time.Time) ClockState {
	next := c.at.clone()
	next.Left[mover] = max(next.Left[mover]-c.charged(now), 0)
	next.TurnStart = now
	return next
}

// left is each seat's time at now; the mover's runs unless the game is
// over.
func (c *clock) left(mover game.Player, now time.Time, over bool) []time.Duration {
	out := slices.Clone(c.at.Left)
	if !over {
		out[mover] -= c.charged(now)
	}
	for i := range out {
		out[i] = max(out[i], 0)
	}
	return out
}

// flagged reports whether the mover's time is up.
func (c *clock) flagged(mover game.Player, now time.Time) bool {
	return c.at.Running() && c.at.Left[mover]-c.charged(now) <= 0
}

// engineClock is the mover's clock at now as an engine plans by it (see
// ai.PlanTime): its time left, at least a millisecond (a flag about to
// fall still gets a move at once, not a search without a clock), and its
// increment. A correspondence move plans as sudden death would, a share
// of the time left, as the engines' own move times cap it anyway.
func (c *clock) engineClock(mover game.Player, now time.Time) ai.MoverClock {
	return ai.MoverClock{Left: max(c.at.Left[mover]-c.charged(now), time.Millisecond), Increment: c.tc.Increment}
}
