package reviews

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/review"
)

// Defaults and bounds of Config.
const (
	// DefaultNodes is each position's search when Config says none:
	// the review's, at which its curves are fitted.
	DefaultNodes = review.DefaultNodes
	MaxNodes     = review.MaxNodes
	// DefaultRescueAfter is how long a review may take before River's
	// rescuer offers it to another worker (its own worker is taken for
	// dead) and the review is given up where it runs; River's rescuer
	// looks every 30 seconds, so a killed worker's review starts again
	// within DefaultRescueAfter and half a minute.
	DefaultRescueAfter = 15 * time.Minute
	MinRescueAfter     = time.Second
	MaxRescueAfter     = 24 * time.Hour
	MaxWorkers         = 256
	// MaxMoves bounds the moves of a game reviewed.
	MaxMoves = 10_000
	// maxText bounds a game id, a rules id, an option's key or value, a
	// FEN or a move, as a job carries them.
	maxText = 4096
)

// Limits bound the reviews asked for: by one requester (an account, and
// the client's address, each counted), and on the whole queue.
type Limits struct {
	// Pending is how many reviews one requester may have waiting or
	// running at once (0: 3).
	Pending int
	// PerHour is how many reviews one requester may ask for in an hour
	// (0: 20).
	PerHour int
	// Queue is how many reviews may wait or run at once, overall (0:
	// 1000).
	Queue int
}

// The limits of a Config that gives none.
const (
	DefaultPending = 3
	DefaultPerHour = 20
	DefaultQueue   = 1000
)

// Bounds of Limits' fields.
const maxLimit = 1_000_000

func (l Limits) withDefaults() Limits {
	return Limits{Pending: cmp.Or(l.Pending, DefaultPending), PerHour: cmp.Or(l.PerHour, DefaultPerHour),
		Queue: cmp.Or(l.Queue, DefaultQueue)}
}

// Config is a reviews service.
type Config struct {
	// Queue is the queue's database.
	Queue riverdb.Target
	// Compute computes a review; needed when Workers is more than 0.
	Compute Compute
	// Workers is how many reviews this process computes at once (0:
	// none; "arbiter work" processes do them). Reviews have workers of
	// their own: they never take the AI seats'.
	Workers int
	// Nodes is the search of each position (0: DefaultNodes).
	Nodes int64
	// Puzzles asks that every game reviewed be searched for puzzles too
	// (Input.Puzzles); Found lists them.
	Puzzles bool
	// RescueAfter bounds a review's time (0: DefaultRescueAfter).
	RescueAfter time.Duration
	Limits      Limits
	// Poll is how often an idle worker looks for a job (0: a second).
	Poll time.Duration
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
	// Now tells the time (nil: time.Now).
	Now func() time.Time
}

// Check refuses a configuration that cannot work.
func (c Config) Check() error {
	l := c.Limits
	switch {
	case c.Workers < 0 || c.Workers > MaxWorkers:
		return fmt.Errorf("--review-workers %d: want 0 to %d", c.Workers, MaxWorkers)
	case c.Workers > 0 && c.Compute == nil:
		return errors.New("reviews: workers need a way to compute a review")
	case c.Nodes < 0 || c.Nodes > MaxNodes:
		return fmt.Errorf("--review-nodes %d: want 1 to %d nodes a position", c.Nodes, MaxNodes)
	case c.RescueAfter != 0 && (c.RescueAfter < MinRescueAfter || c.RescueAfter > MaxRescueAfter):
		return fmt.Errorf("--review-rescue-after %s: want %s to %s", c.RescueAfter, MinRescueAfter, MaxRescueAfter)
	case l.Pending < 0 || l.Pending > maxLimit || l.PerHour < 0 || l.PerHour > maxLimit || l.Queue < 0 || l.Queue > maxLimit:
		return fmt.Errorf("review limits %+v: want 0 (the default) to %d each", l, maxLimit)
	case c.Poll < 0:
		return fmt.Errorf("poll interval %s: want 0 or more", c.Poll)
	}
	return nil
}

// The reviews' own tables in the queue's database. arbiter_review is one
// row a game asked about (the unique key that makes a review once), with
// who asked, for the limits; arbiter_review_result the workers' results,
// one a game, the first written kept.
const (
	createReviews = `CREATE TABLE IF NOT EXISTS arbiter_review (
	game TEXT NOT NULL PRIMARY KEY, account TEXT NOT NULL, addr TEXT NOT NULL,
	requested BIGINT NOT NULL, job BIGINT NOT NULL DEFAULT 0)`
	createByAccount = `CREATE INDEX IF NOT EXISTS arbiter_review_account ON arbiter_review (account, requested)`
	createByAddr    = `CREATE INDEX IF NOT EXISTS arbiter_review_addr ON arbiter_review (addr, requested)`
	createResults   = `CREATE TABLE IF NOT EXISTS arbiter_review_result (
	game TEXT NOT NULL PRIMARY KEY, data TEXT NOT NULL, failure TEXT NOT NULL)`
	// createPuzzles keeps the puzzles found in reviewed games, one row a
	// puzzle id (a position: the same position found in two games is
	// kept once), seq its order of arrival for Found.
	createPuzzles = `CREATE TABLE IF NOT EXISTS arbiter_review_puzzle (
	id TEXT NOT NULL PRIMARY KEY, game TEXT NOT NULL, data TEXT NOT NULL, found BIGINT NOT NULL)`
	createPuzzlesFound = `CREATE INDEX IF NOT EXISTS arbiter_review_puzzle_found ON arbiter_review_puzzle (found, id)`
)

// tables are the statements that make the reviews' tables.
func tables() []string {
	return []string{createReviews, createByAccount, createByAddr, createResults, createPuzzles, createPuzzlesFound}
}

// Service takes requests for reviews and answers their state; with
// workers, it computes them too.
type Service struct {
	cfg    Config
	db     *riverdb.DB
	client riverdb.Client
	log    *slog.Logger
	// mu makes one request's check of the limits and its insert one step
	// in this process (another process may still pass a limit by one).
	mu        sync.Mutex
	started   bool
	closeOnce sync.Once
	closed    atomic.Bool
}

// Open opens the queue (an SQLite file is made, 0600, when missing) and
// makes the service; Start starts its workers, Close stops it.
func Open(ctx context.Context, cfg Config) (*Service, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg.Limits = cfg.Limits.withDefaults()
	cfg.Nodes = cmp.Or(cfg.Nodes, DefaultNodes)
	cfg.RescueAfter = cmp.Or(cfg.RescueAfter, DefaultRescueAfter)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	db, err := riverdb.Open(ctx, cfg.Queue, riverdb.Options{Create: true}, tables()...)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, db: db, log: cfg.Logger}
	rc := &river.Config{Logger: riverdb.QuietLogger()}
	if cfg.Workers > 0 {
		rc = workerConfig(db, WorkConfig{Compute: cfg.Compute, Workers: cfg.Workers, RescueAfter: cfg.RescueAfter,
			Poll: cfg.Poll, Logger: cfg.Logger})
	}
	if s.client, err = db.NewClient(rc); err != nil {
		db.Close()
		return nil, fmt.Errorf("reviews: %v", err)
	}
	return s, nil
}

// Start starts the service's workers, if it has any.
func (s *Service) Start(ctx context.Context) error {
	if s.cfg.Workers == 0 {
		return nil
	}
	if err := s.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("reviews: queue %s: %v", s.db.Target, err)
	}
	s.started = true
	return nil
}

// Close stops the workers, giving back the reviews in hand (offered
// again at once), and closes the queue. A second Close does nothing.
func (s *Service) Close() {
	s.closed.Store(true)
	s.closeOnce.Do(s.close)
}

func (s *Service) close() {
	if s.started {
		ctx, cancel := context.WithTimeout(context.Background(), riverdb.ConnectTimeout)
		if err := s.client.StopAndCancel(ctx); err != nil {
			s.log.Warn("reviews: stopping the workers", "err", err)
		}
		cancel()
	}
	s.db.Close()
}

// Game is a game as a review needs it.
type Game struct {
	ID string
	// Over says whether the game has ended.
	Over bool
	// Public says whether anyone may ask for its review, not only its
	// players.
	Public bool
	// Input is the game as its review computes it (Nodes is the
	// service's).
	Input Input
}

// Requester is who asks for a review. Account and Addr (the client's
// address, an IPv6 /64) are each held to the limits; an automatic
// request (a rated game ending) has neither and only the queue's bound
// holds it.
type Requester struct {
	Account, Addr string
	// Player says whether the requester holds a seat of the game.
	Player bool
}

// Request asks for the review of g: it is queued once, whoever asks
// again getting the review as it stands. isNew reports whether this call
// queued it.
func (s *Service) Request(ctx context.Context, g Game, who Requester) (r Review, isNew bool, err error) {
	if s.closed.Load() {
		return Review{}, false, refuse(Closed, "the server is shutting down; ask again in a moment")
	}
	if err := checkGame(g); err != nil {
		return Review{}, false, err
	}
	if !g.Public && !who.Player {
		return Review{}, false, refuse(Forbidden, "only the game's players may ask for its review")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	job, found, err := s.row(ctx, g.ID)
	if err != nil {
		return Review{}, false, err
	}
	if !found {
		if err := s.admit(ctx, who); err != nil {
			return Review{}, false, err
		}
		res, err := s.db.SQL.ExecContext(ctx, s.db.Rebind(`INSERT INTO arbiter_review (game, account, addr, requested)
			VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`), g.ID, who.Account, who.Addr, s.cfg.Now().UnixMilli())
		if err != nil {
			return Review{}, false, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return Review{}, false, err
		}
		isNew = n == 1 // 0: another process asked first
	}
	if isNew || job == 0 {
		// A request whose job was never put on the queue (the process
		// stopped between the two) gets it now; River's unique job
		// makes a second insert of a queued game's job nothing.
		if err := s.enqueue(ctx, g); err != nil {
			return Review{}, false, err
		}
	}
	r, err = s.Get(ctx, g.ID)
	if err == nil && r.State == Queued && r.job == 0 && job != 0 {
		// Its job is gone, with no result (River's cleaner removes old
		// jobs): it is put on the queue again.
		if err := s.enqueue(ctx, g); err != nil {
			return Review{}, false, err
		}
		r, err = s.Get(ctx, g.ID)
	}
	return r, isNew, err
}

// checkGame refuses a game that cannot be reviewed, saying why.
func checkGame(g Game) error {
	in := g.Input
	switch {
	case g.ID == "" || len(g.ID) > maxText:
		return refuse(Invalid, "game id %s: want 1 to %d bytes", clip.Quote(g.ID), maxText)
	case !g.Over:
		return refuse(Unfinished, "the game goes on: a review is of a finished game")
	case len(in.Moves) == 0:
		return refuse(Unfinished, "the game has no move to review")
	case len(in.Moves) > MaxMoves:
		return refuse(Invalid, "the game has %d moves: a review takes at most %d", len(in.Moves), MaxMoves)
	case in.Rules == "" || len(in.Rules) > maxText || len(in.StartFEN) > maxText:
		return refuse(Invalid, "the game's rules %s or start cannot be reviewed", clip.Quote(in.Rules))
	}
	for k, v := range in.Options {
		if len(k) > maxText || len(v) > maxText {
			return refuse(Invalid, "option %s: longer than %d bytes", clip.Quote(k), maxText)
		}
	}
	for _, m := range in.Moves {
		if m == "" || len(m) > maxText {
			return refuse(Invalid, "move %s: want 1 to %d bytes", clip.Quote(m), maxText)
		}
	}
	return nil
}

// admit holds a new request to the limits: the queue's, then the
// requester's address's and account's.
func (s *Service) admit(ctx context.Context, who Requester) error {
	l := s.cfg.Limits
	var queued int
	if err := s.db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM arbiter_review r
		WHERE NOT EXISTS (SELECT 1 FROM arbiter_review_result x WHERE x.game = r.game)`).Scan(&queued); err != nil {
		return err
	}
	if queued >= l.Queue {
		return &Error{Code: Full, RetryAfter: time.Minute,
			Message: fmt.Sprintf("%d reviews are waiting, as many as the queue takes: ask again later", queued)}
	}
	hourAgo := s.cfg.Now().Add(-time.Hour).UnixMilli()
	for _, k := range []struct{ column, value, what string }{{"addr", who.Addr, "this address"}, {"account", who.Account, "this account"}} {
		if k.value == "" {
			continue
		}
		var pending, recent int
		if err := s.db.SQL.QueryRowContext(ctx, s.db.Rebind(`SELECT
			coalesce(sum(CASE WHEN NOT EXISTS (SELECT 1 FROM arbiter_review_result x WHERE x.game = r.game) THEN 1 ELSE 0 END), 0),
			coalesce(sum(CASE WHEN r.requested > ? THEN 1 ELSE 0 END), 0)
			FROM arbiter_review r WHERE r.`+k.column+` = ?`), hourAgo, k.value).Scan(&pending, &recent); err != nil {
			return err
		}
		if pending >= l.Pending {
			return &Error{Code: RateLimited, RetryAfter: time.Minute,
				Message: fmt.Sprintf("%s has %d reviews waiting, the most it may: ask again when one is done", k.what, pending)}
		}
		if recent >= l.PerHour {
			return &Error{Code: RateLimited, RetryAfter: 10 * time.Minute,
				Message: fmt.Sprintf("%s asked for %d reviews in the last hour, the most it may", k.what, recent)}
		}
	}
	return nil
}

// row reads the review's row: its job's id (0 for none yet).
func (s *Service) row(ctx context.Context, game string) (job int64, found bool, err error) {
	err = s.db.SQL.QueryRowContext(ctx, s.db.Rebind(`SELECT job FROM arbiter_review WHERE game = ?`), game).Scan(&job)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return job, err == nil, err
}

// enqueue puts the game's job on the queue (nothing when it is there
// already) and keeps its id in the game's row.
func (s *Service) enqueue(ctx context.Context, g Game) error {
	in := g.Input
	in.Nodes, in.Puzzles = s.cfg.Nodes, s.cfg.Puzzles
	res, err := s.client.Insert(ctx, reviewJob{Version: JobVersion, Game: g.ID, Input: in, Build: riverdb.Build()}, insertOpts())
	if err != nil {
		return fmt.Errorf("reviews: queueing game %s: %v", clip.Quote(g.ID), err)
	}
	_, err = s.db.SQL.ExecContext(ctx, s.db.Rebind(`UPDATE arbiter_review SET job = ? WHERE game = ?`), res.Job.ID, g.ID)
	return err
}

// insertOpts put a review on its own queue at River's lowest priority,
// once per game while its job waits, runs or is to be retried.
func insertOpts() *river.InsertOpts {
	return &river.InsertOpts{Queue: QueueName, Priority: 4, UniqueOpts: river.UniqueOpts{ByArgs: true,
		ByState: []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
			rivertype.JobStateRetryable, rivertype.JobStateScheduled, rivertype.JobStateCompleted}}}
}

// Get is the review of the game as it stands: NotFound when nobody asked.
func (s *Service) Get(ctx context.Context, game string) (Review, error) {
	var job, requested int64
	var data, failure sql.NullString
	err := s.db.SQL.QueryRowContext(ctx, s.db.Rebind(`SELECT r.job, r.requested, x.data, x.failure
		FROM arbiter_review r LEFT JOIN arbiter_review_result x ON x.game = r.game WHERE r.game = ?`), game).
		Scan(&job, &requested, &data, &failure)
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, refuse(NotFound, "nobody asked for the review of game %s", clip.Quote(game))
	}
	if err != nil {
		return Review{}, err
	}
	r := Review{Game: game, State: Queued, Requested: time.UnixMilli(requested), job: job}
	switch {
	case failure.Valid && failure.String != "":
		r.State, r.Error = Failed, failure.String
		return r, nil
	case data.Valid:
		var res Result
		if err := json.Unmarshal([]byte(data.String), &res); err != nil {
			return Review{}, fmt.Errorf("reviews: the stored review of %s: %v", clip.Quote(game), err)
		}
		r.State, r.Result = Done, &res
		return r, nil
	case job == 0:
		return r, nil
	}
	row, err := s.client.JobGet(ctx, job)
	if errors.Is(err, river.ErrNotFound) {
		r.job = 0 // gone
		return r, nil
	}
	if err != nil {
		return Review{}, err
	}
	switch row.State {
	case rivertype.JobStateRunning:
		r.State = Running
	case rivertype.JobStateDiscarded, rivertype.JobStateCancelled:
		r.State, r.Error = Failed, "the review could not be done"
		if n := len(row.Errors); n > 0 {
			r.Error = firstLine(row.Errors[n-1].Error)
		}
	}
	return r, nil
}

func firstLine(s string) string { return cut(s, maxReason) }

// MaxFound bounds the puzzles one call of Found answers.
const MaxFound = 1000

// Cursor is where a listing of found puzzles stopped: the zero Cursor is
// the start.
type Cursor struct {
	Found int64 // when the last one listed was found, in ms since 1970
	ID    string
}

// Found lists the puzzles found in reviewed games after the cursor, at
// most limit (1 to MaxFound), in the order they were found, with the
// cursor to give next time: a caller that keeps a pool of them asks for
// what is new.
func (s *Service) Found(ctx context.Context, after Cursor, limit int) (ps []puzzle.Puzzle, next Cursor, err error) {
	if limit < 1 || limit > MaxFound {
		return nil, after, fmt.Errorf("reviews: %d puzzles at once: give 1 to %d", limit, MaxFound)
	}
	rows, err := s.db.SQL.QueryContext(ctx, s.db.Rebind(`SELECT id, data, found FROM arbiter_review_puzzle
		WHERE found > ? OR (found = ? AND id > ?) ORDER BY found, id LIMIT ?`), after.Found, after.Found, after.ID, limit)
	if err != nil {
		return nil, after, err
	}
	defer rows.Close()
	next = after
	for rows.Next() {
		var id, data string
		var found int64
		if err := rows.Scan(&id, &data, &found); err != nil {
			return nil, after, err
		}
		var p puzzle.Puzzle
		if err := json.Unmarshal([]byte(data), &p); err != nil {
			return nil, after, fmt.Errorf("reviews: the stored puzzle %s: %v", clip.Quote(id), err)
		}
		ps, next = append(ps, p), Cursor{Found: found, ID: id}
	}
	if err := rows.Err(); err != nil {
		return nil, after, err
	}
	return ps, next, nil
}
