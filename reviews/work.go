package reviews

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/riverqueue/river"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/puzzle"
)

// JobVersion is the version of the review jobs this build queues and
// does. A worker fails a job of another version, saying so, rather than
// guess at its meaning.
const JobVersion = 1

// maxReason bounds a failed review's reason, in bytes.
const maxReason = 300

// QueueName is the River queue reviews go on, apart from the lab's: its
// own workers, however many the lab's or the AI seats' are.
const QueueName = "arbiter_review"

// reviewJob is one review: the game's id (its unique key) and all a
// worker needs to compute it.
type reviewJob struct {
	Version int    `json:"version"`
	Game    string `json:"game" river:"unique"`
	Input   Input  `json:"input"`
	// Build is the queuer's arbiter (riverdb.Build), "" when unknown.
	Build string `json:"build,omitempty"`
}

// mismatchSnooze is how long a job a worker of another build gave back
// waits before it is offered again: long enough that such a worker does
// not spin on it, short enough that a matching worker is not kept
// waiting.
const mismatchSnooze = 30 * time.Second

// Kind names review jobs in River's tables.
func (reviewJob) Kind() string { return "review" }

// WorkConfig is how a worker computes reviews.
type WorkConfig struct {
	Compute Compute
	// Workers is how many reviews it computes at once (1 or more).
	Workers int
	// RescueAfter bounds a review's time (0: DefaultRescueAfter): a
	// review still running then is given up, and one whose worker died
	// is offered to another by River's rescuer, which looks every 30
	// seconds.
	RescueAfter time.Duration
	// Poll is how often an idle worker looks for a job (0: a second).
	Poll time.Duration
	// Logger is told of each review started, done or failed (nil: not).
	Logger *slog.Logger
	// Started, when not nil, is called by Work once the queue is open
	// and the workers wait for jobs.
	Started func()
	// Build names the worker's arbiter, as riverdb.Build does ("": this
	// binary's).
	Build string
}

// Check refuses settings a worker cannot run with.
func (c WorkConfig) Check() error {
	switch {
	case c.Compute == nil:
		return errors.New("a review worker needs a way to compute a review")
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return fmt.Errorf("--workers %d: want 1 to %d reviews at once", c.Workers, MaxWorkers)
	case c.RescueAfter != 0 && (c.RescueAfter < MinRescueAfter || c.RescueAfter > MaxRescueAfter):
		return fmt.Errorf("--rescue-after %s: want %s to %s (longer than a review takes)", c.RescueAfter, MinRescueAfter, MaxRescueAfter)
	case c.Poll < 0:
		return fmt.Errorf("poll interval %s: want 0 or more", c.Poll)
	}
	return nil
}

// workerConfig is River's configuration for c's workers on db.
func workerConfig(db *riverdb.DB, c WorkConfig) *river.Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	c.RescueAfter = cmp.Or(c.RescueAfter, DefaultRescueAfter)
	poll := cmp.Or(c.Poll, time.Second)
	workers := river.NewWorkers()
	river.AddWorker(workers, &reviewWorker{db: db, c: c})
	return &river.Config{
		Queues:  map[string]river.QueueConfig{QueueName: {MaxWorkers: c.Workers}},
		Workers: workers,
		// River rescues only jobs that have a timeout, once it has
		// passed: a review may take RescueAfter, then it is given up
		// where it runs and offered again if its worker died.
		JobTimeout:           c.RescueAfter,
		RescueStuckJobsAfter: c.RescueAfter,
		FetchPollInterval:    poll,
		FetchCooldown:        min(poll, 20*time.Millisecond),
		Logger:               riverdb.QuietLogger(),
	}
}

// Work computes queued reviews on the queue at t, c.Workers at a time,
// until ctx is done; then it gives back the reviews in hand (offered
// again at once) and returns nil. It is "arbiter work": it needs the
// queue's database only, never the site's store. The queue must exist
// (a site made it): a wrong path would otherwise wait forever.
func Work(ctx context.Context, t riverdb.Target, c WorkConfig) error {
	if err := c.Check(); err != nil {
		return err
	}
	db, err := riverdb.Open(ctx, t, riverdb.Options{Missing: "give the queue file of a site (DIR/queue.db beside its store)"}, tables()...)
	if err != nil {
		return err
	}
	defer db.Close()
	cl, err := db.NewClient(workerConfig(db, c))
	if err != nil {
		return err
	}
	if err := cl.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("queue %s: %v", t, err)
	}
	if c.Started != nil {
		c.Started()
	}
	<-ctx.Done()
	stopCtx, cancel := context.WithTimeout(context.Background(), riverdb.ConnectTimeout)
	defer cancel()
	return cl.StopAndCancel(stopCtx)
}

// reviewWorker does one job: one review.
type reviewWorker struct {
	river.WorkerDefaults[reviewJob]
	db *riverdb.DB
	c  WorkConfig
}

// Work computes the job's review and stores it, unless a result is
// stored already (a job done again after its worker died). A review that
// fails (its game unreadable, the computation's error or panic) is
// stored as failed, with the reason: doing it again would fail again.
func (w *reviewWorker) Work(ctx context.Context, job *river.Job[reviewJob]) (err error) {
	a := job.Args
	log := w.c.Logger.With("game", a.Game, "job", job.ID, "attempt", job.Attempt)
	if a.Version != JobVersion {
		return w.fail(ctx, a.Game, fmt.Sprintf("job version %d: this worker does version %d: run the same arbiter as the site", a.Version, JobVersion))
	}
	if own := cmp.Or(w.c.Build, riverdb.Build()); a.Build != "" && own != "" && a.Build != own {
		// Another build may search otherwise and give another review:
		// the job is left to a worker of the site's build.
		log.Warn("review: queued by another arbiter build: run the site's build here", "site", a.Build, "worker", own)
		return river.JobSnooze(mismatchSnooze)
	}
	stored, err := w.stored(ctx, a.Game)
	if err != nil || stored {
		return err // an error: River tries again later
	}
	log.Info("review: started", "moves", len(a.Input.Moves), "nodes", a.Input.Nodes)
	start := time.Now()
	res, err := w.compute(ctx, a.Input)
	switch {
	case err == nil:
		// Done, even if the worker is stopping now: the result is kept.
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return w.fail(ctx, a.Game, fmt.Sprintf("the review took longer than %s (the rescue time): give the workers a longer one", w.c.RescueAfter))
	case ctx.Err() != nil:
		log.Info("review: given back")
		return river.JobSnooze(0) // stopped: offered again at once, no attempt spent
	case err != nil:
		log.Warn("review: failed", "err", err)
		return w.fail(ctx, a.Game, err.Error())
	}
	for i := range res.Puzzles {
		res.Puzzles[i].Source, res.Puzzles[i].SourceGame = "game "+a.Game, a.Game
	}
	data, err := json.Marshal(res)
	if err != nil {
		return w.fail(ctx, a.Game, err.Error())
	}
	storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), riverdb.ConnectTimeout)
	defer cancel()
	if err := w.store(storeCtx, a.Game, string(data), res.Puzzles); err != nil {
		return err
	}
	log.Info("review: done", "seconds", time.Since(start).Seconds(), "puzzles", len(res.Puzzles))
	return nil
}

// store writes the game's result and its puzzles in one transaction,
// unless a result is there already (the first written is kept, and with
// it its puzzles).
func (w *reviewWorker) store(ctx context.Context, game, data string, puzzles []puzzle.Puzzle) error {
	tx, err := w.db.SQL.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, w.db.Rebind(`INSERT INTO arbiter_review_result (game, data, failure)
		VALUES (?, ?, '') ON CONFLICT DO NOTHING`), game, data)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	now := time.Now().UnixMilli()
	for _, p := range puzzles {
		line, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, w.db.Rebind(`INSERT INTO arbiter_review_puzzle (id, game, data, found)
			VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`), p.ID, game, string(line), now); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// compute runs the computation at a low priority (lowPriority) with its
// panic contained: a panic in one review fails that review, and the
// worker goes on.
func (w *reviewWorker) compute(ctx context.Context, in Input) (res Result, err error) {
	lowPriority(func() {
		defer func() {
			if p := recover(); p != nil {
				w.c.Logger.Error("review: panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				err = fmt.Errorf("the review's computation failed: %s", clip.Quote(fmt.Sprint(p)))
			}
		}()
		res, err = w.c.Compute(ctx, in)
	})
	return res, err
}

// stored reports whether the game has a result.
func (w *reviewWorker) stored(ctx context.Context, game string) (bool, error) {
	var n int
	err := w.db.SQL.QueryRowContext(ctx, w.db.Rebind(`SELECT count(*) FROM arbiter_review_result WHERE game = ?`), game).Scan(&n)
	return n > 0, err
}

// fail stores why the review cannot be done, and cancels its job.
func (w *reviewWorker) fail(ctx context.Context, game, why string) error {
	why = cut(why, maxReason)
	// The job's context may be over (its time up): the failure is still
	// recorded.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), riverdb.ConnectTimeout)
	defer cancel()
	if _, err := w.db.SQL.ExecContext(ctx, w.db.Rebind(`INSERT INTO arbiter_review_result (game, data, failure)
		VALUES (?, '', ?) ON CONFLICT DO NOTHING`), game, why); err != nil {
		return err
	}
	return river.JobCancel(errors.New(why))
}
