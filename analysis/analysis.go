// Package analysis runs the analysis board's searches, apart from the AI
// seats of games in play: its own workers, so that no flood of analyses
// ever delays an AI's reply in a game; a budget of search time for each
// client (an address, and the account when signed in), so that no client
// takes the workers from the others; one search at a time per client;
// and a bounded wait for a worker overall. It holds the endgame tables
// too (tables.go): their exact answer for the positions they hold, and
// the engine options that let ab (the analysis's and the hall's AI
// seats') probe them. It knows no HTTP: a transport asks Admit for a
// Ticket, runs the Ticket's Search, encodes its answer (Best, plain data
// in the board's notation), and maps the typed refusals (*Error) to its
// own answers.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
)

// Config is what a Service runs with; zero fields take the defaults their
// comments give.
type Config struct {
	// Workers bounds the analysis searches running at once (0: half the
	// cores, at least one). They are not the AI seats' workers: a server
	// with Workers analyses running still has every AI worker for the
	// games in play.
	Workers int
	// Threads bounds the threads of one search (0: 1): a search holds one
	// worker and takes up to Threads-1 more that are free when it starts,
	// with nobody waiting. At most Workers, and at most ai.MaxThreads.
	Threads int
	// Waiting bounds the searches waiting for a worker overall (0: four
	// per worker); one more is refused at once with Busy.
	Waiting int
	// Wait bounds one search's wait for a worker (0: 10s).
	Wait time.Duration
	// Share is the search time each client earns per second of wall time
	// (0: 0.25, a quarter of a core), and Burst the most it can bank (0:
	// one minute): a search is charged its time limit when admitted.
	Share float64
	Burst time.Duration
	// Tables are endgame tables (endgame.Open), one folder for each game
	// and rules (nil: none): the service answers the positions they hold
	// exactly (Service.Tables), and its engines, and those EngineOptions
	// is given to, probe them.
	Tables []*endgame.Tables
	// Logger receives the tables' log: what they hold, and each failure
	// once (nil discards it).
	Logger *slog.Logger
	// Now tells the time (nil: time.Now).
	Now func() time.Time
}

// Defaults of Config.
const (
	DefaultWait  = 10 * time.Second
	DefaultShare = 0.25
	DefaultBurst = time.Minute
)

// maxClients bounds the clients whose budgets are kept; past it the one
// seen longest ago is forgotten (its budget was full again by then, or
// nearly so).
const maxClients = 100_000

// Service runs analysis searches. Make one with New.
type Service struct {
	cfg     Config
	workers *pool
	clients *budgets
	tables  *tableSet
	closed  chan struct{}
	close   sync.Once
}

// New makes a service, checking cfg: it refuses two table folders for
// the same game and rules.
func New(cfg Config) (*Service, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	tables, err := newTableSet(cfg.Tables, cfg.Logger)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	s := &Service{cfg: cfg, workers: newPool(cfg.Workers, cfg.Waiting), tables: tables, closed: make(chan struct{})}
	s.clients = newBudgets(cfg.Share, cfg.Burst, cfg.Now)
	return s, nil
}

func (cfg *Config) check() error {
	switch {
	case cfg.Workers < 0:
		return fmt.Errorf("analysis: %d workers; want 0 (half the cores) or more", cfg.Workers)
	case cfg.Threads < 0 || cfg.Threads > ai.MaxThreads:
		return fmt.Errorf("analysis threads %d: want 1 to %d, or 0 for 1", cfg.Threads, ai.MaxThreads)
	case cfg.Workers > 0 && cfg.Threads > cfg.Workers:
		return fmt.Errorf("analysis threads %d: at most the analysis workers (%d)", cfg.Threads, cfg.Workers)
	case cfg.Waiting < 0:
		return fmt.Errorf("analysis: %d waiting; want 0 (four per worker) or more", cfg.Waiting)
	case cfg.Wait < 0, cfg.Burst < 0:
		return errors.New("analysis: a negative duration")
	case math.IsNaN(cfg.Share) || math.IsInf(cfg.Share, 0) || cfg.Share < 0 || cfg.Share > 64:
		return fmt.Errorf("analysis: share %v; want 0 (the default) to 64", cfg.Share)
	}
	return nil
}

func (cfg *Config) setDefaults() {
	if cfg.Workers == 0 {
		cfg.Workers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if cfg.Threads == 0 {
		cfg.Threads = 1
	}
	cfg.Threads = min(cfg.Threads, cfg.Workers)
	if cfg.Waiting == 0 {
		cfg.Waiting = 4 * cfg.Workers
	}
	if cfg.Wait == 0 {
		cfg.Wait = DefaultWait
	}
	if cfg.Share == 0 {
		cfg.Share = DefaultShare
	}
	if cfg.Burst == 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
}

// Workers is the number of analysis workers.
func (s *Service) Workers() int { return s.cfg.Workers }

// Load is the searches waiting for a worker and running.
func (s *Service) Load() (waiting, running int) { return s.workers.load() }

// Close stops the searches running and refuses new ones.
func (s *Service) Close() { s.close.Do(func() { close(s.closed) }) }

// A Ticket is a search admitted: a worker held and the client's budget
// charged. Run its Search once, then Release it.
type Ticket struct {
	s        *Service
	moveTime time.Duration
	release  func()
}

// Admit admits a search of moveTime for the client named by keys (its
// address, and its account when signed in: every key is charged, and
// each runs one search at a time). It waits for a worker at most the
// configured Wait, or until ctx ends. Refusals are *Error: RateLimited
// (with the wait that would have sufficed), Busy, ShuttingDown.
func (s *Service) Admit(ctx context.Context, moveTime time.Duration, keys ...string) (*Ticket, error) {
	select {
	case <-s.closed:
		return nil, errorf(ShuttingDown, 0, "the server is shutting down; try again in a moment")
	default:
	}
	leave, err := s.clients.enter(moveTime, keys)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, s.cfg.Wait)
	defer cancel()
	free, err := s.workers.acquire(wctx, s.closed)
	if err != nil {
		leave()
		return nil, err
	}
	return &Ticket{s: s, moveTime: moveTime, release: func() { free(); leave() }}, nil
}

// Release gives the ticket's worker back and lets its client search again.
func (t *Ticket) Release() { t.release() }

// Search runs a fresh alpha-beta search of st for the ticket's time, with
// the best lines lines (1: the search's own). It stops when ctx ends or
// the service closes. report, when not nil, sees each completed depth.
func (t *Ticket) Search(ctx context.Context, st game.State, lines int, report func(Best)) (Best, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-t.s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	threads, releaseExtra := t.threads(lines)
	defer releaseExtra()
	opts := append(t.s.EngineOptions(st.Game()), ai.WithThreads(threads))
	engine, err := ai.New("ab", 1, opts...)
	if err != nil {
		return Best{}, err
	}
	b := st.Game().Board()
	var onDepth func(ai.Info)
	if report != nil {
		onDepth = func(info ai.Info) { report(bestOf(info, b)) }
	}
	limits := ai.Limits{MoveTime: t.moveTime}
	var info ai.Info
	if ls, ok := engine.(ai.LineSearcher); ok && lines > 1 {
		info = ls.SearchLines(ctx, st, limits, lines, onDepth)
	} else {
		info = engine.Search(ctx, st, limits, onDepth)
	}
	if info.Err != nil {
		return Best{}, errors.Join(errors.New("analysis search"), info.Err)
	}
	return bestOf(info, b), nil
}

// threads is how many threads a search of lines lines runs with: its own
// worker's, and one for each extra worker free now with nobody waiting,
// up to Config.Threads. A search of several lines runs on one thread
// (SearchLines does), so takes none.
func (t *Ticket) threads(lines int) (int, func()) {
	want := t.s.cfg.Threads
	if lines > 1 || want <= 1 {
		return 1, func() {}
	}
	took, release := t.s.workers.tryAcquire(want - 1)
	return 1 + took, release
}
