// Package acct is the accounts' part of both stores, written once: the
// SQL of accounts, sessions, ratings, players and seeks over a small
// transaction interface that SQLite's and PostgreSQL's stores each
// adapt, so that both keep exactly the same rows by exactly the same
// statements. Queries use ? for their parameters; the PostgreSQL adapter
// numbers them.
package acct

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// The errors an adapter gives for what the drivers each say their own way.
var (
	// ErrNoRows: a QueryRow found nothing.
	ErrNoRows = errors.New("no rows")
	// ErrUnique: an insert broke a unique key.
	ErrUnique = errors.New("unique key taken")
)

// Tx is a transaction (or, for reads, a database) of either driver.
type Tx interface {
	// Exec runs a statement and gives the rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	QueryRow(ctx context.Context, query string, args ...any) Row
	Query(ctx context.Context, query string, args ...any) (Rows, error)
}

// Row is one row a query found; Scan gives ErrNoRows for none.
type Row interface{ Scan(dest ...any) error }

// Rows are the rows a query found.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Service implements store.Accounts over a store's transactions: Read
// runs fn on a consistent view, Write runs fn in a transaction that
// commits when fn returns nil.
type Service struct {
	Read  func(ctx context.Context, fn func(Tx) error) error
	Write func(ctx context.Context, fn func(Tx) error) error
	// Lock, when not nil, holds a lock named key until tx ends, so that
	// two writers counting the same rows before an insert (an address's
	// open seeks) take turns: PostgreSQL's transactions, which run side
	// by side, need it; SQLite's, which have one writer, do not.
	Lock func(ctx context.Context, tx Tx, key string) error
}

// lock holds the lock key until tx ends, where the store needs one.
func (s *Service) lock(ctx context.Context, tx Tx, key string) error {
	if s.Lock == nil {
		return nil
	}
	return s.Lock(ctx, tx, key)
}

// MaxSessions is how many sessions an account keeps: a new one past it
// ends the oldest.
const MaxSessions = 100

// accountColumns are an account's columns, its store.Standing's last.
const accountColumns = "id, name, password, kind, deleted, created, " +
	"admin, muted_until, mute_reason, banned, ban_reason, closed, close_reason, engine"

func scanAccount(r Row) (store.Account, error) {
	var a store.Account
	var kind string
	var deleted, admin, banned, closed, engine int
	var created, mutedUntil int64
	st := &a.Standing
	err := r.Scan(&a.ID, &a.Name, &a.Password, &kind, &deleted, &created,
		&admin, &mutedUntil, &st.MuteReason, &banned, &st.BanReason, &closed, &st.CloseReason, &engine)
	if errors.Is(err, ErrNoRows) {
		return store.Account{}, store.ErrNoAccount
	}
	a.Kind, a.Deleted, a.Created = store.AccountKind(kind), deleted == 1, row.Time(created)
	st.Admin, st.MutedUntil, st.Banned, st.Closed, st.Engine = admin == 1, optTime(mutedUntil), banned == 1, closed == 1, engine == 1
	return a, err
}

// nameKey is the unique form of a name: names are unique ignoring case.
func nameKey(name string) string { return strings.ToLower(name) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// optMillis is t as stored where a time may be none (a mute's end, a
// report's closing): 0, the columns' default, for the zero time.
func optMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return row.Millis(t)
}

// optTime reads what optMillis stored: 0 is the zero time, not 1970.
func optTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return row.Time(ms)
}

// CreateAccount implements store.Accounts.
func (s *Service) CreateAccount(ctx context.Context, a store.Account) error {
	if a.ID == "" || a.Name == "" {
		return errors.New("store: an account needs an id and a name")
	}
	return s.Write(ctx, func(tx Tx) error {
		return insertAccount(ctx, tx, a)
	})
}

func insertAccount(ctx context.Context, tx Tx, a store.Account) error {
	kind := a.Kind
	if kind == "" {
		kind = store.Person
	}
	_, err := tx.Exec(ctx, `INSERT INTO accounts (id, name, name_key, password, kind, deleted, created) VALUES (?, ?, ?, ?, ?, 0, ?)`,
		a.ID, a.Name, nameKey(a.Name), a.Password, string(kind), row.Millis(a.Created))
	if errors.Is(err, ErrUnique) {
		return fmt.Errorf("store: account %s: %w", a.Name, store.ErrNameTaken)
	}
	return err
}

// Account implements store.Accounts.
func (s *Service) Account(ctx context.Context, id string) (a store.Account, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = ?`, id))
		return err
	})
	return a, err
}

// AccountByName implements store.Accounts.
func (s *Service) AccountByName(ctx context.Context, name string) (a store.Account, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE name_key = ?`, nameKey(name)))
		return err
	})
	return a, err
}

// SetPassword implements store.Accounts.
func (s *Service) SetPassword(ctx context.Context, id, hash string, keep []byte) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE accounts SET password = ? WHERE id = ? AND deleted = 0`, hash, id)
		if err != nil {
			return err
		}
		if n != 1 {
			return store.ErrNoAccount
		}
		return deleteSessions(ctx, tx, id, keep)
	})
}

// DeleteAccount implements store.Accounts.
func (s *Service) DeleteAccount(ctx context.Context, id string, now time.Time) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE accounts SET name = ?, password = '', deleted = 1 WHERE id = ? AND deleted = 0`, store.DeletedName, id)
		if err != nil {
			return err
		}
		if n != 1 {
			return store.ErrNoAccount
		}
		if err := endSessionsAndSeeks(ctx, tx, id); err != nil {
			return err
		}
		for _, table := range []string{"passkeys", "api_tokens", "puzzle_ratings", "puzzle_attempts",
			"notify_prefs", "emails", "tokens", "push_subscriptions", "outbox"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE account = ?`, id); err != nil {
				return err
			}
		}
		// The row stays, so its foreign keys' cascades never fire: the
		// blocks go here, made by the account and of it.
		if _, err := tx.Exec(ctx, `DELETE FROM blocks WHERE account = ? OR blocked = ?`, id, id); err != nil {
			return err
		}
		return renameSeats(ctx, tx, id, now)
	})
}

// endSessionsAndSeeks logs account out everywhere and withdraws its
// seeks: what deleting, banning and closing an account all do.
func endSessionsAndSeeks(ctx context.Context, tx Tx, account string) error {
	if err := deleteSessions(ctx, tx, account, nil); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM seeks WHERE account = ?`, account)
	return err
}

// renameSeats shows DeletedName in every seat account holds.
func renameSeats(ctx context.Context, tx Tx, account string, now time.Time) error {
	headers, err := queryHeaders(ctx, tx, `SELECT `+gameColumns("g")+` FROM games g WHERE g.id IN (SELECT game_id FROM players WHERE account = ?)`, account)
	if err != nil {
		return err
	}
	for _, h := range headers {
		for i := range h.Seats {
			if h.Seats[i].Account == account {
				h.Seats[i].Name = store.DeletedName
			}
		}
		c, err := row.FromHeader(h)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET seats = ?, version = version + 1, updated = ? WHERE id = ?`,
			c.Seats, row.Millis(now), h.ID); err != nil {
			return err
		}
	}
	return nil
}

// EnsureLevel implements store.Accounts.
func (s *Service) EnsureLevel(ctx context.Context, a store.Account, seed []store.Rating) error {
	return s.Write(ctx, func(tx Tx) error {
		existing, err := scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE name_key = ?`, nameKey(a.Name)))
		switch {
		case errors.Is(err, store.ErrNoAccount):
			a.Kind = store.AILevel
			if err := insertAccount(ctx, tx, a); err != nil {
				return err
			}
			existing = a
		case err != nil:
			return err
		case !existing.IsLevel():
			return fmt.Errorf("store: account %s exists and is not an AI level's", a.Name)
		}
		for _, r := range seed {
			if _, err := tx.Exec(ctx, `INSERT INTO ratings (account, game, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (account, game) DO NOTHING`,
				existing.ID, r.Game, r.Rating, r.RD, r.Volatility, r.Games, row.Millis(r.Updated)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CreateSession implements store.Accounts.
func (s *Service) CreateSession(ctx context.Context, sn store.Session) error {
	return s.Write(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE account = ? AND expires <= ?`, sn.Account, row.Millis(sn.Created)); err != nil {
			return err
		}
		// An account keeps its newest sessions only: logging in again and
		// again cannot grow the table without end.
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE account = ? AND hash NOT IN
			(SELECT hash FROM sessions WHERE account = ? ORDER BY created DESC, hash LIMIT ?)`, sn.Account, sn.Account, MaxSessions-1); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO sessions (hash, account, created, expires) VALUES (?, ?, ?, ?)`,
			hex.EncodeToString(sn.Hash), sn.Account, row.Millis(sn.Created), row.Millis(sn.Expires))
		return err
	})
}

// SessionAccount implements store.Accounts.
func (s *Service) SessionAccount(ctx context.Context, hash []byte, now time.Time) (a store.Account, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+prefixed("a", accountColumns)+` FROM sessions s JOIN accounts a ON a.id = s.account
			WHERE s.hash = ? AND s.expires > ? AND a.deleted = 0`, hex.EncodeToString(hash), row.Millis(now)))
		if errors.Is(err, store.ErrNoAccount) {
			return store.ErrNoSession
		}
		return err
	})
	return a, err
}

// DeleteSession implements store.Accounts.
func (s *Service) DeleteSession(ctx context.Context, hash []byte) error {
	return s.Write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE hash = ?`, hex.EncodeToString(hash))
		return err
	})
}

// DeleteSessions implements store.Accounts.
func (s *Service) DeleteSessions(ctx context.Context, account string, keep []byte) error {
	return s.Write(ctx, func(tx Tx) error { return deleteSessions(ctx, tx, account, keep) })
}

func deleteSessions(ctx context.Context, tx Tx, account string, keep []byte) error {
	_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE account = ? AND hash <> ?`, account, hex.EncodeToString(keep))
	return err
}

// prefixed qualifies each column of a list with a table's alias.
func prefixed(alias, columns string) string {
	names := strings.Split(columns, ", ")
	for i, n := range names {
		names[i] = alias + "." + n
	}
	return strings.Join(names, ", ")
}

// gameColumns are the games table's columns, qualified.
func gameColumns(alias string) string { return prefixed(alias, row.Names) }

// queryHeaders reads the games a query of gameColumns finds.
func queryHeaders(ctx context.Context, tx Tx, query string, args ...any) ([]store.Header, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []store.Header
	for rows.Next() {
		var c row.Columns
		if err := rows.Scan(c.Targets()...); err != nil {
			return nil, err
		}
		h, err := c.Header()
		if err != nil {
			return nil, err
		}
		list = append(list, h)
	}
	return list, rows.Err()
}

// PlayerGames implements store.Accounts.
func (s *Service) PlayerGames(ctx context.Context, account string, f store.GameFilter) (list []store.Header, err error) {
	limit := f.Limit
	switch {
	case limit < 0:
		return nil, fmt.Errorf("store: limit %d is negative", limit)
	case limit == 0 || limit > 1000:
		limit = 100
	}
	query := `SELECT ` + gameColumns("g") + ` FROM players p JOIN games g ON g.id = p.game_id WHERE p.account = ?`
	args := []any{account}
	if f.Game != "" {
		query += ` AND p.game = ?`
		args = append(args, f.Game)
	}
	if f.Ongoing {
		query += ` AND g.result IS NULL`
	}
	if !f.Before.IsZero() {
		query += ` AND p.created < ?`
		args = append(args, row.Millis(f.Before))
	}
	query += ` ORDER BY p.created DESC, p.game_id DESC LIMIT ?`
	args = append(args, limit)
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryHeaders(ctx, tx, query, args...)
		return err
	})
	return list, err
}
