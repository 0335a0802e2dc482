package server

import (
	"errors"
	"strings"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/store"
)

// kickAI starts the search of the AI to move, unless one runs already.
// The search waits for a worker slot, so that searches at once never
// exceed the workers (the cores). e.mu is held.
func (s *Server) kickAI(e *entry) {
	if e.thinking || e.over() || s.closing.Load() {
		return
	}
	to := int(e.state.ToMove())
	if e.g.Seats[to].Player == "human" {
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
// position without holding the game, then store the move if the game did
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
	engine, snapshot, version, lim, err := s.prepareSearch(e)
	e.mu.Unlock()
	if engine == nil {
		<-s.workers
		s.finishThinking(e, err)
		return
	}
	info := engine.Search(s.ctx, snapshot, lim, nil)
	<-s.workers
	e.mu.Lock()
	defer e.mu.Unlock()
	e.thinking = false
	switch {
	case s.ctx.Err() != nil:
		return // shutting down: the next start resumes the turn
	case info.Err != nil:
		s.log.Error("AI search failed", "game", e.id, "engine", engine.Name(), "err", info.Err)
		return
	case e.g.Version != version:
		s.afterChange(e) // the game changed while the engine thought: think again
		return
	}
	err = s.aiMove(e, info.Move)
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.Error("AI move not stored", "game", e.id, "err", err)
		return
	}
	s.afterChange(e)
}

func (s *Server) finishThinking(e *entry, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.thinking = false
	if err != nil {
		s.log.Error("AI turn", "game", e.id, "err", err)
	}
}

// prepareSearch gives what a search needs, or a nil engine when no AI is
// to move any more. e.mu is held.
func (s *Server) prepareSearch(e *entry) (ai.Engine, game.State, int64, ai.Limits, error) {
	if _, err := s.checkFlag(e); err != nil || e.over() {
		return nil, nil, 0, ai.Limits{}, err
	}
	to := int(e.state.ToMove())
	spec := e.g.Seats[to].Player
	if spec == "human" {
		return nil, nil, 0, ai.Limits{}, nil
	}
	if e.engines[to] == nil {
		engine, err := ai.New(spec, seedFor(to))
		if err != nil {
			return nil, nil, 0, ai.Limits{}, err
		}
		e.engines[to] = engine
	}
	return e.engines[to], e.state.Clone(), e.g.Version, s.aiLimits(e, spec, to), nil
}

// aiLimits bound a search: a level takes its own time, other engines the
// server's; a running clock caps both at the mover's share of its time.
func (s *Server) aiLimits(e *entry, spec string, to int) ai.Limits {
	var lim ai.Limits
	if !strings.Contains(spec, "level=") {
		lim.MoveTime = s.cfg.AIMoveTime
	}
	if c := e.g.Clock; c != nil && running(c) {
		b := budget(c, to, s.now())
		if lim.MoveTime == 0 || b < lim.MoveTime {
			lim.MoveTime = b
		}
	}
	return lim
}

// aiMove stores the engine's move. e.mu is held.
func (s *Server) aiMove(e *entry, m game.Move) error {
	if _, err := s.checkFlag(e); err != nil || e.over() {
		return err
	}
	return s.playAndTell(s.ctx, e, m, "ai")
}
