// Package site puts arbiter's site together, in one place: over a store,
// the hall (the games in play), then the lobby (seeks, which it starts
// through the hall), the account service and the analysis service (whose
// endgame tables the hall's engines probe too), then the HTTP server over
// all four. "arbiter serve" builds its site here from its flags, and so
// do the tests that run a whole site.
package site

import (
	"errors"
	"log/slog"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
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
	Server   server.Config
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
	hc := cfg.Hall
	hc.Store, hc.Logger, hc.Now, hc.EngineOptions = cfg.Store, cfg.Logger, cfg.Now, analyses.EngineOptions
	h, err := hall.New(hc)
	if err != nil {
		analyses.Close()
		return nil, err
	}
	ac := cfg.Accounts
	ac.Store, ac.Logger, ac.Now = cfg.Store, cfg.Logger, cfg.Now
	accts, err := accounts.New(ac)
	if err != nil {
		analyses.Close()
		return nil, err
	}
	sc := cfg.Server
	sc.Hall, sc.Analysis, sc.Accounts = h, analyses, accts
	sc.Lobby = lobby.New(lobby.Config{Store: cfg.Store, Hall: h, Logger: cfg.Logger, Now: cfg.Now})
	sc.Logger, sc.Now = cfg.Logger, cfg.Now
	srv, err := server.New(sc)
	if err != nil {
		analyses.Close()
		return nil, err
	}
	return srv, nil
}
