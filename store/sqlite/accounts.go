package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/acct"
)

// conn is what a transaction and the database both offer.
type conn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// accountsTx adapts database/sql to the accounts' SQL.
type accountsTx struct{ c conn }

func (t accountsTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := t.c.ExecContext(ctx, query, args...)
	if isConstraint(err) {
		return 0, errors.Join(acct.ErrUnique, err)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t accountsTx) QueryRow(ctx context.Context, query string, args ...any) acct.Row {
	return accountsRow{t.c.QueryRowContext(ctx, query, args...)}
}

func (t accountsTx) Query(ctx context.Context, query string, args ...any) (acct.Rows, error) {
	rows, err := t.c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return accountsRows{rows}, nil
}

type accountsRow struct{ r *sql.Row }

func (r accountsRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return acct.ErrNoRows
	}
	return err
}

type accountsRows struct{ *sql.Rows }

func (r accountsRows) Close() { r.Rows.Close() }

// accounts is the accounts' part of the store: reads on the readers'
// connections, writes through the writer goroutine like every game's.
func (s *Store) accounts() *acct.Service {
	return &acct.Service{
		Read: func(ctx context.Context, fn func(acct.Tx) error) error {
			if s.closed.Load() {
				return store.ErrClosed
			}
			return s.fail(fn(accountsTx{s.r}))
		},
		Write: func(ctx context.Context, fn func(acct.Tx) error) error {
			return s.submit(ctx, &write{apply: func(ctx context.Context, tx conn) error {
				return fn(accountsTx{tx})
			}})
		},
	}
}
