package queue

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/riverqueue/river"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/lab"
)

// JobVersion is the version of the jobs this build queues and plays. A
// worker refuses a job of another version (the job fails with the reason,
// and the coordinator stops with it) rather than guess at its meaning.
const JobVersion = 1

// QueueName is the River queue the lab's jobs go on, apart from any other
// use of River in the same database.
const QueueName = "arbiter_lab"

// gameJob is one game of a run: the run's manifest (run.json as JSON,
// whatever fields it has) and the game's index.
type gameJob struct {
	Version int `json:"version"`
	// Run names the run: a hash of the manifest's game-deciding fields.
	Run      string          `json:"run" river:"unique"`
	Index    int             `json:"index" river:"unique"`
	Manifest json.RawMessage `json:"manifest"`
	// Build is the coordinator's arbiter (see build), "" when unknown.
	Build string `json:"build,omitempty"`
}

// build names this arbiter's source (riverdb.Build): a worker built
// from other source may play other games, so it refuses the job.
func build() string { return riverdb.Build() }

// Kind names the lab's jobs in River's tables.
func (gameJob) Kind() string { return "arbiter_lab_game" }

// WorkConfig is how a worker plays.
type WorkConfig struct {
	// Concurrency is how many games it plays at once (1 or more).
	Concurrency int
	// RescueAfter is how long a game may take: a game still running then
	// is given up (the run stops, saying so), and the game of a worker
	// that died is offered again by River's rescuer, which looks every
	// 30 seconds.
	RescueAfter time.Duration
	// Players makes a run's engine from its spec.
	Players func(spec string) (lab.Player, error)
	// Log is told of each game started, finished or refused (nil: not).
	Log io.Writer
	// Poll is how often an idle worker looks for new games (0: a second).
	Poll time.Duration
	// Build names the worker's arbiter, as build does ("": this binary's).
	Build string
}

// Limits on a worker's settings.
const (
	MaxConcurrency = 1024
	MinRescueAfter = time.Second
	MaxRescueAfter = 7 * 24 * time.Hour
)

// Check refuses settings a worker cannot run with.
func (c WorkConfig) Check() error {
	switch {
	case c.Concurrency < 1 || c.Concurrency > MaxConcurrency:
		return fmt.Errorf("--concurrency %d: want 1 to %d games at once", c.Concurrency, MaxConcurrency)
	case c.RescueAfter < MinRescueAfter || c.RescueAfter > MaxRescueAfter:
		return fmt.Errorf("--rescue-after %s: want %s to %s (longer than a game takes)", c.RescueAfter, MinRescueAfter, MaxRescueAfter)
	case c.Poll < 0:
		return fmt.Errorf("poll interval %s: want 0 or more", c.Poll)
	case c.Players == nil:
		return errors.New("a worker needs a way to make players")
	}
	return nil
}

// Work plays queued games, Concurrency at a time, until ctx is done; then
// it gives back the games in hand (they are offered again at once) and
// returns nil. A worker killed outright loses its games in hand until
// River's rescuer offers them again, RescueAfter after they started.
func (q *Queue) Work(ctx context.Context, c WorkConfig) error {
	if err := c.Check(); err != nil {
		return err
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &gameWorker{q: q, c: c, signatures: &lab.Signatures{}}); err != nil {
		return err
	}
	poll := c.Poll
	if poll == 0 {
		poll = time.Second
	}
	cl, err := q.newClient(&river.Config{
		Queues:  map[string]river.QueueConfig{QueueName: {MaxWorkers: c.Concurrency}},
		Workers: workers,
		// River rescues only jobs that have a timeout, and only once it
		// has passed: a game may take RescueAfter, then it is given up
		// here and offered again if its worker died.
		JobTimeout:           c.RescueAfter,
		RescueStuckJobsAfter: c.RescueAfter,
		FetchPollInterval:    poll,
		FetchCooldown:        min(poll, 20*time.Millisecond), // the next game at once after one ends
		Logger:               quietLogger(),
	})
	if err != nil {
		return err
	}
	if err := cl.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("queue %s: %v", q.target, err)
	}
	<-ctx.Done()
	stopCtx, cancel := context.WithTimeout(context.Background(), ConnectTimeout)
	defer cancel()
	return cl.StopAndCancel(stopCtx)
}

// gameWorker plays one job: one game.
type gameWorker struct {
	river.WorkerDefaults[gameJob]
	q *Queue
	c WorkConfig
	// signatures keeps the engines' signatures for the worker's life: it
	// plays many games of a run.
	signatures *lab.Signatures
}

// Work plays the job's game and stores it, unless it is stored already (a
// job played again after its worker died).
func (w *gameWorker) Work(ctx context.Context, job *river.Job[gameJob]) error {
	a := job.Args
	if a.Version != JobVersion {
		return w.refuse(ctx, a, fmt.Errorf("job version %d: this worker plays version %d: run the same arbiter as the coordinator", a.Version, JobVersion))
	}
	if own := cmp.Or(w.c.Build, build()); a.Build != "" && own != "" && a.Build != own {
		return w.refuse(ctx, a, fmt.Errorf("the run was queued by arbiter %s, this worker is %s: run the same arbiter everywhere",
			clip.Quote(a.Build), own))
	}
	stored, err := w.q.stored(ctx, a.Run, a.Index)
	if err != nil || stored {
		return err // an error: River tries again later
	}
	cfg, err := lab.ConfigFromManifest(a.Manifest, w.c.Players)
	if err != nil {
		return w.refuse(ctx, a, err)
	}
	if id := RunID(a.Manifest); id != a.Run {
		return w.refuse(ctx, a, fmt.Errorf("the job's run %s is not its manifest's (%s)", clip.Quote(a.Run), id))
	}
	cfg.Build, cfg.Signatures = w.c.Build, w.signatures
	w.logf("game %d of %s: playing\n", a.Index+1, a.Run)
	d, err := lab.PlayGame(ctx, cfg, a.Index)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return w.refuse(ctx, a, fmt.Errorf("the game took longer than --rescue-after %s: give the workers a longer one", w.c.RescueAfter))
	}
	if ctx.Err() != nil {
		w.logf("game %d of %s: given back\n", a.Index+1, a.Run)
		return river.JobSnooze(0) // stopped: offered again at once, no attempt spent
	}
	if err != nil {
		return w.refuse(ctx, a, err)
	}
	if err := w.q.store(ctx, a.Run, d); err != nil {
		return err
	}
	w.logf("game %d of %s: done in %d plies\n", a.Index+1, a.Run, len(d.Opening)+len(d.Moves))
	return nil
}

// refuse records why the job cannot be played, for the coordinator, and
// cancels it: trying again would fail again.
func (w *gameWorker) refuse(ctx context.Context, a gameJob, why error) error {
	w.logf("game %d of %s: refused: %v\n", a.Index+1, clip.Quote(a.Run), why)
	// The job's context may be over (its time up): the refusal is still
	// recorded.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ConnectTimeout)
	defer cancel()
	if err := w.q.refuse(ctx, a.Run, a.Index, why.Error()); err != nil {
		return err
	}
	return river.JobCancel(why)
}

func (w *gameWorker) logf(format string, args ...any) {
	if w.c.Log != nil {
		fmt.Fprintf(w.c.Log, format, args...)
	}
}

// stored reports whether game i of run is in the lab's table.
func (q *Queue) stored(ctx context.Context, run string, i int) (bool, error) {
	var one int
	err := q.db.QueryRowContext(ctx, q.sql(`SELECT 1 FROM arbiter_lab_game WHERE run = ? AND idx = ?`), run, i).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// store keeps a finished game; a second copy (the job played twice) is
// dropped.
func (q *Queue) store(ctx context.Context, run string, d lab.GameData) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = q.db.ExecContext(ctx, q.sql(`INSERT INTO arbiter_lab_game (run, idx, data) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`),
		run, d.Index, string(data))
	return err
}

// refuse keeps why a worker could not play game i of run.
func (q *Queue) refuse(ctx context.Context, run string, i int, why string) error {
	_, err := q.db.ExecContext(ctx, q.sql(`INSERT INTO arbiter_lab_refusal (run, idx, reason) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`),
		run, i, why)
	return err
}
