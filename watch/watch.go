// Package watch chooses the site's top game: the game in play that the
// home page's box and the watching page (/tv) follow, as lichess's TV
// does. The choice is the store's (store.Live's TopGames: a running
// tournament's game above any other, then the higher mean rating of the
// seats, then the newer game; real-time games between people's or bots'
// accounts only), so that every server on one store shows the same game
// whichever of them hosts it; the service keeps it for a second, so that
// a flood of home pages costs the store one query a second, however many
// ask at once. It knows no transport.
package watch

import (
	"context"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// Defaults of Config.
const (
	// DefaultFresh is how long a choice is kept.
	DefaultFresh = time.Second
	// askTimeout bounds one query of the store: it runs on behalf of
	// every caller waiting, so no one caller's context ends it.
	askTimeout = 10 * time.Second
)

// Config is what a service works with.
type Config struct {
	// Store ranks the games (a store.Store gives it).
	Store store.Live
	// Now is the service's clock (nil: time.Now).
	Now func() time.Time
	// Fresh is how long a choice is kept before the store is asked again
	// (0: DefaultFresh).
	Fresh time.Duration
}

// Game is the top game: what a page shows beside its board, which it
// reads from the game's own API.
type Game struct {
	ID   string
	Game string // the game id, "pommel"
	// Seats are the players in seat order, each with its rating in the
	// game id now.
	Seats []Seat
	// Tournament is the running tournament the game is a board of, nil
	// for none.
	Tournament *Tournament
}

// Seat is a player of the top game.
type Seat struct {
	Name   string
	Rating float64
}

// Tournament names the tournament of the top game.
type Tournament struct {
	ID, Name string
}

// Service chooses the top game. Make one with New; it is safe for
// concurrent use.
type Service struct {
	live  store.Live
	now   func() time.Time
	fresh time.Duration

	mu sync.Mutex
	// top is the last choice (nil: nothing in play), made at at; ok is
	// false until one is made, and after the store failed.
	top *Game
	at  time.Time
	ok  bool
	// asking is the query under way, nil for none: every caller that
	// finds the choice stale meanwhile waits for it.
	asking *query
}

// query is one question to the store, answered once for all who wait.
type query struct {
	done chan struct{}
	top  *Game
	err  error
}

// New makes a service over cfg.Store.
func New(cfg Config) *Service {
	s := &Service{live: cfg.Store, now: cfg.Now, fresh: cfg.Fresh}
	if s.now == nil {
		s.now = time.Now
	}
	if s.fresh <= 0 {
		s.fresh = DefaultFresh
	}
	return s
}

// Top gives the top game, nil when no game may be shown. The Game is
// shared with the other callers: none may change it.
func (s *Service) Top(ctx context.Context) (*Game, error) {
	s.mu.Lock()
	if s.ok && s.now().Sub(s.at) < s.fresh {
		top := s.top
		s.mu.Unlock()
		return top, nil
	}
	q := s.asking
	if q == nil {
		q = &query{done: make(chan struct{})}
		s.asking = q
		go s.ask(context.WithoutCancel(ctx), q)
	}
	s.mu.Unlock()
	select {
	case <-q.done:
		return q.top, q.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ask reads the top game from the store for q and keeps it, unless the
// store failed (the next caller asks again).
func (s *Service) ask(ctx context.Context, q *query) {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	at := s.now()
	q.top, q.err = s.read(ctx)
	s.mu.Lock()
	s.asking = nil
	if q.err == nil {
		s.top, s.at, s.ok = q.top, at, true
	} else {
		s.ok = false
	}
	s.mu.Unlock()
	close(q.done)
}

// read asks the store for the best game.
func (s *Service) read(ctx context.Context) (*Game, error) {
	list, err := s.live.TopGames(ctx, 1)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return gameOf(list[0]), nil
}

// gameOf is what a page shows of a live game.
func gameOf(g store.LiveGame) *Game {
	out := &Game{ID: g.Header.ID, Game: g.Header.Game, Seats: make([]Seat, len(g.Header.Seats))}
	for i, seat := range g.Header.Seats {
		out.Seats[i].Name = seat.Name
		if i < len(g.Ratings) {
			out.Seats[i].Rating = g.Ratings[i]
		}
	}
	if t := g.Tournament; t != nil {
		out.Tournament = &Tournament{ID: t.ID, Name: t.Name}
	}
	return out
}
