package community

import (
	"context"
	"fmt"
	"time"
)

// Following other processes: the messages another server sharing the
// store writes reach this one's listeners within a tick. Each tick reads
// every game's messages of the last followWindow (one query, by id,
// whatever the number of games), and gives out those this process has
// not: a message stored late by a slow writer, or by a server whose clock
// is a little behind, is still within the window.
const (
	followTick   = time.Second
	followWindow = 10 * time.Second
	followLimit  = 1000
)

// Run follows the messages other processes write until ctx ends.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(followTick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.follow(ctx)
	}
}

// follow gives the listeners here the messages of the window they were
// not given yet.
func (s *Service) follow(ctx context.Context) {
	now := s.now()
	s.mu.Lock()
	idle := len(s.listeners) == 0
	for id, at := range s.given {
		if now.Sub(at) > 2*followWindow {
			delete(s.given, id)
		}
	}
	s.mu.Unlock()
	if idle {
		return
	}
	after := fmt.Sprintf("%013x", now.Add(-followWindow).UnixMilli())
	msgs, err := s.store.ChatAfter(ctx, after, followLimit)
	if err != nil {
		s.log.Warn("following the chat", "err", err)
		return
	}
	authors := authorCache{}
	for _, m := range msgs {
		if s.markGiven(m.ID, now) {
			s.publish(s.messageWith(ctx, m, authors))
		}
	}
}

// markGiven records that message id was given out, and reports whether
// it was not before.
func (s *Service) markGiven(id string, at time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.given[id]; ok {
		return false
	}
	s.given[id] = at
	return true
}
