package acct

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

const seekColumns = "id, account, game, options, rated, clock, target, seats, joined, created, expires"

func seekArgs(s store.Seek) ([]any, error) {
	opts, err := json.Marshal(s.Options)
	if err != nil {
		return nil, err
	}
	var clock *string
	if s.Clock != nil {
		b, err := json.Marshal(s.Clock)
		if err != nil {
			return nil, err
		}
		text := string(b)
		clock = &text
	}
	joined, err := json.Marshal(append([]string{}, s.Joined...))
	if err != nil {
		return nil, err
	}
	return []any{s.ID, s.Account, s.Game, string(opts), boolInt(s.Rated), clock, s.Target, s.Seats,
		string(joined), row.Millis(s.Created), row.Millis(s.Expires)}, nil
}

func scanSeek(r Row) (store.Seek, error) {
	var s store.Seek
	var opts, joined string
	var clock *string
	var rated int
	var created, expires int64
	err := r.Scan(&s.ID, &s.Account, &s.Game, &opts, &rated, &clock, &s.Target, &s.Seats, &joined, &created, &expires)
	if errors.Is(err, ErrNoRows) {
		return s, store.ErrNoSeek
	}
	if err != nil {
		return s, err
	}
	s.Rated, s.Created, s.Expires = rated == 1, row.Time(created), row.Time(expires)
	if err := json.Unmarshal([]byte(opts), &s.Options); err != nil {
		return s, err
	}
	if err := json.Unmarshal([]byte(joined), &s.Joined); err != nil {
		return s, err
	}
	if len(s.Joined) == 0 {
		s.Joined = nil
	}
	if clock != nil {
		s.Clock = new(store.SeekClock)
		if err := json.Unmarshal([]byte(*clock), s.Clock); err != nil {
			return s, err
		}
	}
	return s, nil
}

// CreateSeek implements store.Accounts.
func (s *Service) CreateSeek(ctx context.Context, sk store.Seek, max int) error {
	args, err := seekArgs(sk)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Tx) error {
		var open int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM seeks WHERE account = ? AND expires > ?`,
			sk.Account, row.Millis(sk.Created)).Scan(&open); err != nil {
			return err
		}
		if open >= max {
			return store.ErrTooManySeeks
		}
		if _, err := tx.Exec(ctx, `DELETE FROM seeks WHERE expires <= ?`, row.Millis(sk.Created)); err != nil {
			return err
		}
		return insertSeek(ctx, tx, args)
	})
}

func insertSeek(ctx context.Context, tx Tx, args []any) error {
	_, err := tx.Exec(ctx, `INSERT INTO seeks (`+seekColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
	return err
}

// Seeks implements store.Accounts.
func (s *Service) Seeks(ctx context.Context, now time.Time) (list []store.Seek, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+seekColumns+` FROM seeks WHERE expires > ? ORDER BY created, id LIMIT 500`, row.Millis(now))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			sk, err := scanSeek(rows)
			if err != nil {
				return err
			}
			list = append(list, sk)
		}
		return rows.Err()
	})
	return list, err
}

// TakeSeek implements store.Accounts.
func (s *Service) TakeSeek(ctx context.Context, id, account string, now time.Time) (sk store.Seek, full bool, err error) {
	err = s.Write(ctx, func(tx Tx) error {
		sk, err = scanSeek(tx.QueryRow(ctx, `SELECT `+seekColumns+` FROM seeks WHERE id = ? AND expires > ?`, id, row.Millis(now)))
		switch {
		case err != nil:
			return err
		case sk.Account == account || slices.Contains(sk.Joined, account):
			return store.ErrOwnSeek
		case sk.Target != "" && sk.Target != account:
			return store.ErrNotForYou
		}
		sk.Joined = append(sk.Joined, account)
		if full = len(sk.Joined)+1 >= sk.Seats; full {
			n, err := tx.Exec(ctx, `DELETE FROM seeks WHERE id = ?`, id)
			if err == nil && n != 1 {
				err = store.ErrNoSeek
			}
			return err
		}
		was, err := json.Marshal(sk.Joined[:len(sk.Joined)-1])
		if err != nil {
			return err
		}
		joined, err := json.Marshal(sk.Joined)
		if err != nil {
			return err
		}
		// Conditional, as a game's writes are: of two joining at once,
		// the second finds the list changed and tries again.
		n, err := tx.Exec(ctx, `UPDATE seeks SET joined = ? WHERE id = ? AND joined = ?`, string(joined), id, string(was))
		if err == nil && n != 1 {
			err = store.ErrConflict
		}
		return err
	})
	return sk, full, err
}

// RestoreSeek implements store.Accounts.
func (s *Service) RestoreSeek(ctx context.Context, sk store.Seek) error {
	args, err := seekArgs(sk)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Tx) error { return insertSeek(ctx, tx, args) })
}

// DeleteSeek implements store.Accounts.
func (s *Service) DeleteSeek(ctx context.Context, id, account string) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM seeks WHERE id = ? AND account = ?`, id, account)
		if err == nil && n != 1 {
			err = store.ErrNoSeek
		}
		return err
	})
}

// ExtendSeeks implements store.Accounts.
func (s *Service) ExtendSeeks(ctx context.Context, account string, now, until time.Time) error {
	return s.Write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `UPDATE seeks SET expires = ? WHERE account = ? AND expires < ? AND expires > ?`,
			row.Millis(until), account, row.Millis(until), row.Millis(now))
		return err
	})
}
