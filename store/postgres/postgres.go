// Package postgres keeps the server's games in PostgreSQL (jackc/pgx v5
// with a connection pool), with the schema and the guarantees of the
// SQLite store, so that any number of servers can share one database.
//
// Durability: a write returns once its transaction committed, and with
// PostgreSQL's default synchronous_commit=on that means flushed to the
// write-ahead log on disk.
//
// Races: AddMove updates the game only where its ply and version are the
// ones the caller read (READ COMMITTED makes a second writer wait for the
// first and then find the row changed) and inserts the move under the
// unique (game, ply) key, all in one transaction: of two servers racing
// for one ply exactly one move is stored, and the other gets
// store.ErrConflict.
//
// Events: each change sends NOTIFY arbiter_games 'id:version' in its own
// transaction (the moves that arrive together share one, committed
// together: see batch.go), so it is delivered only if it committed. Each Store keeps
// one connection of its own that LISTENs, reconnecting with back-off when
// it drops; after a reconnection it reports every game updated since a
// little before the drop, since notifications sent meanwhile are lost.
//
// Backups: pg_dump --format=custom --file=arbiter.dump URL takes a
// consistent copy while servers run; pg_restore --dbname=URL
// arbiter.dump restores it into an empty database.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/acct"
	"github.com/arbiter-games/arbiter/store/internal/hub"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// Channel is the NOTIFY channel of game changes.
const Channel = "arbiter_games"

const (
	migrationLock = 0x6172626974657201 // "arbiter\x01": the advisory lock migrations hold
	catchUp       = 10 * time.Second   // how far before a dropped LISTEN to report games again
	maxBackoff    = 5 * time.Second
)

// Store is a store.Store in PostgreSQL. It is safe for concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	listen *pgx.ConnConfig
	hub    hub.Hub
	closed atomic.Bool
	stop   context.CancelFunc
	done   sync.WaitGroup

	mu       sync.Mutex
	listener *pgx.Conn // the LISTEN connection while it is up, for tests

	writers moveWriterSet // the moves' group commits (batch.go)

	*acct.Service // accounts, sessions, ratings, seeks
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (postgres://user:pass@host/db),
// brings its schema up to date and starts listening for changes.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: the database URL: %v; want postgres://user:password@host:port/database", redact(err))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{pool: pool, listen: cfg.ConnConfig.Copy()}
	s.Service = s.accounts()
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	conn, err := s.connectListener(ctx)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: listening for changes: %w", err)
	}
	listenCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.done.Add(1)
	go s.receive(listenCtx, conn)
	s.startMoveWriters()
	return s, nil
}

// redact drops the URL from a parse error, which may quote a password.
func redact(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg, "://") {
		return msg[i+2:]
	}
	return msg
}

// migrate applies the schema steps the database lacks under an advisory
// lock, so that servers starting together apply each once.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`); err != nil {
		return err
	}
	var applied int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&applied); err != nil {
		return err
	}
	pending, err := store.Pending(store.Postgres, applied)
	if err != nil {
		return err
	}
	for _, m := range pending {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)`,
			m.Version, m.Name, time.Now().UnixMilli()); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// Create implements store.Store.
func (s *Store) Create(ctx context.Context, h store.Header) error {
	if err := row.CheckCreate(h); err != nil {
		return err
	}
	c, err := row.FromHeader(h)
	if err != nil {
		return err
	}
	return s.write(ctx, h.ID, h.Version, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO games (`+row.Names+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`, c.Fields()...)
		if isUnique(err) {
			return fmt.Errorf("store: game %s: %w", h.ID, store.ErrDuplicate)
		}
		if err != nil {
			return err
		}
		return acct.Written(ctx, accountsTx{tx}, h, true, false)
	})
}

// setHeader writes every column but id and created where the stored game
// is at ply and version: AddMove's and Update's conditional update.
const setHeader = `UPDATE games SET game = $1, options = $2, start_fen = $3, seats = $4, clock = $5,
	ply = $6, version = $7, result = $8, draw_offer = $9, open_seats = $10, updated = $11, rated = $12,
	waiting = $13, no_takebacks = $14
	WHERE id = $15 AND ply = $16 AND version = $17`

// takeBackHeader is setHeader for TakeBack: the stored game has more
// moves than the header after it.
const takeBackHeader = `UPDATE games SET game = $1, options = $2, start_fen = $3, seats = $4, clock = $5,
	ply = $6, version = $7, result = $8, draw_offer = $9, open_seats = $10, updated = $11, rated = $12,
	waiting = $13, no_takebacks = $14
	WHERE id = $15 AND ply > $16 AND version = $17`

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
	if next.Result == nil || !next.Rated {
		return s.moveAlone(ctx, m, next, c)
	}
	return s.write(ctx, next.ID, next.Version, func(tx pgx.Tx) error {
		ending, err := acct.Ending(ctx, accountsTx{tx}, next)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, setHeader, setArgs(c, m.Ply)...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return whyNot(ctx, tx, next, false)
		}
		_, err = tx.Exec(ctx, `INSERT INTO moves (game, ply, text, at) VALUES ($1, $2, $3, $4)`,
			next.ID, m.Ply, m.Text, row.Millis(m.At))
		if isUnique(err) {
			return fmt.Errorf("store: game %s, ply %d: %w", next.ID, m.Ply, store.ErrConflict)
		}
		if err != nil {
			return err
		}
		return acct.Written(ctx, accountsTx{tx}, next, false, ending)
	})
}

// moveStatement stores a move in one statement, so in one round trip and
// one transaction of its own: setHeader, then the move and the
// notification only when the header matched. It answers 1 when it
// did, 0 when not (setArgs' 17 arguments, then the move's text and time,
// the channel and the notification's payload).
const moveStatement = `WITH header AS (` + setHeader + ` RETURNING id),
	move AS (INSERT INTO moves (game, ply, text, at) SELECT id, $16, $18::text, $19::bigint FROM header),
	notified AS (SELECT pg_notify($20::text, $21::text) FROM header)
	SELECT count(*) FROM notified`

// groupMoveStatement is moveStatement without its notification, for the
// moves committed together, whose notifications are one (groupNotify):
// its arguments are moveStatement's but the last two.
const groupMoveStatement = `WITH header AS (` + setHeader + ` RETURNING id),
	move AS (INSERT INTO moves (game, ply, text, at) SELECT id, $16, $18::text, $19::bigint FROM header)
	SELECT count(*) FROM header`

// groupNotify sends one notification for the moves of a group whose
// games now have the versions they made: each "id:version", one a line
// ($1 the channel, $2 the games' ids, $3 their versions). A move whose
// header did not match is not in it, as moveStatement would not notify
// it; when none matched, nothing is sent.
const groupNotify = `SELECT pg_notify($1::text, p) FROM (
	SELECT string_agg(g.id || ':' || g.version, E'\n') AS p
	FROM unnest($2::text[], $3::bigint[]) AS u(id, version) JOIN games g ON g.id = u.id AND g.version = u.version) n
	WHERE p IS NOT NULL`

// moveAlone stores a move that rates no game (the accounts have nothing
// to write) in one statement, where a transaction of its own takes five
// round trips (begin, the header, the move, the notification, commit): a
// move's acknowledgement waits on each. The statements of the moves that
// arrive together are committed together (batch.go).
func (s *Store) moveAlone(ctx context.Context, m store.Move, next store.Header, c row.Columns) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	answer := s.submitMove(ctx, next.ID, moveArgs(m, next, c))
	matched, err := answer.matched, answer.err
	switch {
	case isUnique(err):
		return fmt.Errorf("store: game %s, ply %d: %w", next.ID, m.Ply, store.ErrConflict)
	case err != nil:
		return s.fail(err)
	case matched != 1:
		return s.fail(s.inTx(ctx, func(tx pgx.Tx) error { return whyNot(ctx, tx, next, false) }))
	}
	return nil
}

// moveArgs are moveStatement's arguments for move m, which makes next.
func moveArgs(m store.Move, next store.Header, c row.Columns) []any {
	return append(setArgs(c, m.Ply), m.Text, row.Millis(m.At), Channel, notice(next.ID, next.Version))
}

// notice is a notification's line for game id at version: "id:version".
func notice(id string, version int64) string {
	return id + ":" + strconv.FormatInt(version, 10)
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
	return s.write(ctx, next.ID, next.Version, func(tx pgx.Tx) error {
		ending, err := acct.Ending(ctx, accountsTx{tx}, next)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, setHeader, setArgs(c, next.Ply)...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return whyNot(ctx, tx, next, true)
		}
		return acct.Written(ctx, accountsTx{tx}, next, true, ending)
	})
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
	return s.write(ctx, next.ID, next.Version, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, takeBackHeader, setArgs(c, next.Ply)...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return whyNot(ctx, tx, next, false)
		}
		_, err = tx.Exec(ctx, `DELETE FROM moves WHERE game = $1 AND ply >= $2`, next.ID, next.Ply)
		return err
	})
}

// whyNot explains a conditional update that changed no row; update says
// it was Update's, which must not change the ply.
func whyNot(ctx context.Context, tx pgx.Tx, next store.Header, update bool) error {
	var ply int
	var version int64
	err := tx.QueryRow(ctx, `SELECT ply, version FROM games WHERE id = $1`, next.ID).Scan(&ply, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("store: game %s: %w", next.ID, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	return row.Mismatch(next, update, ply, version)
}

// write runs fn in a transaction that also notifies (id, version).
func (s *Store) write(ctx context.Context, id string, version int64, fn func(pgx.Tx) error) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, notice(id, version))
		return err
	})
}

// inTx runs fn in a transaction, committed when fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.fail(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return s.fail(err)
	}
	return s.fail(tx.Commit(ctx))
}

// fail gives ErrClosed for an operation the store's closing cut short.
func (s *Store) fail(err error) error {
	if err != nil && s.closed.Load() && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w (%v)", store.ErrClosed, err)
	}
	return err
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, id string) (store.Game, error) {
	if s.closed.Load() {
		return store.Game{}, store.ErrClosed
	}
	// One snapshot for the header and the moves.
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return store.Game{}, s.fail(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var c row.Columns
	err = tx.QueryRow(ctx, `SELECT `+row.Names+` FROM games WHERE id = $1`, id).Scan(c.Targets()...)
	if errors.Is(err, pgx.ErrNoRows) {
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
	rows, err := tx.Query(ctx, `SELECT ply, text, at FROM moves WHERE game = $1 ORDER BY ply`, id)
	if err != nil {
		return store.Game{}, s.fail(err)
	}
	var at int64
	var m store.Move
	_, err = pgx.ForEachRow(rows, []any{&m.Ply, &m.Text, &at}, func() error {
		m.At = row.Time(at)
		g.Moves = append(g.Moves, m)
		return nil
	})
	if err != nil {
		return store.Game{}, s.fail(err)
	}
	return g, s.fail(tx.Commit(ctx))
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
	where, args := row.Where(f, func(n int) string { return "$" + strconv.Itoa(n) })
	args = append(args, limit)
	rows, err := s.pool.Query(ctx, `SELECT `+row.Names+` FROM games`+where+
		` ORDER BY created DESC, id DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, s.fail(err)
	}
	var list []store.Header
	var c row.Columns
	_, err = pgx.ForEachRow(rows, c.Targets(), func() error {
		h, err := c.Header()
		list = append(list, h)
		return err
	})
	if err != nil {
		return nil, s.fail(err)
	}
	return list, nil
}

// Subscribe implements store.Store.
func (s *Store) Subscribe(ctx context.Context) (<-chan store.Event, error) {
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	return s.hub.Subscribe(ctx), nil
}

// Check implements store.Store.
func (s *Store) Check(ctx context.Context) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	now := time.Now().UnixMilli()
	if _, err := s.pool.Exec(ctx, `INSERT INTO health (id, checked) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET checked = excluded.checked`, now); err != nil {
		return fmt.Errorf("postgres: health check write: %w", s.fail(err))
	}
	var got int64
	if err := s.pool.QueryRow(ctx, `SELECT checked FROM health WHERE id = 1`).Scan(&got); err != nil {
		return fmt.Errorf("postgres: health check read: %w", s.fail(err))
	}
	return nil
}

// Close implements store.Store.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return store.ErrClosed
	}
	s.stopMoveWriters()
	s.stop()
	s.done.Wait()
	s.hub.Close()
	s.pool.Close()
	return nil
}

// connectListener opens the LISTEN connection.
func (s *Store) connectListener(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.listen)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	s.mu.Lock()
	s.listener = conn
	s.mu.Unlock()
	return conn, nil
}

// receive publishes notifications until ctx ends, reconnecting when the
// connection drops.
func (s *Store) receive(ctx context.Context, conn *pgx.Conn) {
	defer s.done.Done()
	for {
		s.publish(ctx, conn) // returns when the connection fails or ctx ends
		conn.Close(context.WithoutCancel(ctx))
		if ctx.Err() != nil {
			return
		}
		dropped := time.Now()
		if conn = s.reconnect(ctx); conn == nil {
			return
		}
		s.publishSince(ctx, dropped.Add(-catchUp))
	}
}

// publish publishes the notifications conn receives until it fails.
func (s *Store) publish(ctx context.Context, conn *pgx.Conn) {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		for line := range strings.SplitSeq(n.Payload, "\n") {
			if e, ok := parseNotice(line); ok {
				s.hub.Publish(e)
			}
		}
	}
}

// parseNotice reads a notification's line, "id:version" (notice): the
// id may hold colons, the version none.
func parseNotice(line string) (store.Event, bool) {
	i := strings.LastIndexByte(line, ':')
	if i < 0 {
		return store.Event{}, false // not ours
	}
	version, err := strconv.ParseInt(line[i+1:], 10, 64)
	if err != nil {
		return store.Event{}, false
	}
	return store.Event{Game: line[:i], Version: version}, true
}

// reconnect tries to LISTEN again, waiting longer after each failure,
// until it succeeds or ctx ends (nil).
func (s *Store) reconnect(ctx context.Context) *pgx.Conn {
	wait := 50 * time.Millisecond
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		if conn, err := s.connectListener(ctx); err == nil {
			return conn
		}
		wait = min(2*wait, maxBackoff)
	}
}

// publishSince reports every game updated since t, standing in for the
// notifications a dropped connection lost.
func (s *Store) publishSince(ctx context.Context, t time.Time) {
	rows, err := s.pool.Query(ctx, `SELECT id, version FROM games WHERE updated >= $1`, row.Millis(t))
	if err != nil {
		return
	}
	var e store.Event
	pgx.ForEachRow(rows, []any{&e.Game, &e.Version}, func() error {
		s.hub.Publish(e)
		return nil
	})
}

// isUnique tells a broken primary or unique key.
func isUnique(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == "23505"
}
