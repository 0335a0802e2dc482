package notify

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// run sends the due rows every Poll and whenever nudged, and prunes the
// old ones once an hour (by the clock's time), until ctx ends.
func (s *Service) run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Poll)
	defer t.Stop()
	var pruned time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.poke:
		}
		if _, err := s.SendDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sending notifications", "err", err)
		}
		if now := s.now(); now.Sub(pruned) >= time.Hour {
			pruned = now
			if _, err := s.store.PruneOutbox(ctx, now.Add(-keep)); err != nil && ctx.Err() == nil {
				s.log.Warn("pruning the outbox", "err", err)
			}
		}
	}
}

// SendDue claims the rows due now (that no other server holds), sends
// each, and marks it; it gives how many it claimed. The service's own
// goroutine calls it; a test may too, to send at a time of its choosing.
func (s *Service) SendDue(ctx context.Context) (int, error) {
	claim := newID()
	n := 0
	for {
		rows, err := s.store.ClaimOutbox(ctx, claim, s.now(), lease, claimBatch)
		if err != nil {
			return n, err
		}
		n += len(rows)
		for _, o := range rows {
			r := s.deliver(ctx, o)
			// The mark is written even when ctx ended meanwhile: a sent
			// row left unmarked would be sent again after its lease.
			if err := s.store.FinishOutbox(context.WithoutCancel(ctx), o.ID, claim, r); err != nil {
				if errors.Is(err, store.ErrLostClaim) {
					s.log.Warn("an outbox row's lease ran out while it was sent", "row", o.ID)
					continue
				}
				return n, err
			}
		}
		if len(rows) < claimBatch {
			return n, nil
		}
	}
}

// deliver sends row o by its channel, if it is still wanted, and says
// what became of it.
func (s *Service) deliver(ctx context.Context, o store.OutboxItem) store.OutboxResult {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	final := o.Kind == kindVerify || o.Kind == kindReset // a link's row forgets its link once final
	wanted, err := s.stillWanted(ctx, o)
	if err != nil {
		return s.retry(o, o.Done, err)
	}
	if !wanted {
		return store.OutboxResult{State: store.OutboxSkipped, Done: o.Done, At: s.now(), Clear: final}
	}
	var done []string
	var again bool
	switch o.Channel {
	case ChannelPush:
		done, again, err = s.sendPush(ctx, o)
	case ChannelEmail:
		done = o.Done
		again, err = s.sendMail(ctx, o)
	default:
		return store.OutboxResult{State: store.OutboxFailed, Error: "no channel " + o.Channel, At: s.now()}
	}
	if again {
		return s.retry(o, done, err)
	}
	if err != nil {
		s.log.Warn("a notification refused", "row", o.ID, "kind", o.Kind, "channel", o.Channel, "err", err)
		return store.OutboxResult{State: store.OutboxFailed, Done: done, Error: errText(err), At: s.now(), Clear: final}
	}
	return store.OutboxResult{State: store.OutboxSent, Done: done, At: s.now(), Clear: final}
}

// retry is the result of a send that may pass later: the row is due
// again after the backoff, doubled at each attempt, or failed after
// Attempts.
func (s *Service) retry(o store.OutboxItem, done []string, err error) store.OutboxResult {
	now := s.now()
	if o.Attempts >= s.cfg.Attempts {
		s.log.Warn("a notification given up", "row", o.ID, "kind", o.Kind, "channel", o.Channel, "attempts", o.Attempts, "err", err)
		return store.OutboxResult{State: store.OutboxFailed, Done: done, Error: errText(err), At: now,
			Clear: o.Kind == kindVerify || o.Kind == kindReset}
	}
	wait := s.cfg.Backoff << min(o.Attempts-1, 16)
	return store.OutboxResult{State: store.OutboxPending, Due: now.Add(wait), Done: done, Error: errText(err)}
}

// errText is an error as a row keeps it, cut to a line.
func errText(err error) string {
	if err == nil {
		return ""
	}
	text := err.Error()
	if len(text) > 300 {
		text = text[:300]
	}
	return text
}

// sendMail mails row o: a verification to the address it verifies,
// while it is still the account's and unverified; anything else to the
// account's verified address. again says whether to try later.
func (s *Service) sendMail(ctx context.Context, o store.OutboxItem) (again bool, err error) {
	if s.mailer == nil {
		return false, errors.New("this server sends no e-mail")
	}
	e, err := s.store.Email(ctx, o.Account)
	switch {
	case errors.Is(err, store.ErrNoEmail):
		return false, errors.New("the account has no address any more")
	case err != nil:
		return true, err
	case o.Kind == kindVerify && (e.Address != o.To || e.Verified):
		return false, nil // changed or verified since: nothing to verify
	case o.Kind != kindVerify && !e.Verified:
		return false, errors.New("the account's address is not verified")
	}
	unsub := s.unsubscribeURL(o.Account, o.Kind)
	text := o.Body
	if o.URL != "" && o.Kind != kindVerify && o.Kind != kindReset {
		text += "\n\n" + s.site + o.URL
	}
	text += "\n\n-- \narbiter\n" + unsubscribeLine(o.Kind) + "\n" + unsub + "\n"
	err = s.mailer.Send(ctx, Mail{To: e.Address, Subject: o.Title, Text: text, Unsubscribe: unsub, Date: s.now()})
	return err != nil, err
}

// unsubscribeLine says what a mail's unsubscribe link does.
func unsubscribeLine(kind string) string {
	switch kind {
	case kindVerify:
		return "Not your account? This link removes your address from it:"
	case kindReset:
		return "To stop every notification mail of this account:"
	}
	return "To stop these mails (" + kindWords[kind] + "):"
}

// kindWords name the kinds in a mail.
var kindWords = map[string]string{KindTurn: "your turn", KindChallenge: "challenges", KindAccepted: "seeks taken",
	KindEnded: "games ended", KindTournament: "tournaments"}
