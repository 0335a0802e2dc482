package acct

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// Secret implements store.Notifications: the first server to store a
// secret wins, and every server reads the one stored.
func (s *Service) Secret(ctx context.Context, name, candidate string) (value string, err error) {
	if name == "" || candidate == "" {
		return "", errors.New("store: a secret needs a name and a value")
	}
	err = s.Write(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO site_secrets (name, value, created) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`,
			name, candidate, row.Millis(time.Now())); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT value FROM site_secrets WHERE name = ?`, name).Scan(&value)
	})
	return value, err
}

// NotifyPrefs implements store.Notifications.
func (s *Service) NotifyPrefs(ctx context.Context, account string) (prefs []store.NotifyPref, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT kind, channel, enabled FROM notify_prefs WHERE account = ? ORDER BY kind, channel`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p store.NotifyPref
			var on int
			if err := rows.Scan(&p.Kind, &p.Channel, &on); err != nil {
				return err
			}
			p.On = on == 1
			prefs = append(prefs, p)
		}
		return rows.Err()
	})
	return prefs, err
}

// SetNotifyPrefs implements store.Notifications.
func (s *Service) SetNotifyPrefs(ctx context.Context, account string, prefs []store.NotifyPref) error {
	return s.Write(ctx, func(tx Tx) error {
		if err := liveAccount(ctx, tx, account); err != nil {
			return err
		}
		for _, p := range prefs {
			if _, err := tx.Exec(ctx, `INSERT INTO notify_prefs (account, kind, channel, enabled) VALUES (?, ?, ?, ?)
				ON CONFLICT (account, kind, channel) DO UPDATE SET enabled = excluded.enabled`,
				account, p.Kind, p.Channel, boolInt(p.On)); err != nil {
				return err
			}
		}
		return nil
	})
}

// addressKey is the unique form of an address: addresses are one
// account's ignoring case.
func addressKey(address string) string { return strings.ToLower(address) }

func scanEmail(r Row) (store.Email, error) {
	var e store.Email
	var verified int
	var changed int64
	err := r.Scan(&e.Account, &e.Address, &verified, &changed)
	if errors.Is(err, ErrNoRows) {
		return e, store.ErrNoEmail
	}
	e.Verified, e.Changed = verified == 1, row.Time(changed)
	return e, err
}

// Email implements store.Notifications.
func (s *Service) Email(ctx context.Context, account string) (e store.Email, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		e, err = scanEmail(tx.QueryRow(ctx, `SELECT account, address, verified, changed FROM emails WHERE account = ?`, account))
		return err
	})
	return e, err
}

// SetEmail implements store.Notifications.
func (s *Service) SetEmail(ctx context.Context, e store.Email, t store.Token, max int, since time.Time) error {
	if e.Account == "" || e.Address == "" || t.Account != e.Account || t.Purpose != store.TokenVerify || t.Address != e.Address {
		return errors.New("store: an address needs its account and a verification token of its own")
	}
	return s.Write(ctx, func(tx Tx) error {
		if err := s.countTokens(ctx, tx, t, max, since); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO emails (account, address, address_key, verified, changed) VALUES (?, ?, ?, 0, ?)
			ON CONFLICT (account) DO UPDATE SET address = excluded.address, address_key = excluded.address_key, verified = 0, changed = excluded.changed`,
			e.Account, e.Address, addressKey(e.Address), row.Millis(e.Changed)); err != nil {
			return err
		}
		if err := useTokens(ctx, tx, e.Account, store.TokenVerify, e.Changed); err != nil {
			return err
		}
		return insertToken(ctx, tx, t)
	})
}

// DeleteEmail implements store.Notifications. The address's pending
// verifications are used up, and still counted (removing an address and
// setting it again mails no more verifications than the bound).
func (s *Service) DeleteEmail(ctx context.Context, account string) error {
	return s.Write(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM emails WHERE account = ?`, account); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE tokens SET used = created WHERE account = ? AND purpose = ? AND used = 0`, account, store.TokenVerify)
		return err
	})
}

// VerifyEmail implements store.Notifications.
func (s *Service) VerifyEmail(ctx context.Context, hash []byte, now time.Time) (e store.Email, err error) {
	err = s.Write(ctx, func(tx Tx) error {
		t, err := useToken(ctx, tx, hash, store.TokenVerify, now)
		if err != nil {
			return err
		}
		e, err = scanEmail(tx.QueryRow(ctx, `SELECT account, address, verified, changed FROM emails WHERE account = ?`, t.Account))
		if errors.Is(err, store.ErrNoEmail) || err == nil && e.Address != t.Address {
			return store.ErrNoToken // the address was removed or changed since
		}
		if err != nil || e.Verified {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE emails SET verified = 1, changed = ? WHERE account = ?`, row.Millis(now), t.Account)
		if errors.Is(err, ErrUnique) {
			return store.ErrEmailTaken
		}
		e.Verified, e.Changed = true, stored(now)
		return err
	})
	return e, err
}

// stored is t as the store gives it back.
func stored(t time.Time) time.Time { return row.Time(row.Millis(t)) }

// AccountByEmail implements store.Notifications.
func (s *Service) AccountByEmail(ctx context.Context, address string) (a store.Account, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+prefixed("a", accountColumns)+` FROM emails e JOIN accounts a ON a.id = e.account
			WHERE e.address_key = ? AND e.verified = 1 AND a.deleted = 0`, addressKey(address)))
		return err
	})
	return a, err
}

const tokenColumns = "hash, account, purpose, address, created, expires"

func scanToken(r Row) (store.Token, error) {
	var t store.Token
	var hash string
	var created, expires int64
	err := r.Scan(&hash, &t.Account, &t.Purpose, &t.Address, &created, &expires)
	if errors.Is(err, ErrNoRows) {
		return t, store.ErrNoToken
	}
	if err != nil {
		return t, err
	}
	t.Created, t.Expires = row.Time(created), row.Time(expires)
	t.Hash, err = hex.DecodeString(hash)
	return t, err
}

// CreateToken implements store.Notifications.
func (s *Service) CreateToken(ctx context.Context, t store.Token, max int, since time.Time) error {
	if len(t.Hash) == 0 || t.Account == "" || (t.Purpose != store.TokenVerify && t.Purpose != store.TokenReset) {
		return fmt.Errorf("store: a token needs a hash, an account and a purpose, %q or %q", store.TokenVerify, store.TokenReset)
	}
	return s.Write(ctx, func(tx Tx) error {
		if err := s.countTokens(ctx, tx, t, max, since); err != nil {
			return err
		}
		return insertToken(ctx, tx, t)
	})
}

// countTokens refuses t when its account was given max tokens of its
// purpose since since. Two servers making an account's tokens at once
// would count the same rows (on PostgreSQL): they take turns.
func (s *Service) countTokens(ctx context.Context, tx Tx, t store.Token, max int, since time.Time) error {
	if err := s.lock(ctx, tx, "tokens:"+t.Account); err != nil {
		return err
	}
	if err := liveAccount(ctx, tx, t.Account); err != nil {
		return err
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tokens WHERE account = ? AND purpose = ? AND created >= ?`,
		t.Account, t.Purpose, row.Millis(since)).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return store.ErrTooManyTokens
	}
	return nil
}

func insertToken(ctx context.Context, tx Tx, t store.Token) error {
	_, err := tx.Exec(ctx, `INSERT INTO tokens (`+tokenColumns+`, used) VALUES (?, ?, ?, ?, ?, ?, 0)`,
		hex.EncodeToString(t.Hash), t.Account, t.Purpose, t.Address, row.Millis(t.Created), row.Millis(t.Expires))
	return err
}

// useTokens uses up every unused token of account's of purpose.
func useTokens(ctx context.Context, tx Tx, account, purpose string, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE tokens SET used = ? WHERE account = ? AND purpose = ? AND used = 0`, row.Millis(now), account, purpose)
	return err
}

// useToken marks the token of hash used, if it is an unused, unexpired
// one of purpose, by a conditional update (of two uses at once, one
// finds it), and gives it.
func useToken(ctx context.Context, tx Tx, hash []byte, purpose string, now time.Time) (store.Token, error) {
	key := hex.EncodeToString(hash)
	n, err := tx.Exec(ctx, `UPDATE tokens SET used = ? WHERE hash = ? AND purpose = ? AND used = 0 AND expires > ?`,
		row.Millis(now), key, purpose, row.Millis(now))
	if err != nil {
		return store.Token{}, err
	}
	if n != 1 {
		return store.Token{}, store.ErrNoToken
	}
	return scanToken(tx.QueryRow(ctx, `SELECT `+tokenColumns+` FROM tokens WHERE hash = ?`, key))
}

// Token implements store.Notifications.
func (s *Service) Token(ctx context.Context, hash []byte, purpose string, now time.Time) (t store.Token, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		t, err = scanToken(tx.QueryRow(ctx, `SELECT `+tokenColumns+` FROM tokens WHERE hash = ? AND purpose = ? AND used = 0 AND expires > ?`,
			hex.EncodeToString(hash), purpose, row.Millis(now)))
		return err
	})
	return t, err
}

// ResetPassword implements store.Notifications.
func (s *Service) ResetPassword(ctx context.Context, hash []byte, password string, now time.Time) (account string, err error) {
	if password == "" {
		return "", errors.New("store: a reset needs the new password's hash")
	}
	err = s.Write(ctx, func(tx Tx) error {
		t, err := useToken(ctx, tx, hash, store.TokenReset, now)
		if err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE accounts SET password = ? WHERE id = ? AND deleted = 0`, password, t.Account)
		if err != nil {
			return err
		}
		if n != 1 {
			return store.ErrNoToken
		}
		if err := useTokens(ctx, tx, t.Account, store.TokenReset, now); err != nil {
			return err
		}
		account = t.Account
		return deleteSessions(ctx, tx, t.Account, nil)
	})
	return account, err
}

const pushColumns = "id, account, endpoint, p256dh, auth, created"

func scanPush(r Row) (store.PushSubscription, error) {
	var p store.PushSubscription
	var created int64
	err := r.Scan(&p.ID, &p.Account, &p.Endpoint, &p.P256dh, &p.Auth, &created)
	if errors.Is(err, ErrNoRows) {
		return p, store.ErrNoSubscription
	}
	p.Created = row.Time(created)
	return p, err
}

// AddPushSubscription implements store.Notifications.
func (s *Service) AddPushSubscription(ctx context.Context, p store.PushSubscription, max int) (id string, err error) {
	if p.ID == "" || p.Account == "" || p.Endpoint == "" {
		return "", errors.New("store: a push subscription needs an id, an account and an endpoint")
	}
	err = s.Write(ctx, func(tx Tx) error {
		if err := s.lock(ctx, tx, "push:"+p.Account); err != nil {
			return err
		}
		if err := liveAccount(ctx, tx, p.Account); err != nil {
			return err
		}
		old, err := scanPush(tx.QueryRow(ctx, `SELECT `+pushColumns+` FROM push_subscriptions WHERE endpoint = ?`, p.Endpoint))
		switch {
		case err == nil && old.Account == p.Account: // the same browser again, maybe with new keys
			id = old.ID
			_, err = tx.Exec(ctx, `UPDATE push_subscriptions SET p256dh = ?, auth = ? WHERE id = ?`, p.P256dh, p.Auth, old.ID)
			return err
		case err != nil && !errors.Is(err, store.ErrNoSubscription):
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM push_subscriptions WHERE account = ?`, p.Account).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return store.ErrTooManySubscriptions
		}
		if old.ID != "" { // the browser was another account's: it is this one's now
			id = old.ID
			_, err = tx.Exec(ctx, `UPDATE push_subscriptions SET account = ?, p256dh = ?, auth = ?, created = ? WHERE id = ?`,
				p.Account, p.P256dh, p.Auth, row.Millis(p.Created), old.ID)
			return err
		}
		id = p.ID
		_, err = tx.Exec(ctx, `INSERT INTO push_subscriptions (`+pushColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			p.ID, p.Account, p.Endpoint, p.P256dh, p.Auth, row.Millis(p.Created))
		return err
	})
	return id, err
}

// PushSubscriptions implements store.Notifications.
func (s *Service) PushSubscriptions(ctx context.Context, account string) (list []store.PushSubscription, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+pushColumns+` FROM push_subscriptions WHERE account = ? ORDER BY created, id`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPush(rows)
			if err != nil {
				return err
			}
			list = append(list, p)
		}
		return rows.Err()
	})
	return list, err
}

// DeletePushSubscription implements store.Notifications.
func (s *Service) DeletePushSubscription(ctx context.Context, account, id string) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE account = ? AND id = ?`, account, id)
		if err == nil && n != 1 {
			return store.ErrNoSubscription
		}
		return err
	})
}

// DeletePushEndpoint implements store.Notifications.
func (s *Service) DeletePushEndpoint(ctx context.Context, endpoint string) error {
	return s.Write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE endpoint = ?`, endpoint)
		return err
	})
}

const outboxColumns = "id, account, kind, subject, channel, game_id, ply, title, body, url, to_address, state, due, attempts, claim, done, error, created, finished"

func scanOutbox(r Row) (store.OutboxItem, error) {
	var o store.OutboxItem
	var due, created, finished int64
	var done string
	err := r.Scan(&o.ID, &o.Account, &o.Kind, &o.Subject, &o.Channel, &o.Game, &o.Ply, &o.Title, &o.Body, &o.URL, &o.To,
		&o.State, &due, &o.Attempts, &o.Claim, &done, &o.Error, &created, &finished)
	if err != nil {
		return o, err
	}
	o.Due, o.Created, o.Finished = row.Time(due), row.Time(created), optTime(finished)
	if err := json.Unmarshal([]byte(done), &o.Done); err != nil {
		return o, fmt.Errorf("store: outbox row %s: done: %w", o.ID, err)
	}
	return o, nil
}

// doneText is a row's done list as stored: a JSON array, never null.
func doneText(done []string) string {
	if done == nil {
		done = []string{}
	}
	b, _ := json.Marshal(done)
	return string(b)
}

// Enqueue implements store.Notifications: the unique key, not a lock,
// keeps one row of a notification however many servers enqueue it.
func (s *Service) Enqueue(ctx context.Context, items []store.OutboxItem) (added int, err error) {
	for _, o := range items {
		if o.ID == "" || o.Account == "" || o.Kind == "" || o.Subject == "" || o.Channel == "" {
			return 0, errors.New("store: an outbox row needs an id, an account, a kind, a subject and a channel")
		}
	}
	err = s.Write(ctx, func(tx Tx) error {
		added = 0
		for _, o := range items {
			n, err := tx.Exec(ctx, `INSERT INTO outbox (`+outboxColumns+`, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '', ?, '', ?, 0, 0)
				ON CONFLICT (account, kind, subject, channel) DO NOTHING`,
				o.ID, o.Account, o.Kind, o.Subject, o.Channel, o.Game, o.Ply, o.Title, o.Body, o.URL, o.To,
				store.OutboxPending, row.Millis(o.Due), doneText(o.Done), row.Millis(o.Created))
			if err != nil {
				return err
			}
			added += int(n)
		}
		return nil
	})
	return added, err
}

// ClaimOutbox implements store.Notifications. The rows are picked by a
// plain read, then each taken by an update that holds only while the
// row is still pending, due and free: on PostgreSQL, a second server's
// update of the same row waits for the first's commit and then finds
// its lease taken.
func (s *Service) ClaimOutbox(ctx context.Context, claim string, now time.Time, lease time.Duration, limit int) (items []store.OutboxItem, err error) {
	if claim == "" || lease <= 0 || limit <= 0 {
		return nil, errors.New("store: a claim needs an id, a lease and a limit")
	}
	at, until := row.Millis(now), row.Millis(now.Add(lease))
	// An idle outbox costs a read, not a write (and SQLite's fsync): the
	// servers look every few seconds.
	var waiting int
	if err := s.Read(ctx, func(tx Tx) error {
		return tx.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT id FROM outbox WHERE state = ? AND due <= ? AND lease_until <= ? LIMIT 1) due`,
			store.OutboxPending, at, at).Scan(&waiting)
	}); err != nil || waiting == 0 {
		return nil, err
	}
	err = s.Write(ctx, func(tx Tx) error {
		items = nil
		var due []string
		rows, err := tx.Query(ctx, `SELECT id FROM outbox WHERE state = ? AND due <= ? AND lease_until <= ? ORDER BY due, id LIMIT ?`,
			store.OutboxPending, at, at, limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			due = append(due, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range due {
			n, err := tx.Exec(ctx, `UPDATE outbox SET lease_until = ?, claim = ?, attempts = attempts + 1
				WHERE id = ? AND state = ? AND due <= ? AND lease_until <= ?`, until, claim, id, store.OutboxPending, at, at)
			if err != nil {
				return err
			}
			if n != 1 {
				continue // another server's now
			}
			o, err := scanOutbox(tx.QueryRow(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE id = ?`, id))
			if err != nil {
				return err
			}
			items = append(items, o)
		}
		return nil
	})
	return items, err
}

// FinishOutbox implements store.Notifications.
func (s *Service) FinishOutbox(ctx context.Context, id, claim string, r store.OutboxResult) error {
	switch r.State {
	case store.OutboxPending, store.OutboxSent, store.OutboxSkipped, store.OutboxFailed:
	default:
		return fmt.Errorf("store: no outbox state %q", r.State)
	}
	// A retry is due again; a final row keeps its due and says when it
	// finished.
	query := `UPDATE outbox SET state = ?, done = ?, error = ?, lease_until = 0, claim = '', `
	args := []any{r.State, doneText(r.Done), r.Error}
	if r.State == store.OutboxPending {
		query += `due = ?`
		args = append(args, row.Millis(r.Due))
	} else {
		query += `finished = ?`
		args = append(args, row.Millis(r.At))
	}
	if r.Clear {
		query += `, body = '', url = ''`
	}
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, query+` WHERE id = ? AND claim = ?`, append(args, id, claim)...)
		if err == nil && n != 1 {
			return store.ErrLostClaim
		}
		return err
	})
}

// OutboxOf implements store.Notifications.
func (s *Service) OutboxOf(ctx context.Context, account string) (items []store.OutboxItem, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE account = ? ORDER BY created, id`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			o, err := scanOutbox(rows)
			if err != nil {
				return err
			}
			items = append(items, o)
		}
		return rows.Err()
	})
	return items, err
}

// PruneOutbox implements store.Notifications; the tokens expired before
// before go too.
func (s *Service) PruneOutbox(ctx context.Context, before time.Time) (pruned int, err error) {
	err = s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM outbox WHERE state <> ? AND finished < ?`, store.OutboxPending, row.Millis(before))
		if err != nil {
			return err
		}
		pruned = int(n)
		_, err = tx.Exec(ctx, `DELETE FROM tokens WHERE expires < ?`, row.Millis(before))
		return err
	})
	return pruned, err
}
