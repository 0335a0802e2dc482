package hall

import (
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// A game's clock starts with its first move: nobody loses on time before
// the game has begun (an invited player may not have opened the link
// yet). A game with a clock whose first move does not come within
// AbortAfter of its creation (a correspondence game: one period) is
// aborted: it ends with no winner and counts for nothing. The rules of
// the clock (Fischer or correspondence, the flag fall, an engine's share
// of its time) are package play's; the hall stores the clock's reading
// after every change and arms a timer for the flag or the abort. Time
// runs while the server is down: a flag that fell meanwhile falls at the
// next start.

// MinGameBase is the least time a seat of a server's game starts with: a
// person needs a moment to make a move at all (a match of engines plays
// on millisecond clocks, which timecontrol allows).
const MinGameBase = time.Second

// newClock reads a create request's time control: "5m+3s" or "300+3"
// (Fischer, as timecontrol.Parse reads it) or a number of days per move;
// neither means no clock.
func newClock(fischer string, days int) (*timecontrol.Control, error) {
	switch {
	case fischer != "" && days != 0:
		return nil, Errorf(Invalid, "give either clock (real time, such as 5m+3s) or days (per move), not both")
	case fischer != "":
		tc, err := timecontrol.Parse(fischer)
		if err != nil {
			return nil, Errorf(Invalid, "clock %s", err)
		}
		if tc.Base < MinGameBase {
			return nil, Errorf(Invalid, "clock %s: a game on the server gives each seat at least %s", quote(fischer), MinGameBase)
		}
		return &tc, nil
	case days != 0:
		tc, err := timecontrol.DaysPerMove(days)
		if err != nil {
			return nil, Errorf(Invalid, "%s", err)
		}
		return &tc, nil
	}
	return nil, nil
}

// storedClock is a new game's clock as the store keeps it: waiting for
// the first move.
func storedClock(tc *timecontrol.Control, seats int) *store.Clock {
	if tc == nil {
		return nil
	}
	return &store.Clock{Control: *tc, Left: play.Waiting(*tc, seats).Left}
}

// stopTimer disarms the game's timer. e.mu is held.
func (e *entry) stopTimer() {
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	e.waitsFirst = false
}

// watchClock arms the timer that ends the game when the seat to move runs
// out of time, or that aborts it when its first move does not come.
// e.mu is held.
func (h *Hall) watchClock(e *entry) {
	e.stopTimer()
	if !e.loaded || h.closing.Load() || e.over() {
		return
	}
	if wait, ok := h.abortWait(e); ok {
		e.timer = time.AfterFunc(max(wait, 0)+time.Millisecond, func() { h.abortUnstarted(e) })
		e.waitsFirst = true
		return
	}
	if wait, ok := e.pg.TimeToFlag(); ok {
		e.timer = time.AfterFunc(max(wait, 0)+time.Millisecond, func() { h.flagFall(e) })
	}
}

// abortWait is the time left before a clocked game with no move yet is
// aborted. e.mu is held.
func (h *Hall) abortWait(e *entry) (time.Duration, bool) {
	c := e.g.Clock
	if c == nil || e.g.Ply > 0 {
		return 0, false
	}
	return e.g.Created.Add(h.firstMoveWindow(c)).Sub(h.now()), true
}

// flagFall ends the game on time if the seat to move has none left.
func (h *Hall) flagFall(e *entry) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	defer h.contain(e, "clock", &err)
	e.timer = nil
	if h.closing.Load() || e.evicted {
		return
	}
	err = h.decide(h.ctx, e, func() error {
		_, err := e.pg.Tick()
		return err
	})
	if err != nil {
		h.log.Warn("flag fall", "game", e.id, "err", err)
	}
	h.afterChange(e)
}

// abortUnstarted aborts the game if it still has no move and its wait is
// over; else it watches the clock again.
func (h *Hall) abortUnstarted(e *entry) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	defer h.contain(e, "abort", &err)
	e.timer, e.waitsFirst = nil, false
	if h.closing.Load() || e.evicted || !e.loaded {
		return
	}
	if wait, ok := h.abortWait(e); ok && wait <= 0 && !e.over() {
		err = h.abort(e)
		if err != nil {
			h.log.Warn("abort", "game", e.id, "err", err)
		}
	}
	h.afterChange(e)
}

// abort ends a game nobody started: no winner, reason Aborted. The
// game in play is rebuilt from the stored end. e.mu is held.
func (h *Hall) abort(e *entry) error {
	next := e.next(h.now())
	next.Result = StoredResult(game.DrawBy(game.Aborted), len(e.g.Seats))
	next.DrawOffer = -1
	next.Rated = false // an aborted game changes no rating
	if err := h.store.Update(h.ctx, next); err != nil {
		return err
	}
	e.g.Header = next
	if err := h.rebuild(e); err != nil {
		return err
	}
	h.stats.aborted.Add(1)
	h.log.Info("aborted", "game", e.id, "why", "no first move in time")
	h.broadcast(e, nil)
	return nil
}

// abortOverdue aborts the stored games with a clock whose first move is
// overdue: those that left memory, whose timers went with them.
func (h *Hall) abortOverdue() {
	games, err := h.store.List(h.ctx, store.Filter{Ongoing: true, Limit: 1 << 30})
	if err != nil {
		h.log.Warn("abort sweep", "err", err)
		return
	}
	now := h.now()
	for _, g := range games {
		if g.Clock == nil || g.Ply > 0 || !now.After(g.Created.Add(h.firstMoveWindow(g.Clock))) {
			continue
		}
		e := h.lock(g.ID)
		if err := h.load(h.ctx, e); err == nil {
			h.watchClock(e) // aborts at once: the wait is over
		}
		e.mu.Unlock()
	}
}

// firstMoveWindow is how long a game with clock c waits for its first
// move.
func (h *Hall) firstMoveWindow(c *store.Clock) time.Duration {
	if c.Control.Correspondence() {
		return c.Control.PerMove
	}
	return h.cfg.AbortAfter
}
