package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Clock is a match's Fischer clock: in every game each seat starts with
// Base and gains Increment after each of its moves; a seat whose time runs
// out before its move arrives loses on time. The zero Clock is none.
type Clock struct {
	Base, Increment time.Duration
}

// The bounds of a clock: a base of at least a millisecond (less would
// lose every game at the first move), and a day at most for either, far
// from overflowing a game's arithmetic.
const (
	minClockBase  = time.Millisecond
	maxClockTime  = 24 * time.Hour
	maxClockText  = 64
	ClockAllowed  = "BASE+INCREMENT, such as 1s+10ms or 10+0.1 (seconds)"
	clockExamples = "base from 1ms to 24h, increment from 0 to 24h"
)

// On reports whether the match plays on a clock.
func (c Clock) On() bool { return c != Clock{} }

// String writes the clock as ParseClock reads it, "1s+10ms".
func (c Clock) String() string { return c.Base.String() + "+" + c.Increment.String() }

// Tag is the clock as a record's TimeControl tag gives it in the style of
// PGN, seconds: "1+0.01"; "" for none.
func (c Clock) Tag() string {
	if !c.On() {
		return ""
	}
	return seconds(c.Base) + "+" + seconds(c.Increment)
}

// seconds writes a duration in seconds, as short as exact.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// ParseClock reads "BASE+INCREMENT", each a Go duration ("1s", "10ms") or
// plain seconds ("10", "0.1"); "BASE" alone has no increment. It refuses
// a negative, zero (base), not finite or malformed time, one over a day,
// and text over 64 bytes, quoting at most 80 characters of it.
func ParseClock(text string) (Clock, error) {
	if len(text) > maxClockText {
		return Clock{}, fmt.Errorf("%s is longer than %d bytes: want %s", clip.Quote(text), maxClockText, ClockAllowed)
	}
	baseText, incText, hasInc := strings.Cut(text, "+")
	base, err := clockTime(baseText)
	if err != nil {
		return Clock{}, fmt.Errorf("%s: the base %w; want %s", clip.Quote(text), err, ClockAllowed)
	}
	var inc time.Duration
	if hasInc {
		if inc, err = clockTime(incText); err != nil {
			return Clock{}, fmt.Errorf("%s: the increment %w; want %s", clip.Quote(text), err, ClockAllowed)
		}
	}
	c := Clock{Base: base, Increment: inc}
	if err := c.bounds(); err != nil {
		return Clock{}, fmt.Errorf("%s: %w", clip.Quote(text), err)
	}
	return c, nil
}

// clockTime reads one time of a clock: a Go duration or plain seconds.
func clockTime(text string) (time.Duration, error) {
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
	case math.Abs(x) > maxClockTime.Seconds():
		return 0, fmt.Errorf("%s is over %s", clip.Quote(text), maxClockTime)
	}
	return time.Duration(x * float64(time.Second)), nil
}

// check refuses a clock out of its bounds; the zero Clock (none) passes.
func (c Clock) check() error {
	if !c.On() {
		return nil
	}
	return c.bounds()
}

// bounds refuses a clock out of its bounds, the zero Clock too.
func (c Clock) bounds() error {
	switch {
	case c.Base < minClockBase || c.Base > maxClockTime:
		return fmt.Errorf("a base of %s is out of range: %s", c.Base, clockExamples)
	case c.Increment < 0 || c.Increment > maxClockTime:
		return fmt.Errorf("an increment of %s is out of range: %s", c.Increment, clockExamples)
	}
	return nil
}

// playClocked plays s to its end with seats[p] choosing for player p, as
// ai.PlayGame does, with each seat's clock running while its engine
// thinks: the engine is given its clock (and lim's other limits), and a
// move that arrives when the mover's time is up is not played: the mover
// loses on time, every other seat winning. It returns the searches, the
// time on the mover's clock as each move arrived, and the result.
func playClocked(ctx context.Context, s game.State, seats []ai.Engine, lim ai.Limits, c Clock) ([]ai.Info, []time.Duration, game.Result, error) {
	n := s.Game().Players()
	clocks := make([]time.Duration, n)
	for p := range clocks {
		clocks[p] = c.Base
	}
	var moves []ai.Info
	var lefts []time.Duration
	for !s.Result().Over() {
		p := s.ToMove()
		if int(p) >= len(seats) || seats[p] == nil {
			return moves, lefts, game.Result{}, fmt.Errorf("no player for seat %s", s.Game().PlayerName(p))
		}
		info, spent := timedSearch(ctx, s, seats[p], lim, ai.Clock{Left: clocks[p], Increment: c.Increment})
		if err := ctx.Err(); err != nil {
			return moves, lefts, game.Result{}, err
		}
		if spent >= clocks[p] {
			return moves, lefts, lostOnTime(p, n), nil
		}
		if info.Err == nil && info.Move.Len() == 0 {
			info.Err = errors.New("the engine chose no move")
		}
		if info.Err != nil {
			return moves, lefts, game.Result{}, fmt.Errorf("%s (%s): %w", s.Game().PlayerName(p), seats[p].Name(), info.Err)
		}
		clocks[p] -= spent
		lefts = append(lefts, clocks[p])
		clocks[p] += c.Increment
		info.PV = nil // the record keeps the move and its score, not the line
		moves = append(moves, info)
		s.Play(info.Move)
	}
	return moves, lefts, s.Result(), nil
}

// timedSearch runs one search on the mover's clock and says how long it
// took, as the clock charges it: the whole call, so that an external
// engine pays for its pipe. The search is cancelled when the flag falls,
// since a later move counts for nothing.
func timedSearch(ctx context.Context, s game.State, e ai.Engine, lim ai.Limits, clock ai.Clock) (ai.Info, time.Duration) {
	lim.Clock = clock
	flag, cancel := context.WithTimeout(ctx, clock.Left)
	defer cancel()
	start := time.Now()
	info := e.Search(flag, s, lim, nil)
	return info, time.Since(start)
}

// lostOnTime is the result of a game whose player p ran out of time: every
// other seat wins.
func lostOnTime(p game.Player, players int) game.Result {
	res := game.Result{Reason: game.TimeForfeit}
	for q := range players {
		if game.Player(q) != p {
			res.Winners = res.Winners.Add(game.Player(q))
		}
	}
	return res
}

// clockText writes a clock reading as PGN's %clk does, "0:00:00.950".
func clockText(d time.Duration) string {
	h, m := d/time.Hour, d%time.Hour/time.Minute
	return fmt.Sprintf("%d:%02d:%06.3f", h, m, (d % time.Minute).Seconds())
}

// ClockReport is a line on the clock of games (those not nil) of players
// named names, in the order of a Config's Players: the flag falls, each
// player's, and the least time each player's clock showed as one of its
// moves arrived, the closest it came to losing on time. It is "" when no
// game was played on a clock.
func ClockReport(names []string, games []*GameLog) string {
	stats := make([]Stats, len(names))
	var clock Clock
	for _, l := range games {
		if l != nil && l.Clock.On() {
			clock = l.Clock
			tally(stats, l)
		}
	}
	if !clock.On() {
		return ""
	}
	falls, each, least := 0, make([]string, len(names)), make([]string, len(names))
	for k, st := range stats {
		falls += st.TimeLosses
		each[k] = fmt.Sprintf("%s %d", names[k], st.TimeLosses)
		least[k] = names[k] + " -"
		if st.LeastLeft > 0 {
			least[k] = fmt.Sprintf("%s %s", names[k], st.LeastLeft.Round(time.Millisecond/10))
		}
	}
	return fmt.Sprintf("clock %s: %d flag falls in %d games (%s); least time left as a move arrived: %s\n",
		clock, falls, stats[0].Games, strings.Join(each, ", "), strings.Join(least, ", "))
}
