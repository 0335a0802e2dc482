package store

import (
	"context"
	"errors"
	"time"
)

// The errors of the bots' part of a store.
var (
	// ErrNoAPIToken: no live API token has that hash (or that id, for that
	// account).
	ErrNoAPIToken = errors.New("no such API token")
	// ErrTooManyAPITokens: the account has as many API tokens as allowed.
	ErrTooManyAPITokens = errors.New("too many API tokens")
	// ErrPlayed: the account holds a seat in a game, so it can no longer
	// turn into a bot.
	ErrPlayed = errors.New("the account has played")
	// ErrNotPerson: only a person's account turns into a bot (not an AI
	// level's, a bot's, or a deleted one).
	ErrNotPerson = errors.New("not a person's account")
)

// APIToken is a personal API token of an account: the SHA-256 of its
// secret (the secret itself is shown once, never stored), an id that
// names it in lists and revocations, and the description its owner gave.
type APIToken struct {
	ID          string
	Hash        []byte
	Account     string
	Description string
	Created     time.Time
}

// Bots keeps the API tokens, the accounts that turn into bots, and the
// challenges a bot declines.
type Bots interface {
	// CreateAPIToken stores a token unless its account has max already
	// (ErrTooManyAPITokens), counted in the insert's transaction.
	CreateAPIToken(ctx context.Context, t APIToken, max int) error
	// Tokens lists an account's tokens, oldest first, without their
	// hashes.
	APITokens(ctx context.Context, account string) ([]APIToken, error)
	// APITokenAccount finds the account of the token whose hash is hash
	// (ErrNoAPIToken for none, or for a deleted account's).
	APITokenAccount(ctx context.Context, hash []byte) (Account, error)
	// DeleteAPIToken revokes one of account's tokens (ErrNoAPIToken).
	DeleteAPIToken(ctx context.Context, account, id string) error
	// MakeBot turns the person's account id into a bot, for good, in one
	// transaction that checks it holds no seat in any game (ErrPlayed),
	// ends its sessions and withdraws its seeks: a bot signs in nowhere
	// and seeks nothing. ErrNotPerson for an AI level, a bot or a deleted
	// account; ErrNoAccount for none.
	MakeBot(ctx context.Context, id string) error
	// DeclineSeek removes the challenge id to the account target
	// (ErrNoSeek when no challenge of that id to it is open at now).
	DeclineSeek(ctx context.Context, id, target string, now time.Time) error
}
