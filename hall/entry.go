package hall

import (
	"cmp"
	"container/list"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/store"
)

// entry is a game as this process holds it: the game as stored, and the
// play.Game that plays it by the rules and commits every change to the
// store before making it. mu is the game's one writer: every change to
// the game, in memory and in the store, is made holding it.
type entry struct {
	mu sync.Mutex
	id string
	// loaded is set once g and pg hold the game; evicted once the entry
	// left the hall's map, so that whoever waited for mu looks again.
	loaded, evicted bool
	// g is the game as last read from or written to the store: the
	// header the next write starts from (version, seats and their
	// tokens) and the moves.
	g  store.Game
	pg *play.Game // g in play, built from it by rebuild
	// movers are the seats that made g's moves, one for each: read from
	// the play.Game's position when it is built, added to by each move
	// committed, so that a view needs no replay to tell them.
	movers []int
	// engines are the AI seats' engines, made on their first turn and
	// kept across reloads, so that what they learn stays; reserved is
	// what they hold of the hall's AI memory budget.
	engines  []ai.Engine
	reserved int64
	// client is whoever made the game (NewGame.Client), whose share of
	// the budget its engines count in; holder is the entry's place among
	// the games holding engines (budget.holders, under the budget's lock).
	client   string
	holder   *list.Element
	thinking bool // an AI turn of this game is queued or running
	timer    *time.Timer
	// waitsFirst says that timer waits to abort a game nobody started:
	// that wait may be days, so it does not keep the game in memory
	// (the sweep aborts the games that left memory).
	waitsFirst bool
	used       time.Time // when a request last asked for the game
	// changed says that a change was committed since the watchers were
	// last told; moved is that change when it was a move.
	changed bool
	moved   *play.Change
	// answering is set while a command runs, which answers with the view
	// its change sent the watchers, kept in published until it ends
	// (views are never changed once made), rather than build another.
	answering bool
	published *View
	watches   map[*Watch]struct{}
	// attention, when set, says what went wrong with the game on this
	// server (its AI failed, it could not be loaded): the game shows it,
	// and its AI is not run again until the process restarts.
	attention string
}

// entry returns the game's entry, made empty the first time.
func (h *Hall) entry(id string) *entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.entries[id]
	if !ok {
		e = &entry{id: id}
		h.entries[id] = e
	}
	return e
}

// lock returns the game's entry, locked and marked as used now. An entry
// evicted while we waited for its lock is left for a fresh one.
func (h *Hall) lock(id string) *entry {
	for {
		e := h.entry(id)
		e.mu.Lock()
		if !e.evicted {
			e.used = h.now()
			return e
		}
		e.mu.Unlock()
	}
}

// held lists the entries. The hall's lock is never held while taking a
// game's (a game's lock is held while taking the hall's, in forget).
func (h *Hall) held() []*entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	entries := make([]*entry, 0, len(h.entries))
	for _, e := range h.entries {
		entries = append(entries, e)
	}
	return entries
}

// forget drops the entry from the hall's map and frees its engines: a
// game that does not exist (so that asking for made-up ids does not fill
// the memory), or one left idle. e.mu is held.
func (h *Hall) forget(e *entry) {
	h.mu.Lock()
	if h.entries[e.id] == e {
		delete(h.entries, e.id)
	}
	h.mu.Unlock()
	e.evicted = true
	e.stopTimer()
	h.freeEngines(e)
}

// idle reports whether nothing but the memory holds the game: no AI
// turn queued or running, no timer, no watcher, no request since cutoff.
// e.mu is held.
func (e *entry) idle(cutoff time.Time) bool {
	return !e.thinking && (e.timer == nil || e.waitsFirst) && len(e.watches) == 0 && !e.used.After(cutoff)
}

// evictIdle drops the games idle since before cutoff; a later request
// reads them from the store again. A game busy now is looked at by the
// next sweep.
func (h *Hall) evictIdle(cutoff time.Time) {
	for _, e := range h.held() {
		if !e.mu.TryLock() {
			continue
		}
		if e.idle(cutoff) {
			h.forget(e)
		}
		e.mu.Unlock()
	}
}

// sweep evicts idle games, and aborts the games nobody started that are
// not in memory, every half of IdleAfter until the hall stops.
func (h *Hall) sweep() {
	tick := time.NewTicker(h.cfg.IdleAfter / 2)
	defer tick.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-tick.C:
			h.evictIdle(h.now().Add(-h.cfg.IdleAfter))
			h.abortOverdue()
		}
	}
}

// liveGames counts the ongoing games held in memory.
func (h *Hall) liveGames() int {
	n := 0
	for _, e := range h.held() {
		if e.mu.TryLock() {
			if e.loaded && !e.over() {
				n++
			}
			e.mu.Unlock()
		} else {
			n++ // busy with a change: it is live
		}
	}
	return n
}

// load reads the game from the store unless this process holds it
// already. e.mu is held.
func (h *Hall) load(ctx context.Context, e *entry) error {
	if e.loaded {
		return nil
	}
	return h.refresh(ctx, e)
}

// refresh reads the game from the store and builds its play.Game again
// when its version moved on (another process changed it). e.mu is held.
func (h *Hall) refresh(ctx context.Context, e *entry) error {
	g, err := h.store.Get(ctx, e.id)
	if errors.Is(err, store.ErrNotFound) {
		if !e.loaded {
			h.forget(e)
		}
		return Errorf(NotFound, "no game %s", quote(e.id))
	}
	if err != nil {
		return fmt.Errorf("reading game %s: %w", e.id, err)
	}
	if e.loaded && g.Version == e.g.Version {
		return nil
	}
	e.g = g
	return h.rebuild(e)
}

// rebuild makes the play.Game of the stored game e.g: its position, seats,
// clock, offer and end. e.mu is held.
func (h *Hall) rebuild(e *entry) error {
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
	// The store keeps moves, not records; the watchers are told what
	// each move did.
	cfg := play.Config{Game: rules, Start: start, Moves: moves, StartFEN: g.StartFEN, Seats: h.seats(e),
		Resume: resumeOf(g.Header), Now: h.now, Date: g.Created.UTC().Format("2006.01.02"),
		Keeper:   play.KeepFunc(func(c play.Change) error { return h.commit(e, c) }),
		NoRecord: true, Effects: true, NoTakebacks: g.NoTakebacks, Rated: g.Rated, Scratches: &h.scratches}
	if c := g.Clock; c != nil {
		tc := c.Control
		cfg.Clock = &tc
	}
	pg, err := play.New(cfg)
	if err != nil {
		return fmt.Errorf("game %s: %w", e.id, err)
	}
	e.pg, e.loaded = pg, true
	e.movers = nil
	for _, p := range game.Movers(pg.State(), len(g.Moves)) {
		e.movers = append(e.movers, int(p))
	}
	return nil
}

// seats are the play.Game's seats of the stored game: a person, or an
// engine made on its first turn (or kept from before). A level searches
// as the level does; another engine for the hall's AIMoveTime. e.mu is
// held.
func (h *Hall) seats(e *entry) []play.Seat {
	seats := make([]play.Seat, len(e.g.Seats))
	for p, seat := range e.g.Seats {
		seats[p].Name = cmp.Or(seat.Name, seat.Player)
		if seat.Player == "human" {
			continue
		}
		spec := seat.Player
		seats[p].NewEngine = func() (ai.Engine, error) { return h.engine(e, p, spec) }
		if !isLevel(spec) {
			seats[p].Limits = &ai.Limits{MoveTime: h.cfg.AIMoveTime}
		}
	}
	return seats
}

// resumeOf is what a stored header adds to the moves.
func resumeOf(h store.Header) *play.Resume {
	r := &play.Resume{Offer: game.Player(h.DrawOffer)}
	if tb := h.Waiting.Takeback; tb != nil {
		p := game.Player(*tb)
		r.Takeback = &p
	}
	r.Premove, r.Dropped = playPremove(h.Waiting.Premove), playPremove(h.Waiting.Dropped)
	if l := h.Waiting.Line; l != nil {
		r.Line = &play.Line{Seat: game.Player(l.Seat), Ply: l.Ply, Moves: slices.Clone(l.Moves)}
	}
	if c := h.Clock; c != nil {
		r.Clock = &play.ClockState{Left: slices.Clone(c.Left), TurnStart: c.TurnStart}
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
func (e *entry) over() bool { return e.pg.Result().Over() }

// hasPerson reports whether a person sits (or may sit: an open seat) at
// the game.
func hasPerson(seats []store.Seat) bool {
	return slices.ContainsFunc(seats, func(s store.Seat) bool { return s.Player == "human" })
}

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

// StoredResult is a result as the store keeps it and the API shows it.
func StoredResult(r game.Result, players int) *Result {
	out := &Result{Winners: []int{}, Reason: r.Reason.String()}
	for p := range players {
		if r.Winners.Has(game.Player(p)) {
			out.Winners = append(out.Winners, p)
		}
	}
	if slices.ContainsFunc(r.Scores[:players], func(s int) bool { return s != 0 }) {
		out.Scores = slices.Clone(r.Scores[:players])
	}
	return out
}

// commit stores a change the game in play is about to make: a move as
// the move of its ply (the store takes it only while that ply is the
// game's), anything else as the header's next version. The play.Game makes
// the change only if this returns nil; a conflict means another process
// changed the game, and the caller reloads it (decide). e.mu is held.
func (h *Hall) commit(e *entry, c play.Change) error {
	next := e.next(c.At)
	next.DrawOffer = int(c.Offer)
	next.Waiting = waitingOf(c)
	next.Result = nil
	if c.Result.Over() {
		next.Result = StoredResult(c.Result, len(e.g.Seats))
	}
	if c.Clock != nil && next.Clock != nil {
		next.Clock.Left, next.Clock.TurnStart = slices.Clone(c.Clock.Left), c.Clock.TurnStart
	}
	var err error
	switch c.Kind {
	case play.Moved:
		if c.Ply != e.g.Ply {
			return fmt.Errorf("game %s: a move for ply %d, stored ply %d", e.id, c.Ply, e.g.Ply)
		}
		next.Ply++
		m := store.Move{Ply: c.Ply, Text: c.Move, At: c.At}
		if err = h.store.AddMove(h.ctx, m, next); err == nil {
			e.g.Moves = append(e.g.Moves, m)
			e.movers = append(e.movers, int(c.Seat))
		}
	case play.TookBack:
		next.Ply = c.Ply
		if err = h.store.TakeBack(h.ctx, next); err == nil {
			e.g.Moves = e.g.Moves[:c.Ply]
			e.movers = e.movers[:min(c.Ply, len(e.movers))]
		}
	default:
		err = h.store.Update(h.ctx, next)
	}
	if err != nil {
		return err
	}
	e.g.Header = next
	e.changed = true
	h.counted(e, c)
	if c.Result.Over() && h.cfg.Ended != nil {
		id := e.id
		h.hook("game-end", id, func() { h.cfg.Ended(h.ctx, id) })
	}
	if (c.Kind == play.Moved || c.Kind == play.Resigned) && h.cfg.Committed != nil {
		done := Committed{Game: e.id, Resigned: c.Kind == play.Resigned, Seat: int(c.Seat), Ply: next.Ply, Over: c.Result.Over()}
		h.hook("commit", e.id, func() { h.cfg.Committed(h.ctx, done) })
	}
	return nil
}

// hook runs a hook of the Config on a task of its own; a panic in it is
// logged.
func (h *Hall) hook(what, id string, run func()) {
	h.goTask(func() {
		defer func() {
			if p := recover(); p != nil {
				h.log.Error("the "+what+" hook panicked", "game", id, "panic", fmt.Sprint(p))
			}
		}()
		run()
	})
}

// waitingOf is what waits on the table after c, as the store keeps it.
func waitingOf(c play.Change) store.Waiting {
	var w store.Waiting
	if c.Takeback != game.NoPlayer {
		p := int(c.Takeback)
		w.Takeback = &p
	}
	w.Premove, w.Dropped = storedPremove(c.Premove), storedPremove(c.Dropped)
	if l := c.Line; l != nil {
		w.Line = &store.Line{Seat: int(l.Seat), Ply: l.Ply, Moves: slices.Clone(l.Moves)}
	}
	return w
}

// storedPremove is a premove as the store keeps it; playPremove as
// package play does.
func storedPremove(pm *play.Premove) *store.Premove {
	if pm == nil {
		return nil
	}
	return &store.Premove{Seat: int(pm.Seat), Ply: pm.Ply, Move: pm.Move}
}

func playPremove(pm *store.Premove) *play.Premove {
	if pm == nil {
		return nil
	}
	return &play.Premove{Seat: game.Player(pm.Seat), Ply: pm.Ply, Move: pm.Move}
}

// counted counts a committed change and logs the notable ones.
func (h *Hall) counted(e *entry, c play.Change) {
	switch c.Kind {
	case play.Moved:
		e.moved = &c
		if e.g.Seats[c.Seat].Player == "human" {
			h.stats.humanMoves.Add(1)
		} else {
			h.stats.aiMoves.Add(1)
		}
	case play.FlagFell:
		h.log.Info("flag fell", "game", e.id, "seat", int(c.Seat))
	}
}

// decide runs f on the game in play and tells the watchers of what it
// committed. When the store refused the write because another process
// changed the game (or removed it), the game is read again and f decides
// again on what was stored. e.mu is held.
func (h *Hall) decide(ctx context.Context, e *entry, f func() error) error {
	for attempt := 0; ; attempt++ {
		err := f()
		h.publish(e)
		if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) || attempt == 2 {
			return err
		}
		e.loaded = false
		if rerr := h.refresh(ctx, e); rerr != nil {
			return rerr
		}
	}
}

// publish tells the watchers of the game if a change was committed since
// they were last told, with the effects of the move that made it (as the
// play.Game told them when it played it). e.mu is held.
func (h *Hall) publish(e *entry) {
	if !e.changed {
		return
	}
	var effects *game.Effects
	if e.moved != nil {
		effects = e.moved.Effects
	}
	e.changed, e.moved = false, nil
	h.broadcast(e, effects)
}

// moveEffects is what the stored move of ply did. e.mu is held.
func moveEffects(e *entry, ply int) (game.Effects, error) {
	st := e.pg.State()
	for i := e.g.Ply; i > ply; i-- {
		st.Undo()
	}
	m, err := game.ParseRuleMove(st, e.g.Moves[ply].Text)
	if err != nil {
		return game.Effects{}, err
	}
	return game.MoveEffects(st, m)
}

// asRefusal is a refusal of package play as the hall answers it; any other
// error (the store's) is returned as it is.
func asRefusal(err error) error {
	var illegal *game.IllegalMoveError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &illegal):
		return Errorf(IllegalMove, "%s", err)
	case errors.Is(err, play.ErrOver):
		return Errorf(GameOver, "%s", err)
	case errors.Is(err, play.ErrNotYourTurn), errors.Is(err, play.ErrNoPerson):
		return Errorf(NotYourTurn, "%s", err)
	case errors.Is(err, play.ErrWrongPly):
		return Errorf(WrongPly, "%s", err)
	case errors.Is(err, play.ErrNoDraws), errors.Is(err, play.ErrBadLine):
		return Errorf(Invalid, "%s", err)
	case errors.Is(err, play.ErrNoOffer), errors.Is(err, play.ErrNoRequest), errors.Is(err, play.ErrNoPremove),
		errors.Is(err, play.ErrNothing), errors.Is(err, play.ErrNoTakebacks), errors.Is(err, play.ErrNoLines):
		return Errorf(Conflict, "%s", err)
	}
	return err
}

// afterChange lets the game go on by itself: an AI to move searches, a
// running clock (or the wait for a first move) is watched, and a game
// that ended frees its engines at once. e.mu is held.
func (h *Hall) afterChange(e *entry) {
	if e.loaded && e.over() {
		h.freeEngines(e)
	}
	h.kickAI(e)
	h.watchClock(e)
}
