// Package server is arbiter's HTTP server: a JSON API over stored games,
// live updates over websockets, AI seats that move by themselves, time
// controls the server keeps, limits and metrics.
//
// The store is the source of truth. Inside one process every game has one
// writer at a time (a lock per game, held across the store's write), so
// human moves, AI moves, clocks and draw offers never interleave; between
// processes the store's conditional writes decide, and a writer that
// loses reloads the game. A move is stored durably before it is
// acknowledged, and broadcast after that.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/arbiter-games/arbiter/store"
)

// Limits bound what one client may ask of the server; zero fields take
// the defaults of DefaultLimits.
type Limits struct {
	// Body bounds a request body, in bytes.
	Body int64
	// MovesPerSecond and MoveBurst bound the moves (and other game
	// commands) one client sends.
	MovesPerSecond float64
	MoveBurst      int
	// GamesPerHour bounds the games one client creates or joins.
	GamesPerHour int
	// Sockets bounds the websockets one client holds open at once.
	Sockets int
}

// DefaultLimits are the limits a server keeps when its Config gives none.
var DefaultLimits = Limits{Body: 64 << 10, MovesPerSecond: 10, MoveBurst: 20, GamesPerHour: 60, Sockets: 32}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Body > 0 {
		d.Body = l.Body
	}
	if l.MovesPerSecond > 0 {
		d.MovesPerSecond = l.MovesPerSecond
	}
	if l.MoveBurst > 0 {
		d.MoveBurst = l.MoveBurst
	}
	if l.GamesPerHour > 0 {
		d.GamesPerHour = l.GamesPerHour
	}
	if l.Sockets > 0 {
		d.Sockets = l.Sockets
	}
	return d
}

// Config is what a server runs with.
type Config struct {
	Store store.Store
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
	// Origins are the extra origins (host patterns, as
	// websocket.AcceptOptions takes them) whose pages may open websockets;
	// the server's own host is always allowed.
	Origins []string
	Limits  Limits
	// Workers bounds the AI searches running at once (0: GOMAXPROCS).
	Workers int
	// AIMoveTime is the time an engine without a level of its own ("ab",
	// "mcts") spends on a move when no clock says less (0: 1s).
	AIMoveTime time.Duration
	// IdleAfter is how long a game stays in memory once nothing needs it
	// (no request, no socket open, no AI turn queued or running, no clock
	// timer); a later request reads it from the store again (0: 10
	// minutes).
	IdleAfter time.Duration
	// Now tells the time (nil: time.Now).
	Now func() time.Time
}

// Server serves the API. Make one with New, serve Handler (or call
// Serve), and Start it to resume AI turns and clocks and to follow the
// store's events.
type Server struct {
	cfg     Config
	store   store.Store
	log     *slog.Logger
	limits  Limits
	now     func() time.Time
	handler http.Handler
	metrics *metrics
	clients *clients
	hub     *hub
	// analyses lets each client run one analysis search at a time.
	analyses *analysisGate

	mu      sync.Mutex
	entries map[string]*entry

	workers chan struct{} // a slot per AI search allowed at once
	ctx     context.Context
	cancel  context.CancelFunc
	tasks   sync.WaitGroup // AI searches and event loops
	closing atomic.Bool
}

// New makes a server over cfg.Store.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("server: %d workers; want 0 (one per core) or more", cfg.Workers)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.AIMoveTime <= 0 {
		cfg.AIMoveTime = time.Second
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = 10 * time.Minute
	}
	s := &Server{cfg: cfg, store: cfg.Store, log: cfg.Logger, limits: cfg.Limits.withDefaults(), now: cfg.Now,
		entries: map[string]*entry{}, workers: make(chan struct{}, cfg.Workers)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.clients = newClients(s.limits, s.now)
	s.hub = newHub()
	s.analyses = newAnalysisGate()
	s.metrics = newMetrics(s)
	s.handler = s.routes()
	return s, nil
}

// Handler is the server's HTTP handler: the API, /healthz, /metrics and
// the index page, with the security headers on every answer.
func (s *Server) Handler() http.Handler { return s.handler }

// Registry holds the server's metrics, as /metrics serves them.
func (s *Server) Registry() *prometheus.Registry { return s.metrics.reg }

// Start resumes the games that wait on the server (an AI to move, a clock
// running), follows the store's events, so that changes made by other
// processes reach this one's viewers, and sweeps idle games from memory.
func (s *Server) Start(ctx context.Context) error {
	events, err := s.store.Subscribe(s.ctx)
	if err != nil {
		return fmt.Errorf("server: following the store: %w", err)
	}
	s.tasks.Add(1)
	go func() {
		defer s.tasks.Done()
		s.follow(events)
	}()
	s.tasks.Add(1)
	go func() {
		defer s.tasks.Done()
		s.sweep()
	}()
	return s.resume(ctx)
}

// resume loads every ongoing game and lets its AI move and its clock run.
func (s *Server) resume(ctx context.Context) error {
	games, err := s.store.List(ctx, store.Filter{Ongoing: true, Limit: 1 << 30})
	if err != nil {
		return fmt.Errorf("server: listing ongoing games: %w", err)
	}
	for _, h := range games {
		e := s.lock(h.ID)
		if err := s.refresh(ctx, e); err != nil {
			s.log.Warn("resume", "game", h.ID, "err", err)
		} else {
			s.afterChange(e)
		}
		e.mu.Unlock()
	}
	s.log.Info("resumed", "games", len(games))
	return nil
}

// follow reloads and broadcasts the games other processes changed.
func (s *Server) follow(events <-chan store.Event) {
	for ev := range events {
		e := s.lock(ev.Game)
		if !e.loaded || e.g.Version < ev.Version {
			if err := s.refresh(s.ctx, e); err == nil {
				s.broadcast(e, nil)
				s.afterChange(e)
			}
		}
		e.mu.Unlock()
	}
}

// Close stops the server's own work: new moves are refused, AI searches
// and clocks stop (a search cut short is resumed by the next start),
// every websocket is closed with a going-away status. It does not close
// the store.
func (s *Server) Close() {
	s.closing.Store(true)
	s.cancel()
	for _, e := range s.held() {
		e.mu.Lock()
		if e.timer != nil {
			e.timer.Stop()
		}
		e.mu.Unlock()
	}
	s.hub.closeAll()
	s.tasks.Wait()
}

// Serve answers on ln until ctx ends, then shuts down in order: stop
// taking moves, close the sockets with a going-away status, finish the
// requests in flight (for up to grace), stop the AI. The caller closes
// the store after.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
	s.closing.Store(true)
	s.hub.closeAll()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	s.Close()
	<-errc
	if err != nil {
		return fmt.Errorf("server: requests still running after %s: %w", grace, err)
	}
	s.log.Info("stopped")
	return nil
}
