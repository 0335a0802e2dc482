package queue

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/arbiter-games/arbiter/lab"
)

// RunID names a run by its manifest: a hash of every field but those that
// do not decide the games (how many there are, the date, the label, the
// builds that played them), so
// that a run continued with more games, or a folder made anew for it,
// finds the games already played. The manifest is read as plain JSON, so
// fields added to it later count too.
func RunID(manifest []byte) string {
	var fields map[string]any
	if err := json.Unmarshal(manifest, &fields); err != nil {
		sum := sha256.Sum256(manifest)
		return "bad-" + hex.EncodeToString(sum[:8])
	}
	delete(fields, "games")
	delete(fields, "date")
	delete(fields, "label")
	delete(fields, "builds")         // the games' engine signatures say what played them
	canon, _ := json.Marshal(fields) // a map's keys come out sorted
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:12])
}

// RunConfig is how a coordinator waits.
type RunConfig struct {
	// Poll is how often it looks for finished games (0: a second).
	Poll time.Duration
	// Queued is told, once the games are on the queue, the run's name and
	// how many games it queued (nil: not).
	Queued func(run string, games int)
}

// insertBatch bounds the jobs put on the queue in one statement.
const insertBatch = 500

// Run puts the games of cfg that dir lacks on the queue, adds each game
// to dir as a worker finishes it (so that a stopped coordinator loses
// nothing and continues when run again), and writes dir's outputs when
// every game is in. A game a worker refused stops the run with the
// worker's reason; ctx ending stops it with the games so far kept (the
// queued ones stay queued, and workers go on playing them).
func (q *Queue) Run(ctx context.Context, cfg lab.Config, dir string, progress lab.Progress, rc RunConfig) (*lab.Summary, error) {
	if cfg.Shard.Count > 0 {
		return nil, fmt.Errorf("--queue and --shard %s: give one (the queue shares the games among the workers)", cfg.Shard)
	}
	man, engines, todo, err := lab.Prepare(ctx, cfg, dir)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(man)
	if err != nil {
		return nil, err
	}
	run := RunID(raw)
	if err := q.clearRefusals(ctx, run); err != nil {
		return nil, err
	}
	c := collector{q: q, game: cfg, engines: engines, dir: dir, run: run, want: map[int]bool{}, total: len(todo), progress: progress}
	for _, i := range todo {
		c.want[i] = true
	}
	if progress != nil {
		progress(0, len(todo))
	}
	if err := c.collect(ctx); err != nil { // games played before: by an earlier coordinator, or for another folder
		return nil, err
	}
	if err := q.enqueue(ctx, run, raw, slices.Sorted(maps.Keys(c.want))); err != nil {
		return nil, err
	}
	if rc.Queued != nil {
		rc.Queued(run, len(c.want))
	}
	if err := c.wait(ctx, cmpOr(rc.Poll, time.Second)); err != nil {
		return nil, err
	}
	return lab.WriteOutputs(dir)
}

func cmpOr(d, fallback time.Duration) time.Duration {
	if d <= 0 {
		return fallback
	}
	return d
}

// enqueue puts one job per game on the queue. A game already queued and
// not yet finished (an earlier coordinator's) is not queued twice.
func (q *Queue) enqueue(ctx context.Context, run string, manifest []byte, games []int) error {
	cl, err := q.newClient(&river.Config{Logger: quietLogger()})
	if err != nil {
		return err
	}
	opts := &river.InsertOpts{Queue: QueueName, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
	for chunk := range slices.Chunk(games, insertBatch) {
		params := make([]river.InsertManyParams, len(chunk))
		for k, i := range chunk {
			params[k] = river.InsertManyParams{Args: gameJob{Version: JobVersion, Run: run, Index: i, Manifest: manifest, Build: build()}, InsertOpts: opts}
		}
		if _, err := cl.InsertMany(ctx, params); err != nil {
			return fmt.Errorf("queue %s: putting the games on it: %v", q.target, err)
		}
	}
	return nil
}

// collector gathers a run's finished games into its folder.
type collector struct {
	q    *Queue
	game lab.Config
	// engines are the coordinator's engine signatures: a game played by
	// another engine (a worker of other source, or a game stored for the
	// run by an earlier arbiter) is refused unless the run mixes them.
	engines  lab.Engines
	dir, run string
	want     map[int]bool // the games dir still lacks
	total    int
	progress lab.Progress
}

// wait collects until every game is in, a worker refuses one, or ctx
// ends.
func (c *collector) wait(ctx context.Context, poll time.Duration) error {
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for len(c.want) > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("stopped with %d of %d games still to come; those in are kept in %s, the rest stay queued: run the same command again to collect them",
				len(c.want), c.total, c.dir)
		case <-tick.C:
		}
		if err := c.collect(ctx); err != nil {
			return err
		}
		if err := c.q.refusal(ctx, c.run); err != nil {
			return err
		}
	}
	return nil
}

// collect adds the run's games that are in the queue's table but not yet
// in the folder.
func (c *collector) collect(ctx context.Context) error {
	done, err := c.q.finished(ctx, c.run)
	if err != nil {
		return err
	}
	for _, i := range done {
		if !c.want[i] {
			continue
		}
		d, err := c.q.game(ctx, c.run, i)
		if err != nil {
			return err
		}
		if d.Index != i {
			return fmt.Errorf("queue %s: game %d of run %s holds game %d", c.q.target, i+1, c.run, d.Index+1)
		}
		if err := lab.AddGame(c.dir, c.game, c.engines, d); err != nil {
			return fmt.Errorf("game %d from the queue: %w", i+1, err)
		}
		delete(c.want, i)
		if c.progress != nil {
			c.progress(c.total-len(c.want), c.total)
		}
	}
	return nil
}

// finished lists the indexes of run's stored games.
func (q *Queue) finished(ctx context.Context, run string) ([]int, error) {
	rows, err := q.db.QueryContext(ctx, q.sql(`SELECT idx FROM arbiter_lab_game WHERE run = ? ORDER BY idx`), run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, rows.Err()
}

// game reads one stored game.
func (q *Queue) game(ctx context.Context, run string, i int) (lab.GameData, error) {
	var data string
	if err := q.db.QueryRowContext(ctx, q.sql(`SELECT data FROM arbiter_lab_game WHERE run = ? AND idx = ?`), run, i).Scan(&data); err != nil {
		return lab.GameData{}, err
	}
	var d lab.GameData
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		return lab.GameData{}, fmt.Errorf("queue %s: game %d of run %s: %v", q.target, i+1, run, err)
	}
	return d, nil
}

// refusal gives the first refusal of run's games as an error, nil when
// there is none.
func (q *Queue) refusal(ctx context.Context, run string) error {
	var i int
	var why string
	err := q.db.QueryRowContext(ctx, q.sql(`SELECT idx, reason FROM arbiter_lab_refusal WHERE run = ? ORDER BY idx LIMIT 1`), run).Scan(&i, &why)
	if err != nil {
		return ignoreNoRows(err)
	}
	return fmt.Errorf("a worker refused game %d: %s (fix it and run the same command again)", i+1, why)
}

// clearRefusals forgets run's refusals: a coordinator started again asks
// the workers again (they may have been updated).
func (q *Queue) clearRefusals(ctx context.Context, run string) error {
	_, err := q.db.ExecContext(ctx, q.sql(`DELETE FROM arbiter_lab_refusal WHERE run = ?`), run)
	return err
}

// ignoreNoRows takes "no row" for no error.
func ignoreNoRows(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}
