package acct

import (
	"context"
	"encoding/hex"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// CreateAPIToken implements store.Bots. The account's tokens are counted
// under its lock, so that two servers making one each cannot pass max
// together.
func (s *Service) CreateAPIToken(ctx context.Context, t store.APIToken, max int) error {
	return s.Write(ctx, func(tx Tx) error {
		if err := s.lock(ctx, tx, "tokens of account "+t.Account); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM api_tokens WHERE account = ?`, t.Account).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return store.ErrTooManyAPITokens
		}
		_, err := tx.Exec(ctx, `INSERT INTO api_tokens (hash, id, account, description, created) VALUES (?, ?, ?, ?, ?)`,
			hex.EncodeToString(t.Hash), t.ID, t.Account, t.Description, row.Millis(t.Created))
		return err
	})
}

// Tokens implements store.Bots.
func (s *Service) APITokens(ctx context.Context, account string) (list []store.APIToken, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, account, description, created FROM api_tokens WHERE account = ? ORDER BY created, id`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t store.APIToken
			var created int64
			if err := rows.Scan(&t.ID, &t.Account, &t.Description, &created); err != nil {
				return err
			}
			t.Created = row.Time(created)
			list = append(list, t)
		}
		return rows.Err()
	})
	return list, err
}

// APITokenAccount implements store.Bots.
func (s *Service) APITokenAccount(ctx context.Context, hash []byte) (a store.Account, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+prefixed("a", accountColumns)+` FROM api_tokens t JOIN accounts a ON a.id = t.account
			WHERE t.hash = ? AND a.deleted = 0`, hex.EncodeToString(hash)))
		if errors.Is(err, store.ErrNoAccount) {
			return store.ErrNoAPIToken
		}
		return err
	})
	return a, err
}

// DeleteAPIToken implements store.Bots.
func (s *Service) DeleteAPIToken(ctx context.Context, account, id string) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM api_tokens WHERE account = ? AND id = ?`, account, id)
		if err == nil && n != 1 {
			err = store.ErrNoAPIToken
		}
		return err
	})
}

// MakeBot implements store.Bots. The update is conditional on the
// account's kind and on its holding no seat, in one statement, so that
// of an upgrade and a game starting at once only what committed first
// holds; the reason of a refusal is read after.
func (s *Service) MakeBot(ctx context.Context, id string) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE accounts SET kind = ? WHERE id = ? AND kind = ? AND deleted = 0
			AND NOT EXISTS (SELECT 1 FROM players WHERE account = ?)`, string(store.Bot), id, string(store.Person), id)
		if err != nil {
			return err
		}
		if n == 1 {
			return endSessionsAndSeeks(ctx, tx, id)
		}
		a, err := scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = ?`, id))
		switch {
		case err != nil:
			return err
		case a.Kind != store.Person || a.Deleted:
			return store.ErrNotPerson
		}
		return store.ErrPlayed
	})
}

// DeclineSeek implements store.Bots.
func (s *Service) DeclineSeek(ctx context.Context, id, target string, now time.Time) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM seeks WHERE id = ? AND target = ? AND expires > ?`, id, target, row.Millis(now))
		if err == nil && n != 1 {
			err = store.ErrNoSeek
		}
		return err
	})
}
