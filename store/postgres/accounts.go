package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/acct"
)

// querier is what a transaction and the pool both offer.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// accountsTx adapts pgx to the accounts' SQL, numbering its ? parameters.
type accountsTx struct{ q querier }

// numbered turns each ? of query into $1, $2, ... (the accounts' SQL has
// no ? in its literals).
func numbered(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (t accountsTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := t.q.Exec(ctx, numbered(query), args...)
	if isUnique(err) {
		return 0, errors.Join(acct.ErrUnique, err)
	}
	return tag.RowsAffected(), err
}

func (t accountsTx) QueryRow(ctx context.Context, query string, args ...any) acct.Row {
	return accountsRow{t.q.QueryRow(ctx, numbered(query), args...)}
}

func (t accountsTx) Query(ctx context.Context, query string, args ...any) (acct.Rows, error) {
	rows, err := t.q.Query(ctx, numbered(query), args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

type accountsRow struct{ r pgx.Row }

func (r accountsRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return acct.ErrNoRows
	}
	return err
}

// accounts is the accounts' part of the store.
func (s *Store) accounts() *acct.Service {
	return &acct.Service{
		Read: func(ctx context.Context, fn func(acct.Tx) error) error {
			if s.closed.Load() {
				return store.ErrClosed
			}
			return s.fail(fn(accountsTx{s.pool}))
		},
		Write: func(ctx context.Context, fn func(acct.Tx) error) error {
			return s.inTx(ctx, func(tx pgx.Tx) error { return fn(accountsTx{tx}) })
		},
		// A transaction's advisory lock, by a 64-bit hash of its name:
		// a collision only makes two writers take turns.
		Lock: func(ctx context.Context, tx acct.Tx, key string) error {
			_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended(?, 0))`, key)
			return err
		},
	}
}
