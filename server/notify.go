package server

import (
	"io"
	"mime"
	"net/http"
	"net/url"
	"time"

	"github.com/arbiter-games/arbiter/notify"
)

// The notifications, the e-mail address and the password reset are
// package notify's (and the reset's password, the account service's);
// this file is their HTTP: the routes, the pages of the mailed links,
// the service worker, and their refusals answered (errors.go maps the
// codes).

func (s *Server) notifyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/account/notifications", s.reads(s.handleNotifySettings))
	mux.HandleFunc("PUT /api/account/notifications", s.handleNotifyPrefs)
	mux.HandleFunc("PUT /api/account/email", s.handleSetEmail)
	mux.HandleFunc("DELETE /api/account/email", s.handleDeleteEmail)
	mux.HandleFunc("POST /api/email/verify", s.handleVerifyEmail)
	mux.HandleFunc("POST /api/account/push", s.handleSubscribe)
	mux.HandleFunc("DELETE /api/account/push/{id}", s.handleUnsubscribePush)
	mux.HandleFunc("POST /api/password/forgot", s.handleForgot)
	mux.HandleFunc("POST /api/password/reset", s.handleReset)
	mux.HandleFunc("POST /unsubscribe", s.handleUnsubscribe)
	for path, p := range map[string]struct{ page, title string }{
		"GET /forgot":         {"forgot", "shell.forgot.title"},
		"GET /reset-password": {"reset", "shell.reset.title"},
		"GET /verify-email":   {"verify", "shell.verify.title"},
		"GET /unsubscribe":    {"unsubscribe", "shell.unsubscribe.title"},
	} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			sh := s.page(r)
			writeShell(w, sh, accountShell(sh.accounts, p.page, sh.loc.T(p.title)))
		})
	}
	// The service worker shows the pushes; from the root, its scope is
	// the whole site.
	mux.HandleFunc("GET /sw.js", func(w http.ResponseWriter, r *http.Request) { s.assets.serve(w, r, "sw.js") })
}

// noNotify is the refusal of a server made without notifications.
func noNotify() *apiError {
	return fail(codeUnavailable, "this server sends no notifications")
}

// notifyFor is the signed-in account of a notification request, or
// answers itself (401, or 503 without notifications).
func (s *Server) notifyFor(w http.ResponseWriter, r *http.Request) (string, bool) {
	if s.notify == nil {
		writeError(w, noNotify())
		return "", false
	}
	a, ok := s.signedIn(w, r)
	return a.ID, ok
}

// notifySettingsView is GET /api/account/notifications.
type notifySettingsView struct {
	Prefs         notify.Prefs       `json:"prefs"`
	Kinds         []string           `json:"kinds"`
	Channels      []string           `json:"channels"`
	Email         *emailView         `json:"email"`
	Mail          bool               `json:"mail"`
	VAPIDKey      string             `json:"vapidKey"`
	Subscriptions []subscriptionView `json:"subscriptions"`
}

type emailView struct {
	Address  string `json:"address"`
	Verified bool   `json:"verified"`
}

type subscriptionView struct {
	ID      string    `json:"id"`
	Host    string    `json:"host"`
	Created time.Time `json:"created"`
}

func (s *Server) handleNotifySettings(w http.ResponseWriter, r *http.Request) {
	id, ok := s.notifyFor(w, r)
	if !ok {
		return
	}
	s.writeSettings(w, r, id)
}

func (s *Server) writeSettings(w http.ResponseWriter, r *http.Request, id string) {
	st, err := s.notify.Settings(r.Context(), id)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	v := notifySettingsView{Prefs: st.Prefs, Kinds: notify.Kinds, Channels: notify.Channels, Mail: st.Mail, VAPIDKey: st.VAPIDKey,
		Subscriptions: []subscriptionView{}}
	if st.Email != "" {
		v.Email = &emailView{Address: st.Email, Verified: st.Verified}
	}
	for _, sub := range st.Subscriptions {
		v.Subscriptions = append(v.Subscriptions, subscriptionView{ID: sub.ID, Host: sub.Host, Created: sub.Created})
	}
	writeJSON(w, http.StatusOK, v)
}

// prefsRequest is PUT /api/account/notifications: the choices to change.
type prefsRequest struct {
	Prefs notify.Prefs `json:"prefs"`
}

func (s *Server) handleNotifyPrefs(w http.ResponseWriter, r *http.Request) {
	id, ok := s.notifyFor(w, r)
	if !ok {
		return
	}
	var req prefsRequest
	if !s.readRequest(w, r, &req, s.clients.allowMove) {
		return
	}
	if err := s.notify.SetPrefs(r.Context(), id, req.Prefs); err != nil {
		s.writeFailure(w, err)
		return
	}
	s.writeSettings(w, r, id)
}

// emailRequest is PUT /api/account/email.
type emailRequest struct {
	Address string `json:"address"`
}

func (s *Server) handleSetEmail(w http.ResponseWriter, r *http.Request) {
	id, ok := s.notifyFor(w, r)
	if !ok {
		return
	}
	var req emailRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	if err := s.notify.SetEmail(r.Context(), id, req.Address); err != nil {
		s.writeFailure(w, err)
		return
	}
	s.writeSettings(w, r, id)
}

func (s *Server) handleDeleteEmail(w http.ResponseWriter, r *http.Request) {
	id, ok := s.notifyFor(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	if err := s.notify.DeleteEmail(r.Context(), id); err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// tokenRequest is POST /api/email/verify.
type tokenRequest struct {
	Token string `json:"token"`
}

// handleVerifyEmail follows a verification link: no session is needed
// (the link may be opened on another device).
func (s *Server) handleVerifyEmail(w http.ResponseWriter, r *http.Request) {
	if s.notify == nil {
		writeError(w, noNotify())
		return
	}
	var req tokenRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	address, err := s.notify.VerifyEmail(r.Context(), req.Token)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, emailView{Address: address, Verified: true})
}

// subscribeRequest is POST /api/account/push: a PushSubscription's
// toJSON.
type subscribeRequest struct {
	Endpoint       string  `json:"endpoint"`
	ExpirationTime *int64  `json:"expirationTime"`
	Keys           pushKey `json:"keys"`
}

type pushKey struct {
	P256dh string `json:"p256dh"`
	Auth   string `json:"auth"`
}

func (s *Server) handleSubscribe(w http.ResponseWriter, r *http.Request) {
	id, ok := s.notifyFor(w, r)
	if !ok {
		return
	}
	var req subscribeRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	sub, err := s.notify.Subscribe(r.Context(), id, notify.NewSubscription{Endpoint: req.Endpoint, P256dh: req.Keys.P256dh, Auth: req.Keys.Auth})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": sub})
}

func (s *Server) handleUnsubscribePush(w http.ResponseWriter, r *http.Request) {
	id, ok := s.notifyFor(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	if err := s.notify.RemoveSubscription(r.Context(), id, r.PathValue("id")); err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// forgotRequest is POST /api/password/forgot: a name or an address.
type forgotRequest struct {
	Name string `json:"name"`
}

// forgotAnswer is the one answer of a reset asked for, whoever it named.
const forgotAnswer = "If that account has a verified e-mail address, a link to reset its password is on its way; it works once, for an hour."

func (s *Server) handleForgot(w http.ResponseWriter, r *http.Request) {
	if s.notify == nil {
		writeError(w, noNotify())
		return
	}
	var req forgotRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	if err := s.notify.ForgotPassword(r.Context(), req.Name, clientKey(r)); err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"message": forgotAnswer})
}

// resetRequest is POST /api/password/reset.
type resetRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// handleReset sets a new password by a mailed link: every session of the
// account ends (its sockets here at once), and the link no longer works.
func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	var req resetRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	a, err := s.accounts.ResetPassword(r.Context(), req.Token, req.Password, clientKey(r))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, nil)
	w.WriteHeader(http.StatusNoContent)
}

// handleUnsubscribe is POST /unsubscribe?token=..., the URL of every
// mail's List-Unsubscribe header: a mail provider's one-click POST (RFC
// 8058: a form body List-Unsubscribe=One-Click, no cookie, no page), or
// the button of the link's page. Mail providers post from few addresses
// for many people: it is bounded by the read limit, not the game one.
func (s *Server) handleUnsubscribe(w http.ResponseWriter, r *http.Request) {
	if s.notify == nil {
		writeError(w, noNotify())
		return
	}
	if err := s.admit(r, s.clients.allowRead); err != nil {
		writeError(w, err)
		return
	}
	if err := oneClick(w, r, s.limits.Body); err != nil {
		writeError(w, err)
		return
	}
	done, err := s.notify.Unsubscribe(r.Context(), r.URL.Query().Get("token"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"kind": done.Kind})
}

// oneClick checks an unsubscribe POST's body: RFC 8058's
// List-Unsubscribe=One-Click, as a form (urlencoded or multipart).
func oneClick(w http.ResponseWriter, r *http.Request, limit int64) *apiError {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" && mt != "multipart/form-data" {
		return fail(codeUnsupported, "Content-Type %s: send List-Unsubscribe=One-Click as a form", quote(r.Header.Get("Content-Type")))
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	var value string
	if mt == "multipart/form-data" {
		if err := r.ParseMultipartForm(limit); err != nil {
			return fail(codeBadRequest, "the body is not a form")
		}
		value = r.PostFormValue("List-Unsubscribe")
	} else {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return fail(codeTooLarge, "the body is over %d bytes", limit)
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return fail(codeBadRequest, "the body is not a form")
		}
		value = form.Get("List-Unsubscribe")
	}
	if value != "One-Click" {
		return fail(codeBadRequest, "the body must be List-Unsubscribe=One-Click (RFC 8058)")
	}
	return nil
}
