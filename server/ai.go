package server

import (
	"errors"

	"github.com/arbiter-games/arbiter/session"
	"github.com/arbiter-games/arbiter/store"
)

// kickAI starts the search of the AI to move, unless one runs already.
// The search waits for a worker slot, so that searches at once never
// exceed the workers (the cores). e.mu is held.
func (s *Server) kickAI(e *entry) {
	if e.thinking || !e.loaded || s.closing.Load() || e.over() {
		return
	}
	if e.g.Seats[e.ss.ToMove()].Player == "human" {
		return
	}
	e.thinking = true
	s.tasks.Add(1)
	s.metrics.aiQueue.Inc()
	go func() {
		defer s.tasks.Done()
		s.think(e)
	}()
}

// think runs one AI turn of e: wait for a worker, search a copy of the
// position without holding the game, then play the move if the game did
// not change meanwhile.
func (s *Server) think(e *entry) {
	queued := true
	defer func() {
		if queued {
			s.metrics.aiQueue.Dec()
		}
	}()
	select {
	case s.workers <- struct{}{}:
	case <-s.ctx.Done():
		return
	}
	s.metrics.aiQueue.Dec()
	queued = false
	e.mu.Lock()
	var turn *session.EngineTurn
	err := s.decide(s.ctx, e, func() (err error) {
		turn, err = e.ss.EngineTurn()
		return err
	})
	e.mu.Unlock()
	if turn == nil {
		<-s.workers
		s.finishThinking(e, err)
		return
	}
	info := turn.Search(s.ctx, nil)
	<-s.workers
	e.mu.Lock()
	defer e.mu.Unlock()
	e.thinking = false
	switch {
	case s.ctx.Err() != nil:
		return // shutting down: the next start resumes the turn
	case info.Err != nil:
		s.log.Error("AI search failed", "game", e.id, "engine", turn.Engine.Name(), "err", info.Err)
		return
	}
	err = s.decide(s.ctx, e, func() error { return e.ss.PlayTurn(turn, info.Move) })
	if err != nil && !expectedAIRefusal(err) {
		s.log.Error("AI move not stored", "game", e.id, "err", err)
		return
	}
	s.afterChange(e) // a move dropped because the game changed is searched again
}

// expectedAIRefusal reports whether an AI turn ended without a move for a
// reason of the game's, not a failure: the game changed or ended while it
// thought, or another process played first.
func expectedAIRefusal(err error) bool {
	return errors.Is(err, session.ErrChanged) || errors.Is(err, session.ErrOver) ||
		errors.Is(err, session.ErrNoEngine) || errors.Is(err, store.ErrConflict)
}

func (s *Server) finishThinking(e *entry, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.thinking = false
	if err != nil && !expectedAIRefusal(err) {
		s.log.Error("AI turn", "game", e.id, "err", err)
	}
}
