package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// TimeControl is a Fischer clock: every seat starts with Base and gains
// Increment after each of its moves.
type TimeControl struct {
	Base, Increment time.Duration
}

// String writes the control as ParseTimeControl reads it: "5m+3s".
func (tc TimeControl) String() string {
	return short(tc.Base) + "+" + short(tc.Increment)
}

// short writes a duration without Go's trailing zero units ("5m", not
// "5m0s").
func short(d time.Duration) string {
	if d == 0 || d%time.Second != 0 {
		return d.String()
	}
	var sb strings.Builder
	h, m, sec := d/time.Hour, d%time.Hour/time.Minute, d%time.Minute/time.Second
	for _, part := range []struct {
		n    time.Duration
		unit string
	}{{h, "h"}, {m, "m"}, {sec, "s"}} {
		if part.n != 0 {
			fmt.Fprintf(&sb, "%d%s", part.n, part.unit)
		}
	}
	return sb.String()
}

// The bounds of a time control: a game a person can play, and time the
// arithmetic never overflows.
const (
	minBase      = time.Second
	maxBase      = 30 * 24 * time.Hour
	maxIncrement = 24 * time.Hour
)

// ParseTimeControl reads "BASE+INCREMENT" in Go's duration syntax, such as
// "5m+3s" or "90s+0s"; "5m" alone has no increment.
func ParseTimeControl(text string) (TimeControl, error) {
	baseText, incText, hasInc := strings.Cut(text, "+")
	base, err := time.ParseDuration(baseText)
	if err != nil {
		return TimeControl{}, fmt.Errorf("%q: write the time as BASE+INCREMENT, such as 5m+3s", text)
	}
	var inc time.Duration
	if hasInc {
		if inc, err = time.ParseDuration(incText); err != nil {
			return TimeControl{}, fmt.Errorf("%q: the increment %q is not a duration such as 3s", text, incText)
		}
	}
	switch {
	case base < minBase || base > maxBase:
		return TimeControl{}, fmt.Errorf("%q: the time must be from %s to %s", text, minBase, maxBase)
	case inc < 0 || inc > maxIncrement:
		return TimeControl{}, fmt.Errorf("%q: the increment must be from 0s to %s", text, maxIncrement)
	}
	return TimeControl{Base: base, Increment: inc}, nil
}

// clock runs a TimeControl: the time each seat has left, and since when
// the seat to move has been thinking.
type clock struct {
	tc      TimeControl
	rest    []time.Duration
	since   time.Time
	history [][]time.Duration // rest before each move, for undo
}

func newClock(tc TimeControl, seats int, now time.Time) *clock {
	c := &clock{tc: tc, rest: make([]time.Duration, seats), since: now}
	for i := range c.rest {
		c.rest[i] = tc.Base
	}
	return c
}

// moved charges the mover for its thinking, adds the increment and starts
// the next seat's time.
func (c *clock) moved(mover, _ game.Player, now time.Time) {
	c.history = append(c.history, slices.Clone(c.rest))
	c.rest[mover] -= now.Sub(c.since)
	c.rest[mover] += c.tc.Increment
	c.since = now
}

// undo puts the clocks back as they were before the last move; the seat
// to move again starts thinking now.
func (c *clock) undo(now time.Time) {
	if n := len(c.history); n > 0 {
		c.rest, c.history = c.history[n-1], c.history[:n-1]
	}
	c.since = now
}

// left is each seat's time now; the mover's runs unless the game is over.
func (c *clock) left(mover game.Player, now time.Time, over bool) []time.Duration {
	out := slices.Clone(c.rest)
	if !over {
		out[mover] -= now.Sub(c.since)
	}
	for i := range out {
		out[i] = max(out[i], 0)
	}
	return out
}

// flagged reports whether the mover's time is up.
func (c *clock) flagged(mover game.Player, now time.Time) bool {
	return c.rest[mover]-now.Sub(c.since) <= 0
}

// stop charges the mover up to now and stops its clock: the game is over.
func (c *clock) stop(mover game.Player, now time.Time) {
	c.rest[mover] = max(c.rest[mover]-now.Sub(c.since), 0)
	c.since = now
}

// budget is what an engine may spend on this move: a thirtieth of its
// time and most of the increment, never more than is left less a margin
// for the answer to travel.
func (c *clock) budget(mover game.Player, now time.Time) time.Duration {
	left := c.rest[mover] - now.Sub(c.since)
	b := left/30 + c.tc.Increment*4/5
	b = min(b, max(left-50*time.Millisecond, left/2))
	return max(b, time.Millisecond)
}
