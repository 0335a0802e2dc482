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
// Group commit: SQLite runs one write transaction at a time and each
// commit costs an fsync, so each Store has one writer goroutine that takes
// every write waiting (Create, AddMove, Update, the health check; up to
// 256) and commits them together in one transaction: one fsync for all.
// Each write runs under a savepoint of its own and keeps its own
// conditions, so a refused write (ErrConflict, ErrNotFound, ErrDuplicate)
// fails alone while the others of its batch are stored; a batch whose
// commit fails fails every write in it, so nothing is acknowledged that is
// not durable. The writer never waits for more writes than are queued: a
// write alone is committed at once. A caller whose context ends while its
// write is queued is answered at once and the write is never stored.
//
// Checkpoints: the writer's connection has wal_autocheckpoint=0, so no
// commit pays for copying the WAL into the database file; a background
// goroutine does it on a connection of its own (PASSIVE, which never
// blocks the writer or the readers) every 512 writes or every second.
// Under steady writes that alone never lets the WAL start over, so past
// 1000 frames the checkpointer holds the writer between two batches for a
// second, short checkpoint of what the first could not reach. Close
// empties the WAL (TRUNCATE).
//
// Readers: a few reader connections, which WAL lets read while the writer
// writes, serve Get, List and the event poller without waiting for the
// writer. Write transactions begin IMMEDIATE, so a second Store on the
// same file waits its turn through the busy timeout instead of failing
// halfway. The conditional writes, not the single writer, are what keep
// one move per ply: they hold across Stores and processes too.
//
// Events: SQLite has no NOTIFY, so every change appends a row to an events
// table in its own transaction, and each Store polls that table every 50
// ms: every Store open on the file, in this process or another, sees
// every change. A Store publishes its own writes' events itself, in seq
// order, once they are committed and before it answers them.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
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
	"github.com/arbiter-games/arbiter/store/internal/acct"
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
	path string
	// w is the writer's one connection, r the readers', cp the
	// checkpointer's.
	w, r, cp *sql.DB
	hub      hub.Hub
	nudge    chan struct{} // wakes the poller after our own writes
	// published is the last events row given to the hub, by the writer
	// (publishOwn) or the poller.
	pubMu     sync.Mutex
	published int64
	closed    atomic.Bool
	stop      context.CancelFunc
	polled    sync.WaitGroup // the poller and the checkpointer

	// stmts are the writer's prepared statements.
	stmts *stmts
	queue chan *write  // the writes waiting for the writer goroutine
	admit sync.RWMutex // held to put a write in queue; Close takes it to close queue
	wrote sync.WaitGroup
	// batching is held by the writer goroutine while it stores a batch;
	// the checkpointer takes it to catch up with the writer.
	batching sync.Mutex

	sinceCheckpoint atomic.Int64  // writes committed since the last checkpoint
	checkpointNow   chan struct{} // wakes the checkpointer early

	*acct.Service // accounts, sessions, ratings, seeks
}

var _ store.Store = (*Store)(nil)

// Open opens the database in dir, creating dir (mode 0700) and the
// database (mode 0600, as its -wal and -shm files, which SQLite creates
// with the database's mode) when missing and bringing its schema up to
// date. Files an older version left readable by others are made 0600.
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
	if err := makePrivate(path); err != nil {
		return nil, err
	}
	s := &Store{
		path:          path,
		nudge:         make(chan struct{}, 1),
		queue:         make(chan *write, queueLength),
		checkpointNow: make(chan struct{}, 1),
	}
	s.Service = s.accounts()
	if err := s.open(ctx); err != nil {
		s.closeDBs()
		return nil, err
	}
	s.published, err = s.lastEvent(ctx)
	if err != nil {
		s.closeDBs()
		return nil, err
	}
	background, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.polled.Add(2)
	go s.poll(background)
	go s.checkpointLoop(background)
	s.wrote.Add(1)
	go s.writeLoop()
	return s, nil
}

// makePrivate creates the database file with mode 0600 if it is missing,
// before SQLite would create it with 0644, and sets 0600 on it and on its
// -wal and -shm files if they exist: they hold the accounts' password
// hashes and sessions.
func makePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		err := os.Chmod(name, 0o600)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sqlite: making the database private: %w", err)
		}
	}
	return nil
}

// open connects the writer, migrates, then connects the readers and the
// checkpointer.
func (s *Store) open(ctx context.Context) error {
	var err error
	if s.w, err = sql.Open("sqlite", dsn(s.path, writer)); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	s.w.SetMaxOpenConns(1)
	s.stmts = newStmts(s.w)
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
	if s.cp, err = sql.Open("sqlite", dsn(s.path, checkpointer)); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	s.cp.SetMaxOpenConns(1)
	s.cp.SetMaxIdleConns(1)
	return nil
}

// writerCacheKiB is the writer's page cache, in KiB.
const writerCacheKiB = 32 << 10

// The roles a connection plays.
const (
	writer       = iota // WAL set up, no automatic checkpoint, transactions begin IMMEDIATE
	reader              // refuses to write
	backup              // reads, and writes only the backup file
	checkpointer        // copies the WAL into the database file
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
		q.Add("_pragma", "wal_autocheckpoint(0)")
		// A bigger page cache than SQLite's 2 MB: under load a batch's
		// moves touch pages all over the games and moves (a page each),
		// and each miss is a read from the file.
		q.Add("_pragma", fmt.Sprintf("cache_size(%d)", -writerCacheKiB))
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
	return s.submit(ctx, &write{game: h.ID, version: h.Version, apply: func(ctx context.Context, tx conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO games (`+row.Names+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.Fields()...)
		if isConstraint(err) {
			return fmt.Errorf("store: game %s: %w", h.ID, store.ErrDuplicate)
		}
		if err != nil {
			return err
		}
		return acct.Written(ctx, accountsTx{tx}, h, true, false)
	}})
}

// setHeader writes every column but id and created where the stored game
// is at ply and version: AddMove's and Update's conditional update.
const setHeader = `UPDATE games SET game = ?, options = ?, start_fen = ?, seats = ?, clock = ?,
	ply = ?, version = ?, result = ?, draw_offer = ?, open_seats = ?, updated = ?, rated = ?,
	waiting = ?, no_takebacks = ?
	WHERE id = ? AND ply = ? AND version = ?`

// takeBackHeader is setHeader for TakeBack: the stored game has more
// moves than the header after it.
const takeBackHeader = `UPDATE games SET game = ?, options = ?, start_fen = ?, seats = ?, clock = ?,
	ply = ?, version = ?, result = ?, draw_offer = ?, open_seats = ?, updated = ?, rated = ?,
	waiting = ?, no_takebacks = ?
	WHERE id = ? AND ply > ? AND version = ?`

// moveHeader is setHeader for a move that changes only what a move
// changes (the clock, the ply and version, the draw offer, the time and
// what waits), with every other column as the stored row has it: the
// same row as setHeader leaves, but SQLite updates an index only when
// its columns, or its partial WHERE's, are SET, so this one leaves the
// games_ongoing and games_open indexes alone. That saves a page of each
// to the WAL for most moves; a move that changes more (the game's end,
// a seat) matches no row here, and AddMove writes it with setHeader.
const moveHeader = `UPDATE games SET clock = ?, ply = ?, version = ?, draw_offer = ?, updated = ?,
	waiting = ?
	WHERE id = ? AND ply = ? AND version = ? AND game = ? AND options = ? AND start_fen = ?
	AND seats = ? AND result IS ? AND open_seats = ? AND rated = ? AND no_takebacks = ?`

func moveArgs(c row.Columns, ply int) []any {
	return []any{c.Clock, c.Ply, c.Version, c.DrawOffer, c.Updated, c.Waiting,
		c.ID, ply, c.Version - 1, c.Game, c.Options, c.StartFEN, c.Seats, c.Result, c.OpenSeats, c.Rated, c.NoTakebacks}
}

func setArgs(c row.Columns, ply int) []any {
	return []any{c.Game, c.Options, c.StartFEN, c.Seats, c.Clock, c.Ply, c.Version, c.Result,
		c.DrawOffer, c.OpenSeats, c.Updated, c.Rated, c.Waiting, c.NoTakebacks, c.ID, ply, c.Version - 1}
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
	return s.submit(ctx, &write{game: next.ID, version: next.Version, apply: func(ctx context.Context, tx conn) error {
		ending, err := acct.Ending(ctx, accountsTx{tx}, next)
		if err != nil {
			return err
		}
		if ok, err := setMoveHeader(ctx, tx, c, m.Ply); err != nil || !ok {
			return whyNot(ctx, tx, next, false, err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO moves (game, ply, text, at) VALUES (?, ?, ?, ?)`,
			next.ID, m.Ply, m.Text, row.Millis(m.At))
		if isConstraint(err) {
			return fmt.Errorf("store: game %s, ply %d: %w", next.ID, m.Ply, store.ErrConflict)
		}
		if err != nil {
			return err
		}
		return acct.Written(ctx, accountsTx{tx}, next, false, ending)
	}})
}

// setMoveHeader writes a move's header where the stored game is at ply
// (and the version before c's): with moveHeader when only a move's
// columns change, else with setHeader. It reports whether a row matched.
func setMoveHeader(ctx context.Context, tx conn, c row.Columns, ply int) (bool, error) {
	res, err := tx.ExecContext(ctx, moveHeader, moveArgs(c, ply)...)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return n == 1, err
	}
	res, err = tx.ExecContext(ctx, setHeader, setArgs(c, ply)...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
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
	return s.submit(ctx, &write{game: next.ID, version: next.Version, apply: func(ctx context.Context, tx conn) error {
		ending, err := acct.Ending(ctx, accountsTx{tx}, next)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, setHeader, setArgs(c, next.Ply)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return whyNot(ctx, tx, next, true, err)
		}
		return acct.Written(ctx, accountsTx{tx}, next, true, ending)
	}})
}

// TakeBack implements store.Store.
func (s *Store) TakeBack(ctx context.Context, next store.Header) error {
	if err := row.CheckTakeBack(next); err != nil {
		return err
	}
	c, err := row.FromHeader(next)
	if err != nil {
		return err
	}
	return s.submit(ctx, &write{game: next.ID, version: next.Version, apply: func(ctx context.Context, tx conn) error {
		res, err := tx.ExecContext(ctx, takeBackHeader, setArgs(c, next.Ply)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return whyNot(ctx, tx, next, false, err)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM moves WHERE game = ? AND ply >= ?`, next.ID, next.Ply)
		return err
	}})
}

// whyNot explains a conditional update that changed no row.
// update says the write was Update's, which must not change the ply.
func whyNot(ctx context.Context, tx conn, next store.Header, update bool, err error) error {
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
	err := s.submit(ctx, &write{apply: func(ctx context.Context, tx conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO health (id, checked) VALUES (1, ?)
			ON CONFLICT (id) DO UPDATE SET checked = excluded.checked`, now)
		return err
	}})
	if err != nil {
		return fmt.Errorf("sqlite: health check write: %w", err)
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

// Close implements store.Store. Writes queued before it are stored and
// answered as usual; writes after it get ErrClosed.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return store.ErrClosed
	}
	s.admit.Lock() // no caller is putting a write in the queue now
	close(s.queue)
	s.admit.Unlock()
	s.wrote.Wait()
	s.stop()
	s.polled.Wait()
	s.hub.Close()
	return errors.Join(s.finalCheckpoint(), s.closeDBs())
}

func (s *Store) closeDBs() error {
	var errs []error
	if s.stmts != nil {
		errs = append(errs, s.stmts.close())
	}
	for _, db := range []*sql.DB{s.r, s.cp, s.w} {
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

// poll publishes the events rows this Store has not published yet (other
// Stores' changes, and its own when publishOwn could not) until ctx ends.
func (s *Store) poll(ctx context.Context) {
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
		_ = s.publishNew(ctx)
	}
}

// publishNew publishes the events rows after the last one published, in
// pages; the query runs outside pubMu so that it never holds up the
// writer's publishOwn.
func (s *Store) publishNew(ctx context.Context) error {
	const page = 512
	for {
		s.pubMu.Lock()
		after := s.published
		s.pubMu.Unlock()
		rows, err := s.eventsAfter(ctx, after, page)
		if err != nil {
			return err
		}
		s.pubMu.Lock()
		for _, r := range rows {
			if r.seq > s.published { // else publishOwn gave it meanwhile
				s.hub.Publish(r.Event)
				s.published = r.seq
			}
		}
		s.pubMu.Unlock()
		if len(rows) < page {
			return nil
		}
	}
}

// eventRow is one row of the events table.
type eventRow struct {
	seq int64
	store.Event
}

// eventsAfter reads up to limit events rows after seq, oldest first.
func (s *Store) eventsAfter(ctx context.Context, seq int64, limit int) ([]eventRow, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, game, version FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, seq, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []eventRow
	for rows.Next() {
		var r eventRow
		if err := rows.Scan(&r.seq, &r.Game, &r.Version); err != nil {
			return nil, err
		}
		list = append(list, r)
	}
	return list, rows.Err()
}

// isConstraint tells a broken primary or unique key.
func isConstraint(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
