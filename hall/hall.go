// Package hall hosts games without any network: it holds the games in
// play, creates and joins them, plays people's moves, resignations and
// draw offers, runs the AI seats on a bounded worker queue, keeps the
// clocks, aborts games nobody started, and tells watchers of every
// change. Transports (HTTP and websockets in package server, tests, the
// load tester) hand it a request and get back the game or a typed
// refusal (*Error); the hall imports no net/http.
//
// The store is the source of truth. Inside one process every game has one
// writer at a time (a lock per game, held across the store's write), so
// people's moves, AI moves, clocks and draw offers never interleave;
// between processes the store's conditional writes decide, and a writer
// that loses reloads the game. A change is stored durably before it is
// acknowledged, and published to the watchers after that.
//
// Every limit of the hosting has one home here: the AI workers and their
// queue (workers.go), the engines' memory budget (budget.go), the ply
// ceiling of games with no person in them, the abort of games nobody
// started (clock.go). A panic in one game's AI or timer costs that game
// its turn, never the process (the game is marked as needing attention).
package hall

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/store"
)

// Config is what a hall runs with. Zero fields take the defaults their
// comments give.
type Config struct {
	Store store.Store
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
	// Workers bounds the AI searches running at once (0: GOMAXPROCS).
	Workers int
	// AIMoveTime is the time an engine without a level of its own ("ab",
	// "mcts") spends on a move when no clock says less (0: 1s).
	AIMoveTime time.Duration
	// AIMemory bounds the memory all engines of all games may hold, in
	// bytes (0: a quarter of the machine's memory, see DefaultAIMemory).
	// A game whose engines would pass it is refused with OverBudget.
	AIMemory int64
	// AllowAIGames lets a game have no person in it with no ceiling but
	// its own; without it such a game ends drawn at AIGamePlies plies.
	AllowAIGames bool
	// AIGamePlies is the ply ceiling of a game with no person in it when
	// AllowAIGames is off (0: 200).
	AIGamePlies int
	// AIGamePace is the least time between two moves of a game with no
	// person in it (0: 1s): such games are watched, not played, and
	// their engines' quick moves would otherwise take the workers and the
	// store from the games of people.
	AIGamePace time.Duration
	// AbortAfter is how long a game with a real-time clock waits for its
	// first move before it is aborted (0: 5 minutes); a correspondence
	// game waits one period of its clock.
	AbortAfter time.Duration
	// IdleAfter is how long a game stays in memory once nothing needs it
	// (no request, no watcher, no AI turn queued or running, no timer); a
	// later request reads it from the store again (0: 10 minutes).
	IdleAfter time.Duration
	// Now tells the time (nil: time.Now).
	Now func() time.Time
	// Engines makes the engine of an AI seat from its spec (nil: ai.New):
	// a way to plug in engines the ai package does not know, and for
	// tests, engines that fail. opts are EngineOptions' for the game.
	Engines EngineMaker
	// EngineOptions gives the engines of a game's AI seats what their
	// specs cannot say (nil: nothing): the server's endgame tables of
	// that game and rules, which ab probes (ai.WithTables).
	EngineOptions func(g game.Game) []ai.Option
	// Ended, when not nil, is told the id of each game that ends in this
	// process (the move, resignation, agreement, flag or abort that
	// ended it committed here, so once over all processes), after the
	// end is stored, on a task of its own: the site's automatic
	// reviews. A panic in it is logged, the hall goes on.
	Ended func(ctx context.Context, id string)
	// Committed, when not nil, is told of each move and resignation
	// stored by this process (so once over all processes), after it is
	// stored, on a task of its own: the site's notifications. A panic
	// in it is logged, the hall goes on.
	Committed func(ctx context.Context, c Committed)
}

// Committed is a move or a resignation a hall stored.
type Committed struct {
	Game string
	// Resigned is true for a resignation, false for a move.
	Resigned bool
	// Seat is the seat that moved or resigned; Ply the game's ply after
	// the change.
	Seat, Ply int
	// Over says that the change ended the game.
	Over bool
}

// EngineMaker makes an engine from its spec and seed, with the options
// of its game (ai.New's form): Config.Engines, which a transport passes
// on without naming the ai package.
type EngineMaker func(spec string, seed uint64, opts ...ai.Option) (ai.Engine, error)

// Defaults of Config.
const (
	DefaultAIGamePlies = 200
	DefaultAIGamePace  = time.Second
	DefaultAbortAfter  = 5 * time.Minute
	DefaultIdleAfter   = 10 * time.Minute
)

// Hall hosts games. Make one with New, Start it to resume the games that
// wait on it, and Close it to stop.
type Hall struct {
	cfg    Config
	store  store.Store
	log    *slog.Logger
	now    func() time.Time
	queue  *workQueue
	budget *budget
	stats  counters
	// scratches lends every game in play the buffers of a move.
	scratches game.Scratches

	mu      sync.Mutex
	entries map[string]*entry

	ctx     context.Context
	cancel  context.CancelFunc
	tasks   sync.WaitGroup // AI turns and the loops
	closing atomic.Bool
	// watching counts the watches open, over all games.
	watching atomic.Int64
}

// counters are what the hall counts for the transport's metrics.
type counters struct {
	created, humanMoves, aiMoves, aiFailures, aborted atomic.Uint64
	// enginesEvicted counts the games whose engines were let go to make
	// room in the AI memory budget.
	enginesEvicted atomic.Uint64
}

// New makes a hall over cfg.Store.
func New(cfg Config) (*Hall, error) {
	if cfg.Store == nil {
		return nil, errors.New("hall: no store")
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	h := &Hall{cfg: cfg, store: cfg.Store, log: cfg.Logger, now: cfg.Now, entries: map[string]*entry{},
		queue: newWorkQueue(cfg.Workers), budget: newBudget(cfg.AIMemory)}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	return h, nil
}

func (cfg *Config) check() error {
	switch {
	case cfg.Workers < 0:
		return fmt.Errorf("hall: %d workers; want 0 (one per core) or more", cfg.Workers)
	case cfg.AIMemory < 0:
		return fmt.Errorf("hall: AI memory %d; want 0 (a quarter of the memory) or more", cfg.AIMemory)
	case cfg.AIGamePlies < 0:
		return fmt.Errorf("hall: AI game plies %d; want 0 (the default) or more", cfg.AIGamePlies)
	case cfg.AIMoveTime < 0, cfg.AbortAfter < 0, cfg.IdleAfter < 0, cfg.AIGamePace < 0:
		return errors.New("hall: a negative duration")
	}
	return nil
}

func (cfg *Config) setDefaults() {
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.AIMoveTime == 0 {
		cfg.AIMoveTime = time.Second
	}
	if cfg.AIMemory == 0 {
		cfg.AIMemory = DefaultAIMemory()
	}
	if cfg.AIGamePlies == 0 {
		cfg.AIGamePlies = DefaultAIGamePlies
	}
	if cfg.AIGamePace == 0 {
		cfg.AIGamePace = DefaultAIGamePace
	}
	if cfg.AbortAfter == 0 {
		cfg.AbortAfter = DefaultAbortAfter
	}
	if cfg.IdleAfter == 0 {
		cfg.IdleAfter = DefaultIdleAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Engines == nil {
		cfg.Engines = ai.New
	}
	if cfg.EngineOptions == nil {
		cfg.EngineOptions = func(game.Game) []ai.Option { return nil }
	}
}

// Start resumes the games that wait on the hall (an AI to move, a clock
// running), follows the store's events, so that changes made by other
// processes reach this one's watchers, and sweeps idle games from memory.
func (h *Hall) Start(ctx context.Context) error {
	events, err := h.store.Subscribe(h.ctx)
	if err != nil {
		return fmt.Errorf("hall: following the store: %w", err)
	}
	h.goTask(func() { h.follow(events) })
	h.goTask(h.sweep)
	if err := h.ensureLevels(ctx); err != nil {
		return err
	}
	return h.resume(ctx)
}

// goTask runs f as one of the hall's tasks, which Close waits for.
func (h *Hall) goTask(f func()) {
	h.tasks.Add(1)
	go func() {
		defer h.tasks.Done()
		f()
	}()
}

// resume loads every ongoing game and lets its AI move and its clock run.
// A game that cannot be loaded (or whose loading panics) is logged and
// marked; the others are resumed all the same.
func (h *Hall) resume(ctx context.Context) error {
	games, err := h.store.List(ctx, store.Filter{Ongoing: true, Limit: 1 << 30})
	if err != nil {
		return fmt.Errorf("hall: listing ongoing games: %w", err)
	}
	failed := 0
	for _, g := range games {
		if err := h.resumeOne(ctx, g.ID); err != nil {
			failed++
			h.log.Error("resume", "game", g.ID, "err", err)
		}
	}
	h.log.Info("resumed", "games", len(games)-failed, "failed", failed)
	return nil
}

// resumeOne loads one game and lets it go on.
func (h *Hall) resumeOne(ctx context.Context, id string) (err error) {
	e := h.lock(id)
	defer e.mu.Unlock()
	defer h.contain(e, "resume", &err)
	if err := h.refresh(ctx, e); err != nil {
		e.attention = "the server could not load this game: " + ErrorMessage(err)
		return err
	}
	h.playDue(e)
	h.afterChange(e)
	return nil
}

// contain turns a panic in the work of one game into an error of that
// game, logged with the game's id and shown on the game: the process and
// the other games go on. It is deferred, with e.mu held by the caller.
func (h *Hall) contain(e *entry, what string, err *error) {
	p := recover()
	if p == nil {
		return
	}
	buf := make([]byte, 8<<10)
	buf = buf[:runtime.Stack(buf, false)]
	h.log.Error("panic", "game", e.id, "in", what, "panic", fmt.Sprint(p), "stack", string(buf))
	e.attention = "the server failed on this game (" + what + "); its operator has been told"
	if err != nil {
		*err = fmt.Errorf("%s of game %s: panic: %v", what, e.id, p)
	}
}

// follow reloads and publishes the games other processes changed.
func (h *Hall) follow(events <-chan store.Event) {
	for ev := range events {
		h.followOne(ev)
	}
}

func (h *Hall) followOne(ev store.Event) {
	e := h.lock(ev.Game)
	defer e.mu.Unlock()
	defer h.contain(e, "reload", nil)
	if e.loaded && e.g.Version >= ev.Version {
		return
	}
	if err := h.refresh(h.ctx, e); err == nil {
		h.broadcast(e, nil)
		h.afterChange(e)
	}
}

// Close stops the hall's own work: new changes are refused, AI searches
// and timers stop (a search cut short is resumed by the next start), and
// every watch ends. It does not close the store.
func (h *Hall) Close() {
	h.closing.Store(true)
	h.cancel()
	for _, e := range h.held() {
		e.mu.Lock()
		e.stopTimer()
		e.mu.Unlock()
	}
	h.endWatches()
	h.tasks.Wait()
}

// Closing reports whether Close was called: the transport stops taking
// requests.
func (h *Hall) Closing() bool { return h.closing.Load() }

// refuseWhileClosing is the refusal of any change once Close began.
func (h *Hall) refuseWhileClosing() error {
	if h.closing.Load() {
		return Errorf(ShuttingDown, "the server is shutting down; try again in a moment")
	}
	return nil
}

// Check reads and writes the store: the health check.
func (h *Hall) Check(ctx context.Context) error { return h.store.Check(ctx) }

// Stats are the hall's counts, for metrics.
type Stats struct {
	Created, HumanMoves, AIMoves, AIFailures, Aborted uint64
	// EnginesEvicted counts the games whose engines were let go to make
	// room in the AI memory budget.
	EnginesEvicted uint64
	// Held counts the games held in memory, Live the ongoing ones among
	// them; AIQueued the AI turns
	// waiting for a worker, AIRunning those searching.
	Held, Live, AIQueued, AIRunning int
	// EngineBytes is the memory the engines of live games may hold;
	// EngineBudget its bound.
	EngineBytes, EngineBudget int64
	Watchers                  int
}

// Stats reads the hall's counts.
func (h *Hall) Stats() Stats {
	queued, running := h.queue.load()
	return Stats{Created: h.stats.created.Load(), HumanMoves: h.stats.humanMoves.Load(),
		AIMoves: h.stats.aiMoves.Load(), AIFailures: h.stats.aiFailures.Load(), Aborted: h.stats.aborted.Load(),
		EnginesEvicted: h.stats.enginesEvicted.Load(), Held: len(h.held()), Live: h.liveGames(), AIQueued: queued, AIRunning: running,
		EngineBytes: h.budget.inUse(), EngineBudget: h.budget.limit, Watchers: h.watchers()}
}
