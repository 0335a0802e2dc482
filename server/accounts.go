package server

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
)

// sessionLife is how long a login lasts.
const sessionLife = 30 * 24 * time.Hour

// accounts is what the server needs for people's accounts: the password
// hasher (bounded slots, so that a login flood cannot take the memory),
// the list of common passwords, the login throttle, and each address's
// budgets of hashes and of sign-ups.
type accounts struct {
	hasher    *account.Hasher
	passwords *account.Passwords
	throttle  *account.Throttle
	hashes    *account.Budget
	signUps   *account.Budget
	// exports lets each account run one export at a time.
	exports *exportGate
}

func newAccounts(params *account.Params, limits AccountLimits) (*accounts, error) {
	p := account.DefaultParams()
	if params != nil {
		p = *params
	}
	l, err := limits.withDefaults()
	if err != nil {
		return nil, err
	}
	hasher, err := account.NewHasher(p, account.DefaultSlots())
	if err != nil {
		return nil, err
	}
	return &accounts{hasher: hasher, passwords: account.NewPasswords(), throttle: account.NewThrottle(l.Throttle),
		hashes:  account.NewBudget(account.BudgetConfig{Burst: l.HashBurst, Every: l.HashEvery, AtOnce: l.HashesAtOnce, MaxKeys: budgetKeys}),
		signUps: account.NewBudget(account.BudgetConfig{Burst: l.SignUpBurst, Every: l.SignUpEvery, MaxKeys: budgetKeys}),
		exports: newExportGate()}, nil
}

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

// newAccountID is a fresh account id: 20 random letters and digits.
func newAccountID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "u" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	if err := account.CheckName(req.Name); err != nil {
		writeError(w, fail(codeInvalid, "%s", err))
		return
	}
	if err := s.accounts.passwords.Check(req.Password, req.Name); err != nil {
		writeError(w, fail(codeInvalid, "%s", err))
		return
	}
	// A taken name is told before the budget is spent: the store would
	// refuse it anyway, and a typo should not cost a sign-up.
	if _, err := s.cfg.Store.AccountByName(r.Context(), req.Name); err == nil {
		writeError(w, fail(codeNameTaken, "the name %s is taken; choose another", quote(req.Name)))
		return
	}
	if !s.signUpBudget(w, r) {
		return
	}
	release, ok := s.hashBudget(w, r, 1)
	if !ok {
		return
	}
	hash, err := s.accounts.hasher.Hash(r.Context(), req.Password)
	release()
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	a := store.Account{ID: newAccountID(), Name: req.Name, Password: hash, Created: s.now()}
	if err := s.cfg.Store.CreateAccount(r.Context(), a); err != nil {
		if errors.Is(err, store.ErrNameTaken) {
			writeError(w, fail(codeNameTaken, "the name %s is taken; choose another", quote(req.Name)))
			return
		}
		s.writeFailure(w, err)
		return
	}
	s.log.Info("account created", "account", a.ID, "name", a.Name)
	if err := s.startSession(w, r, a); err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, nameBody{Name: a.Name})
}

// startSession stores a new session for a and sets its cookie.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a store.Account) error {
	token, hash := account.NewSessionToken()
	now := s.now()
	if err := s.cfg.Store.CreateSession(r.Context(), store.Session{Hash: hash, Account: a.ID, Created: now, Expires: now.Add(sessionLife)}); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: account.SessionCookie, Value: token, Path: "/", MaxAge: int(sessionLife / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overTLS(r)})
	setDeviceCookie(w, r, a)
	return nil
}

// endCookie tells the browser to forget its session cookie.
func endCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: account.SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overTLS(r)})
}

// handleLogIn checks a name and password. A wrong name costs the same
// hash as a wrong password and answers the same, so that neither the
// answer nor its time tells which names exist. Every check, right or
// wrong, is paid from the address's hash budget; failures are throttled
// per name and address, per address, and per name from unknown devices
// (a device cookie from an earlier login to the name is counted apart).
func (s *Server) handleLogIn(w http.ResponseWriter, r *http.Request) {
	var req credentials
	// The account is read before the throttle can tell (a device cookie
	// is checked against it): the read counts against the read limit.
	if !s.readRequest(w, r, &req, s.clients.allowRead) {
		return
	}
	a, found, err := s.loginAccount(r.Context(), req.Name)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	key, addr, device := throttleKey(req.Name), clientKey(r), ""
	if found {
		device = deviceOf(r, a)
	}
	if s.throttled(w, key, addr, device) {
		return
	}
	release, ok := s.hashBudget(w, r, 1)
	if !ok {
		return
	}
	ok, err = s.checkPassword(r.Context(), a, found, req.Password)
	release()
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	if !ok {
		s.accounts.throttle.Fail(key, addr, device, s.now())
		writeError(w, fail(codeBadLogin, "wrong name or password"))
		return
	}
	s.accounts.throttle.Succeed(key, addr, device)
	if err := s.startSession(w, r, a); err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nameBody{Name: a.Name})
}

// throttleKey is the key a login's name is throttled under: its Key, cut
// so that an over-long name (which no account has) holds no more memory
// than a real one.
func throttleKey(name string) string {
	return account.Key(name[:min(len(name), 2*account.NameMax)])
}

// throttled answers 429 with Retry-After when the login has failed too
// often lately (see account.Throttle.Check).
func (s *Server) throttled(w http.ResponseWriter, key, addr, device string) bool {
	wait, ok := s.accounts.throttle.Check(key, addr, device, s.now())
	if !ok {
		w.Header().Set("Retry-After", retryAfter(wait))
		writeError(w, fail(codeRateLimited, "too many failed attempts; try again in %s seconds", retryAfter(wait)))
	}
	return !ok
}

// retryAfter is a wait in whole seconds, rounded up, for Retry-After.
func retryAfter(wait time.Duration) string {
	return strconv.Itoa(int((wait + time.Second - 1) / time.Second))
}

// loginAccount is the account name logs in to; found is false when there
// is none that can log in with a password (no such name, an AI level, a
// deleted account).
func (s *Server) loginAccount(ctx context.Context, name string) (a store.Account, found bool, err error) {
	a, err = s.cfg.Store.AccountByName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNoAccount) || err == nil && a.Password == "":
		return store.Account{}, false, nil
	case err != nil:
		return store.Account{}, false, err
	}
	return a, true, nil
}

// checkPassword checks a login's password against a, spending the same
// work when no account was found.
func (s *Server) checkPassword(ctx context.Context, a store.Account, found bool, password string) (bool, error) {
	if !found {
		_, err := s.accounts.hasher.VerifyNobody(ctx, password)
		return false, err
	}
	return s.accounts.hasher.Verify(ctx, password, a.Password)
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
func (s *Server) session(r *http.Request) (store.Account, bool) {
	token := sessionToken(r)
	if token == "" {
		return store.Account{}, false
	}
	a, err := s.cfg.Store.SessionAccount(r.Context(), account.HashSessionToken(token), s.now())
	if err != nil {
		if !errors.Is(err, store.ErrNoSession) {
			s.log.Warn("reading a session", "err", err)
		}
		return store.Account{}, false
	}
	return a, true
}

// sessionAccountID is the id of the request's account, "" for none.
func (s *Server) sessionAccountID(r *http.Request) string {
	a, _ := s.session(r)
	return a.ID
}

// signedIn is the request's account, or answers 401 itself.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request) (store.Account, bool) {
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
		if _, ok := s.session(r); ok {
			hash := account.HashSessionToken(token)
			if err := s.cfg.Store.DeleteSession(r.Context(), hash); err != nil {
				s.writeFailure(w, err)
				return
			}
			s.sessionsEnded("", hash)
		}
	}
	endCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if ok {
		writeJSON(w, http.StatusOK, nameBody{Name: a.Name})
	}
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
	if err := s.accounts.passwords.Check(req.New, a.Name); err != nil {
		writeError(w, fail(codeInvalid, "%s", err))
		return
	}
	// Two hashes, the old password's check and the new one's, paid at once.
	release, ok := s.hashBudget(w, r, 2)
	if !ok {
		return
	}
	defer release()
	if !s.passwordAgain(w, r, a, req.Old) {
		return
	}
	hash, err := s.accounts.hasher.Hash(r.Context(), req.New)
	if err == nil {
		err = s.cfg.Store.SetPassword(r.Context(), a.ID, hash, account.HashSessionToken(sessionToken(r)))
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, account.HashSessionToken(sessionToken(r)))
	a.Password = hash
	setDeviceCookie(w, r, a) // the old one was signed with the old hash
	w.WriteHeader(http.StatusNoContent)
}

// passwordAgain checks the password of a signed-in account before a
// change that needs it, throttled as logins are (the caller has paid its
// hash); it answers a refusal itself.
func (s *Server) passwordAgain(w http.ResponseWriter, r *http.Request, a store.Account, password string) bool {
	key, addr, device := account.Key(a.Name), clientKey(r), deviceOf(r, a)
	if s.throttled(w, key, addr, device) {
		return false
	}
	ok, err := s.accounts.hasher.Verify(r.Context(), password, a.Password)
	if err != nil {
		s.writeFailure(w, err)
		return false
	}
	if !ok {
		s.accounts.throttle.Fail(key, addr, device, s.now())
		writeError(w, fail(codeBadLogin, "wrong password"))
	}
	return ok
}

func (s *Server) handleLogOutEverywhere(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if err := s.cfg.Store.DeleteSessions(r.Context(), a.ID, nil); err != nil {
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

// handleDeleteAccount deletes the account: its games in play are
// resigned, its finished games stay with "deleted" in its seats.
func (s *Server) handleDeleteAccount(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req deletion
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	release, ok := s.hashBudget(w, r, 1)
	if !ok {
		return
	}
	ok = s.passwordAgain(w, r, a, req.Password)
	release()
	if !ok {
		return
	}
	err := s.hall.ResignAll(r.Context(), a.ID)
	if err == nil {
		err = s.cfg.Store.DeleteAccount(r.Context(), a.ID, s.now())
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, nil)
	s.log.Info("account deleted", "account", a.ID)
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

// maxClaims bounds the games one claim may name.
const maxClaims = 200

func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req claimRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	if len(req.Games) > maxClaims {
		writeError(w, fail(codeInvalid, "%d games; claim at most %d at once", len(req.Games), maxClaims))
		return
	}
	answer := claimAnswer{Claimed: []string{}, Refused: []claimRefusal{}}
	for _, g := range req.Games {
		err := s.hall.Claim(r.Context(), g.ID, g.Token, hall.SeatAccount{ID: a.ID, Name: a.Name})
		if err != nil {
			answer.Refused = append(answer.Refused, claimRefusal{ID: clipID(g.ID), Error: asAPIError(err)})
			continue
		}
		answer.Claimed = append(answer.Claimed, g.ID)
	}
	writeJSON(w, http.StatusOK, answer)
}

// clipID is a game id as an answer may quote it back.
func clipID(id string) string {
	if len(id) > 40 {
		return id[:40]
	}
	return id
}
