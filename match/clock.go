package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// checkClock refuses a match's time control out of its bounds, and a
// correspondence one: a match plays on Fischer clocks. The zero Control
// (none) passes.
func checkClock(c timecontrol.Control) error {
	switch {
	case !c.On():
		return nil
	case c.Correspondence():
		return errors.New("a match plays on Fischer clocks, not days per move")
	}
	return c.Check()
}

// playClocked plays s to its end with seats[p] choosing for player p, as
// ai.PlayGame does, with each seat's clock running while its engine
// thinks: the engine is given its clock (and lim's other limits), and a
// move that arrives when the mover's time is up is not played: the mover
// loses on time, every other seat winning. It returns the searches, the
// time on the mover's clock as each move arrived, and the result.
func playClocked(ctx context.Context, s game.State, seats []ai.Engine, lim ai.Limits, c timecontrol.Control) ([]ai.Info, []time.Duration, game.Result, error) {
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
		info, spent := timedSearch(ctx, s, seats[p], lim, ai.MoverClock{Left: clocks[p], Increment: c.Increment})
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
func timedSearch(ctx context.Context, s game.State, e ai.Engine, lim ai.Limits, clock ai.MoverClock) (ai.Info, time.Duration) {
	lim.Clock = clock
	// The flag's deadline counts from the same instant as the time
	// charged: a deadline taken first, on a busy machine, let a search
	// cut off by it seem to arrive in time.
	start := time.Now()
	flag, cancel := context.WithDeadline(ctx, start.Add(clock.Left))
	defer cancel()
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
	var clock timecontrol.Control
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
