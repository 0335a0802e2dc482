package server

import (
	"mime"
	"net/http"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
)

// Passkeys log an account in without its password (WebAuthn): the
// account service runs the ceremonies (accounts.Service.BeginPasskey and
// the others); these handlers give it the site the request was sent to
// and the browser's answer.

// maxPasskeyAnswer bounds the browser's answer to a ceremony.
const maxPasskeyAnswer = 16 << 10

func (s *Server) passkeyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/account/passkeys/begin", s.handlePasskeyBegin)
	mux.HandleFunc("POST /api/account/passkeys/finish", s.handlePasskeyFinish)
	mux.HandleFunc("GET /api/account/passkeys", s.reads(s.handlePasskeys))
	mux.HandleFunc("DELETE /api/account/passkeys/{id}", s.handlePasskeyDelete)
	mux.HandleFunc("POST /api/session/passkey/begin", s.handlePasskeyLoginBegin)
	mux.HandleFunc("POST /api/session/passkey/finish", s.handlePasskeyLoginFinish)
}

// site is the site the request was sent to, as a ceremony needs it: its
// host, and the --origin hosts.
func (s *Server) site(r *http.Request) accounts.Site {
	return accounts.Site{Host: r.Host, Origins: s.cfg.Origins}
}

// ceremonyAnswer is what a ceremony's begin answers: its id, to send
// back with the browser's answer, and the options for the browser.
type ceremonyAnswer struct {
	Ceremony string `json:"ceremony"`
	Options  any    `json:"options"`
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
	c, err := s.accounts.BeginPasskey(r.Context(), s.site(r), a)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ceremonyAnswer{Ceremony: c.ID, Options: c.Options})
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

func (s *Server) handlePasskeyFinish(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	name, err := accounts.PasskeyName(r.URL.Query().Get("name"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	if aerr := passkeyBody(w, r); aerr != nil {
		writeError(w, aerr)
		return
	}
	key, err := s.accounts.FinishPasskey(r.Context(), s.site(r), a, r.URL.Query().Get("ceremony"), name, r.Body)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, passkeyView(key))
}

// passkeyView is a passkey as the account page lists it
// (accounts.Passkey in JSON).
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
	keys, err := s.accounts.Passkeys(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	list := make([]passkeyView, 0, len(keys))
	for _, k := range keys {
		list = append(list, passkeyView(k))
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) handlePasskeyDelete(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if err := s.accounts.DeletePasskey(r.Context(), a.ID, r.PathValue("id")); err != nil {
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
	c, err := s.accounts.BeginPasskeyLogin(r.Context(), s.site(r))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ceremonyAnswer{Ceremony: c.ID, Options: c.Options})
}

// handlePasskeyLoginFinish checks the browser's signature by a passkey
// and logs its account in. Failures are throttled per address, as
// passwords are: a throttled address is refused before its answer is
// read.
func (s *Server) handlePasskeyLoginFinish(w http.ResponseWriter, r *http.Request) {
	addr := clientKey(r)
	if err := s.accounts.PasskeyLoginAllowed(addr); err != nil {
		s.writeFailure(w, err)
		return
	}
	if aerr := passkeyBody(w, r); aerr != nil {
		writeError(w, aerr)
		return
	}
	sess, err := s.accounts.FinishPasskeyLogin(r.Context(), s.site(r), r.URL.Query().Get("ceremony"), addr, r.Body)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	startSession(w, r, sess)
	writeJSON(w, http.StatusOK, nameBody{Name: sess.Account.Name})
}
