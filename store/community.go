package store

import (
	"context"
	"errors"
	"time"
)

// The errors of the community's part of a store: chat, blocks, reports
// and moderation.
var (
	// ErrNoReport: no report has that id.
	ErrNoReport = errors.New("no such report")
	// ErrNoMessage: no chat message has that id.
	ErrNoMessage = errors.New("no such message")
	// ErrTooManyReports: the reporter has as many open reports as
	// allowed.
	ErrTooManyReports = errors.New("too many open reports")
	// ErrTooManyBlocks: the account blocks as many accounts as allowed.
	ErrTooManyBlocks = errors.New("too many blocked accounts")
)

// The rooms of a game's chat: its players talk in one, everyone else in
// the other, as on lichess.
const (
	RoomPlayers    = "players"
	RoomSpectators = "spectators"
)

// Standing is what moderators decided of an account, and its role. The
// zero Standing is an ordinary account in good standing.
type Standing struct {
	// Admin is the moderator role; it is given from the command line,
	// never through the site.
	Admin bool
	// MutedUntil, while after now, keeps the account out of every chat;
	// MuteReason is what the account is told.
	MutedUntil time.Time
	MuteReason string
	// Banned accounts cannot play, seek or chat; their sessions ended
	// when they were banned. BanReason is what the account is told.
	Banned    bool
	BanReason string
	// Closed accounts cannot log in (the moderator closed them); their
	// games stay, under their name.
	Closed      bool
	CloseReason string
	// Engine marks an account found to play with an engine's help: its
	// rated games no longer count in ratings or leaderboards.
	Engine bool
}

// Muted reports whether the standing keeps its account out of the chat at
// now.
func (s Standing) Muted(now time.Time) bool { return s.MutedUntil.After(now) }

// ChatMessage is one line of a game's chat.
type ChatMessage struct {
	// ID is made by the caller, and sorts as the messages were written
	// (a time prefix). Of one width and one case of ASCII letters and
	// digits, it sorts so under any database collation, not only C.
	ID      string
	Game    string
	Room    string // RoomPlayers or RoomSpectators
	Account string
	Name    string // the account's name when it wrote
	Text    string
	At      time.Time
	// Removed is set when a moderator took the message down: it stays
	// for the reports that name it, and is no longer shown.
	Removed bool
}

// Blocked is an account another one blocked.
type Blocked struct {
	Account string
	Name    string
	At      time.Time
}

// Report is what a signed-in account says of another: of the account
// itself, of one of its games, or of one of its chat messages.
type Report struct {
	ID       string
	Reporter string
	// Account is the reported account; Game and Message, when not "",
	// what of it is reported.
	Account string
	Game    string
	Message string
	Reason  string
	Created time.Time
	// Closed is when a moderator closed it (zero while it is open), and
	// ClosedBy who.
	Closed   time.Time
	ClosedBy string
}

// ReportFilter selects reports, newest first.
type ReportFilter struct {
	Open    bool   // only the open ones
	Account string // only those of this reported account; "" for all
	Limit   int    // 0: 100; negative is an error
}

// The actions a moderator takes.
const (
	ActionMute        = "mute"
	ActionUnmute      = "unmute"
	ActionBan         = "ban"
	ActionUnban       = "unban"
	ActionClose       = "close"
	ActionEngine      = "engine"
	ActionClearEngine = "clear-engine"
	ActionDismiss     = "dismiss" // closes a report and changes nothing else
	ActionRemove      = "remove"  // takes a chat message down
	ActionGrant       = "grant"   // the moderator role, from the command line
	ActionRevoke      = "revoke"
)

// ModAction is one moderator's action, as the audit log keeps it.
type ModAction struct {
	ID        string
	Moderator string // the moderator's account id; "" from the command line
	// Account is the account acted on.
	Account string
	Action  string
	Reason  string
	// Until is the end of a mute.
	Until time.Time
	// Report, when not "", is the report the action closes; Message,
	// the chat message it removes.
	Report  string
	Message string
	At      time.Time
	// ModeratorName and AccountName are filled in by ModActions.
	ModeratorName, AccountName string
}

// Community keeps what accounts say to and of each other, and what
// moderators decide.
type Community interface {
	// AddChat stores a chat message, of a game and an account that
	// exist, in RoomPlayers or RoomSpectators.
	AddChat(ctx context.Context, m ChatMessage) error
	// Chat gives the newest limit messages of a game's room that are not
	// removed, oldest first, by id; limit 0 or less gives 100.
	Chat(ctx context.Context, game, room string, limit int) ([]ChatMessage, error)
	// ChatAfter gives the messages of every game whose id sorts after
	// after that are not removed, oldest first, at most limit (0: 100):
	// how a process follows the messages other processes write.
	ChatAfter(ctx context.Context, after string, limit int) ([]ChatMessage, error)
	// ChatMessage reads one message, removed or not (ErrNoMessage).
	ChatMessage(ctx context.Context, id string) (ChatMessage, error)

	// Block makes account block other, unless it blocks max already
	// (ErrTooManyBlocks); blocking again changes nothing, not even the
	// block's time. ErrNoAccount when either account is not there or is
	// deleted; an account blocking itself is an error too. Unblock undoes
	// it (no error if there was nothing to undo).
	Block(ctx context.Context, account, other string, max int, at time.Time) error
	Unblock(ctx context.Context, account, other string) error
	// Blocks lists the accounts account blocks, newest first, each with
	// its name as it is now.
	Blocks(ctx context.Context, account string) ([]Blocked, error)
	// Blocking reports whether a blocks b or b blocks a.
	Blocking(ctx context.Context, a, b string) (bool, error)
	// BlockedEither gives the ids of the accounts that account blocks or
	// that block it, each once, sorted.
	BlockedEither(ctx context.Context, account string) ([]string, error)

	// AddReport stores a report, open whatever r.Closed says, unless its
	// reporter has max open reports already (ErrTooManyReports).
	// ErrNoAccount when the reporter or the reported account is not
	// there or is deleted.
	AddReport(ctx context.Context, r Report, max int) error
	// Reports lists the reports f keeps, newest first; Report reads one
	// (ErrNoReport).
	Reports(ctx context.Context, f ReportFilter) ([]Report, error)
	Report(ctx context.Context, id string) (Report, error)

	// Moderate applies a moderator's action to its account and writes it
	// to the audit log, in one transaction: a mute sets the standing's
	// MutedUntil to a.Until; a ban or a close also ends the account's
	// sessions and withdraws its seeks; remove marks a.Message removed;
	// grant and revoke give and take the moderator role; dismiss
	// changes no standing; every action closes a.Report, when given, in
	// the moderator's name (a report closed already is closed again).
	// ErrNoAccount for no such account (a deleted one is still there:
	// its reports can be closed), ErrNoReport and ErrNoMessage for a
	// report or message that is not there; an unknown action, or a mute
	// without its Until, is an error. A refused action writes nothing.
	Moderate(ctx context.Context, a ModAction) error
	// ModActions gives the audit log, newest first (by At, then ID):
	// every action on account ("" for every account), at most limit (0:
	// 100; negative is an error).
	ModActions(ctx context.Context, account string, limit int) ([]ModAction, error)
}

// BlockedSet is the set of accounts blocked either way with account, as
// c's BlockedEither gives them; nil for account "" (nobody signed in
// hides nothing). The chat and the lobby both hide them.
func BlockedSet(ctx context.Context, c Community, account string) (map[string]bool, error) {
	if account == "" {
		return nil, nil
	}
	ids, err := c.BlockedEither(ctx, account)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set, nil
}
