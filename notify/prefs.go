package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// Prefs are a player's choices: by kind, by channel, on or off.
type Prefs map[string]map[string]bool

// Settings are what a player's account page shows of notifications.
type Settings struct {
	// Prefs has every kind and channel, the defaults filled in.
	Prefs Prefs
	// Email is the account's address ("" for none), and whether it is
	// verified.
	Email    string
	Verified bool
	// Mail says whether the site sends e-mail at all.
	Mail bool
	// VAPIDKey is the site's Web Push public key (base64url), the
	// applicationServerKey a browser subscribes with.
	VAPIDKey      string
	Subscriptions []Subscription
}

// Subscription is one of an account's push subscriptions, as its owner
// sees it: the push service's host tells the browsers apart.
type Subscription struct {
	ID      string
	Host    string
	Created time.Time
}

// prefs are account's choices, the defaults filled in.
func (s *Service) prefs(ctx context.Context, account string) (Prefs, error) {
	stored, err := s.store.NotifyPrefs(ctx, account)
	if err != nil {
		return nil, err
	}
	p := Prefs{}
	for _, k := range Kinds {
		p[k] = map[string]bool{}
		for _, c := range Channels {
			p[k][c] = Default(k, c)
		}
	}
	for _, x := range stored {
		if m, ok := p[x.Kind]; ok && slices.Contains(Channels, x.Channel) {
			m[x.Channel] = x.On
		}
	}
	return p, nil
}

// wants reports whether account's choices send kind by channel. The
// mails of an address's verification and a password's reset are sent
// whatever the choices.
func (s *Service) wants(ctx context.Context, account, kind, channel string) (bool, error) {
	if kind == kindVerify || kind == kindReset {
		return true, nil
	}
	p, err := s.prefs(ctx, account)
	if err != nil {
		return false, err
	}
	return p[kind][channel], nil
}

// Settings are account's notification settings.
func (s *Service) Settings(ctx context.Context, account string) (Settings, error) {
	p, err := s.prefs(ctx, account)
	if err != nil {
		return Settings{}, err
	}
	out := Settings{Prefs: p, Mail: s.Mail(), VAPIDKey: s.vapid.public, Subscriptions: []Subscription{}}
	e, err := s.store.Email(ctx, account)
	switch {
	case err == nil:
		out.Email, out.Verified = e.Address, e.Verified
	case !errors.Is(err, store.ErrNoEmail):
		return Settings{}, err
	}
	subs, err := s.store.PushSubscriptions(ctx, account)
	if err != nil {
		return Settings{}, err
	}
	for _, sub := range subs {
		host := ""
		if u, err := url.Parse(sub.Endpoint); err == nil {
			host = u.Hostname()
		}
		out.Subscriptions = append(out.Subscriptions, Subscription{ID: sub.ID, Host: host, Created: sub.Created})
	}
	return out, nil
}

// SetPrefs writes some of account's choices: each kind and channel named
// must be one of Kinds and Channels.
func (s *Service) SetPrefs(ctx context.Context, account string, p Prefs) error {
	var out []store.NotifyPref
	for kind, channels := range p {
		if !slices.Contains(Kinds, kind) {
			return refuse(Invalid, "no kind of notification %s; want one of %s", clip.Quote(kind), strings.Join(Kinds, ", "))
		}
		for channel, on := range channels {
			if !slices.Contains(Channels, channel) {
				return refuse(Invalid, "no channel %s; want one of %s", clip.Quote(channel), strings.Join(Channels, ", "))
			}
			out = append(out, store.NotifyPref{Kind: kind, Channel: channel, On: on})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return s.store.SetNotifyPrefs(ctx, account, out)
}

// unsubscribeToken is the token of a mail's unsubscribe link: the
// account, the kind, and an HMAC of both with the site's key, so that
// the link works without signing in and cannot be made for another
// account or kind.
func (s *Service) unsubscribeToken(account, kind string) string {
	return account + "." + kind + "." + base64.RawURLEncoding.EncodeToString(s.unsubscribeMAC(account, kind))
}

func (s *Service) unsubscribeMAC(account, kind string) []byte {
	m := hmac.New(sha256.New, s.unsub)
	m.Write([]byte("unsubscribe\x00" + account + "\x00" + kind))
	return m.Sum(nil)[:16]
}

// unsubscribeURL is the link of a mail of kind to account.
func (s *Service) unsubscribeURL(account, kind string) string {
	return s.site + "/unsubscribe?token=" + s.unsubscribeToken(account, kind)
}

// maxToken bounds a token's text: an account id, a kind and the MAC.
const maxToken = 200

// Unsubscribed is what an unsubscribe link did.
type Unsubscribed struct {
	// Kind is the kind whose mails stop; "" when the link dropped an
	// address not yet verified (a verification's), "all" when it
	// stopped every kind (a reset's).
	Kind string
}

// Unsubscribe follows a mail's unsubscribe link (RFC 8058's one-click
// POST, or a person on its page): a notification's stops that kind's
// mails to the account; a verification's removes the unverified address
// (its owner did not ask for it); a reset's stops every notification's
// mails (resets are only mailed when asked for). A token malformed or
// forged is refused (Invalid); using one twice changes nothing more.
func (s *Service) Unsubscribe(ctx context.Context, token string) (Unsubscribed, error) {
	bad := refuse(Invalid, "this unsubscribe link is not valid; use the one in the mail, or the account page")
	if len(token) > maxToken {
		return Unsubscribed{}, bad
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[0] == "" {
		return Unsubscribed{}, bad
	}
	account, kind := parts[0], parts[1]
	mac, err := base64.RawURLEncoding.Strict().DecodeString(parts[2])
	if err != nil || !hmac.Equal(mac, s.unsubscribeMAC(account, kind)) {
		return Unsubscribed{}, bad
	}
	switch {
	case kind == kindVerify:
		e, err := s.store.Email(ctx, account)
		if err == nil && !e.Verified {
			err = s.store.DeleteEmail(ctx, account)
		}
		if err != nil && !errors.Is(err, store.ErrNoEmail) {
			return Unsubscribed{}, err
		}
		return Unsubscribed{}, nil
	case kind == kindReset:
		var all []store.NotifyPref
		for _, k := range Kinds {
			all = append(all, store.NotifyPref{Kind: k, Channel: ChannelEmail})
		}
		return Unsubscribed{Kind: "all"}, s.mailsOff(ctx, account, all)
	case slices.Contains(Kinds, kind):
		return Unsubscribed{Kind: kind}, s.mailsOff(ctx, account, []store.NotifyPref{{Kind: kind, Channel: ChannelEmail}})
	}
	return Unsubscribed{}, bad
}

// mailsOff writes choices that turn mails off; a deleted account has none
// to turn off.
func (s *Service) mailsOff(ctx context.Context, account string, prefs []store.NotifyPref) error {
	if err := s.store.SetNotifyPrefs(ctx, account, prefs); err != nil && !errors.Is(err, store.ErrNoAccount) {
		return err
	}
	return nil
}
