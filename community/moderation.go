package community

import (
	"context"
	"errors"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/store"
)

// The bounds of a reason, a report's or a moderator's, in characters.
const (
	minReason = 3
	maxReason = 500
	// maxMute is the longest mute; a longer one is a ban.
	maxMute = 30 * 24 * time.Hour
)

// ReportRequest is what a signed-in account reports: an account by name,
// and optionally one of its games or chat messages.
type ReportRequest struct {
	Account string // the reported account's name; "" when Message names it
	Game    string
	Message string
	Reason  string
}

// Report stores account's report, and gives its id.
func (s *Service) Report(ctx context.Context, account string, req ReportRequest) (string, error) {
	reporter, err := s.account(ctx, account)
	if err != nil {
		return "", err
	}
	reason, err := cleanReason(req.Reason)
	if err != nil {
		return "", err
	}
	target, err := s.reported(ctx, req)
	if err != nil {
		return "", err
	}
	if target.ID == reporter.ID {
		return "", refuse(Invalid, "you cannot report yourself")
	}
	if req.Game != "" {
		if _, err := s.seats(ctx, req.Game); err != nil {
			return "", err
		}
	}
	now := s.now()
	r := store.Report{ID: s.ids.next(now), Reporter: reporter.ID, Account: target.ID, Game: req.Game, Message: req.Message,
		Reason: reason, Created: now}
	err = s.store.AddReport(ctx, r, s.limits.MaxReports)
	if errors.Is(err, store.ErrTooManyReports) {
		return "", refuse(TooMany, "you have %d open reports, the most allowed; a moderator will read them", s.limits.MaxReports)
	}
	if err != nil {
		return "", err
	}
	s.log.Info("report", "report", r.ID, "reporter", reporter.Name, "account", target.Name)
	return r.ID, nil
}

// reported is the account a report names: by the message's author when
// it names a message (which must then be that account's), else by name.
func (s *Service) reported(ctx context.Context, req ReportRequest) (store.Account, error) {
	if req.Message == "" {
		if req.Account == "" {
			return store.Account{}, refuse(Invalid, "name the account you report")
		}
		return s.accountByName(ctx, req.Account)
	}
	m, err := s.store.ChatMessage(ctx, req.Message)
	if errors.Is(err, store.ErrNoMessage) {
		return store.Account{}, refuse(NotFound, "no message has the id %s", quote(req.Message))
	}
	if err != nil {
		return store.Account{}, err
	}
	if req.Game != "" && req.Game != m.Game {
		return store.Account{}, refuse(Invalid, "that message is not of game %s", quote(req.Game))
	}
	a, err := s.account(ctx, m.Account)
	if err != nil {
		return store.Account{}, err
	}
	if req.Account != "" && !strings.EqualFold(req.Account, a.Name) {
		return store.Account{}, refuse(Invalid, "that message is not %s's", quote(req.Account))
	}
	return a, nil
}

// cleanReason is a reason trimmed, and refused when too short or too
// long.
func cleanReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	n := utf8.RuneCountInString(reason)
	if !utf8.ValidString(reason) || n < minReason || n > maxReason {
		return "", refuse(Invalid, "a reason of %d characters: say why in %d to %d", n, minReason, maxReason)
	}
	return reason, nil
}

// moderator reads the account of a moderator, refusing any other.
func (s *Service) moderator(ctx context.Context, id string) (store.Account, error) {
	a, err := s.account(ctx, id)
	if err != nil {
		return store.Account{}, err
	}
	if !a.Standing.Admin {
		return store.Account{}, refuse(Forbidden, "only moderators may do that")
	}
	return a, nil
}

// IsModerator reports whether account holds the moderator role.
func (s *Service) IsModerator(ctx context.Context, account string) bool {
	_, err := s.moderator(ctx, account)
	return err == nil
}

// OpenReport is a report as the moderators' page shows it.
type OpenReport struct {
	store.Report
	ReporterName, AccountName string
	// Message is the reported message, when the report names one (its
	// text even when it was removed).
	Message *store.ChatMessage
	// Standing is the reported account's.
	Standing store.Standing
}

// Reports gives the open reports, newest first, to a moderator.
func (s *Service) Reports(ctx context.Context, mod string) ([]OpenReport, error) {
	if _, err := s.moderator(ctx, mod); err != nil {
		return nil, err
	}
	list, err := s.store.Reports(ctx, store.ReportFilter{Open: true})
	if err != nil {
		return nil, err
	}
	out := make([]OpenReport, 0, len(list))
	for _, r := range list {
		or := OpenReport{Report: r, ReporterName: s.nameOf(ctx, r.Reporter)}
		if a, err := s.store.Account(ctx, r.Account); err == nil {
			or.AccountName, or.Standing = a.Name, a.Standing
		}
		if r.Message != "" {
			if m, err := s.store.ChatMessage(ctx, r.Message); err == nil {
				or.Message = &m
			}
		}
		out = append(out, or)
	}
	return out, nil
}

func (s *Service) nameOf(ctx context.Context, id string) string {
	if a, err := s.store.Account(ctx, id); err == nil {
		return a.Name
	}
	return ""
}

// Action is what a moderator asks: an action on an account (by name),
// with a reason; a mute lasts Minutes. Report, when not "", is the
// report the action answers, and closes; Message, the message a remove
// takes down.
type Action struct {
	Account string
	Action  string
	Reason  string
	Minutes float64
	Report  string
	Message string
}

// The actions a moderator takes through the site (grant and revoke are
// the command line's).
var siteActions = map[string]bool{
	store.ActionMute: true, store.ActionUnmute: true, store.ActionBan: true, store.ActionUnban: true,
	store.ActionClose: true, store.ActionEngine: true, store.ActionClearEngine: true,
	store.ActionDismiss: true, store.ActionRemove: true,
}

// Done is what an action did, for the transport: whether the account's
// sessions ended (a ban, a close), so that its open sockets close too.
type Done struct {
	Account       string
	SessionsEnded bool
}

// Act applies a moderator's action and writes it to the audit log.
func (s *Service) Act(ctx context.Context, mod string, req Action) (Done, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return Done{}, err
	}
	if !siteActions[req.Action] {
		return Done{}, refuse(Invalid, "action %s: want mute, unmute, ban, unban, close, engine, clear-engine, dismiss or remove", quote(req.Action))
	}
	a, err := s.accountByName(ctx, req.Account)
	if err != nil {
		return Done{}, err
	}
	if a.ID == m.ID && req.Action != store.ActionDismiss {
		return Done{}, refuse(Invalid, "a moderator does not act on their own account")
	}
	reason, err := cleanReason(req.Reason)
	if err != nil {
		return Done{}, err
	}
	now := s.now()
	act := store.ModAction{ID: s.ids.next(now), Moderator: m.ID, Account: a.ID, Action: req.Action, Reason: reason,
		Report: req.Report, Message: req.Message, At: now}
	if req.Action == store.ActionMute {
		if act.Until, err = muteEnd(now, req.Minutes); err != nil {
			return Done{}, err
		}
	}
	if req.Action == store.ActionRemove {
		if err := s.removable(ctx, req.Message, a); err != nil {
			return Done{}, err
		}
	}
	if err := s.reportOf(ctx, req, a); err != nil {
		return Done{}, err
	}
	if err := s.moderate(ctx, act); err != nil {
		return Done{}, err
	}
	s.log.Info("moderation", "moderator", m.Name, "account", a.Name, "action", req.Action, "reason", reason)
	ended := req.Action == store.ActionBan || req.Action == store.ActionClose
	return Done{Account: a.ID, SessionsEnded: ended}, nil
}

// reportOf refuses a report to close that is not of account a, and a
// dismissal of no report.
func (s *Service) reportOf(ctx context.Context, req Action, a store.Account) error {
	if req.Report == "" {
		if req.Action == store.ActionDismiss {
			return refuse(Invalid, "dismiss needs the report's id")
		}
		return nil
	}
	r, err := s.store.Report(ctx, req.Report)
	if errors.Is(err, store.ErrNoReport) {
		return refuse(NotFound, "no report has the id %s", quote(req.Report))
	}
	if err != nil {
		return err
	}
	if r.Account != a.ID {
		return refuse(Invalid, "that report is not of %s", a.Name)
	}
	return nil
}

// removable refuses a message to remove that is not a's.
func (s *Service) removable(ctx context.Context, id string, a store.Account) error {
	if id == "" {
		return refuse(Invalid, "remove needs the message's id")
	}
	m, err := s.store.ChatMessage(ctx, id)
	if errors.Is(err, store.ErrNoMessage) {
		return refuse(NotFound, "no message has the id %s", quote(id))
	}
	if err != nil {
		return err
	}
	if m.Account != a.ID {
		return refuse(Invalid, "that message is not %s's", a.Name)
	}
	return nil
}

// muteEnd is when a mute of minutes from now ends.
func muteEnd(now time.Time, minutes float64) (time.Time, error) {
	if math.IsNaN(minutes) || minutes < 1 || minutes > float64(maxMute/time.Minute) {
		return time.Time{}, refuse(Invalid, "a mute of %v minutes: mute for 1 to %d minutes (longer is a ban)", minutes, int(maxMute/time.Minute))
	}
	return now.Add(time.Duration(minutes * float64(time.Minute))), nil
}

// moderate stores an action, its store's refusals said as the service's.
func (s *Service) moderate(ctx context.Context, act store.ModAction) error {
	err := s.store.Moderate(ctx, act)
	switch {
	case errors.Is(err, store.ErrNoReport):
		return refuse(NotFound, "no report has the id %s", quote(act.Report))
	case errors.Is(err, store.ErrNoMessage):
		return refuse(NotFound, "no message has the id %s", quote(act.Message))
	case errors.Is(err, store.ErrNoAccount):
		return refuse(NotFound, "no such account")
	}
	return err
}

// LogEntry is one line of the audit log.
type LogEntry = store.ModAction

// Log gives a moderator the audit log, newest first: of the account
// named name, or of every account for "".
func (s *Service) Log(ctx context.Context, mod, name string) ([]LogEntry, error) {
	if _, err := s.moderator(ctx, mod); err != nil {
		return nil, err
	}
	id := ""
	if name != "" {
		a, err := s.accountByName(ctx, name)
		if err != nil {
			return nil, err
		}
		id = a.ID
	}
	return s.store.ModActions(ctx, id, 100)
}

// Grant gives (or, with grant false, takes back) the moderator role of
// the account named name: the command line's action, written to the
// audit log with no moderator.
func (s *Service) Grant(ctx context.Context, name string, grant bool) error {
	a, err := s.accountByName(ctx, name)
	if err != nil {
		return err
	}
	action, reason := store.ActionGrant, "granted from the command line"
	if !grant {
		action, reason = store.ActionRevoke, "revoked from the command line"
	}
	now := s.now()
	return s.moderate(ctx, store.ModAction{ID: s.ids.next(now), Account: a.ID, Action: action, Reason: reason, At: now})
}
