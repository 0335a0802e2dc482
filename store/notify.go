package store

import (
	"context"
	"errors"
	"time"
)

// The errors of the notifications' part of a store.
var (
	// ErrNoEmail: the account has no e-mail address.
	ErrNoEmail = errors.New("no e-mail address")
	// ErrEmailTaken: another account has verified that address.
	ErrEmailTaken = errors.New("that e-mail address is another account's")
	// ErrNoToken: no unused, unexpired token of that purpose has that
	// hash (or, for a verification, the account's address changed since).
	ErrNoToken = errors.New("no such token")
	// ErrTooManyTokens: the account was given as many tokens of that
	// purpose lately as allowed.
	ErrTooManyTokens = errors.New("too many tokens lately")
	// ErrTooManySubscriptions: the account has as many push
	// subscriptions as allowed.
	ErrTooManySubscriptions = errors.New("too many push subscriptions")
	// ErrNoSubscription: no push subscription has that id (of that
	// account).
	ErrNoSubscription = errors.New("no such push subscription")
	// ErrLostClaim: an outbox row is no longer held by the claim that
	// would finish it (its lease ran out and another server took it).
	ErrLostClaim = errors.New("the outbox row is no longer this claim's")
)

// The purposes of a Token.
const (
	TokenVerify = "verify" // verifies Token.Address as its account's
	TokenReset  = "reset"  // sets its account's password
)

// The states of an outbox row.
const (
	OutboxPending = "pending"
	OutboxSent    = "sent"
	OutboxSkipped = "skipped"
	OutboxFailed  = "failed"
)

// Email is an account's e-mail address.
type Email struct {
	Account string
	Address string
	// Verified: its owner followed the link mailed to it. Nothing else
	// is mailed to an address until then.
	Verified bool
	Changed  time.Time
}

// Token is a one-use token, kept by the SHA-256 of its text.
type Token struct {
	Hash    []byte
	Account string
	Purpose string // TokenVerify or TokenReset
	// Address is the address a verification verifies ("" for a reset).
	Address string
	Created time.Time
	Expires time.Time
}

// NotifyPref is an account's choice for one kind of notification on one
// channel.
type NotifyPref struct {
	Kind    string
	Channel string
	On      bool
}

// PushSubscription is one browser's Web Push subscription (RFC 8030):
// its endpoint, and its keys (base64url, as the browser gives them): the
// P-256 public key and the 16-byte authentication secret the messages
// are encrypted to (RFC 8291).
type PushSubscription struct {
	ID       string
	Account  string
	Endpoint string
	P256dh   string
	Auth     string
	Created  time.Time
}

// OutboxItem is one notification to send on one channel.
type OutboxItem struct {
	ID      string
	Account string
	// Kind, Subject and Channel, with Account, are its unique key: the
	// same notification enqueued again (by another server) is one row.
	Kind, Subject, Channel string
	// Game and Ply are the game and its ply it is about ("" and -1 for
	// none): a turn's notification is sent only if the game is still at
	// that ply when it is due.
	Game string
	Ply  int
	// Title, Body and URL are what is shown (the URL is the page a
	// click opens, or the link a mail carries).
	Title, Body, URL string
	// To is where a verification is mailed; "" for the account's
	// verified address.
	To    string
	State string
	// Due is when it is to be sent (next); Attempts how often it was
	// claimed.
	Due      time.Time
	Attempts int
	// Claim is the claim that holds it (ClaimOutbox); Done the push
	// subscriptions sent to already.
	Claim   string
	Done    []string
	Error   string
	Created time.Time
	// Finished is when it was sent, skipped or failed.
	Finished time.Time
}

// OutboxResult is what became of a claimed row: State OutboxPending
// again (with a new Due: a retry), or a final one.
type OutboxResult struct {
	State string
	Due   time.Time
	Done  []string
	Error string
	// Clear empties the row's body and link once it is final (a
	// token's link is no longer kept).
	Clear bool
	At    time.Time
}

// Notifications keeps what the site's notifications need: its shared
// secrets, the accounts' choices, e-mail addresses, tokens and push
// subscriptions, and the outbox.
type Notifications interface {
	// Secret gives the site's secret name: the one stored, or, when
	// none is, candidate, stored then. Every server that asks at once
	// gets the same one.
	Secret(ctx context.Context, name, candidate string) (string, error)

	// NotifyPrefs gives an account's choices that differ from the
	// defaults; SetNotifyPrefs writes some (each replacing the one of
	// its kind and channel).
	NotifyPrefs(ctx context.Context, account string) ([]NotifyPref, error)
	SetNotifyPrefs(ctx context.Context, account string, prefs []NotifyPref) error

	// Email reads an account's address (ErrNoEmail). SetEmail gives
	// e.Account the unverified address e.Address with t, its
	// verification token, unless the account was given max tokens of
	// that purpose since since (ErrTooManyTokens); the account's
	// earlier verification tokens are used up. DeleteEmail removes the
	// address (no error when there is none).
	Email(ctx context.Context, account string) (Email, error)
	SetEmail(ctx context.Context, e Email, t Token, max int, since time.Time) error
	DeleteEmail(ctx context.Context, account string) error
	// VerifyEmail uses the verification token of hash: the account's
	// address, still the one the token was made for, is verified
	// (ErrNoToken otherwise; ErrEmailTaken when another account
	// verified it first, and then nothing changes).
	VerifyEmail(ctx context.Context, hash []byte, now time.Time) (Email, error)
	// AccountByEmail finds the account whose verified address is
	// address, ignoring case (ErrNoAccount).
	AccountByEmail(ctx context.Context, address string) (Account, error)

	// CreateToken stores t unless its account was given max tokens of
	// t.Purpose since since (ErrTooManyTokens). Token reads an unused,
	// unexpired token of purpose (ErrNoToken).
	CreateToken(ctx context.Context, t Token, max int, since time.Time) error
	Token(ctx context.Context, hash []byte, purpose string, now time.Time) (Token, error)
	// ResetPassword uses the reset token of hash, in one transaction:
	// its account's password hash becomes password, every session of
	// the account ends, and every reset token of the account is used
	// up. It gives the account's id; ErrNoToken when the token is not
	// there, used or expired.
	ResetPassword(ctx context.Context, hash []byte, password string, now time.Time) (string, error)

	// AddPushSubscription stores p, or, when its endpoint is stored
	// already, gives the endpoint p's account and keys (keeping its id),
	// unless p's account has max subscriptions already
	// (ErrTooManySubscriptions). It gives the subscription's id.
	AddPushSubscription(ctx context.Context, p PushSubscription, max int) (string, error)
	// PushSubscriptions lists an account's, oldest first.
	PushSubscriptions(ctx context.Context, account string) ([]PushSubscription, error)
	// DeletePushSubscription removes an account's subscription id
	// (ErrNoSubscription); DeletePushEndpoint the subscription of an
	// endpoint, whoever's (no error when there is none).
	DeletePushSubscription(ctx context.Context, account, id string) error
	DeletePushEndpoint(ctx context.Context, endpoint string) error

	// Enqueue stores each item whose key (account, kind, subject,
	// channel) no row has, pending; it gives how many it stored.
	Enqueue(ctx context.Context, items []OutboxItem) (int, error)
	// ClaimOutbox claims at most limit pending rows due at now that no
	// unexpired lease holds, for claim, until now+lease, each by a
	// conditional update (of two servers claiming one row, one gets
	// it); their attempts count one more.
	ClaimOutbox(ctx context.Context, claim string, now time.Time, lease time.Duration, limit int) ([]OutboxItem, error)
	// FinishOutbox writes what became of the row id that claim holds
	// (ErrLostClaim when it no longer holds it), and ends the lease.
	FinishOutbox(ctx context.Context, id, claim string, r OutboxResult) error
	// OutboxOf lists an account's rows, oldest first: for tests and
	// the operator.
	OutboxOf(ctx context.Context, account string) ([]OutboxItem, error)
	// PruneOutbox removes the final rows finished before before.
	PruneOutbox(ctx context.Context, before time.Time) (int, error)
}
