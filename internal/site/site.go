// Package site puts arbiter's site together, in one place: over a store,
// the hall (the games in play), then the lobby (seeks, which it starts
// through the hall), the account service and the analysis service (whose
// endgame tables the hall's engines probe too), the reviews (on their
// queue, with the analysis's tables), the puzzles, the notifications
// (hooked to the hall's moves and the lobby's seeks), then the HTTP
// server over them all. "arbiter serve" builds its site here from its flags, and so
// do the tests that run a whole site.
package site

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/community"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/puzzles"
	"github.com/arbiter-games/arbiter/reviews"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/watch"
)

// Config is a site: its store and each service's own configuration,
// given whole. New fills in what they share (the store, the logger, the
// clock) and what one gives another (the analysis's engine options to
// the hall, the hall to the lobby); those fields of Hall, Lobby,
// Accounts and Analysis are ignored.
type Config struct {
	Store store.Store
	// Logger receives every service's structured log; nil discards it.
	Logger *slog.Logger
	// Now is every service's clock (nil: time.Now).
	Now      func() time.Time
	Hall     hall.Config
	Accounts accounts.Config
	Analysis analysis.Config
	// Reviews, when not nil, is the reviews service's configuration
	// (its queue, workers, limits); its Compute is the review with the
	// analysis's tables when it gives none. Nil: no reviews.
	Reviews *reviews.Config
	// AutoReview asks for the review of every rated game when it ends
	// (with Reviews only).
	AutoReview bool
	// Puzzles is the puzzle service's configuration (its sets, limits,
	// randomness); New gives it the store and the clock.
	Puzzles puzzles.Config
	// Community is the chat and moderation service's configuration (its
	// limits); New gives it the store, the clock and the logger.
	Community community.Config
	// Notify, when not nil, is the notification service's configuration
	// (its mailer, public URL, quiet period, limits); New gives it the
	// store, the hall, the clock and the logger, and hooks it to the
	// hall's commits and the lobby's seeks. Nil: no notifications.
	Notify *notify.Config
	Server server.Config
}

// New makes the site's services over cfg.Store and the server over them.
// The server starts and closes them (Server.Start, Server.Close); the
// caller closes the store.
func New(cfg Config) (*server.Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("site: no store")
	}
	an := cfg.Analysis
	an.Logger, an.Now = cfg.Logger, cfg.Now
	analyses, err := analysis.New(an)
	if err != nil {
		return nil, err
	}
	var revs *reviews.Service
	if cfg.Reviews != nil {
		rc := *cfg.Reviews
		rc.Logger, rc.Now = cfg.Logger, cfg.Now
		if rc.Compute == nil {
			rc.Compute = reviews.Engine(cfg.Analysis.Tables)
		}
		if revs, err = reviews.Open(context.Background(), rc); err != nil {
			analyses.Close()
			return nil, err
		}
	} else if cfg.AutoReview {
		analyses.Close()
		return nil, errors.New("site: automatic reviews need the reviews service")
	}
	closeAll := func() {
		analyses.Close()
		if revs != nil {
			revs.Close()
		}
	}
	hc := cfg.Hall
	hc.Store, hc.Logger, hc.Now, hc.EngineOptions = cfg.Store, cfg.Logger, cfg.Now, analyses.EngineOptions
	var h *hall.Hall
	if cfg.AutoReview {
		hc.Ended = func(ctx context.Context, id string) { autoReview(ctx, h, revs, id, cfg.Logger) }
	}
	var nt *notify.Service
	if cfg.Notify != nil {
		// The hall is made before the service, which reads its games:
		// the hook finds the service once both are made.
		hc.Committed = func(ctx context.Context, c hall.Committed) { nt.GameCommitted(ctx, c) }
	}
	h, err = hall.New(hc)
	if err != nil {
		closeAll()
		return nil, err
	}
	lc := lobby.Config{Store: cfg.Store, Hall: h, Logger: cfg.Logger, Now: cfg.Now}
	if cfg.Notify != nil {
		nc := *cfg.Notify
		nc.Store, nc.Games, nc.Now, nc.Logger = cfg.Store, h, cfg.Now, cfg.Logger
		if nt, err = notify.New(context.Background(), nc); err != nil {
			closeAll()
			return nil, err
		}
		lc.Posted, lc.Started = nt.SeekPosted, nt.SeekStarted
	}
	ac := cfg.Accounts
	ac.Store, ac.Logger, ac.Now = cfg.Store, cfg.Logger, cfg.Now
	accts, err := accounts.New(ac)
	if err != nil {
		closeAll()
		return nil, err
	}
	pc := cfg.Puzzles
	pc.Store, pc.Now, pc.Logger = cfg.Store, cfg.Now, cfg.Logger
	if revs != nil && pc.Feed == nil {
		pc.Feed = foundFeed(revs)
	}
	pz, err := puzzles.New(pc)
	if err != nil {
		closeAll()
		return nil, err
	}
	cc := cfg.Community
	cc.Store, cc.Now, cc.Logger = cfg.Store, cfg.Now, cfg.Logger
	com, err := community.New(cc)
	if err != nil {
		closeAll()
		return nil, err
	}
	sc := cfg.Server
	sc.Hall, sc.Analysis, sc.Accounts, sc.Reviews, sc.Puzzles, sc.Community, sc.Notify = h, analyses, accts, revs, pz, com, nt
	sc.Lobby = lobby.New(lc)
	sc.Tournaments = tournament.New(tournament.Config{Store: cfg.Store, Hall: h, Logger: cfg.Logger, Now: cfg.Now})
	// The top game is kept for a second of the machine's time, whatever
	// the site's clock says: it bounds the store's load, not a game's.
	sc.Watch = watch.New(watch.Config{Store: cfg.Store})
	sc.Logger, sc.Now = cfg.Logger, cfg.Now
	srv, err := server.New(sc)
	if err != nil {
		closeAll()
		return nil, err
	}
	return srv, nil
}

// autoReview asks for the review of game id if it is rated, as nobody in
// particular: only the queue's bound holds it. A refusal is logged.
func autoReview(ctx context.Context, h *hall.Hall, revs *reviews.Service, id string, log *slog.Logger) {
	v, err := h.Get(ctx, id)
	if err != nil || !v.Rated || len(v.Moves) == 0 { // an aborted game has nothing to review
		return
	}
	if _, _, err := revs.Request(ctx, reviews.GameOf(v), reviews.Requester{}); err != nil && log != nil {
		log.Warn("automatic review", "game", id, "err", err)
	}
}

// foundFeed is the puzzles' feed of what the reviews found in the site's
// games: each call gives what was found since the last (from the first,
// after a restart: the pool is rebuilt). The puzzle service's Run calls
// it from one goroutine.
func foundFeed(revs *reviews.Service) func(ctx context.Context) ([]puzzle.Puzzle, error) {
	var at reviews.Cursor
	return func(ctx context.Context) ([]puzzle.Puzzle, error) {
		var all []puzzle.Puzzle
		for {
			ps, next, err := revs.Found(ctx, at, reviews.MaxFound)
			all, at = append(all, ps...), next
			if err != nil || len(ps) < reviews.MaxFound {
				return all, err
			}
		}
	}
}
