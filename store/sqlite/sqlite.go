// Package sqlite keeps the server's games in an embedded SQLite database
// (modernc.org/sqlite: pure Go, no cgo), one file arbiter.db in a data
// folder.
//
// Durability: the database runs in WAL mode with synchronous=FULL, so a
// transaction is in the write-ahead log and fsynced before its commit
// returns; AddMove, Update and Create return only after that commit. A
// move acknowledged after AddMove returned survives a killed process or
// a lost machine (as far as the disk keeps its fsyncs).
//
// Concurrency: each Store has one writer connection (SQLite runs one
// write transaction at a time anyway; transactions begin IMMEDIATE, so a
// second Store on the same file waits its turn through the busy timeout
// instead of failing halfway) and a few reader connections, which WAL
// lets read while the writer writes. The conditional writes, not the
// single connection, are what keep one move per ply: they hold across
// Stores and processes too.
//
// Events: SQLite has no NOTIFY, so every change appends a row to an events
// table in its own transaction, and each Store polls that table (at once
// after its own writes, else every 50 ms): every Store open on the file,
// in this process or another, sees every change.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/hub"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// FileName is the database file Open keeps in its folder.
const FileName = "arbiter.db"

const (
	readers      = 4
	busyTimeout  = 10 * time.Second
	pollInterval = 50 * time.Millisecond
	keptEvents   = 10000 // events rows kept for Stores that fell behind
)

// Store is a store.Store in one SQLite file. It is safe for concurrent
// use.
type Store struct {
	path   string
	w, r   *sql.DB // the writer (one connection) and the readers
	hub    hub.Hub
	nudge  chan struct{} // wakes the poller after our own writes
	closed atomic.Bool
	stop   context.CancelFunc
	polled sync.WaitGroup
}

var _ store.Store = (*Store)(nil)

// Open opens the database in dir, creating dir (mode 0700) and the
// database when missing and bringing its schema up to date.
func Open(ctx context.Context, dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("sqlite: no data folder given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: data folder: %w", err)
	}
	path, err := filepath.Abs(filepath.Join(dir, FileName))
	if err != nil {
		return nil, fmt.Errorf("sqlite: data folder: %w", err)
	}
	s := &Store{path: path, nudge: make(chan struct{}, 1)}
	if err := s.open(ctx); err != nil {
		s.closeDBs()
		return nil, err
	}
	last, err := s.lastEvent(ctx)
	if err != nil {
		s.closeDBs()
		return nil, err
	}
	pollCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.polled.Add(1)
	go s.poll(pollCtx, last)
	return s, nil
}

// open connects the writer, migrates, then connects the readers.
func (s *Store) open(ctx context.Context) error {
	var err error
	if s.w, err = sql.Open("sqlite", dsn(s.path, writer)); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	if err := migrate(ctx, s.w); err != nil {
		return fmt.Errorf("sqlite: %s: %w", s.path, err)
	}
	if s.r, err = sql.Open("sqlite", dsn(s.path, reader)); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	s.r.SetMaxOpenConns(readers)
	s.r.SetMaxIdleConns(readers)
	return nil
}

// The roles a connection plays.
const (
	writer = iota // WAL set up, transactions begin IMMEDIATE
	reader        // refuses to write
	backup        // reads, and writes only the backup file
)

// dsn names the file as an SQLite URI (so that no character of the path
// is taken for the query) with the settings a connection in role needs.
func dsn(path string, role int) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	switch role {
	case writer:
		q.Add("_pragma", "journal_mode(WAL)")
		q.Set("_txlock", "immediate")
	case reader:
		q.Add("_pragma", "query_only(1)")
	}
	return "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?" + q.Encode()
}

// migrate applies the schema steps the file lacks, each in one
// transaction with its record.
func migrate(ctx context.Context, db *sql.DB) error {
	const table = `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`
	if _, err := db.ExecContext(ctx, table); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var applied int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&applied); err != nil {
		return err
	}
	pending, err := store.Pending(store.SQLite, applied)
	if err != nil {
		return err
	}
	for _, m := range pending {
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
			m.Version, m.Name, time.Now().UnixMilli()); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// DefaultDir is where the data folder goes when none is given: arbiter
// under the user's data directory ($XDG_DATA_HOME or ~/.local/share on
// Unix, the configuration directory on macOS and Windows).
func DefaultDir() (string, error) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(base, "arbiter"), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "arbiter"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no data folder: %w; give one", err)
	}
	return filepath.Join(home, ".local", "share", "arbiter"), nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Create implements store.Store.
func (s *Store) Create(ctx context.Context, h store.Header) error {
	if err := row.CheckCreate(h); err != nil {
		return err
	}
	c, err := row.FromHeader(h)
	if err != nil {
		return err
	}
	return s.write(ctx, h.ID, h.Version, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO games (`+row.Names+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.Fields()...)
		if isConstraint(err) {
			return fmt.Errorf("store: game %s: %w", h.ID, store.ErrDuplicate)
		}
		return err
	})
}

// setHeader writes every column but id and created where the stored game
// is at ply and version: AddMove's and Update's conditional update.
const setHeader = `UPDATE games SET game = ?, options = ?, start_fen = ?, seats = ?, clock = ?,
	ply = ?, version = ?, result = ?, draw_offer = ?, open_seats = ?, updated = ?
	WHERE id = ? AND ply = ? AND version = ?`

func setArgs(c row.Columns, ply int) []any {
	return []any{c.Game, c.Options, c.StartFEN, c.Seats, c.Clock, c.Ply, c.Version, c.Result,
		c.DrawOffer, c.OpenSeats, c.Updated, c.ID, ply, c.Version - 1}
}

// AddMove implements store.Store.
func (s *Store) AddMove(ctx context.Context, m store.Move, next store.Header) error {
	if err := row.CheckMove(m, next); err != nil {
		return err
	}
	c, err := row.FromHeader(next)
	if err != nil {
		return err
	}
	return s.write(ctx, next.ID, next.Version, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, setHeader, setArgs(c, m.Ply)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return s.whyNot(ctx, tx, next, false, err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO moves (game, ply, text, at) VALUES (?, ?, ?, ?)`,
			next.ID, m.Ply, m.Text, row.Millis(m.At))
		if isConstraint(err) {
			return fmt.Errorf("store: game %s, ply %d: %w", next.ID, m.Ply, store.ErrConflict)
		}
		return err
	})
}

// Update implements store.Store.
func (s *Store) Update(ctx context.Context, next store.Header) error {
	if err := row.CheckUpdate(next); err != nil {
		return err
	}
	c, err := row.FromHeader(next)
	if err != nil {
		return err
	}
	return s.write(ctx, next.ID, next.Version, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, setHeader, setArgs(c, next.Ply)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return s.whyNot(ctx, tx, next, true, err)
		}
		return nil
	})
}

// whyNot explains a conditional update that changed no row.
// update says the write was Update's, which must not change the ply.
func (s *Store) whyNot(ctx context.Context, tx *sql.Tx, next store.Header, update bool, err error) error {
	if err != nil {
		return err
	}
	var ply int
	var version int64
	err = tx.QueryRowContext(ctx, `SELECT ply, version FROM games WHERE id = ?`, next.ID).Scan(&ply, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: game %s: %w", next.ID, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	return row.Mismatch(next, update, ply, version)
}

// write runs fn in a write transaction that also records the event for
// (id, version), and wakes the poller once it committed.
func (s *Store) write(ctx context.Context, id string, version int64, fn func(*sql.Tx) error) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.fail(err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return s.fail(err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO events (game, version) VALUES (?, ?)`, id, version)
	if err != nil {
		return s.fail(err)
	}
	if seq, err := res.LastInsertId(); err == nil && seq%256 == 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE seq <= ?`, seq-keptEvents); err != nil {
			return s.fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.fail(err)
	}
	select {
	case s.nudge <- struct{}{}:
	default: // a wake-up is already pending
	}
	return nil
}

// fail gives ErrClosed for an operation the store's closing cut short.
func (s *Store) fail(err error) error {
	if s.closed.Load() && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w (%v)", store.ErrClosed, err)
	}
	return err
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, id string) (store.Game, error) {
	if s.closed.Load() {
		return store.Game{}, store.ErrClosed
	}
	tx, err := s.r.BeginTx(ctx, nil) // one snapshot for the header and the moves
	if err != nil {
		return store.Game{}, s.fail(err)
	}
	defer tx.Rollback()
	var c row.Columns
	err = tx.QueryRowContext(ctx, `SELECT `+row.Names+` FROM games WHERE id = ?`, id).Scan(c.Targets()...)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Game{}, fmt.Errorf("store: game %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Game{}, s.fail(err)
	}
	h, err := c.Header()
	if err != nil {
		return store.Game{}, err
	}
	g := store.Game{Header: h}
	if g.Moves, err = readMoves(ctx, tx, id); err != nil {
		return store.Game{}, s.fail(err)
	}
	return g, nil
}

func readMoves(ctx context.Context, tx *sql.Tx, id string) ([]store.Move, error) {
	rows, err := tx.QueryContext(ctx, `SELECT ply, text, at FROM moves WHERE game = ? ORDER BY ply`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var moves []store.Move
	for rows.Next() {
		var m store.Move
		var at int64
		if err := rows.Scan(&m.Ply, &m.Text, &at); err != nil {
			return nil, err
		}
		m.At = row.Time(at)
		moves = append(moves, m)
	}
	return moves, rows.Err()
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, f store.Filter) ([]store.Header, error) {
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	limit, err := row.Limit(f)
	if err != nil {
		return nil, err
	}
	where, args := row.Where(f, func(int) string { return "?" })
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, `SELECT `+row.Names+` FROM games`+where+` ORDER BY created DESC, id DESC LIMIT ?`, args...)
	if err != nil {
		return nil, s.fail(err)
	}
	defer rows.Close()
	var list []store.Header
	for rows.Next() {
		var c row.Columns
		if err := rows.Scan(c.Targets()...); err != nil {
			return nil, s.fail(err)
		}
		h, err := c.Header()
		if err != nil {
			return nil, err
		}
		list = append(list, h)
	}
	return list, s.fail(rows.Err())
}

// Subscribe implements store.Store.
func (s *Store) Subscribe(ctx context.Context) (<-chan store.Event, error) {
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	return s.hub.Subscribe(ctx), nil
}

// Check implements store.Store: it writes the health row and reads it
// back through a reader.
func (s *Store) Check(ctx context.Context) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	now := time.Now().UnixMilli()
	if _, err := s.w.ExecContext(ctx, `INSERT INTO health (id, checked) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET checked = excluded.checked`, now); err != nil {
		return fmt.Errorf("sqlite: health check write: %w", s.fail(err))
	}
	var got int64
	if err := s.r.QueryRowContext(ctx, `SELECT checked FROM health WHERE id = 1`).Scan(&got); err != nil {
		return fmt.Errorf("sqlite: health check read: %w", s.fail(err))
	}
	return nil
}

// Backup writes a consistent copy of the database, taken while it is in
// use, to the new file dest (mode 0600); it refuses a dest that exists.
// To restore, stop the server and put the copy in the data folder as
// arbiter.db (removing any arbiter.db-wal and arbiter.db-shm there).
func (s *Store) Backup(ctx context.Context, dest string) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	if dest == "" {
		return errors.New("backup: no file given")
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup: %s exists; give a new file name (a backup never overwrites)", dest)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	// VACUUM INTO writes a compacted snapshot from one read transaction,
	// so on a connection of its own it does not hold up writers. (The
	// readers' query_only forbids it.) SQLite itself refuses a file that
	// appeared meanwhile.
	db, err := sql.Open("sqlite", dsn(s.path, backup))
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := os.Chmod(dest, 0o600); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// Close implements store.Store.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return store.ErrClosed
	}
	s.stop()
	s.polled.Wait()
	s.hub.Close()
	return s.closeDBs()
}

func (s *Store) closeDBs() error {
	var errs []error
	for _, db := range []*sql.DB{s.r, s.w} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	return errors.Join(errs...)
}

// lastEvent is the newest event's number: a new Store reports only what
// happens after it opened.
func (s *Store) lastEvent(ctx context.Context) (int64, error) {
	var last int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&last)
	if err != nil {
		return 0, fmt.Errorf("sqlite: %s: %w", s.path, err)
	}
	return last, nil
}

// poll publishes the events rows after last until ctx ends.
func (s *Store) poll(ctx context.Context, last int64) {
	defer s.polled.Done()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.nudge:
		}
		// An error (a busy moment, the store closing) is retried at the
		// next tick; the rows stay until pruned.
		last, _ = s.publishAfter(ctx, last)
	}
}

// publishAfter publishes the events after last and gives the last one
// published.
func (s *Store) publishAfter(ctx context.Context, last int64) (int64, error) {
	const batch = 512
	for {
		rows, err := s.r.QueryContext(ctx, `SELECT seq, game, version FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, last, batch)
		if err != nil {
			return last, err
		}
		n := 0
		for rows.Next() {
			var e store.Event
			if err := rows.Scan(&last, &e.Game, &e.Version); err != nil {
				rows.Close()
				return last, err
			}
			s.hub.Publish(e)
			n++
		}
		if err := rows.Close(); err != nil || n < batch {
			return last, err
		}
	}
}

// isConstraint tells a broken primary or unique key.
func isConstraint(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
