package server

import (
	"fmt"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/session"
	"github.com/arbiter-games/arbiter/store"
)

// A game's clock starts with its first move: nobody loses on time before
// the game has begun (an invited player may not have opened the link
// yet). Store.Clock.TurnStart is zero until then.
//
// Real time is Fischer (Base, plus Increment after each move);
// correspondence gives each move PerMove (whole days). Left holds every
// seat's time at TurnStart; the seat to move is charged from TurnStart.

// maxDays bounds a correspondence game's days per move.
const maxDays = 30

// newClock reads a create request's time control: "5m+3s" (Fischer) or a
// number of days per move; neither means no clock.
func newClock(fischer string, days, seats int) (*store.Clock, error) {
	switch {
	case fischer != "" && days != 0:
		return nil, fail(codeInvalid, "give either clock (real time, such as 5m+3s) or days (per move), not both")
	case fischer != "":
		tc, err := session.ParseTimeControl(fischer)
		if err != nil {
			return nil, fail(codeInvalid, "clock %s", err)
		}
		return fill(&store.Clock{Base: tc.Base, Increment: tc.Increment}, tc.Base, seats), nil
	case days < 0 || days > maxDays:
		return nil, fail(codeInvalid, "days %d: want 1 to %d days per move", days, maxDays)
	case days > 0:
		per := time.Duration(days) * 24 * time.Hour
		return fill(&store.Clock{PerMove: per}, per, seats), nil
	}
	return nil, nil
}

func fill(c *store.Clock, each time.Duration, seats int) *store.Clock {
	c.Left = make([]time.Duration, seats)
	for i := range c.Left {
		c.Left[i] = each
	}
	return c
}

// running reports whether the clock has started.
func running(c *store.Clock) bool { return !c.TurnStart.IsZero() }

// leftAt is seat p's time at now, the seat to move being charged.
func leftAt(c *store.Clock, p, toMove int, over bool, now time.Time) time.Duration {
	left := c.Left[p]
	if p == toMove && running(c) && !over {
		left -= now.Sub(c.TurnStart)
	}
	return max(left, 0)
}

// moved charges the mover, gives it its increment (or its next move's
// days) and starts the next seat's time.
func moved(c *store.Clock, mover int, now time.Time) {
	if running(c) {
		c.Left[mover] -= now.Sub(c.TurnStart)
	}
	if c.PerMove > 0 {
		c.Left[mover] = c.PerMove
	} else {
		c.Left[mover] += c.Increment
	}
	c.TurnStart = now
}

// flagged reports whether the seat to move has run out of time.
func flagged(c *store.Clock, toMove int, now time.Time) bool {
	return running(c) && c.Left[toMove]-now.Sub(c.TurnStart) <= 0
}

// budget is what an engine may spend on this move: a thirtieth of its
// time and most of the increment, never more than half of what is left.
func budget(c *store.Clock, toMove int, now time.Time) time.Duration {
	left := leftAt(c, toMove, toMove, false, now)
	b := left/30 + c.Increment*4/5
	return max(min(b, left/2), time.Millisecond)
}

// watchClock arms the timer that ends the game when the seat to move runs
// out of time. e.mu is held.
func (s *Server) watchClock(e *entry) {
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	c := e.g.Clock
	if c == nil || !running(c) || e.over() || s.closing.Load() {
		return
	}
	to := int(e.state.ToMove())
	wait := c.Left[to] - s.now().Sub(c.TurnStart)
	e.timer = time.AfterFunc(max(wait, 0)+time.Millisecond, func() { s.flagFall(e) })
}

// flagFall ends the game on time if the seat to move has none left.
func (s *Server) flagFall(e *entry) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s.closing.Load() {
		return
	}
	if _, err := s.checkFlag(e); err != nil {
		s.log.Warn("flag fall", "game", e.id, "err", err)
	}
	s.watchClock(e)
}

// checkFlag stores the loss on time of the seat to move if its time is
// up, and reports whether it did. e.mu is held.
func (s *Server) checkFlag(e *entry) (bool, error) {
	c := e.g.Clock
	now := s.now()
	if c == nil || e.over() || !flagged(c, int(e.state.ToMove()), now) {
		return false, nil
	}
	to := e.state.ToMove()
	next := e.next(now)
	next.Clock.Left[to] = 0
	next.Clock.TurnStart = now
	next.Result = against(to, e.rules.Players(), game.TimeForfeit)
	next.DrawOffer = -1
	if err := s.commitUpdate(s.ctx, e, next); err != nil {
		return false, err
	}
	s.log.Info("flag fell", "game", e.id, "seat", int(to))
	s.broadcast(e, nil)
	return true, nil
}

// clockView is a clock as the API shows it, in milliseconds.
type clockView struct {
	Kind        string  `json:"kind"` // "fischer" or "correspondence"
	Control     string  `json:"control"`
	BaseMs      int64   `json:"baseMs,omitempty"`
	IncrementMs int64   `json:"incrementMs,omitempty"`
	PerMoveMs   int64   `json:"perMoveMs,omitempty"`
	LeftMs      []int64 `json:"leftMs"`
	Running     bool    `json:"running"`
}

func viewClock(c *store.Clock, toMove int, over bool, now time.Time) *clockView {
	if c == nil {
		return nil
	}
	v := &clockView{Kind: "fischer", BaseMs: c.Base.Milliseconds(), IncrementMs: c.Increment.Milliseconds(),
		PerMoveMs: c.PerMove.Milliseconds(), Running: running(c) && !over}
	v.Control = session.TimeControl{Base: c.Base, Increment: c.Increment}.String()
	if c.PerMove > 0 {
		v.Kind = "correspondence"
		v.Control = strconv.Itoa(int(c.PerMove/(24*time.Hour))) + fmt.Sprintf(" day%s per move", plural(int(c.PerMove/(24*time.Hour))))
	}
	for p := range c.Left {
		v.LeftMs = append(v.LeftMs, leftAt(c, p, toMove, over, now).Milliseconds())
	}
	return v
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
