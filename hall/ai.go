package hall

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/store"
)

// kickAI queues the turn of the AI to move, unless one is queued already,
// the game needs attention or has ended. The turn waits for a worker, so
// that searches at once never exceed the workers. e.mu is held.
func (h *Hall) kickAI(e *entry) {
	if e.thinking || !e.loaded || h.closing.Load() || e.attention != "" || e.over() {
		return
	}
	if e.g.Seats[e.pg.ToMove()].Player == "human" {
		return
	}
	e.thinking = true
	class, wait := Foreground, time.Duration(0)
	if !hasPerson(e.g.Seats) {
		class, wait = Background, e.g.Updated.Add(h.cfg.AIGamePace).Sub(h.now())
	}
	h.goTask(func() {
		if h.pause(wait) {
			h.think(e, class)
		} else {
			h.finishThinking(e, nil)
		}
	})
}

// pause waits d, or less if the hall closes first; it reports whether the
// wait ran its course.
func (h *Hall) pause(d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-h.ctx.Done():
		return false
	}
}

// think runs one AI turn of e: wait for a worker, search a copy of the
// position without holding the game, then play the move if the game did
// not change meanwhile. A panic anywhere in the turn costs the game its
// AI move: it is logged and the game marked, and the process goes on.
//
// The engine's clock is held while its turn waits for a worker: the wait
// is given back when the search starts, and its flag cannot fall in the
// queue (docs/server.md, "The AI's clock"), so that no AI seat loses on
// time because the server is busy.
func (h *Hall) think(e *entry, class Class) {
	e.mu.Lock()
	e.pg.HoldEngineClock()
	e.mu.Unlock()
	release, err := h.queue.acquire(h.ctx, class)
	if err != nil {
		h.finishThinking(e, nil) // shutting down: the next start resumes the turn
		return
	}
	defer release()
	turn, err := h.startTurn(e)
	if turn == nil {
		h.finishThinking(e, err)
		return
	}
	info, err := h.search(e, turn)
	if err != nil {
		h.failTurn(e, err)
		return
	}
	release()
	h.playTurn(e, turn, info)
}

// startTurn reads the position to search, under the game's lock.
func (h *Hall) startTurn(e *entry) (turn *play.EngineTurn, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	defer h.contain(e, "AI turn", &err)
	e.pg.ResumeEngineClock()
	h.watchClock(e)
	err = h.decide(h.ctx, e, func() (err error) {
		turn, err = e.pg.EngineTurn()
		return err
	})
	return turn, err
}

// search runs the engine's search, turning a panic into an error.
func (h *Hall) search(e *entry, turn *play.EngineTurn) (info ai.Info, err error) {
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 8<<10)
			buf = buf[:runtime.Stack(buf, false)]
			h.log.Error("panic", "game", e.id, "in", "AI search", "engine", turn.Engine.Name(), "panic", fmt.Sprint(p), "stack", string(buf))
			err = fmt.Errorf("the engine %s failed: %v", turn.Engine.Name(), p)
		}
	}()
	info = turn.Search(h.ctx, nil)
	if info.Err != nil && h.ctx.Err() == nil {
		return info, info.Err
	}
	return info, nil
}

// failTurn marks a game whose engine failed: no further AI turn is run
// for it in this process, and the game shows why.
func (h *Hall) failTurn(e *entry, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.thinking = false
	h.stats.aiFailures.Add(1)
	h.log.Error("AI search failed", "game", e.id, "err", err)
	e.attention = "the AI could not move in this game; the server's operator has been told"
	h.broadcast(e, nil)
}

// playTurn plays the move the engine found, unless the game changed.
func (h *Hall) playTurn(e *entry, turn *play.EngineTurn, info ai.Info) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	defer h.contain(e, "AI move", &err)
	e.thinking = false
	if h.ctx.Err() != nil {
		return // shutting down: the next start resumes the turn
	}
	err = h.decide(h.ctx, e, func() error { return e.pg.PlayTurn(turn, info.Move) })
	if err != nil && !expectedAIRefusal(err) {
		h.log.Error("AI move not stored", "game", e.id, "err", err)
		return
	}
	h.afterChange(e) // a move dropped because the game changed is searched again
}

// expectedAIRefusal reports whether an AI turn ended without a move for a
// reason of the game's, not a failure: the game changed or ended while it
// thought, or another process played first.
func expectedAIRefusal(err error) bool {
	return errors.Is(err, play.ErrChanged) || errors.Is(err, play.ErrOver) ||
		errors.Is(err, play.ErrNoEngine) || errors.Is(err, store.ErrConflict)
}

// finishThinking ends a turn that found nothing to search. A failure to
// make the engine (a spec stored before the server refused it) marks the
// game, as a failed search does, rather than trying again at every change.
func (h *Hall) finishThinking(e *entry, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.thinking = false
	if errors.Is(err, errNoMemory) {
		h.retryForMemory(e)
		return
	}
	if err != nil && !expectedAIRefusal(err) && h.ctx.Err() == nil {
		h.stats.aiFailures.Add(1)
		h.log.Error("AI turn", "game", e.id, "err", err)
		e.attention = "the AI could not move in this game; the server's operator has been told"
		h.broadcast(e, nil)
	}
}

// retryForMemory tries an AI turn that found no room for its engines
// again after memoryRetry: the game waits for memory, as a person's
// reply waits for a worker, rather than failing. e.mu is held.
func (h *Hall) retryForMemory(e *entry) {
	e.thinking = true      // the turn stays queued meanwhile
	e.pg.HoldEngineClock() // and is not charged for the wait
	h.goTask(func() {
		ok := h.pause(memoryRetry)
		e.mu.Lock()
		defer e.mu.Unlock()
		e.thinking = false
		if ok && !e.evicted {
			h.kickAI(e)
		}
	})
}
