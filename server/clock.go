package server

import (
	"time"

	"github.com/arbiter-games/arbiter/session"
	"github.com/arbiter-games/arbiter/store"
)

// A game's clock starts with its first move: nobody loses on time before
// the game has begun (an invited player may not have opened the link
// yet). The rules of the clock (Fischer or correspondence, the flag fall,
// an engine's share of its time) are the session's; the server stores
// the clock's reading after every change and arms a timer for the flag.

// newClock reads a create request's time control: "5m+3s" (Fischer) or a
// number of days per move; neither means no clock.
func newClock(fischer string, days int) (*session.TimeControl, error) {
	switch {
	case fischer != "" && days != 0:
		return nil, fail(codeInvalid, "give either clock (real time, such as 5m+3s) or days (per move), not both")
	case fischer != "":
		tc, err := session.ParseTimeControl(fischer)
		if err != nil {
			return nil, fail(codeInvalid, "clock %s", err)
		}
		return &tc, nil
	case days != 0:
		tc, err := session.DaysPerMove(days)
		if err != nil {
			return nil, fail(codeInvalid, "%s", err)
		}
		return &tc, nil
	}
	return nil, nil
}

// storedClock is a new game's clock as the store keeps it: waiting for
// the first move.
func storedClock(tc *session.TimeControl, seats int) *store.Clock {
	if tc == nil {
		return nil
	}
	return &store.Clock{Base: tc.Base, Increment: tc.Increment, PerMove: tc.PerMove, Left: tc.Waiting(seats).Left}
}

// watchClock arms the timer that ends the game when the seat to move runs
// out of time. e.mu is held.
func (s *Server) watchClock(e *entry) {
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	if !e.loaded || s.closing.Load() {
		return
	}
	if wait, ok := e.ss.TimeToFlag(); ok {
		e.timer = time.AfterFunc(max(wait, 0)+time.Millisecond, func() { s.flagFall(e) })
	}
}

// flagFall ends the game on time if the seat to move has none left.
func (s *Server) flagFall(e *entry) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.timer = nil
	if s.closing.Load() || e.evicted {
		return
	}
	err := s.decide(s.ctx, e, func() error {
		_, err := e.ss.Tick()
		return err
	})
	if err != nil {
		s.log.Warn("flag fall", "game", e.id, "err", err)
	}
	s.watchClock(e)
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

func viewClock(snap session.Snapshot) *clockView {
	tc := snap.Control
	if tc == nil {
		return nil
	}
	v := &clockView{Kind: "fischer", Control: tc.String(), BaseMs: tc.Base.Milliseconds(),
		IncrementMs: tc.Increment.Milliseconds(), PerMoveMs: tc.PerMove.Milliseconds(), Running: snap.Running}
	if tc.PerMove > 0 {
		v.Kind = "correspondence"
	}
	for _, left := range snap.Left {
		v.LeftMs = append(v.LeftMs, left.Milliseconds())
	}
	return v
}
