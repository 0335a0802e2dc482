package acct

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// defaultLimit is the community's lists' length when the caller gives
// none.
const defaultLimit = 100

const chatColumns = "id, game_id, room, account, name, text, at, removed"

func scanChat(r Row) (store.ChatMessage, error) {
	var m store.ChatMessage
	var at int64
	var removed int
	err := r.Scan(&m.ID, &m.Game, &m.Room, &m.Account, &m.Name, &m.Text, &at, &removed)
	if errors.Is(err, ErrNoRows) {
		return m, store.ErrNoMessage
	}
	m.At, m.Removed = row.Time(at), removed == 1
	return m, err
}

// AddChat implements store.Community.
func (s *Service) AddChat(ctx context.Context, m store.ChatMessage) error {
	if m.ID == "" || m.Game == "" || m.Account == "" {
		return errors.New("store: a chat message needs an id, a game and an account")
	}
	if m.Room != store.RoomPlayers && m.Room != store.RoomSpectators {
		return fmt.Errorf("store: no chat room %q; want %q or %q", m.Room, store.RoomPlayers, store.RoomSpectators)
	}
	return s.Write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO chat_messages (`+chatColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.Game, m.Room, m.Account, m.Name, m.Text, row.Millis(m.At), boolInt(m.Removed))
		if err != nil {
			return fmt.Errorf("store: chat message %s: %w", m.ID, err)
		}
		return nil
	})
}

// Chat implements store.Community. The newest messages are the last ids:
// callers make ids that sort as the messages were written.
func (s *Service) Chat(ctx context.Context, game, room string, limit int) (list []store.ChatMessage, err error) {
	if limit <= 0 {
		limit = defaultLimit
	}
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryAll(ctx, tx, scanChat, `SELECT `+chatColumns+` FROM chat_messages
			WHERE game_id = ? AND room = ? AND removed = 0 ORDER BY id DESC LIMIT ?`, game, room, limit)
		return err
	})
	slices.Reverse(list) // read newest first, for the limit; shown oldest first
	return list, err
}

// ChatAfter implements store.Community.
func (s *Service) ChatAfter(ctx context.Context, after string, limit int) (list []store.ChatMessage, err error) {
	if limit <= 0 {
		limit = defaultLimit
	}
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryAll(ctx, tx, scanChat, `SELECT `+chatColumns+` FROM chat_messages
			WHERE id > ? AND removed = 0 ORDER BY id LIMIT ?`, after, limit)
		return err
	})
	return list, err
}

// ChatMessage implements store.Community.
func (s *Service) ChatMessage(ctx context.Context, id string) (m store.ChatMessage, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		m, err = scanChat(tx.QueryRow(ctx, `SELECT `+chatColumns+` FROM chat_messages WHERE id = ?`, id))
		return err
	})
	return m, err
}

// Block implements store.Community. Blocking oneself is the caller's to
// refuse; the store refuses it too, as a plain error.
func (s *Service) Block(ctx context.Context, account, other string, max int, at time.Time) error {
	if account == other {
		return errors.New("store: an account cannot block itself")
	}
	return s.Write(ctx, func(tx Tx) error {
		// Two blocks by one account at once would both count the same
		// rows (on PostgreSQL) and both pass max.
		if err := s.lock(ctx, tx, "blocks:"+account); err != nil {
			return err
		}
		// A deleted account's blocks are gone (DeleteAccount) and stay
		// gone.
		for _, id := range []string{account, other} {
			if err := liveAccount(ctx, tx, id); err != nil {
				return err
			}
		}
		var already, n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM blocks WHERE account = ? AND blocked = ?`, account, other).Scan(&already); err != nil {
			return err
		}
		if already > 0 {
			return nil // blocking again changes nothing, not even the time
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM blocks WHERE account = ?`, account).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return store.ErrTooManyBlocks
		}
		_, err := tx.Exec(ctx, `INSERT INTO blocks (account, blocked, at) VALUES (?, ?, ?)`, account, other, row.Millis(at))
		return err
	})
}

// Unblock implements store.Community.
func (s *Service) Unblock(ctx context.Context, account, other string) error {
	return s.Write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM blocks WHERE account = ? AND blocked = ?`, account, other)
		return err
	})
}

// Blocks implements store.Community. Each blocked account shows its name
// as it is now, not as it was when blocked.
func (s *Service) Blocks(ctx context.Context, account string) (list []store.Blocked, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT b.blocked, a.name, b.at FROM blocks b JOIN accounts a ON a.id = b.blocked
			WHERE b.account = ? ORDER BY b.at DESC, b.blocked`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b store.Blocked
			var at int64
			if err := rows.Scan(&b.Account, &b.Name, &at); err != nil {
				return err
			}
			b.At = row.Time(at)
			list = append(list, b)
		}
		return rows.Err()
	})
	return list, err
}

// Blocking implements store.Community.
func (s *Service) Blocking(ctx context.Context, a, b string) (blocking bool, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		var n int
		err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM blocks WHERE (account = ? AND blocked = ?) OR (account = ? AND blocked = ?)`,
			a, b, b, a).Scan(&n)
		blocking = n > 0
		return err
	})
	return blocking, err
}

// BlockedEither implements store.Community. Two accounts that block each
// other are one id: UNION drops the repeat. The ids come sorted.
func (s *Service) BlockedEither(ctx context.Context, account string) (ids []string, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT blocked FROM blocks WHERE account = ?
			UNION SELECT account FROM blocks WHERE blocked = ? ORDER BY 1`, account, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

const reportColumns = "id, reporter, account, game_id, message, reason, created, closed, closed_by"

func scanReport(r Row) (store.Report, error) {
	var x store.Report
	var created, closed int64
	err := r.Scan(&x.ID, &x.Reporter, &x.Account, &x.Game, &x.Message, &x.Reason, &created, &closed, &x.ClosedBy)
	if errors.Is(err, ErrNoRows) {
		return x, store.ErrNoReport
	}
	x.Created, x.Closed = row.Time(created), optTime(closed)
	return x, err
}

// AddReport implements store.Community. A report is stored open, whatever
// r.Closed says: only Moderate closes one.
func (s *Service) AddReport(ctx context.Context, r store.Report, max int) error {
	if r.ID == "" || r.Reporter == "" || r.Account == "" {
		return errors.New("store: a report needs an id, a reporter and an account")
	}
	return s.Write(ctx, func(tx Tx) error {
		// As CreateSeek's: two reports by one reporter at once would both
		// count the same open ones (on PostgreSQL) and both pass max.
		if err := s.lock(ctx, tx, "reports:"+r.Reporter); err != nil {
			return err
		}
		for _, id := range []string{r.Reporter, r.Account} {
			if err := liveAccount(ctx, tx, id); err != nil {
				return err
			}
		}
		var open int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM reports WHERE reporter = ? AND closed = 0`, r.Reporter).Scan(&open); err != nil {
			return err
		}
		if open >= max {
			return store.ErrTooManyReports
		}
		_, err := tx.Exec(ctx, `INSERT INTO reports (`+reportColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, 0, '')`,
			r.ID, r.Reporter, r.Account, r.Game, r.Message, r.Reason, row.Millis(r.Created))
		return err
	})
}

// Reports implements store.Community.
func (s *Service) Reports(ctx context.Context, f store.ReportFilter) (list []store.Report, err error) {
	limit := f.Limit
	switch {
	case limit < 0:
		return nil, fmt.Errorf("store: limit %d is negative", limit)
	case limit == 0:
		limit = defaultLimit
	}
	query := `SELECT ` + reportColumns + ` FROM reports WHERE 1 = 1`
	var args []any
	if f.Open {
		query += ` AND closed = 0`
	}
	if f.Account != "" {
		query += ` AND account = ?`
		args = append(args, f.Account)
	}
	query += ` ORDER BY created DESC, id DESC LIMIT ?`
	args = append(args, limit)
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryAll(ctx, tx, scanReport, query, args...)
		return err
	})
	return list, err
}

// Report implements store.Community.
func (s *Service) Report(ctx context.Context, id string) (r store.Report, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		r, err = scanReport(tx.QueryRow(ctx, `SELECT `+reportColumns+` FROM reports WHERE id = ?`, id))
		return err
	})
	return r, err
}

// standingChange is what an action sets of its account's standing ("" for
// nothing) and whether it ends the account's sessions and seeks.
func standingChange(a store.ModAction) (set string, args []any, ends bool, err error) {
	switch a.Action {
	case store.ActionMute:
		if a.Until.IsZero() {
			return "", nil, false, errors.New("store: a mute needs its end")
		}
		return `muted_until = ?, mute_reason = ?`, []any{row.Millis(a.Until), a.Reason}, false, nil
	case store.ActionUnmute:
		return `muted_until = 0, mute_reason = ''`, nil, false, nil
	case store.ActionBan:
		return `banned = 1, ban_reason = ?`, []any{a.Reason}, true, nil
	case store.ActionUnban:
		return `banned = 0, ban_reason = ''`, nil, false, nil
	case store.ActionClose:
		return `closed = 1, close_reason = ?`, []any{a.Reason}, true, nil
	case store.ActionEngine:
		return `engine = 1`, nil, false, nil
	case store.ActionClearEngine:
		return `engine = 0`, nil, false, nil
	case store.ActionGrant:
		return `admin = 1`, nil, false, nil
	case store.ActionRevoke:
		return `admin = 0`, nil, false, nil
	case store.ActionDismiss, store.ActionRemove:
		return "", nil, false, nil
	}
	return "", nil, false, fmt.Errorf("store: no moderator's action %q", a.Action)
}

// Moderate implements store.Community. The account need only exist, not
// be live: a deleted account's open reports are still closed through it.
// Every check is inside the one transaction, so that a refusal writes
// nothing, not even the audit log's row.
func (s *Service) Moderate(ctx context.Context, a store.ModAction) error {
	if a.ID == "" || a.Account == "" || a.At.IsZero() {
		return errors.New("store: a moderator's action needs an id, an account and a time")
	}
	set, args, ends, err := standingChange(a)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE id = ?`, a.Account).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("store: account %s: %w", a.Account, store.ErrNoAccount)
		}
		if a.Report != "" {
			n, err := tx.Exec(ctx, `UPDATE reports SET closed = ?, closed_by = ? WHERE id = ?`, row.Millis(a.At), a.Moderator, a.Report)
			if err != nil {
				return err
			}
			if n != 1 {
				return fmt.Errorf("store: report %s: %w", a.Report, store.ErrNoReport)
			}
		}
		if a.Action == store.ActionRemove {
			n, err := tx.Exec(ctx, `UPDATE chat_messages SET removed = 1 WHERE id = ?`, a.Message)
			if err != nil {
				return err
			}
			if n != 1 {
				return fmt.Errorf("store: chat message %q: %w", a.Message, store.ErrNoMessage)
			}
		}
		if set != "" {
			if _, err := tx.Exec(ctx, `UPDATE accounts SET `+set+` WHERE id = ?`, append(args, a.Account)...); err != nil {
				return err
			}
		}
		if ends {
			if err := endSessionsAndSeeks(ctx, tx, a.Account); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO mod_actions (id, moderator, account, action, reason, until, report, message, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.ID, a.Moderator, a.Account, a.Action, a.Reason,
			optMillis(a.Until), a.Report, a.Message, row.Millis(a.At))
		return err
	})
}

// ModActions implements store.Community. The moderator's name is ""
// for the command line's actions (no account has the id ""), as it is
// for a moderator whose row is gone.
func (s *Service) ModActions(ctx context.Context, account string, limit int) (list []store.ModAction, err error) {
	switch {
	case limit < 0:
		return nil, fmt.Errorf("store: limit %d is negative", limit)
	case limit == 0:
		limit = defaultLimit
	}
	query := `SELECT m.id, m.moderator, m.account, m.action, m.reason, m.until, m.report, m.message, m.at,
		COALESCE(mo.name, ''), a.name
		FROM mod_actions m JOIN accounts a ON a.id = m.account LEFT JOIN accounts mo ON mo.id = m.moderator`
	var args []any
	if account != "" {
		query += ` WHERE m.account = ?`
		args = append(args, account)
	}
	query += ` ORDER BY m.at DESC, m.id DESC LIMIT ?`
	args = append(args, limit)
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m store.ModAction
			var until, at int64
			if err := rows.Scan(&m.ID, &m.Moderator, &m.Account, &m.Action, &m.Reason, &until, &m.Report, &m.Message, &at,
				&m.ModeratorName, &m.AccountName); err != nil {
				return err
			}
			m.Until, m.At = optTime(until), row.Time(at)
			list = append(list, m)
		}
		return rows.Err()
	})
	return list, err
}
