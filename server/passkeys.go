package server

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

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
	maxPasskeys      = 10
	ceremonyLife     = 5 * time.Minute
	maxPasskeyName   = 40
	maxPasskeyAnswer = 16 << 10
)

func (s *Server) passkeyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/account/passkeys/begin", s.handlePasskeyBegin)
	mux.HandleFunc("POST /api/account/passkeys/finish", s.handlePasskeyFinish)
	mux.HandleFunc("GET /api/account/passkeys", s.reads(s.handlePasskeys))
	mux.HandleFunc("DELETE /api/account/passkeys/{id}", s.handlePasskeyDelete)
	mux.HandleFunc("POST /api/session/passkey/begin", s.handlePasskeyLoginBegin)
	mux.HandleFunc("POST /api/session/passkey/finish", s.handlePasskeyLoginFinish)
}

// passkeyUser is an account as the WebAuthn library sees it.
type passkeyUser struct {
	a     store.Account
	creds []webauthn.Credential
}

func (u passkeyUser) WebAuthnID() []byte                         { return []byte(u.a.ID) }
func (u passkeyUser) WebAuthnName() string                       { return u.a.Name }
func (u passkeyUser) WebAuthnDisplayName() string                { return u.a.Name }
func (u passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// passkeyUserOf reads an account's passkeys for the library.
func (s *Server) passkeyUserOf(r *http.Request, a store.Account) (passkeyUser, error) {
	keys, err := s.cfg.Store.Passkeys(r.Context(), a.ID)
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

// relyingParty is the WebAuthn party of the site the request was sent
// to: its host is the RP ID, and its origin the one the browser's answer
// must carry (http or https: a TLS proxy in front serves https), or one
// of the --origin hosts.
func (s *Server) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	host := r.Host
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	if net.ParseIP(strings.Trim(name, "[]")) != nil {
		// WebAuthn binds a passkey to a domain; browsers refuse an IP.
		return nil, fail(codeInvalid, "passkeys need the site's domain name, not an IP address: open it as http://localhost:PORT or by its domain")
	}
	origins := []string{"https://" + host, "http://" + host}
	for _, o := range s.cfg.Origins {
		if !strings.ContainsAny(o, "*?[") {
			origins = append(origins, "https://"+o)
		}
	}
	return webauthn.New(&webauthn.Config{RPID: name, RPDisplayName: "arbiter", RPOrigins: origins})
}

// newCeremonyID is a fresh ceremony id: 128 random bits.
func newCeremonyID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ceremonyAnswer is what a ceremony's begin answers: its id, to send
// back with the browser's answer, and the options for the browser.
type ceremonyAnswer struct {
	Ceremony string `json:"ceremony"`
	Options  any    `json:"options"`
}

// keepCeremony stores a ceremony's session data.
func (s *Server) keepCeremony(r *http.Request, account string, session *webauthn.SessionData) (string, error) {
	data, err := json.Marshal(session)
	if err != nil {
		return "", err
	}
	id := newCeremonyID()
	return id, s.cfg.Store.PutCeremony(r.Context(), id, account, data, s.now().Add(ceremonyLife))
}

// ceremony takes the ceremony the request names (?ceremony=), once.
func (s *Server) ceremony(r *http.Request) (string, webauthn.SessionData, *apiError) {
	var session webauthn.SessionData
	account, data, err := s.cfg.Store.TakeCeremony(r.Context(), r.URL.Query().Get("ceremony"), s.now())
	if errors.Is(err, store.ErrNoCeremony) {
		return "", session, fail(codeNotFound, "no passkey ceremony %s: begin again (a ceremony lasts %s and serves once)",
			quote(r.URL.Query().Get("ceremony")), ceremonyLife)
	}
	if err == nil {
		err = json.Unmarshal(data, &session)
	}
	if err != nil {
		return "", session, asAPIError(err)
	}
	return account, session, nil
}

func (s *Server) handlePasskeyBegin(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowGame); err != nil {
		writeError(w, err)
		return
	}
	u, err := s.passkeyUserOf(r, a)
	if err == nil && len(u.creds) >= maxPasskeys {
		writeError(w, fail(codeInvalid, "you have %d passkeys; remove one first", maxPasskeys))
		return
	}
	var rp *webauthn.WebAuthn
	if err == nil {
		rp, err = s.relyingParty(r)
	}
	var creation *protocol.CredentialCreation
	var session *webauthn.SessionData
	if err == nil {
		creation, session, err = rp.BeginRegistration(u,
			webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
			webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	}
	var id string
	if err == nil {
		id, err = s.keepCeremony(r, a.ID, session)
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ceremonyAnswer{Ceremony: id, Options: creation})
}

// passkeyBody checks the browser's answer to a ceremony: JSON, at most
// 16 KiB.
func passkeyBody(w http.ResponseWriter, r *http.Request) *apiError {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return fail(codeUnsupported, "send the browser's answer as application/json")
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxPasskeyAnswer)
	return nil
}

// passkeyName checks the name a person gives a new passkey.
func passkeyName(name string) (string, *apiError) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "passkey", nil
	case !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxPasskeyName || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return "", fail(codeInvalid, "passkey name %s: want at most %d printable characters", quote(name), maxPasskeyName)
	}
	return name, nil
}

func (s *Server) handlePasskeyFinish(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	name, aerr := passkeyName(r.URL.Query().Get("name"))
	if aerr == nil {
		aerr = passkeyBody(w, r)
	}
	var owner string
	var session webauthn.SessionData
	if aerr == nil {
		owner, session, aerr = s.ceremony(r)
	}
	if aerr == nil && owner != a.ID {
		aerr = fail(codeForbidden, "that ceremony is another account's")
	}
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	u, err := s.passkeyUserOf(r, a)
	rp, rerr := s.relyingParty(r)
	if err == nil {
		err = rerr
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	cred, err := rp.FinishRegistration(u, session, r)
	if err != nil {
		writeError(w, fail(codeInvalid, "the browser's passkey was refused: %s", passkeyError(err)))
		return
	}
	data, err := json.Marshal(cred)
	if err == nil {
		now := s.now()
		err = s.cfg.Store.AddPasskey(r.Context(), store.Passkey{ID: base64.RawURLEncoding.EncodeToString(cred.ID), Account: a.ID,
			Name: name, Credential: data, Created: now, Used: now}, maxPasskeys)
	}
	if errors.Is(err, store.ErrTooManyPasskeys) {
		writeError(w, fail(codeInvalid, "you have %d passkeys; remove one first", maxPasskeys))
		return
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.log.Info("passkey added", "account", a.ID)
	writeJSON(w, http.StatusCreated, passkeyView{ID: base64.RawURLEncoding.EncodeToString(cred.ID), Name: name, Created: s.now(), Used: s.now()})
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

// passkeyView is a passkey as the account page lists it.
type passkeyView struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	Used    time.Time `json:"used"`
}

func (s *Server) handlePasskeys(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	keys, err := s.cfg.Store.Passkeys(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	list := []passkeyView{}
	for _, k := range keys {
		list = append(list, passkeyView{ID: k.ID, Name: k.Name, Created: k.Created, Used: k.Used})
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) handlePasskeyDelete(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	err := s.cfg.Store.DeletePasskey(r.Context(), a.ID, r.PathValue("id"))
	if errors.Is(err, store.ErrNoPasskey) {
		writeError(w, fail(codeNotFound, "you have no passkey %s", quote(r.PathValue("id"))))
		return
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handlePasskeyLoginBegin(w http.ResponseWriter, r *http.Request) {
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	rp, err := s.relyingParty(r)
	var assertion *protocol.CredentialAssertion
	var session *webauthn.SessionData
	if err == nil {
		assertion, session, err = rp.BeginDiscoverableLogin()
	}
	var id string
	if err == nil {
		id, err = s.keepCeremony(r, "", session)
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ceremonyAnswer{Ceremony: id, Options: assertion})
}

// handlePasskeyLoginFinish checks the browser's signature by a passkey
// and logs its account in. Failures are throttled per address, as
// passwords are.
func (s *Server) handlePasskeyLoginFinish(w http.ResponseWriter, r *http.Request) {
	// A passkey login names no one: its failures count against the
	// address alone.
	addr := clientKey(r)
	if s.throttled(w, "", addr, "") {
		return
	}
	aerr := passkeyBody(w, r)
	var owner string
	var session webauthn.SessionData
	if aerr == nil {
		owner, session, aerr = s.ceremony(r)
	}
	if aerr == nil && owner != "" {
		aerr = fail(codeForbidden, "that ceremony adds a passkey; it does not log in")
	}
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	var who store.Account
	_, cred, err := rp.FinishPasskeyLogin(func(_, userHandle []byte) (webauthn.User, error) {
		a, err := s.cfg.Store.Account(r.Context(), string(userHandle))
		if err != nil {
			return nil, err
		}
		who = a
		return s.passkeyUserOf(r, a)
	}, session, r)
	if err != nil {
		s.accounts.throttle.Fail("", addr, "", s.now())
		writeError(w, fail(codeBadLogin, "that passkey does not log in here"))
		return
	}
	data, err := json.Marshal(cred)
	if err == nil {
		err = s.cfg.Store.UsePasskey(r.Context(), base64.RawURLEncoding.EncodeToString(cred.ID), data, s.now())
	}
	if err == nil {
		err = s.startSession(w, r, who)
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nameBody{Name: who.Name})
}
