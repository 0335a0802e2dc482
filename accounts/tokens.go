package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// Personal API tokens let a program act for an account (the bot API
// above all) without its password or its browser's cookie: the account
// makes one (its secret shown once, only its SHA-256 kept, as a
// session's), lists them and revokes them. A token lives until revoked,
// the account deleted, or a moderator closes the account.
const (
	MaxTokens            = 20
	maxTokenDescription  = 60
	defaultTokenDescribe = "API token"
)

// Token is one API token of an account, as its owner lists it: never its
// secret.
type Token struct {
	ID          string
	Description string
	Created     time.Time
}

// NewToken makes an API token of a's, described by description (at most
// 60 printable characters; "" names it "API token"), and answers its
// secret, which is never shown again.
func (s *Service) NewToken(ctx context.Context, a Account, description string) (string, Token, error) {
	description, err := tokenDescription(description)
	if err != nil {
		return "", Token{}, err
	}
	secret, hash := account.NewAPIToken()
	t := store.APIToken{ID: newTokenID(), Hash: hash, Account: a.ID, Description: description, Created: s.now()}
	err = s.store.CreateAPIToken(ctx, t, MaxTokens)
	if errors.Is(err, store.ErrTooManyAPITokens) {
		return "", Token{}, refuse(TooMany, "your account has %d API tokens already; revoke one first", MaxTokens)
	}
	if err != nil {
		return "", Token{}, err
	}
	s.log.Info("API token made", "account", a.ID, "token", t.ID)
	return secret, Token{ID: t.ID, Description: t.Description, Created: t.Created}, nil
}

// tokenDescription is a token's description as given, trimmed, or why it
// is refused.
func tokenDescription(d string) (string, error) {
	d = strings.TrimSpace(d)
	switch {
	case d == "":
		return defaultTokenDescribe, nil
	case !utf8.ValidString(d) || utf8.RuneCountInString(d) > maxTokenDescription || strings.ContainsFunc(d, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return "", refuse(Invalid, "token description %s: want at most %d printable characters", clip.Quote(d), maxTokenDescription)
	}
	return d, nil
}

// newTokenID is a token's id: 16 random lowercase letters and digits,
// which name it in lists and revocations and are no secret.
func newTokenID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// Tokens lists a's API tokens, oldest first.
func (s *Service) Tokens(ctx context.Context, a Account) ([]Token, error) {
	list, err := s.store.APITokens(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	out := make([]Token, 0, len(list))
	for _, t := range list {
		out = append(out, Token{ID: t.ID, Description: t.Description, Created: t.Created})
	}
	return out, nil
}

// RevokeToken revokes a's API token id: it works no more, at once on
// every server sharing the store.
func (s *Service) RevokeToken(ctx context.Context, a Account, id string) error {
	err := s.store.DeleteAPIToken(ctx, a.ID, id)
	if errors.Is(err, store.ErrNoAPIToken) {
		return refuse(NotFound, "you have no API token %s", clip.Quote(id))
	}
	if err == nil {
		s.log.Info("API token revoked", "account", a.ID, "token", id)
	}
	return err
}

// TokenAccount is the account of an API token; false when the token is
// malformed, unknown, revoked, or its account deleted or closed. A
// failure of the store is logged and counts as no token.
func (s *Service) TokenAccount(ctx context.Context, token string) (Account, bool) {
	if !account.ValidAPIToken(token) {
		return Account{}, false
	}
	a, err := s.store.APITokenAccount(ctx, account.HashSessionToken(token))
	if err != nil {
		if !errors.Is(err, store.ErrNoAPIToken) {
			s.log.Warn("reading an API token", "err", err)
		}
		return Account{}, false
	}
	if a.Standing.Closed {
		return Account{}, false
	}
	return fromStore(a), true
}

// BecomeBot turns a's account into a bot for good: only a person's, and
// only while it holds no seat in any game (a rating earned by a person
// is not an engine's). Its sessions end and its seeks are withdrawn: a
// bot plays through the bot API with its tokens, never from the pages.
func (s *Service) BecomeBot(ctx context.Context, a Account) (Account, error) {
	if a.IsBot() {
		return a, refuse(Conflict, "%s is a bot already", a.Name)
	}
	err := s.store.MakeBot(ctx, a.ID)
	switch {
	case errors.Is(err, store.ErrPlayed):
		return a, refuse(Conflict, "%s has played games: only an account that has played none turns into a bot (make a new account for the engine)", a.Name)
	case errors.Is(err, store.ErrNotPerson):
		return a, refuse(Conflict, "only a person's account turns into a bot")
	case err != nil:
		return a, err
	}
	s.log.Info("account turned into a bot", "account", a.ID)
	a.Kind = store.Bot
	return a, nil
}
