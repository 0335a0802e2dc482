package notify

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// TokenLife is how long a mailed link works: a verification's, a
// reset's.
const TokenLife = time.Hour

// SetEmail gives account the address (checked by mailAddress) and mails
// it a verification link; until the link is followed, nothing else is
// mailed to it, and a reset is not mailed at all. The same address again,
// verified already, changes nothing. An account asks for at most
// Limits.VerifiesPerHour verifications an hour.
func (s *Service) SetEmail(ctx context.Context, accountID, address string) error {
	if s.mailer == nil {
		return refuse(Unavailable, "this site sends no e-mail")
	}
	address = strings.TrimSpace(address)
	if _, err := mailAddress(address); err != nil {
		return refuse(Invalid, "address %s: %v", clip.Quote(address), err)
	}
	if e, err := s.store.Email(ctx, accountID); err == nil && e.Verified && e.Address == address {
		return nil
	} else if err != nil && !errors.Is(err, store.ErrNoEmail) {
		return err
	}
	token, hash := account.NewSessionToken() // a link's token has a session token's form
	now := s.now()
	t := store.Token{Hash: hash, Account: accountID, Purpose: store.TokenVerify, Address: address, Created: now, Expires: now.Add(TokenLife)}
	err := s.store.SetEmail(ctx, store.Email{Account: accountID, Address: address, Changed: now}, t, s.limits.VerifiesPerHour, now.Add(-time.Hour))
	if errors.Is(err, store.ErrTooManyTokens) {
		return &Error{Code: TooMany, Message: "too many verification mails this hour; try again later", RetryAfter: time.Hour}
	}
	if err != nil {
		return err
	}
	return s.enqueueLink(ctx, accountID, kindVerify, hash, address, "Verify your e-mail address for arbiter",
		s.site+"/verify-email?token="+token,
		"Someone, you we hope, gave this address to their arbiter account. To have arbiter mail it (your turns, challenges, a forgotten password), open this link within an hour:")
}

// DeleteEmail removes account's address: nothing more is mailed to it.
func (s *Service) DeleteEmail(ctx context.Context, accountID string) error {
	return s.store.DeleteEmail(ctx, accountID)
}

// VerifyEmail follows a verification link: its token (malformed,
// unknown, used or expired: Invalid; the address another account's:
// Conflict). It gives the address verified.
func (s *Service) VerifyEmail(ctx context.Context, token string) (string, error) {
	bad := refuse(Invalid, "this verification link is not valid: it was used, it expired, or the address changed since; set the address again")
	if !account.ValidSessionToken(token) {
		return "", bad
	}
	e, err := s.store.VerifyEmail(ctx, account.HashSessionToken(token), s.now())
	switch {
	case errors.Is(err, store.ErrNoToken):
		return "", bad
	case errors.Is(err, store.ErrEmailTaken):
		return "", refuse(Conflict, "that address is another account's already")
	case err != nil:
		return "", err
	}
	return e.Address, nil
}

// maxWho bounds what a reset request names: a name or an address.
const maxWho = maxAddress

// ForgotPassword asks for the mail of a reset link to the account named
// who (its name, or its verified address). The answer is the same,
// at once, whether or not such an account is there, has a verified
// address, or was mailed too often lately (Limits.ResetsPerHour): the
// work is done after it, so that neither the answer nor its time tells
// which accounts exist. Only a client address's own bound
// (Limits.ResetBurst, ResetEvery) is told, as TooMany.
func (s *Service) ForgotPassword(ctx context.Context, who, addr string) error {
	if s.mailer == nil {
		return refuse(Unavailable, "this site sends no e-mail, so it cannot mail a reset link; ask the operator")
	}
	who = strings.TrimSpace(who)
	if who == "" || len(who) > maxWho {
		return refuse(Invalid, "give your name or your e-mail address (at most %d characters)", maxWho)
	}
	if _, wait, ok := s.resets.Admit(account.AddrKey(addr), 1, s.now()); !ok {
		return &Error{Code: TooMany, Message: "too many reset requests from this address; try again later", RetryAfter: wait}
	}
	s.queue("reset", func(ctx context.Context) {
		if err := s.forgot(ctx, who); err != nil {
			s.log.Warn("a password reset", "err", err)
		}
	})
	return nil
}

// forgot mails a reset link to the account who names, if it has a
// verified address and was not mailed too many lately.
func (s *Service) forgot(ctx context.Context, who string) error {
	a, err := s.store.AccountByName(ctx, who)
	if errors.Is(err, store.ErrNoAccount) && strings.Contains(who, "@") {
		a, err = s.store.AccountByEmail(ctx, who)
	}
	if errors.Is(err, store.ErrNoAccount) || err == nil && (a.Deleted || a.IsLevel() || a.IsBot() || a.Standing.Closed) {
		return nil
	}
	if err != nil {
		return err
	}
	e, err := s.store.Email(ctx, a.ID)
	if errors.Is(err, store.ErrNoEmail) || err == nil && !e.Verified {
		return nil
	}
	if err != nil {
		return err
	}
	token, hash := account.NewSessionToken()
	now := s.now()
	err = s.store.CreateToken(ctx, store.Token{Hash: hash, Account: a.ID, Purpose: store.TokenReset, Created: now, Expires: now.Add(TokenLife)},
		s.limits.ResetsPerHour, now.Add(-time.Hour))
	if errors.Is(err, store.ErrTooManyTokens) {
		s.log.Info("a reset not mailed: too many this hour", "account", a.ID)
		return nil
	}
	if err != nil {
		return err
	}
	return s.enqueueLink(ctx, a.ID, kindReset, hash, "", "Reset your arbiter password",
		s.site+"/reset-password?token="+token,
		"Someone, you we hope, asked to reset the password of the arbiter account "+a.Name+". To choose a new one, open this link within an hour (it works once; every session of the account then ends):")
}

// enqueueLink puts the mail of a link in the outbox, due at once: to
// is where it goes ("" for the account's verified address).
func (s *Service) enqueueLink(ctx context.Context, accountID, kind string, hash []byte, to, subject, link, intro string) error {
	now := s.now()
	body := intro + "\n\n" + link + "\n\nIf you did not ask for this, ignore this mail: nothing changes."
	_, err := s.store.Enqueue(ctx, []store.OutboxItem{{ID: newID(), Account: accountID, Kind: kind, Subject: hex.EncodeToString(hash[:12]),
		Channel: ChannelEmail, Ply: -1, Title: subject, Body: body, URL: link, To: to, Due: now, Created: now}})
	if err == nil {
		s.Nudge()
	}
	return err
}
