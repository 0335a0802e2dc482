package acct

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

const seekColumns = "id, account, game, options, rated, clock, target, seats, joined, address, correspondence, created, expires, no_takebacks"

func seekArgs(s store.Seek) ([]any, error) {
	opts, err := json.Marshal(s.Options)
	if err != nil {
		return nil, err
	}
	clock, err := seekClockText(s.Clock)
	if err != nil {
		return nil, err
	}
	joined, err := json.Marshal(append([]string{}, s.Joined...))
	if err != nil {
		return nil, err
	}
	return []any{s.ID, s.Account, s.Game, string(opts), boolInt(s.Rated), clock, s.Target, s.Seats,
		string(joined), s.Address, boolInt(s.Correspondence()), row.Millis(s.Created), row.Millis(s.Expires), boolInt(s.NoTakebacks)}, nil
}

func scanSeek(r Row) (store.Seek, error) {
	var s store.Seek
	var opts, joined string
	var clock *string
	var rated, correspondence, noTakebacks int
	var created, expires int64
	err := r.Scan(&s.ID, &s.Account, &s.Game, &opts, &rated, &clock, &s.Target, &s.Seats, &joined, &s.Address, &correspondence, &created, &expires, &noTakebacks)
	if errors.Is(err, ErrNoRows) {
		return s, store.ErrNoSeek
	}
	if err != nil {
		return s, err
	}
	s.Rated, s.NoTakebacks, s.Created, s.Expires = rated == 1, noTakebacks == 1, row.Time(created), row.Time(expires)
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
		var stored seekClock
		if err := json.Unmarshal([]byte(*clock), &stored); err != nil {
			return s, err
		}
		tc := stored.control()
		s.Clock = &tc
	}
	return s, nil
}

// CreateSeek implements store.Accounts.
func (s *Service) CreateSeek(ctx context.Context, sk store.Seek, perAccount, perAddress int) error {
	args, err := seekArgs(sk)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Tx) error {
		// The account's lock is always taken before the address's, so
		// that two writers never wait for each other.
		if err := s.lock(ctx, tx, "seeks of account "+sk.Account); err != nil {
			return err
		}
		if err := checkOpenSeeks(ctx, tx, "account", sk.Account, sk.Created, perAccount, store.ErrTooManySeeks); err != nil {
			return err
		}
		if sk.Address != "" {
			if err := s.lock(ctx, tx, "seeks of address "+sk.Address); err != nil {
				return err
			}
			if err := checkOpenSeeks(ctx, tx, "address", sk.Address, sk.Created, perAddress, store.ErrTooManyAddressSeeks); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM seeks WHERE expires <= ?`, row.Millis(sk.Created)); err != nil {
			return err
		}
		return insertSeek(ctx, tx, args)
	})
}

// checkOpenSeeks gives tooMany when the seeks open at now whose column
// (account or address, never the caller's text) is value number max or
// more.
func checkOpenSeeks(ctx context.Context, tx Tx, column, value string, now time.Time, max int, tooMany error) error {
	var open int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM seeks WHERE `+column+` = ? AND expires > ?`,
		value, row.Millis(now)).Scan(&open); err != nil {
		return err
	}
	if open >= max {
		return tooMany
	}
	return nil
}

func insertSeek(ctx context.Context, tx Tx, args []any) error {
	_, err := tx.Exec(ctx, `INSERT INTO seeks (`+seekColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
	return err
}

// Seeks implements store.Accounts.
func (s *Service) Seeks(ctx context.Context, now time.Time, f store.SeekFilter) (list []store.Seek, err error) {
	query, args, err := seeksQuery(now, f)
	if err != nil {
		return nil, err
	}
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, query, args...)
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

// seeksQuery is the query of the seeks f keeps, newest first.
func seeksQuery(now time.Time, f store.SeekFilter) (string, []any, error) {
	limit := f.Limit
	switch {
	case limit < 0:
		return "", nil, fmt.Errorf("store: limit %d is negative", limit)
	case limit == 0 || limit > 1000:
		limit = 100
	}
	query := `SELECT ` + seekColumns + ` FROM seeks WHERE expires > ?`
	args := []any{row.Millis(now)}
	switch f.Kind {
	case "":
	case store.RealTime, store.Correspondence:
		query += ` AND correspondence = ?`
		args = append(args, boolInt(f.Kind == store.Correspondence))
	default:
		return "", nil, fmt.Errorf("store: no kind of seek %q; want %q or %q", f.Kind, store.RealTime, store.Correspondence)
	}
	if f.Game != "" {
		query += ` AND game = ?`
		args = append(args, f.Game)
	}
	if f.Target != "" {
		query += ` AND target = ?`
		args = append(args, f.Target)
	}
	if f.Before.ID != "" {
		at := row.Millis(f.Before.Created)
		query += ` AND (created < ? OR (created = ? AND id < ?))`
		args = append(args, at, at, f.Before.ID)
	}
	return query + ` ORDER BY created DESC, id DESC LIMIT ?`, append(args, limit), nil
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
