package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/hall"
)

// The handlers of accounts decode the request, call the account service
// (accounts.Service) and write its answer or its refusal; the cookies
// are theirs.

func (s *Server) accountRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/accounts", s.handleSignUp)
	mux.HandleFunc("POST /api/session", s.handleLogIn)
	mux.HandleFunc("DELETE /api/session", s.handleLogOut)
	mux.HandleFunc("GET /api/session", s.reads(s.handleSession))
	mux.HandleFunc("GET /api/users/{name}", s.reads(s.handleUser))
	mux.HandleFunc("GET /api/users/{name}/games", s.reads(s.handleUserGames))
	mux.HandleFunc("GET /api/users/{name}/history", s.reads(s.handleHistory))
	mux.HandleFunc("GET /api/leaderboard/{game}", s.reads(s.handleLeaderboard))
	mux.HandleFunc("POST /api/account/password", s.handlePassword)
	mux.HandleFunc("DELETE /api/account/sessions", s.handleLogOutEverywhere)
	mux.HandleFunc("GET /api/account/export", s.reads(s.handleExport))
	mux.HandleFunc("DELETE /api/account", s.handleDeleteAccount)
	mux.HandleFunc("POST /api/account/claim", s.handleClaim)
	mux.HandleFunc("GET /api/account/turn", s.reads(s.handleTurn))
	mux.HandleFunc("GET /api/account/games", s.reads(s.handleMyGames))
	s.passkeyRoutes(mux)
}

// credentials is the body of a sign-up or a login.
type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// nameBody is what a sign-up and a login answer.
type nameBody struct {
	Name string `json:"name"`
}

func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	sess, err := s.accounts.SignUp(r.Context(), req.Name, req.Password, clientKey(r))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	startSession(w, r, sess)
	writeJSON(w, http.StatusCreated, nameBody{Name: sess.Account.Name})
}

// signedInCookie marks a browser that holds a session cookie, for the
// pages' script, which cannot read the session's own (HttpOnly): without
// it the page knows nobody is signed in and never asks GET /api/session,
// whose 401 every visitor's console would show. It carries nothing
// secret; the server never trusts it.
const signedInCookie = "arbiter_signed_in"

// startSession sets the cookies of a session just made.
func startSession(w http.ResponseWriter, r *http.Request, sess accounts.Session) {
	http.SetCookie(w, &http.Cookie{Name: account.SessionCookie, Value: sess.Token, Path: "/", MaxAge: int(accounts.SessionLife / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overTLS(r)})
	setSignedInMark(w, r)
	setDeviceCookie(w, r, sess.Account)
}

// setSignedInMark sets the cookie signedInCookie, for as long as a
// session lives.
func setSignedInMark(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: signedInCookie, Value: "1", Path: "/", MaxAge: int(accounts.SessionLife / time.Second),
		SameSite: http.SameSiteLaxMode, Secure: overTLS(r)})
}

// keepSignedInMark sets the mark for a browser that sends a session
// cookie without it (a session begun before the mark was), so that its
// pages ask who is signed in.
func keepSignedInMark(w http.ResponseWriter, r *http.Request) {
	if sessionToken(r) == "" {
		return
	}
	if _, err := r.Cookie(signedInCookie); err != nil {
		setSignedInMark(w, r)
	}
}

// endCookie tells the browser to forget its session cookie and the mark.
func endCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: account.SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overTLS(r)})
	http.SetCookie(w, &http.Cookie{Name: signedInCookie, Value: "", Path: "/", MaxAge: -1,
		SameSite: http.SameSiteLaxMode, Secure: overTLS(r)})
}

// handleLogIn checks a name and password (see accounts.Service.LogIn:
// paid from the address's hash budget, throttled).
func (s *Server) handleLogIn(w http.ResponseWriter, r *http.Request) {
	var req credentials
	// The account is read before the throttle can tell (a device cookie
	// is checked against it): the read counts against the read limit.
	if !s.readRequest(w, r, &req, s.clients.allowRead) {
		return
	}
	sess, err := s.accounts.LogIn(r.Context(), req.Name, req.Password, accountClient(r))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	startSession(w, r, sess)
	writeJSON(w, http.StatusOK, nameBody{Name: sess.Account.Name})
}

// retryAfter is a wait in whole seconds, rounded up, for Retry-After.
func retryAfter(wait time.Duration) string {
	return strconv.Itoa(int((wait + time.Second - 1) / time.Second))
}

// sessionToken is the request's session cookie, "" for none or a
// malformed one.
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(account.SessionCookie)
	if err != nil || !account.ValidSessionToken(c.Value) {
		return ""
	}
	return c.Value
}

// session is the account of the request's session cookie.
func (s *Server) session(r *http.Request) (accounts.Account, bool) {
	token := sessionToken(r)
	if token == "" {
		return accounts.Account{}, false
	}
	return s.accounts.Session(r.Context(), token)
}

// sessionAccountID is the id of the request's account, "" for none.
func (s *Server) sessionAccountID(r *http.Request) string {
	a, _ := s.session(r)
	return a.ID
}

// signedIn is the request's account, or answers 401 itself.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request) (accounts.Account, bool) {
	a, ok := s.session(r)
	if !ok {
		writeError(w, fail(codeUnauthorized, "not signed in; POST /api/session with your name and password first"))
	}
	return a, ok
}

// handleLogOut ends the request's session. A cookie that names no
// session writes nothing: the store is read (within the client's read
// limit), and written only to end a session that is there.
func (s *Server) handleLogOut(w http.ResponseWriter, r *http.Request) {
	if token := sessionToken(r); token != "" {
		if !s.clients.allowRead(clientKey(r)) {
			writeError(w, fail(codeRateLimited, "too many requests from this client; slow down"))
			return
		}
		ended, err := s.accounts.LogOut(r.Context(), token)
		if err != nil {
			s.writeFailure(w, err)
			return
		}
		if ended {
			s.sessionsEnded("", account.HashSessionToken(token))
		}
	}
	endCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// handleSession answers who is signed in, or 401; a 401 also ends the
// cookies of a session that is no more (logged out elsewhere, its
// password changed), so that the pages stop asking.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	a, ok := s.session(r)
	if !ok {
		endCookie(w, r)
		writeError(w, fail(codeUnauthorized, "not signed in; POST /api/session with your name and password first"))
		return
	}
	writeJSON(w, http.StatusOK, sessionBodyOf(a, s.now()))
}

// sessionBody is GET /api/session: who is signed in, whether they
// moderate, and what moderators decided of them, with the reasons, so
// that every page can say so.
type sessionBody struct {
	Name       string `json:"name"`
	Moderator  bool   `json:"moderator,omitempty"`
	Banned     string `json:"banned,omitempty"`
	MutedUntil int64  `json:"mutedUntil,omitempty"`
	MuteReason string `json:"muteReason,omitempty"`
}

func sessionBodyOf(a accounts.Account, now time.Time) sessionBody {
	b := sessionBody{Name: a.Name, Moderator: a.Standing.Admin}
	if a.Standing.Banned {
		b.Banned = a.Standing.BanReason
	}
	if a.Standing.Muted(now) {
		b.MutedUntil, b.MuteReason = a.Standing.MutedUntil.UnixMilli(), a.Standing.MuteReason
	}
	return b
}

// passwordChange is POST /api/account/password.
type passwordChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// handlePassword changes the password; every other session ends.
func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req passwordChange
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	keep := sessionToken(r)
	a, err := s.accounts.ChangePassword(r.Context(), a, req.Old, req.New, accountClient(r), keep)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, account.HashSessionToken(keep))
	setDeviceCookie(w, r, a) // the old one was signed with the old hash
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleLogOutEverywhere(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if err := s.accounts.LogOutEverywhere(r.Context(), a.ID); err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, nil)
	endCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// deletion is DELETE /api/account.
type deletion struct {
	Password string `json:"password"`
}

// hallGames are the hall's games as the account service asks for them.
type hallGames struct{ h *hall.Hall }

func (g hallGames) ResignAll(ctx context.Context, account string) error {
	return g.h.ResignAll(ctx, account)
}

func (g hallGames) Claim(ctx context.Context, id, token string, a accounts.Account) error {
	return g.h.Claim(ctx, id, token, hall.SeatAccount{ID: a.ID, Name: a.Name})
}

// handleDeleteAccount deletes the account: its games in play are
// resigned, its finished games stay with "deleted" in its seats. An API
// token stands for the cookie (with the password still): a bot, which
// signs in nowhere, is deleted so.
func (s *Server) handleDeleteAccount(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	var req deletion
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	if err := s.accounts.Delete(r.Context(), a, req.Password, accountClient(r), hallGames{s.hall}); err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, nil)
	s.lobby.Nudge()
	endCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// claimRequest is POST /api/account/claim: the anonymous seats whose
// tokens the browser holds.
type claimRequest struct {
	Games []struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	} `json:"games"`
}

type claimRefusal struct {
	ID    string    `json:"id"`
	Error *apiError `json:"error"`
}

type claimAnswer struct {
	Claimed []string       `json:"claimed"`
	Refused []claimRefusal `json:"refused"`
}

func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req claimRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	claims := make([]accounts.Claim, 0, len(req.Games))
	for _, g := range req.Games {
		claims = append(claims, accounts.Claim{ID: g.ID, Token: g.Token})
	}
	done, err := s.accounts.ClaimGames(r.Context(), a, claims, hallGames{s.hall})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	answer := claimAnswer{Claimed: done.Claimed, Refused: []claimRefusal{}}
	for _, x := range done.Refused {
		answer.Refused = append(answer.Refused, claimRefusal{ID: x.ID, Error: asAPIError(x.Err)})
	}
	writeJSON(w, http.StatusOK, answer)
}
