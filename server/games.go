package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/store"
)

// entry is a game as this process holds it: the stored game, its position
// replayed, and the engines of its AI seats (kept across moves, so that
// what they learn stays). mu is the game's one writer: every change to
// the game, in memory and in the store, is made holding it.
type entry struct {
	mu       sync.Mutex
	id       string
	loaded   bool
	g        store.Game
	rules    game.Game
	state    game.State
	engines  []ai.Engine
	thinking bool // an AI search for this game is queued or running
	timer    *time.Timer
}

// entry returns the game's entry, made empty the first time.
func (s *Server) entry(id string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[id]
	if !ok {
		e = &entry{id: id}
		s.entries[id] = e
	}
	return e
}

// held lists the entries. The server's lock is never held while taking a
// game's (a game's lock is held while taking the server's, in forget).
func (s *Server) held() []*entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries := make([]*entry, 0, len(s.entries))
	for _, e := range s.entries {
		entries = append(entries, e)
	}
	return entries
}

// forget drops the entry of a game that does not exist, so that asking
// for made-up ids does not fill the memory. e.mu is held.
func (s *Server) forget(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries[e.id] == e {
		delete(s.entries, e.id)
	}
}

// load reads the game from the store unless this process holds it
// already. e.mu is held.
func (s *Server) load(ctx context.Context, e *entry) error {
	if e.loaded {
		return nil
	}
	return s.refresh(ctx, e)
}

// refresh reads the game from the store and replays it when its version
// moved on (another process changed it). e.mu is held.
func (s *Server) refresh(ctx context.Context, e *entry) error {
	g, err := s.store.Get(ctx, e.id)
	if errors.Is(err, store.ErrNotFound) {
		if !e.loaded {
			s.forget(e)
		}
		return fail(codeNotFound, "no game %q", e.id)
	}
	if err != nil {
		return fmt.Errorf("reading game %s: %w", e.id, err)
	}
	if e.loaded && g.Version == e.g.Version {
		return nil
	}
	rules, state, err := replay(g)
	if err != nil {
		return fmt.Errorf("game %s: %w", e.id, err)
	}
	if e.rules == nil || len(e.engines) != rules.Players() {
		e.engines = make([]ai.Engine, rules.Players())
	}
	e.g, e.rules, e.state, e.loaded = g, rules, state, true
	return nil
}

// replay builds a stored game's position.
func replay(g store.Game) (game.Game, game.State, error) {
	rules, err := game.New(g.Game, g.Options)
	if err != nil {
		return nil, nil, err
	}
	state := rules.Start()
	if g.StartFEN != "" {
		if state, err = rules.ParseFEN(g.StartFEN); err != nil {
			return nil, nil, err
		}
	}
	texts := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		texts[i] = m.Text
	}
	if err := game.PlayRuleMoves(state, texts); err != nil {
		return nil, nil, err
	}
	return rules, state, nil
}

// over reports whether the game has ended, and why.
func (e *entry) over() bool { return e.g.Result != nil || e.state.Result().Over() }

// next is a copy of the header to change and write as the next version.
func (e *entry) next(now time.Time) store.Header {
	h := e.g.Header
	h.Seats = slices.Clone(h.Seats)
	h.Options = e.g.Options
	if h.Clock != nil {
		c := *h.Clock
		c.Left = slices.Clone(c.Left)
		h.Clock = &c
	}
	if h.Result != nil {
		r := *h.Result
		h.Result = &r
	}
	h.Version++
	h.Updated = now
	return h
}

// storedResult is a result as the store keeps it.
func storedResult(r game.Result, players int) *store.Result {
	out := &store.Result{Winners: []int{}, Reason: r.Reason.String()}
	for p := range players {
		if r.Winners.Has(game.Player(p)) {
			out.Winners = append(out.Winners, p)
		}
	}
	return out
}

// result is the game's result: the board's (with its scores) or the one
// stored (a resignation, an agreement, a flag fall).
func (e *entry) result() game.Result {
	if r := e.state.Result(); r.Over() {
		return r
	}
	if e.g.Result == nil {
		return game.Result{}
	}
	reason, _ := game.ParseReason(e.g.Result.Reason)
	r := game.Result{Reason: reason}
	for _, p := range e.g.Result.Winners {
		r.Winners = r.Winners.Add(game.Player(p))
	}
	return r
}

// against is the result of a game that seat p lost off the board: every
// other seat wins.
func against(p game.Player, players int, why game.Reason) *store.Result {
	r := game.Result{Reason: why}
	for q := range players {
		if game.Player(q) != p {
			r.Winners = r.Winners.Add(game.Player(q))
		}
	}
	return storedResult(r, players)
}

// commitMove stores m as the move of the current ply and plays it. A
// conflict means another process changed the game: the entry is reloaded
// and the caller decides again. e.mu is held.
func (s *Server) commitMove(ctx context.Context, e *entry, m game.Move) error {
	now := s.now()
	mover := e.state.ToMove()
	after := e.state.Clone()
	after.Play(m)
	next := e.next(now)
	next.Ply++
	if next.DrawOffer != -1 && next.DrawOffer != int(mover) {
		next.DrawOffer = -1 // a move declines the offer on the table
	}
	if next.Clock != nil {
		moved(next.Clock, int(mover), now)
	}
	if r := after.Result(); r.Over() {
		next.Result = storedResult(r, e.rules.Players())
	}
	stored := store.Move{Ply: e.g.Ply, Text: m.Text(e.rules.Board()), At: now}
	if err := s.store.AddMove(ctx, stored, next); err != nil {
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
			e.loaded = false
			if rerr := s.refresh(ctx, e); rerr != nil {
				return rerr
			}
		}
		return err
	}
	e.g.Header = next
	e.g.Moves = append(e.g.Moves, stored)
	e.state = after
	return nil
}

// commitUpdate stores a changed header (a resignation, a draw, a seat
// joined, a flag fall). e.mu is held.
func (s *Server) commitUpdate(ctx context.Context, e *entry, next store.Header) error {
	if err := s.store.Update(ctx, next); err != nil {
		if errors.Is(err, store.ErrConflict) {
			e.loaded = false
			if rerr := s.refresh(ctx, e); rerr != nil {
				return rerr
			}
		}
		return err
	}
	e.g.Header = next
	return nil
}

// afterChange lets the game go on by itself: an AI to move searches, a
// running clock is watched. e.mu is held.
func (s *Server) afterChange(e *entry) {
	s.kickAI(e)
	s.watchClock(e)
}
