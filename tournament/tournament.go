// Package tournament runs tournaments: arenas, Swiss and round-robin
// events of any game, made by any account within limits, joined,
// started at their time or by their creator, paired round after round
// (or, in an arena, on each free player) by the rules of package
// tournament/pairing, their games made through the hall and their results
// read from the store as the games end, with standings, tie-breaks and a
// podium. It knows no transport: its refusals are *Error with a Code.
//
// The store holds every decision: a round's pairing is one transaction
// (the tournament's round moves from n to n+1 only if it still is n, and
// a player has one seat a round), and the games' ids are chosen and
// stored with the pairing before the games are made, so that a server
// killed between the two makes the missing games when it starts again,
// and two servers on one database pair each round once.
package tournament

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
)

// The kinds of tournament.
const (
	Arena      = "arena"
	Swiss      = "swiss"
	RoundRobin = "roundrobin"
)

// The limits of tournaments.
const (
	// MaxOpenPerCreator bounds the tournaments an account made that are
	// not finished.
	MaxOpenPerCreator = 3
	// MaxArenaPlayers, MaxSwissPlayers and MaxRoundRobinPlayers bound
	// the players of each kind.
	MaxArenaPlayers      = 200
	MaxSwissPlayers      = 100
	MaxRoundRobinPlayers = 12
	// MaxRounds bounds a Swiss's rounds; MinMinutes and MaxMinutes an
	// arena's duration.
	MaxRounds  = 15
	MinMinutes = 1
	MaxMinutes = 12 * 60
	// MaxAhead is how far ahead a tournament may be scheduled.
	MaxAhead = 60 * 24 * time.Hour
	// MaxName bounds a tournament's name, in characters.
	MaxName = 60
	// MaxRating bounds the rating bounds.
	MaxRating = 4000
	// Tick is how often Run looks at the tournaments when nothing
	// nudges it (a game's end in any process sharing the store nudges).
	Tick = 2 * time.Second
	// maxRunning bounds the running tournaments one pass looks at.
	maxRunning = 200
)

// Config is what a tournament service works with.
type Config struct {
	Store store.Store
	// Hall makes the tournaments' games.
	Hall *hall.Hall
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
	// Now is the service's clock; nil is time.Now. The games' clocks are
	// the hall's.
	Now func() time.Time
	// Tick is how often Run looks at the tournaments (0: Tick).
	Tick time.Duration
	// WatchPoll is how often a watched tournament is read again (0:
	// WatchPoll); MaxWatches bounds the watches open (0: MaxWatches).
	WatchPoll  time.Duration
	MaxWatches int
}

// Service runs the tournaments of one store.
type Service struct {
	store store.Store
	hall  *hall.Hall
	log   *slog.Logger
	now   func() time.Time
	tick  time.Duration
	poke  chan struct{}
	// watch are the tournaments' pages watched (watch.go).
	watch      watchers
	watchPoll  time.Duration
	maxWatches int
}

// New makes a service over cfg.Store; Run runs the tournaments.
func New(cfg Config) *Service {
	s := &Service{store: cfg.Store, hall: cfg.Hall, log: cfg.Logger, now: cfg.Now, tick: cfg.Tick, poke: make(chan struct{}, 1),
		watch: watchers{by: map[string]*watcher{}}, watchPoll: cfg.WatchPoll, maxWatches: cfg.MaxWatches}
	if s.watchPoll <= 0 {
		s.watchPoll = WatchPoll
	}
	if s.maxWatches <= 0 {
		s.maxWatches = MaxWatches
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.tick <= 0 {
		s.tick = Tick
	}
	return s
}

// Nudge asks Run for a pass now.
func (s *Service) Nudge() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// Run makes a pass (Step) on every tick, nudge and stored change of a
// game until ctx ends.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.tick)
	defer t.Stop()
	events, err := s.store.Subscribe(ctx)
	if err != nil {
		s.log.Warn("tournaments: no store events; ticking only", "err", err)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.poke:
		case _, ok := <-events:
			if !ok {
				events = nil
			}
		}
		if err := s.Step(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("tournaments", "err", err)
		}
	}
}

// Code says what kind of refusal an Error is; the transport maps each
// code to its answer.
type Code string

// The refusals of the tournaments.
const (
	Invalid   Code = "invalid"   // values that are not allowed
	NotFound  Code = "not_found" // no such tournament
	Forbidden Code = "forbidden" // not the creator's, not invited, outside the rating bounds
	Conflict  Code = "conflict"  // the tournament's state does not allow it
	TooMany   Code = "too_many_tournaments"
	Banned    Code = "banned" // a moderator banned the account
)

// Error is a refusal: a code and a one-line message saying what is wrong
// and what is allowed. Other errors are the store's or the hall's.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
