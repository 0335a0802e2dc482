package acct

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

const passkeyColumns = "id, account, name, credential, created, used"

func scanPasskey(r Row) (store.Passkey, error) {
	var p store.Passkey
	var cred string
	var created, used int64
	err := r.Scan(&p.ID, &p.Account, &p.Name, &cred, &created, &used)
	if errors.Is(err, ErrNoRows) {
		return p, store.ErrNoPasskey
	}
	p.Credential, p.Created, p.Used = []byte(cred), row.Time(created), row.Time(used)
	return p, err
}

// AddPasskey implements store.Accounts.
func (s *Service) AddPasskey(ctx context.Context, p store.Passkey, max int) error {
	return s.Write(ctx, func(tx Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM passkeys WHERE account = ?`, p.Account).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return store.ErrTooManyPasskeys
		}
		_, err := tx.Exec(ctx, `INSERT INTO passkeys (`+passkeyColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			p.ID, p.Account, p.Name, string(p.Credential), row.Millis(p.Created), row.Millis(p.Used))
		return err
	})
}

// Passkeys implements store.Accounts.
func (s *Service) Passkeys(ctx context.Context, account string) (list []store.Passkey, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE account = ? ORDER BY created, id`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPasskey(rows)
			if err != nil {
				return err
			}
			list = append(list, p)
		}
		return rows.Err()
	})
	return list, err
}

// Passkey implements store.Accounts.
func (s *Service) Passkey(ctx context.Context, id string) (p store.Passkey, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		p, err = scanPasskey(tx.QueryRow(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE id = ?`, id))
		return err
	})
	return p, err
}

// UsePasskey implements store.Accounts.
func (s *Service) UsePasskey(ctx context.Context, id string, credential []byte, at time.Time) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE passkeys SET credential = ?, used = ? WHERE id = ?`, string(credential), row.Millis(at), id)
		if err == nil && n != 1 {
			err = store.ErrNoPasskey
		}
		return err
	})
}

// DeletePasskey implements store.Accounts.
func (s *Service) DeletePasskey(ctx context.Context, account, id string) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM passkeys WHERE id = ? AND account = ?`, id, account)
		if err == nil && n != 1 {
			err = store.ErrNoPasskey
		}
		return err
	})
}

// PutCeremony implements store.Accounts. Expired ceremonies are swept
// as new ones come.
func (s *Service) PutCeremony(ctx context.Context, id, account string, data []byte, expires time.Time) error {
	return s.Write(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM ceremonies WHERE expires < ?`, row.Millis(time.Now())); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO ceremonies (id, account, data, expires) VALUES (?, ?, ?, ?)`,
			id, account, string(data), row.Millis(expires))
		return err
	})
}

// TakeCeremony implements store.Accounts.
func (s *Service) TakeCeremony(ctx context.Context, id string, now time.Time) (account string, data []byte, err error) {
	err = s.Write(ctx, func(tx Tx) error {
		var text string
		var expires int64
		err := tx.QueryRow(ctx, `SELECT account, data, expires FROM ceremonies WHERE id = ?`, id).Scan(&account, &text, &expires)
		if errors.Is(err, ErrNoRows) {
			return store.ErrNoCeremony
		}
		if err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `DELETE FROM ceremonies WHERE id = ?`, id)
		if err == nil && (n != 1 || expires <= row.Millis(now)) {
			err = store.ErrNoCeremony
		}
		data = []byte(text)
		return err
	})
	return account, data, err
}
