package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// Passkeys log an account in without its password (WebAuthn, with the
// go-webauthn library): a signed-in person adds one from the account
// page; the login page then offers "sign in with a passkey", which asks
// the browser for any passkey of this site (a discoverable credential)
// and finds the account by the credential's user handle, the account's
// id. The challenge of a ceremony is kept in the store until it finishes
// (5 minutes at most), so that a ceremony begun on one server may finish
// on another.
const (
	MaxPasskeys    = 10
	CeremonyLife   = 5 * time.Minute
	maxPasskeyName = 40
)

// Site is the site a ceremony runs on, as the transport read it: the
// host the request was sent to (its name is the relying party's ID), and
// the extra hosts pages may come from (host patterns; those with a
// wildcard cannot be a passkey's origin).
type Site struct {
	Host    string
	Origins []string
}

// relyingParty is the WebAuthn party of site: its host's name is the RP
// ID, and its origin the one the browser's answer must carry (http or
// https: a TLS proxy in front serves https), or one of the extra hosts
// over https.
func relyingParty(site Site) (*webauthn.WebAuthn, error) {
	name := site.Host
	if h, _, err := net.SplitHostPort(site.Host); err == nil {
		name = h
	}
	if net.ParseIP(strings.Trim(name, "[]")) != nil {
		// WebAuthn binds a passkey to a domain; browsers refuse an IP.
		return nil, refuse(Invalid, "passkeys need the site's domain name, not an IP address: open it as http://localhost:PORT or by its domain")
	}
	origins := []string{"https://" + site.Host, "http://" + site.Host}
	for _, o := range site.Origins {
		if !strings.ContainsAny(o, "*?[") {
			origins = append(origins, "https://"+o)
		}
	}
	return webauthn.New(&webauthn.Config{RPID: name, RPDisplayName: "arbiter", RPOrigins: origins})
}

// passkeyUser is an account as the WebAuthn library sees it.
type passkeyUser struct {
	a     Account
	creds []webauthn.Credential
}

func (u passkeyUser) WebAuthnID() []byte                         { return []byte(u.a.ID) }
func (u passkeyUser) WebAuthnName() string                       { return u.a.Name }
func (u passkeyUser) WebAuthnDisplayName() string                { return u.a.Name }
func (u passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// passkeyUserOf reads an account's passkeys for the library.
func (s *Service) passkeyUserOf(ctx context.Context, a Account) (passkeyUser, error) {
	keys, err := s.store.Passkeys(ctx, a.ID)
	if err != nil {
		return passkeyUser{}, err
	}
	u := passkeyUser{a: a}
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal(k.Credential, &c); err != nil {
			return passkeyUser{}, err
		}
		u.creds = append(u.creds, c)
	}
	return u, nil
}

// newCeremonyID is a fresh ceremony id: 128 random bits.
func newCeremonyID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Ceremony is a ceremony begun: its id, which the browser's answer comes
// back with, and the options for the browser (JSON as the WebAuthn API
// takes it).
type Ceremony struct {
	ID      string
	Options any
}

// keepCeremony stores a ceremony's session data.
func (s *Service) keepCeremony(ctx context.Context, owner string, session *webauthn.SessionData) (string, error) {
	data, err := json.Marshal(session)
	if err != nil {
		return "", err
	}
	id := newCeremonyID()
	return id, s.store.PutCeremony(ctx, id, owner, data, s.now().Add(CeremonyLife))
}

// takeCeremony takes the ceremony id, once: the account that began it
// ("" for a login) and its session data.
func (s *Service) takeCeremony(ctx context.Context, id string) (string, webauthn.SessionData, error) {
	var session webauthn.SessionData
	owner, data, err := s.store.TakeCeremony(ctx, id, s.now())
	if errors.Is(err, store.ErrNoCeremony) {
		return "", session, refuse(NotFound, "no passkey ceremony %s: begin again (a ceremony lasts %s and serves once)",
			clip.Quote(id), CeremonyLife)
	}
	if err == nil {
		err = json.Unmarshal(data, &session)
	}
	return owner, session, err
}

func tooManyPasskeys() *Error {
	return refuse(Invalid, "you have %d passkeys; remove one first", MaxPasskeys)
}

// BeginPasskey begins the ceremony that adds a passkey to a.
func (s *Service) BeginPasskey(ctx context.Context, site Site, a Account) (Ceremony, error) {
	u, err := s.passkeyUserOf(ctx, a)
	if err != nil {
		return Ceremony{}, err
	}
	if len(u.creds) >= MaxPasskeys {
		return Ceremony{}, tooManyPasskeys()
	}
	rp, err := relyingParty(site)
	if err != nil {
		return Ceremony{}, err
	}
	creation, session, err := rp.BeginRegistration(u,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	if err != nil {
		return Ceremony{}, err
	}
	id, err := s.keepCeremony(ctx, a.ID, session)
	return Ceremony{ID: id, Options: creation}, err
}

// PasskeyName is the name a person gives a new passkey, checked
// ("passkey" for none).
func PasskeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "passkey", nil
	case !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxPasskeyName || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return "", refuse(Invalid, "passkey name %s: want at most %d printable characters", clip.Quote(name), maxPasskeyName)
	}
	return name, nil
}

// Passkey is one passkey of an account, as its owner lists it.
type Passkey struct {
	ID, Name      string
	Created, Used time.Time
}

// FinishPasskey checks the browser's answer (body) to the ceremony id
// that a began, and keeps the new passkey under name.
func (s *Service) FinishPasskey(ctx context.Context, site Site, a Account, id, name string, body io.Reader) (Passkey, error) {
	name, err := PasskeyName(name)
	if err != nil {
		return Passkey{}, err
	}
	owner, session, err := s.takeCeremony(ctx, id)
	if err != nil {
		return Passkey{}, err
	}
	if owner != a.ID {
		return Passkey{}, refuse(Forbidden, "that ceremony is another account's")
	}
	u, err := s.passkeyUserOf(ctx, a)
	rp, rerr := relyingParty(site)
	if err == nil {
		err = rerr
	}
	if err != nil {
		return Passkey{}, err
	}
	cred, err := createCredential(rp, u, session, body)
	if err != nil {
		return Passkey{}, refuse(Invalid, "the browser's passkey was refused: %s", passkeyError(err))
	}
	data, err := json.Marshal(cred)
	now := s.now()
	key := store.Passkey{ID: base64.RawURLEncoding.EncodeToString(cred.ID), Account: a.ID, Name: name, Credential: data, Created: now, Used: now}
	if err == nil {
		err = s.store.AddPasskey(ctx, key, MaxPasskeys)
	}
	if errors.Is(err, store.ErrTooManyPasskeys) {
		return Passkey{}, tooManyPasskeys()
	}
	if err != nil {
		return Passkey{}, err
	}
	s.log.Info("passkey added", "account", a.ID)
	return Passkey{ID: key.ID, Name: name, Created: now, Used: now}, nil
}

// createCredential is the library's check of a registration's answer.
func createCredential(rp *webauthn.WebAuthn, u passkeyUser, session webauthn.SessionData, body io.Reader) (*webauthn.Credential, error) {
	parsed, err := protocol.ParseCredentialCreationResponseBody(body)
	if err != nil {
		return nil, err
	}
	return rp.CreateCredential(u, session, parsed)
}

// passkeyError is the library's refusal in a line a person can read.
func passkeyError(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return clipText(pe.Details)
	}
	return clipText(err.Error())
}

func clipText(s string) string {
	if utf8.RuneCountInString(s) <= 80 {
		return s
	}
	return string([]rune(s)[:80]) + "…"
}

// Passkeys lists the passkeys of the account id.
func (s *Service) Passkeys(ctx context.Context, id string) ([]Passkey, error) {
	keys, err := s.store.Passkeys(ctx, id)
	if err != nil {
		return nil, err
	}
	list := []Passkey{}
	for _, k := range keys {
		list = append(list, Passkey{ID: k.ID, Name: k.Name, Created: k.Created, Used: k.Used})
	}
	return list, nil
}

// DeletePasskey removes the passkey key of the account id.
func (s *Service) DeletePasskey(ctx context.Context, id, key string) error {
	err := s.store.DeletePasskey(ctx, id, key)
	if errors.Is(err, store.ErrNoPasskey) {
		return refuse(NotFound, "you have no passkey %s", clip.Quote(key))
	}
	return err
}

// BeginPasskeyLogin begins a login by any passkey of the site.
func (s *Service) BeginPasskeyLogin(ctx context.Context, site Site) (Ceremony, error) {
	rp, err := relyingParty(site)
	if err != nil {
		return Ceremony{}, err
	}
	assertion, session, err := rp.BeginDiscoverableLogin()
	if err != nil {
		return Ceremony{}, err
	}
	id, err := s.keepCeremony(ctx, "", session)
	return Ceremony{ID: id, Options: assertion}, err
}

// PasskeyLoginAllowed refuses a passkey login from the address addr that
// has failed too often lately. A passkey login names no one: its
// failures count against the address alone.
func (s *Service) PasskeyLoginAllowed(addr string) error { return s.throttled("", addr, "") }

// FinishPasskeyLogin checks the browser's signature (body) by a passkey
// for the login ceremony id, and logs its account in. Failures are
// throttled per address, as passwords are.
func (s *Service) FinishPasskeyLogin(ctx context.Context, site Site, id, addr string, body io.Reader) (Session, error) {
	if err := s.PasskeyLoginAllowed(addr); err != nil {
		return Session{}, err
	}
	owner, session, err := s.takeCeremony(ctx, id)
	if err != nil {
		return Session{}, err
	}
	if owner != "" {
		return Session{}, refuse(Forbidden, "that ceremony adds a passkey; it does not log in")
	}
	rp, err := relyingParty(site)
	if err != nil {
		return Session{}, err
	}
	who, cred, err := s.validateLogin(ctx, rp, session, body)
	if err != nil {
		s.throttle.Fail("", addr, "", s.now())
		return Session{}, refuse(BadLogin, "that passkey does not log in here")
	}
	data, err := json.Marshal(cred)
	if err == nil {
		err = s.store.UsePasskey(ctx, base64.RawURLEncoding.EncodeToString(cred.ID), data, s.now())
	}
	if err != nil {
		return Session{}, err
	}
	return s.startSession(ctx, who)
}

// validateLogin is the library's check of a login's answer, with the
// account its passkey's user handle names.
func (s *Service) validateLogin(ctx context.Context, rp *webauthn.WebAuthn, session webauthn.SessionData, body io.Reader) (Account, *webauthn.Credential, error) {
	parsed, err := protocol.ParseCredentialRequestResponseBody(body)
	if err != nil {
		return Account{}, nil, err
	}
	var who Account
	_, cred, err := rp.ValidatePasskeyLogin(func(_, userHandle []byte) (webauthn.User, error) {
		a, err := s.store.Account(ctx, string(userHandle))
		if err != nil {
			return nil, err
		}
		who = fromStore(a)
		return s.passkeyUserOf(ctx, who)
	}, session, parsed)
	return who, cred, err
}
