// Package timecontrol is the rule of a game's clocks, the same for every
// seat: Fischer (a base time and an increment after each move) or
// correspondence (a fixed time for every move), and the one parser of
// its text, "BASE+INCREMENT". It is pure data, below every package that
// runs a clock (play for a server or terminal game, match for an
// engine match), so that each can import it; it knows no clock's reading.
//
// Three words, one meaning each across the tree:
//
//   - A time control is the rule: Control, and no other type. A stored
//     game's control and a seek's are Controls too; each JSON form of one
//     (store.Clock's stored form, the seeks table's clock column, and
//     lobby.SeekControl, a seek's control as posted and listed, in whole
//     seconds or days) converts to and from a Control in one place, and every text
//     of one ("5m+3s") is read by Parse.
//   - A clock is a game's running times under a control: play's
//     private clock runs a game's (charges the mover, adds the
//     increment, lets the flag fall), match runs an engine match's, and
//     store.Clock is a stored game's: its Control and its last reading.
//   - A reading is a clock's times at one instant, each seat's time left
//     at the start of the turn: play.ClockState (what a stored game
//     resumes from), ai.MoverClock (the mover's reading as a search plans
//     its time by it) and hall.ClockView (the reading the API shows, in
//     milliseconds).
//
// What tells a search to stop (ai's private stopper: its deadline, its
// node count) is no clock, though it may follow a clock's plan.
package timecontrol

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Control is a time control: Fischer (every seat starts with Base and
// gains Increment after each of its moves) or, when PerMove is set,
// correspondence (every move has PerMove afresh, whatever the seat saved
// before). The zero Control is none.
type Control struct {
	Base, Increment time.Duration
	PerMove         time.Duration
}

// The bounds of a control, one set for a server game and an engine
// match: a base of at least a millisecond (an engine match on a
// millisecond clock tests the flag; less loses every game at its first
// move) and at most MaxDays, an increment of at most a day, and text of
// at most MaxText bytes. Every time stays far from overflowing a game's
// arithmetic.
const (
	minBase      = time.Millisecond
	maxBase      = MaxDays * Day
	maxIncrement = Day
	// MaxDays bounds a correspondence control's days per move.
	MaxDays = 30
	// Day is a correspondence control's unit.
	Day = 24 * time.Hour
	// MaxText bounds the text Parse reads.
	MaxText = 64
	// Allowed says what Parse reads, for a refusal or a flag's help.
	Allowed = "BASE+INCREMENT, each a duration or seconds, such as 5m+3s or 10+0.1"
	// Bounds says the bounds of a control, for a refusal or a flag's help.
	Bounds = "base from 1ms to 720h (30 days), increment from 0 to 24h"
)

// On reports whether c is a control at all: the zero Control is none.
func (c Control) On() bool { return c != Control{} }

// Correspondence reports whether c gives every move a fixed time.
func (c Control) Correspondence() bool { return c.PerMove > 0 }

// Full is a seat's time at the start of the game, and a correspondence
// seat's after each of its moves.
func (c Control) Full() time.Duration {
	if c.Correspondence() {
		return c.PerMove
	}
	return c.Base
}

// String writes the control: "5m+3s" as Parse reads it, or "3 days per
// move".
func (c Control) String() string {
	if c.Correspondence() {
		if days := c.PerMove / Day; c.PerMove%Day == 0 {
			if days == 1 {
				return "1 day per move"
			}
			return fmt.Sprintf("%d days per move", days)
		}
		return short(c.PerMove) + " per move"
	}
	return short(c.Base) + "+" + short(c.Increment)
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

// Tag is the control as a record's TimeControl tag gives it, in PGN's
// seconds: "1+0.01" for Fischer, "1/259200" (one move in so many
// seconds) for correspondence, "" for none.
func (c Control) Tag() string {
	switch {
	case !c.On():
		return ""
	case c.Correspondence():
		return "1/" + seconds(c.PerMove)
	}
	return seconds(c.Base) + "+" + seconds(c.Increment)
}

// seconds writes a duration in seconds, as short as exact.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Parse reads a Fischer control, "BASE+INCREMENT", each a Go duration
// ("5m", "10ms") or plain seconds ("10", "0.1"); "BASE" alone has no
// increment. It refuses a negative, zero (base), not finite or malformed
// time, one out of Bounds, and text over MaxText bytes, quoting at most
// 80 characters of it.
func Parse(text string) (Control, error) {
	if len(text) > MaxText {
		return Control{}, fmt.Errorf("%s is longer than %d bytes: want %s", clip.Quote(text), MaxText, Allowed)
	}
	baseText, incText, hasInc := strings.Cut(text, "+")
	base, err := parseTime(baseText)
	if err != nil {
		return Control{}, fmt.Errorf("%s: the base %w; want %s", clip.Quote(text), err, Allowed)
	}
	var inc time.Duration
	if hasInc {
		if inc, err = parseTime(incText); err != nil {
			return Control{}, fmt.Errorf("%s: the increment %w; want %s", clip.Quote(text), err, Allowed)
		}
	}
	c := Control{Base: base, Increment: inc}
	if err := c.Check(); err != nil {
		return Control{}, fmt.Errorf("%s: %w", clip.Quote(text), err)
	}
	return c, nil
}

// parseTime reads one time of a control: a Go duration or plain seconds.
func parseTime(text string) (time.Duration, error) {
	text = strings.TrimSpace(text)
	if d, err := time.ParseDuration(text); err == nil {
		return d, nil
	}
	x, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil && text == "":
		return 0, errors.New("is missing")
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s is not a duration or a number of seconds", clip.Quote(text))
	case math.IsNaN(x) || math.IsInf(x, 0):
		return 0, fmt.Errorf("%s is not a finite number of seconds", clip.Quote(text))
	case math.Abs(x) > maxBase.Seconds():
		// Refused before the conversion, which would overflow.
		return 0, fmt.Errorf("%s is over %s", clip.Quote(text), maxBase)
	}
	return time.Duration(x * float64(time.Second)), nil
}

// DaysPerMove is a correspondence control of days (1 to MaxDays) per
// move.
func DaysPerMove(days int) (Control, error) {
	if days < 1 || days > MaxDays {
		return Control{}, fmt.Errorf("days %d: want 1 to %d days per move", days, MaxDays)
	}
	return Control{PerMove: time.Duration(days) * Day}, nil
}

// Check refuses a control out of its bounds, the zero Control too: a
// control filled in by hand is held to what Parse and DaysPerMove give.
func (c Control) Check() error {
	if c.PerMove != 0 {
		if c.PerMove < Day || c.PerMove > MaxDays*Day || c.PerMove%Day != 0 || c.Base != 0 || c.Increment != 0 {
			return fmt.Errorf("%s is out of range: want 1 to %d days per move, and no base or increment", c.PerMove, MaxDays)
		}
		return nil
	}
	switch {
	case c.Base < minBase || c.Base > maxBase:
		return fmt.Errorf("a base of %s is out of range: %s", c.Base, Bounds)
	case c.Increment < 0 || c.Increment > maxIncrement:
		return fmt.Errorf("an increment of %s is out of range: %s", c.Increment, Bounds)
	}
	return nil
}
