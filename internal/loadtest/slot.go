package loadtest

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// slot is one game held at once: a human game played by the run, or an
// AI game watched. A game that ends is replaced by a new one.
type slot struct {
	idx    int // the slot's index in the run's ids
	ai     bool
	client *client
	rng    *rand.Rand

	game   *Played  // the game held now
	tokens []string // its seats' tokens, by seat (anonymous games)
	// players are the slot's accounts (Config.Accounts), the seeker
	// first; seatOf is which of them holds each seat of the game.
	players []*player
	seatOf  []int
	view    view // its state as last answered
	viewer  *viewer
	games   []*Played // every game the slot held, the current one last

	lastPly        int // AI slots: the ply their viewer saw last
	moves, aiMoves int
	sent           int // the moves sent over the socket, which name them
	ack, broadcast []time.Duration
	// the accounts' times: sign-ups, seeks, lobby reads and accepts
	signups, seeks, lobbyReads, accepts []time.Duration
	replaced                            int
	setupErr                            error
	finished, failed                    bool
}

// resign ends the slot's human game if it goes on; an AI game ends at its
// ply cap.
func (s *slot) resign() {
	if s.ai || s.game == nil || s.view.over() {
		return
	}
	c, token := s.mover(0)
	if c == nil || token == "" && s.players == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = c.resign(ctx, s.game.ID, token)
}

// mover is the client and token that play seat: the seat's token with
// the slot's client, or the client of the account holding the seat,
// whose cookie speaks for it.
func (s *slot) mover(seat int) (*client, string) {
	if s.players != nil {
		if seat >= 0 && seat < len(s.seatOf) {
			return s.players[s.seatOf[seat]].client, ""
		}
		return s.client, ""
	}
	if seat >= 0 && seat < len(s.tokens) {
		return s.client, s.tokens[seat]
	}
	return s.client, ""
}

// closeClients drops the idle connections of the slot's clients.
func (s *slot) closeClients() {
	if s.client != nil {
		s.client.close()
	}
	for _, p := range s.players {
		if p.client != nil {
			p.client.close()
		}
	}
}

// ok reports whether the slot holds a game.
func (s *slot) ok() bool { return s.setupErr == nil }

// seats are the seat specs of the slot's games.
func (r *run) seats(s *slot) []string {
	spec := "human"
	if s.ai {
		spec = "ai:level=" + strconv.Itoa(r.cfg.Level)
	}
	seats := make([]string, r.players)
	for i := range seats {
		seats[i] = spec
	}
	return seats
}

// setup makes the slots; with accounts, it signs up each human slot's
// accounts first; then each slot creates its first game and opens its
// socket. Each phase goes a few slots at a time, within its own time.
func (r *run) setup(ctx context.Context) []*slot {
	slots := make([]*slot, r.cfg.Games+r.cfg.AIGames)
	for n := range slots {
		slots[n] = &slot{idx: n, ai: n >= r.cfg.Games, rng: rand.New(rand.NewPCG(r.cfg.Seed, uint64(n)))}
	}
	if r.cfg.Accounts {
		r.progress("signing up %d accounts", r.cfg.Games*r.players)
		r.eachSlot(ctx, signupTime, slots, r.signUp)
	}
	r.progress("creating %d games%s and opening their sockets", r.cfg.Games+r.cfg.AIGames, r.through())
	r.eachSlot(ctx, setupTime+time.Duration(len(slots))*10*time.Millisecond, slots, r.newGame)
	return slots
}

// through says how the human games start, for the progress line.
func (r *run) through() string {
	if r.cfg.Accounts {
		return " (the human ones through the lobby)"
	}
	return ""
}

// eachSlot runs step on every slot not yet failed, setupParallel at once,
// all within limit; a slot whose step fails keeps the error.
func (r *run) eachSlot(ctx context.Context, limit time.Duration, slots []*slot, step func(context.Context, *slot) error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var wg sync.WaitGroup
	sem := make(chan struct{}, setupParallel)
	for _, s := range slots {
		if !s.ok() {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := step(ctx, s); err != nil {
				s.setupErr = err
			}
		})
	}
	wg.Wait()
}

// newClient is a client for the next game: from an address of its own
// when the run has them.
func (r *run) newClient() *client { return r.newClientWith(nil) }

// newClientWith is newClient with a cookie jar (nil for none).
func (r *run) newClientWith(jar http.CookieJar) *client {
	var src netip.Addr
	if r.spread {
		src = clientAddr(int(r.addrs.Add(1)))
	}
	return newClientJar(r.target, src, jar)
}

// newGame creates the slot's next game, with a client of its own, and
// opens its viewer: an anonymous game with its seats' tokens, or a game
// of the slot's accounts started through the lobby.
func (r *run) newGame(ctx context.Context, s *slot) error {
	if s.players != nil {
		return r.newAccountGame(ctx, s)
	}
	if s.client != nil {
		s.client.close()
	}
	s.client = r.newClient()
	c, err := s.client.create(ctx, r.cfg.Game, r.seats(s), r.cfg.Moves)
	if err != nil {
		r.tally.add(errorKind("create", err), err)
		return err
	}
	v, err := s.client.watch(ctx, c.ID)
	if err != nil {
		r.tally.add(errorKind("socket", err), err)
		return err
	}
	if r.overSocket(s) {
		// The create's connection, idle now: the socket is the game's
		// one connection.
		s.client.close()
	}
	s.tokens = make([]string, r.players)
	for _, seat := range c.Seats {
		if seat.Seat >= 0 && seat.Seat < r.players {
			s.tokens[seat.Seat] = seat.Token
		}
	}
	g := c.Game
	g.ID = c.ID
	r.hold(s, g, v, nil)
	return nil
}

// hold makes g, watched by v, the slot's game; accounts are its seats'
// account names ("" for anonymous seats).
func (r *run) hold(s *slot, g view, v *viewer, accounts []string) {
	if s.viewer != nil {
		s.viewer.close()
	}
	s.viewer, s.view, s.lastPly = v, g, g.Ply
	s.game = &Played{ID: g.ID, AI: s.ai, Accounts: accounts}
	id := g.ID
	r.ids[s.idx].Store(&id)
	s.games = append(s.games, s.game)
}

// launch starts every slot that holds a game; done closes once they all
// stopped. stop (the caller's context) ends the run early; ctx bounds the
// requests.
func (r *run) launch(ctx, stop context.Context, slots []*slot) <-chan struct{} {
	var wg sync.WaitGroup
	for _, s := range slots {
		if !s.ok() {
			continue
		}
		wg.Go(func() {
			if s.ai {
				r.watchAI(ctx, stop, s)
			} else {
				r.playHuman(ctx, stop, s)
			}
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// pause waits d or until the run should stop, and reports whether the
// slot may go on.
func (r *run) pause(stop context.Context, d time.Duration) bool {
	if left := time.Until(r.deadline); d > left {
		d = left
	}
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-stop.Done():
		}
	}
	return stop.Err() == nil && time.Now().Before(r.deadline)
}

// think is a player's pause before a move: half to one and a half of
// cfg.Think, the first one anywhere up to cfg.Think, so that the games do
// not move in step.
func (r *run) think(s *slot) time.Duration {
	if r.cfg.Think <= 0 {
		return 0
	}
	if s.moves == 0 {
		return time.Duration(s.rng.Int64N(int64(r.cfg.Think)))
	}
	return r.cfg.Think/2 + time.Duration(s.rng.Int64N(int64(r.cfg.Think)))
}

// playHuman plays the slot's game: a random legal move for the seat to
// move, timed to its acknowledgement and to its broadcast, until the slot
// played its moves or the time is up.
func (r *run) playHuman(ctx, stop context.Context, s *slot) {
	for s.moves < r.cfg.Moves && r.pause(stop, r.think(s)) {
		if s.view.over() || len(s.view.Legal) == 0 {
			if r.newGame(ctx, s) != nil {
				s.failed = true
				return
			}
			s.replaced++
			continue
		}
		if !r.playOne(ctx, s) {
			s.failed = true
			return
		}
	}
	s.finished = s.moves >= r.cfg.Moves
}

// overSocket reports whether the slot plays its moves over its game's
// socket, each with its seat's token (anonymous human games, unless
// Config.HTTPMoves); the accounts' moves are POSTs with their cookies.
func (r *run) overSocket(s *slot) bool { return !s.ai && s.players == nil && !r.cfg.HTTPMoves }

// playOne plays one move; it reports false when the slot cannot go on.
func (r *run) playOne(ctx context.Context, s *slot) bool {
	if r.overSocket(s) {
		return r.playOverSocket(ctx, s)
	}
	move := s.view.Legal[s.rng.IntN(len(s.view.Legal))]
	c, token := s.mover(s.view.ToMove)
	sent := time.Now()
	next, err := c.move(ctx, s.game.ID, token, move, s.view.Ply)
	acked := time.Now()
	if err != nil {
		r.tally.add(errorKind("move", err), err)
		return r.resync(ctx, s)
	}
	s.moves++
	s.game.Moves = append(s.game.Moves, move)
	s.ack = append(s.ack, acked.Sub(sent))
	s.view = next
	ev, err := s.viewer.await(next.Version)
	if err != nil {
		r.tally.add(errorKind("broadcast", err), err)
		return r.reopen(ctx, s, err)
	}
	s.broadcast = append(s.broadcast, ev.at.Sub(sent))
	return true
}

// playOverSocket plays one move over the game's socket: sent with its
// seat's token and an id, timed to its ack (the acknowledgement) and to
// the game's event of the ack's version (the broadcast), whose game is
// the slot's next view.
func (r *run) playOverSocket(ctx context.Context, s *slot) bool {
	move := s.view.Legal[s.rng.IntN(len(s.view.Legal))]
	_, token := s.mover(s.view.ToMove)
	s.sent++
	sent := time.Now()
	a, err := s.viewer.move(ctx, strconv.Itoa(s.sent), token, move, s.view.Ply)
	if err != nil {
		r.tally.add(errorKind("move", err), err)
		return r.afterRefusal(ctx, s, err)
	}
	s.moves++
	s.game.Moves = append(s.game.Moves, move)
	s.ack = append(s.ack, a.at.Sub(sent))
	ev, err := s.viewer.await(a.version)
	if err != nil {
		r.tally.add(errorKind("broadcast", err), err)
		return r.reconnect(ctx, s)
	}
	s.broadcast = append(s.broadcast, ev.at.Sub(sent))
	s.view = *ev.game
	return true
}

// refusedPause is a socket slot's pause after a move refused as one too
// many, as a client that respects the server's limits makes.
const refusedPause = 50 * time.Millisecond

// afterRefusal goes on after a socket's move failed: refused as one too
// many, it is sent again after a pause (the game is as the slot saw it
// last, since only the slot plays it); refused otherwise, the game is
// read again; with no answer, the socket is opened again, whose first
// event is the game as it is.
func (r *run) afterRefusal(ctx context.Context, s *slot, err error) bool {
	var se *statusError
	switch {
	case rateLimited(err):
		sleep(ctx, refusedPause)
		return true
	case errors.As(err, &se):
		ok := r.resync(ctx, s)
		s.client.close() // the GET's connection: the socket stays the one
		return ok
	}
	return r.reconnect(ctx, s)
}

// reconnect opens the slot's socket again and takes its first event, the
// game as it is, as the slot's view: a move whose answer was lost shows
// in it if it was stored.
func (r *run) reconnect(ctx context.Context, s *slot) bool {
	v, err := s.client.watch(ctx, s.game.ID)
	if err != nil {
		r.tally.add(errorKind("socket", err), err)
		return false
	}
	s.viewer.close()
	s.viewer = v
	first, err := v.await(0)
	if err != nil {
		r.tally.add(errorKind("socket", err), err)
		return false
	}
	r.adopt(s, *first.game)
	return true
}

// resync reads the game again after a refused or lost move. A read the
// server refuses as too many is tried again after a pause, as a client
// that respects the server's limits does.
func (r *run) resync(ctx context.Context, s *slot) bool {
	v, err := s.client.get(ctx, s.game.ID)
	for wait := 100 * time.Millisecond; rateLimited(err) && wait <= 2*time.Second; wait *= 2 {
		r.tally.add(errorKind("get", err), err)
		if !r.pause(ctx, wait) {
			break
		}
		v, err = s.client.get(ctx, s.game.ID)
	}
	if err != nil {
		r.tally.add(errorKind("get", err), err)
		return false
	}
	r.adopt(s, v)
	return true
}

// adopt makes v, the game as the server reads it, the slot's view.
func (r *run) adopt(s *slot, v view) {
	if n := len(v.Moves); n > len(s.game.Moves) {
		// a move whose answer was lost was stored after all
		s.game.Moves = append(s.game.Moves, v.Moves[len(s.game.Moves):]...)
	}
	s.view = v
}

// reopen opens the slot's socket again when it closed.
func (r *run) reopen(ctx context.Context, s *slot, err error) bool {
	if err != errSocketClosed {
		return true
	}
	v, err := s.client.watch(ctx, s.game.ID)
	if err != nil {
		r.tally.add(errorKind("socket", err), err)
		return false
	}
	s.viewer.close()
	s.viewer = v
	return true
}

// watchAI counts the AI moves the slot's viewer sees within the measured
// window, replacing each game that ends, until the time is up.
func (r *run) watchAI(ctx, stop context.Context, s *slot) {
	end := time.NewTimer(time.Until(r.deadline))
	defer end.Stop()
	for {
		select {
		case ev := <-s.viewer.events:
			r.countAI(s, ev)
			if ev.over && !r.replaceAI(ctx, s) {
				return
			}
		case <-s.viewer.closed:
			r.tally.add(errorKind("broadcast", errSocketClosed), errSocketClosed)
			if !r.reopen(ctx, s, errSocketClosed) {
				s.failed = true
				return
			}
		case <-end.C:
			return
		case <-stop.Done():
			return
		}
	}
}

// countAI adds the plies an event shows played since the last one.
func (r *run) countAI(s *slot, ev event) {
	if ev.ply > s.lastPly && !ev.at.Before(r.start) && ev.at.Before(r.deadline) {
		s.aiMoves += ev.ply - s.lastPly
	}
	if ev.ply > s.lastPly {
		s.lastPly = ev.ply
	}
}

// replaceAI starts the slot's next AI game.
func (r *run) replaceAI(ctx context.Context, s *slot) bool {
	if !time.Now().Before(r.deadline) {
		return false
	}
	if r.newGame(ctx, s) != nil {
		s.failed = true
		return false
	}
	s.replaced++
	return true
}

// closeAll ends the human games still going (a resignation, so that the
// server can let them go) and closes every slot's socket and
// connections, all at once: a socket's close waits for the server's
// answer.
func closeAll(slots []*slot) {
	var wg sync.WaitGroup
	for _, s := range slots {
		wg.Go(func() {
			// The socket first: a slot that plays over it resigns over
			// a connection that replaces it, never beside it.
			if s.viewer != nil {
				s.viewer.close()
			}
			s.resign()
			s.closeClients()
		})
	}
	wg.Wait()
}
