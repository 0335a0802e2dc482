package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/session"
	"github.com/arbiter-games/arbiter/store"
)

// entry is a game as this process holds it: the game as stored, and its
// session, which plays it by the rules and commits every change to the
// store before making it. mu is the game's one writer: every change to
// the game, in memory and in the store, is made holding it.
type entry struct {
	mu sync.Mutex
	id string
	// loaded is set once g and ss hold the game; evicted once the entry
	// left the server's map, so that whoever waited for mu looks again.
	loaded, evicted bool
	// g is the game as last read from or written to the store: the
	// header the next write starts from (version, seats and their
	// tokens) and the moves.
	g  store.Game
	ss *session.Session
	// engines are the AI seats' engines, made on their first turn and
	// kept across reloads, so that what they learn stays.
	engines  []ai.Engine
	thinking bool // an AI search for this game is queued or running
	timer    *time.Timer
	used     time.Time // when a request last asked for the game
	// changed says that a change was committed since the viewers were
	// last told; moved is that change when it was a move.
	changed bool
	moved   *session.Change
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

// lock returns the game's entry, locked and marked as used now. An entry
// evicted while we waited for its lock is left for a fresh one.
func (s *Server) lock(id string) *entry {
	for {
		e := s.entry(id)
		e.mu.Lock()
		if !e.evicted {
			e.used = s.now()
			return e
		}
		e.mu.Unlock()
	}
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

// forget drops the entry from the server's map: a game that does not
// exist (so that asking for made-up ids does not fill the memory), or
// one left idle. e.mu is held.
func (s *Server) forget(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries[e.id] == e {
		delete(s.entries, e.id)
	}
	e.evicted = true
}

// idle reports whether nothing but the memory holds the game: no AI
// search queued or running, no clock timer, no request since cutoff.
// e.mu is held.
func (e *entry) idle(cutoff time.Time) bool {
	return !e.thinking && e.timer == nil && !e.used.After(cutoff)
}

// evictIdle drops the games idle since before cutoff that no socket
// watches; a later request reads them from the store again. A game busy
// now is looked at by the next sweep.
func (s *Server) evictIdle(cutoff time.Time) {
	for _, e := range s.held() {
		if !e.mu.TryLock() {
			continue
		}
		if e.idle(cutoff) && !s.hub.watched(e.id) {
			s.forget(e)
		}
		e.mu.Unlock()
	}
}

// sweep evicts idle games every half of IdleAfter until the server
// stops.
func (s *Server) sweep() {
	tick := time.NewTicker(s.cfg.IdleAfter / 2)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
			s.evictIdle(s.now().Add(-s.cfg.IdleAfter))
		}
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

// refresh reads the game from the store and builds its session again
// when its version moved on (another process changed it). e.mu is held.
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
	e.g = g
	return s.rebuild(e)
}

// rebuild makes the session of the stored game e.g: its position, seats,
// clock, offer and end. e.mu is held.
func (s *Server) rebuild(e *entry) error {
	g := e.g
	rules, err := game.New(g.Game, g.Options)
	if err != nil {
		return fmt.Errorf("game %s: %w", e.id, err)
	}
	var start game.State
	if g.StartFEN != "" {
		if start, err = rules.ParseFEN(g.StartFEN); err != nil {
			return fmt.Errorf("game %s: %w", e.id, err)
		}
	}
	moves := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.Text
	}
	if len(e.engines) != rules.Players() {
		e.engines = make([]ai.Engine, rules.Players())
	}
	cfg := session.Config{Game: rules, Start: start, Moves: moves, StartFEN: g.StartFEN, Seats: s.seats(e),
		Resume: resumeOf(g.Header), Now: s.now, Date: g.Created.UTC().Format("2006.01.02"),
		Keeper: session.KeepFunc(func(c session.Change) error { return s.commit(e, c) })}
	if c := g.Clock; c != nil {
		cfg.Clock = &session.TimeControl{Base: c.Base, Increment: c.Increment, PerMove: c.PerMove}
	}
	ss, err := session.New(cfg)
	if err != nil {
		return fmt.Errorf("game %s: %w", e.id, err)
	}
	e.ss, e.loaded = ss, true
	return nil
}

// seats are the session's seats of the stored game: a person, or an
// engine made on its first turn (or kept from before). A level searches
// as the level does; another engine for the server's AIMoveTime. e.mu is
// held.
func (s *Server) seats(e *entry) []session.Seat {
	seats := make([]session.Seat, len(e.g.Seats))
	for p, seat := range e.g.Seats {
		seats[p].Name = cmp.Or(seat.Name, seat.Player)
		if seat.Player == "human" {
			continue
		}
		spec := seat.Player
		seats[p].NewEngine = func() (ai.Engine, error) {
			if e.engines[p] == nil {
				engine, err := ai.New(spec, seedFor(p))
				if err != nil {
					return nil, err
				}
				e.engines[p] = engine
			}
			return e.engines[p], nil
		}
		if !strings.Contains(spec, "level=") {
			seats[p].Limits = &ai.Limits{MoveTime: s.cfg.AIMoveTime}
		}
	}
	return seats
}

// resumeOf is what a stored header adds to the moves.
func resumeOf(h store.Header) *session.Resume {
	r := &session.Resume{Offer: game.Player(h.DrawOffer)}
	if c := h.Clock; c != nil {
		r.Clock = &session.ClockState{Left: slices.Clone(c.Left), TurnStart: c.TurnStart}
	}
	if h.Result != nil {
		reason, _ := game.ParseReason(h.Result.Reason)
		res := game.Result{Reason: reason}
		for _, p := range h.Result.Winners {
			res.Winners = res.Winners.Add(game.Player(p))
		}
		r.Ended = &res
	}
	return r
}

// over reports whether the game has ended. e.mu is held.
func (e *entry) over() bool { return e.ss.Result().Over() }

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

// commit stores a change the game's session is about to make: a move as
// the move of its ply (the store takes it only while that ply is the
// game's), anything else as the header's next version. The session makes
// the change only if this returns nil; a conflict means another process
// changed the game, and the caller reloads it (decide). e.mu is held.
func (s *Server) commit(e *entry, c session.Change) error {
	next := e.next(c.At)
	next.DrawOffer = int(c.Offer)
	next.Result = nil
	if c.Result.Over() {
		next.Result = storedResult(c.Result, len(e.g.Seats))
	}
	if c.Clock != nil && next.Clock != nil {
		next.Clock.Left, next.Clock.TurnStart = slices.Clone(c.Clock.Left), c.Clock.TurnStart
	}
	var err error
	switch c.Kind {
	case session.Moved:
		if c.Ply != e.g.Ply {
			return fmt.Errorf("game %s: a move for ply %d, stored ply %d", e.id, c.Ply, e.g.Ply)
		}
		next.Ply++
		m := store.Move{Ply: c.Ply, Text: c.Move, At: c.At}
		if err = s.store.AddMove(s.ctx, m, next); err == nil {
			e.g.Moves = append(e.g.Moves, m)
		}
	case session.TookBack:
		return fmt.Errorf("game %s: the server's games take no moves back", e.id)
	default:
		err = s.store.Update(s.ctx, next)
	}
	if err != nil {
		return err
	}
	e.g.Header = next
	e.changed = true
	switch c.Kind {
	case session.Moved:
		e.moved = &c
		by := "ai"
		if e.g.Seats[c.Seat].Player == "human" {
			by = "human"
		}
		s.metrics.moves.WithLabelValues(by).Inc()
	case session.FlagFell:
		s.log.Info("flag fell", "game", e.id, "seat", int(c.Seat))
	}
	return nil
}

// decide runs f on the game's session and tells the viewers of what it
// committed. When the store refused the write because another process
// changed the game (or removed it), the game is read again and f decides
// again on what was stored. e.mu is held.
func (s *Server) decide(ctx context.Context, e *entry, f func() error) error {
	for attempt := 0; ; attempt++ {
		err := f()
		s.publish(e)
		if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) || attempt == 2 {
			return err
		}
		e.loaded = false
		if rerr := s.refresh(ctx, e); rerr != nil {
			return rerr
		}
	}
}

// publish broadcasts the game if a change was committed since the last
// broadcast, with the effects of the move that made it. e.mu is held.
func (s *Server) publish(e *entry) {
	if !e.changed {
		return
	}
	var effects *game.Effects
	if e.moved != nil {
		effects = s.effectsOf(e, e.moved.Ply)
	}
	e.changed, e.moved = false, nil
	s.broadcast(e, effects)
}

// effectsOf is what the move of ply did, or nil if it cannot be told.
// e.mu is held.
func (s *Server) effectsOf(e *entry, ply int) *game.Effects {
	effects, err := moveEffects(e, ply)
	if err != nil {
		s.log.Warn("effects", "game", e.id, "ply", ply, "err", err)
		return nil
	}
	return &effects
}

// moveEffects is what the stored move of ply did. e.mu is held.
func moveEffects(e *entry, ply int) (game.Effects, error) {
	st := e.ss.State()
	for i := e.g.Ply; i > ply; i-- {
		st.Undo()
	}
	m, err := game.ParseRuleMove(st, e.g.Moves[ply].Text)
	if err != nil {
		return game.Effects{}, err
	}
	return game.MoveEffects(st, m)
}

// asRefusal is a refusal of the session as the API answers it; any other
// error (the store's) is returned as it is.
func asRefusal(err error) error {
	var illegal *game.IllegalMoveError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &illegal):
		return fail(codeIllegalMove, "%s", err)
	case errors.Is(err, session.ErrOver):
		return fail(codeGameOver, "%s", err)
	case errors.Is(err, session.ErrNotYourTurn), errors.Is(err, session.ErrNoPerson):
		return fail(codeNotYourTurn, "%s", err)
	case errors.Is(err, session.ErrWrongPly):
		return fail(codeWrongPly, "%s", err)
	case errors.Is(err, session.ErrNoDraws):
		return fail(codeInvalid, "%s", err)
	case errors.Is(err, session.ErrNoOffer):
		return fail(codeConflict, "%s", err)
	}
	return err
}

// afterChange lets the game go on by itself: an AI to move searches, a
// running clock is watched. e.mu is held.
func (s *Server) afterChange(e *entry) {
	s.kickAI(e)
	s.watchClock(e)
}
