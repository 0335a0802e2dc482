// Package queue plays a lab run's games as jobs of a River job queue
// (github.com/riverqueue/river), so that any number of machines share
// one run: the coordinator (Queue.Run) puts the games its folder lacks on
// the queue and collects each finished game into the folder as it comes
// back; workers (Queue.Work) play queued games until they are stopped.
//
// The queue is a PostgreSQL database (for many machines) or an SQLite
// file (for one). Besides River's own tables it keeps two of its own:
// arbiter_lab_game, the finished games by (run, game index), written
// idempotently so that a job played twice (a worker killed mid-game, its
// job rescued) stores its game once; and arbiter_lab_refusal, the jobs a
// worker could not play (an unknown game or job version, a malformed
// manifest), which stop the coordinator with the worker's reason.
//
// A run is named by a hash of its manifest (every field that decides the
// games), so a coordinator started again, or a folder made anew, finds the
// games already played.
package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the SQLite queue's database/sql driver

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Limits on what a queue's address may be.
const (
	// MaxURL bounds the --queue text (a URL or a path).
	MaxURL = 2048
	// ConnectTimeout bounds reaching the database, so that an unreachable
	// queue is an error, not a hang.
	ConnectTimeout = 15 * time.Second
	// busyTimeout is how long an SQLite connection waits for another
	// process's write before giving up.
	busyTimeout = 30 * time.Second
)

// Target is where a queue lives: a PostgreSQL URL or an SQLite file.
type Target struct {
	Postgres bool
	// Address is the URL (PostgreSQL) or the file's path (SQLite).
	Address string
}

// ParseTarget reads --queue: a postgres:// or postgresql:// URL, or the
// path of an SQLite file. Anything else that looks like a URL is refused,
// as is an empty or over-long address or one with control characters.
func ParseTarget(text string) (Target, error) {
	switch {
	case strings.TrimSpace(text) == "":
		return Target{}, errors.New("--queue is empty: give a postgres:// URL or an SQLite file's path")
	case len(text) > MaxURL:
		return Target{}, fmt.Errorf("--queue %s: longer than %d bytes", clip.Quote(text), MaxURL)
	case strings.ContainsFunc(text, unicode.IsControl):
		return Target{}, fmt.Errorf("--queue %s: has a control character", clip.Quote(text))
	}
	scheme, rest, isURL := strings.Cut(text, "://")
	if !isURL {
		return Target{Address: text}, nil
	}
	if s := strings.ToLower(scheme); s != "postgres" && s != "postgresql" {
		return Target{}, fmt.Errorf("--queue %s: want a postgres:// URL or an SQLite file's path", clip.Quote(redact(text)))
	}
	text = strings.ToLower(scheme) + "://" + rest // a scheme's case does not matter; pgx wants it small
	if _, err := pgxpool.ParseConfig(text); err != nil {
		return Target{}, fmt.Errorf("--queue %s: not a PostgreSQL URL (postgres://USER@HOST:PORT/DB)", clip.Quote(redact(text)))
	}
	return Target{Postgres: true, Address: text}, nil
}

// redact hides a URL's password, for messages.
func redact(text string) string {
	if u, err := url.Parse(text); err == nil {
		return u.Redacted()
	}
	if at := strings.LastIndex(text, "@"); at >= 0 {
		scheme, _, _ := strings.Cut(text, "://")
		return scheme + "://xxxxx" + text[at:]
	}
	return text
}

// String names the target in messages, without a password.
func (t Target) String() string {
	if t.Postgres {
		return clip.Quote(redact(t.Address))
	}
	return clip.Quote(t.Address)
}

// client is what the queue uses of a River client, whatever its driver.
type client interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	InsertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
}

// Queue is an open queue: River's tables and the lab's, migrated.
type Queue struct {
	target Target
	// db reaches the lab's own tables (through the same pool as River).
	db        *sql.DB
	newClient func(*river.Config) (client, error)
	migrate   func(context.Context) error
	close     func()
}

// Open reaches the queue's database, within ConnectTimeout, and brings
// River's tables and the lab's up to date (idempotent: every command on
// the queue does it). An SQLite file that does not exist is made only
// when create is set (the coordinator's): a worker given a wrong path
// would otherwise wait on an empty queue.
func Open(ctx context.Context, t Target, create bool) (*Queue, error) {
	var q *Queue
	var err error
	if t.Postgres {
		q, err = openPostgres(ctx, t)
	} else {
		q, err = openSQLite(ctx, t, create)
	}
	if err != nil {
		return nil, err
	}
	if err := q.setUp(ctx); err != nil {
		q.Close()
		return nil, err
	}
	return q, nil
}

func openPostgres(ctx context.Context, t Target) (*Queue, error) {
	cfg, err := pgxpool.ParseConfig(t.Address)
	if err != nil {
		return nil, fmt.Errorf("--queue %s: not a PostgreSQL URL", t)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > ConnectTimeout {
		cfg.ConnConfig.ConnectTimeout = ConnectTimeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("--queue %s: %v", t, err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot reach the queue's database %s: %s", t, oneLine(err))
	}
	driver := riverpgxv5.New(pool)
	db := stdlib.OpenDBFromPool(pool)
	return &Queue{target: t, db: db,
		newClient: func(c *river.Config) (client, error) { return river.NewClient(driver, c) },
		migrate:   migrator(driver),
		close:     func() { db.Close(); pool.Close() }}, nil
}

func openSQLite(ctx context.Context, t Target, create bool) (*Queue, error) {
	info, err := os.Stat(t.Address)
	switch {
	case err == nil && info.IsDir():
		return nil, fmt.Errorf("--queue %s is a folder: give an SQLite file's path (or a postgres:// URL)", t)
	case err != nil && !os.IsNotExist(err):
		return nil, fmt.Errorf("--queue %s: %v", t, err)
	case err != nil && !create:
		return nil, fmt.Errorf("--queue %s: no such file: start the run first (arbiter lab GAME ... --queue FILE), or give its path", t)
	}
	db, err := sql.Open("sqlite", sqliteDSN(t.Address))
	if err != nil {
		return nil, fmt.Errorf("--queue %s: %v", t, err)
	}
	// River's SQLite driver wants one connection: SQLite writes one at a
	// time, and a second connection of the same process would only wait.
	db.SetMaxOpenConns(1)
	pingCtx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("--queue %s: cannot open it as an SQLite database: %v", t, err)
	}
	driver := riversqlite.New(db)
	return &Queue{target: t, db: db,
		newClient: func(c *river.Config) (client, error) { return river.NewClient(driver, c) },
		migrate:   migrator(driver),
		close:     func() { db.Close() }}, nil
}

// sqliteDSN names the file as an SQLite URI (no character of the path is
// taken for the query). Transactions begin IMMEDIATE so that two
// processes never both read and then both try to write; WAL lets workers
// read while one writes.
func sqliteDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Set("_txlock", "immediate")
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file:" + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath() + "?" + q.Encode()
}

// migrator runs River's migrations up with driver.
func migrator[TTx any](driver riverdriver.Driver[TTx]) func(context.Context) error {
	return func(ctx context.Context) error {
		m, err := rivermigrate.New(driver, nil)
		if err != nil {
			return err
		}
		_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		return err
	}
}

// Close closes the database.
func (q *Queue) Close() { q.close() }

// The lab's own tables. ON CONFLICT DO NOTHING keeps the first copy of a
// game played twice; both databases know it.
const (
	createGames = `CREATE TABLE IF NOT EXISTS arbiter_lab_game (
	run TEXT NOT NULL, idx INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run, idx))`
	createRefusals = `CREATE TABLE IF NOT EXISTS arbiter_lab_refusal (
	run TEXT NOT NULL, idx INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (run, idx))`
)

// setUp migrates River's tables and creates the lab's. Two commands
// starting together may race on River's migrations; the loser finds them
// done when it tries again.
func (q *Queue) setUp(ctx context.Context) error {
	var err error
	for try := range 5 {
		if err = q.migrateOnce(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(try+1) * 200 * time.Millisecond):
		}
	}
	return fmt.Errorf("--queue %s: setting up the queue's tables: %s", q.target, oneLine(err))
}

func (q *Queue) migrateOnce(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout*2)
	defer cancel()
	if err := q.migrate(ctx); err != nil {
		return err
	}
	for _, ddl := range []string{createGames, createRefusals} {
		if _, err := q.db.ExecContext(ctx, ddl); err != nil {
			return err
		}
	}
	return nil
}

// sql writes a statement with ? placeholders in the database's dialect.
func (q *Queue) sql(stmt string) string {
	if !q.target.Postgres {
		return stmt
	}
	var b strings.Builder
	n := 0
	for _, r := range stmt {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// oneLine writes an error of several lines (pgx gives one per address
// tried) on one, each different line once.
func oneLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(parts, l) {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}
