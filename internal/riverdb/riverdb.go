// Package riverdb opens the database of a River job queue
// (github.com/riverqueue/river): a PostgreSQL database, for many
// machines, or an SQLite file, for one. It is what the lab's queue
// (lab/queue) and the site's reviews (reviews) share: reading the
// --queue address, reaching the database within a bounded time, River's
// migrations, a River client whatever the driver, and statements written
// once for both dialects. Each user keeps its own tables and jobs.
package riverdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
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
		return Target{}, fmt.Errorf("--queue %s: want a postgres:// URL or an SQLite file's path", clip.Quote(Redact(text)))
	}
	text = strings.ToLower(scheme) + "://" + rest // a scheme's case does not matter; pgx wants it small
	if _, err := pgxpool.ParseConfig(text); err != nil {
		return Target{}, fmt.Errorf("--queue %s: not a PostgreSQL URL (postgres://USER@HOST:PORT/DB)", clip.Quote(Redact(text)))
	}
	return Target{Postgres: true, Address: text}, nil
}

// Redact hides a URL's password, for messages.
func Redact(text string) string {
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
		return clip.Quote(Redact(t.Address))
	}
	return clip.Quote(t.Address)
}

// Client is what the queue's users need of a River client, whatever its
// driver (River's clients differ by their transaction type only).
type Client interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	InsertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error)
}

// Options say how to open a queue.
type Options struct {
	// Create makes an SQLite file that does not exist (mode 0600, as the
	// store's); without it a missing file is refused with Missing, since
	// a worker given a wrong path would otherwise wait on an empty queue.
	Create bool
	// Missing says what to do about a missing file ("" for a plain "no
	// such file").
	Missing string
}

// DB is an open queue's database: River's tables migrated.
type DB struct {
	Target Target
	// SQL reaches the users' own tables, through the same pool as River.
	SQL       *sql.DB
	newClient func(*river.Config) (Client, error)
	migrate   func(context.Context) error
	close     func()
}

// Open reaches the queue's database, within ConnectTimeout, and brings
// River's tables up to date and then creates the caller's (ddl, each
// "CREATE TABLE IF NOT EXISTS ...": idempotent, every command on the
// queue does it).
func Open(ctx context.Context, t Target, o Options, ddl ...string) (*DB, error) {
	var db *DB
	var err error
	if t.Postgres {
		db, err = openPostgres(ctx, t)
	} else {
		db, err = openSQLite(ctx, t, o)
	}
	if err != nil {
		return nil, err
	}
	if err := db.setUp(ctx, ddl); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func openPostgres(ctx context.Context, t Target) (*DB, error) {
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
		return nil, fmt.Errorf("cannot reach the queue's database %s: %s", t, OneLine(err))
	}
	driver := riverpgxv5.New(pool)
	db := stdlib.OpenDBFromPool(pool)
	return &DB{Target: t, SQL: db,
		newClient: func(c *river.Config) (Client, error) { return river.NewClient(driver, c) },
		migrate:   migrator(driver),
		close:     func() { db.Close(); pool.Close() }}, nil
}

func openSQLite(ctx context.Context, t Target, o Options) (*DB, error) {
	info, err := os.Stat(t.Address)
	switch {
	case err == nil && info.IsDir():
		return nil, fmt.Errorf("--queue %s is a folder: give an SQLite file's path (or a postgres:// URL)", t)
	case err != nil && !os.IsNotExist(err):
		return nil, fmt.Errorf("--queue %s: %v", t, err)
	case err != nil && !o.Create:
		if o.Missing == "" {
			return nil, fmt.Errorf("--queue %s: no such file", t)
		}
		return nil, fmt.Errorf("--queue %s: no such file: %s", t, o.Missing)
	case err != nil:
		// The file holds what the site's store would not show to others
		// either (whose reviews, from which address): only its owner
		// reads it.
		f, err := os.OpenFile(t.Address, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && !os.IsExist(err) {
			return nil, fmt.Errorf("--queue %s: %v", t, err)
		}
		if f != nil {
			f.Close()
		}
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
	return &DB{Target: t, SQL: db,
		newClient: func(c *river.Config) (Client, error) { return river.NewClient(driver, c) },
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

// NewClient makes a River client on the database.
func (db *DB) NewClient(c *river.Config) (Client, error) { return db.newClient(c) }

// Close closes the database.
func (db *DB) Close() { db.close() }

// setUp migrates River's tables and creates the caller's. Two commands
// starting together may race on River's migrations; the loser finds them
// done when it tries again.
func (db *DB) setUp(ctx context.Context, ddl []string) error {
	var err error
	for try := range 5 {
		if err = db.migrateOnce(ctx, ddl); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(try+1) * 200 * time.Millisecond):
		}
	}
	return fmt.Errorf("--queue %s: setting up the queue's tables: %s", db.Target, OneLine(err))
}

func (db *DB) migrateOnce(ctx context.Context, ddl []string) error {
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout*2)
	defer cancel()
	if err := db.migrate(ctx); err != nil {
		return err
	}
	for _, stmt := range ddl {
		if _, err := db.SQL.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// Rebind writes a statement with ? placeholders in the database's
// dialect.
func (db *DB) Rebind(stmt string) string {
	if !db.Target.Postgres {
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

// OneLine writes an error of several lines (pgx gives one per address
// tried) on one, each different line once.
func OneLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(parts, l) {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// QuietLogger keeps River's own log to warnings and errors.
func QuietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// Build names this arbiter's source: its commit (marked "+modified" when
// the tree had changes), or the module's version; "" when the binary does
// not say (a test binary). A job carries its queuer's, so that a worker
// built from other source, which may compute other results, refuses it.
func Build() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev != "" {
		return rev + modified
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return ""
}
