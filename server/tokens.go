package server

import (
	"net/http"
	"strings"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/hall"
)

// One header, Authorization: Bearer TOKEN, carries two kinds of token:
// a seat's token (22 characters of base64url, an anonymous game's seat)
// and a personal API token (arb_ and 43 characters: an account). The
// prefix and the length tell them apart before any look-up
// (account.IsAPIToken), so neither is ever tried as the other: a game
// command with an API token plays for its account's seat, one with any
// other bearer token for the seat of that token.

// bearer is the token of the Authorization header, or "".
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// badAPIToken is the refusal of an API token that names no account.
func badAPIToken() *apiError {
	return fail(codeUnauthorized, "that API token is unknown or revoked; make one on the account page (POST /api/account/tokens)")
}

// caller is the account of the request: its API token's (Authorization:
// Bearer arb_...) or else its session cookie's, or answers 401 itself.
// A bearer token that is not an API token is refused here, where only
// accounts act, rather than ignored for the cookie.
func (s *Server) caller(w http.ResponseWriter, r *http.Request) (accounts.Account, bool) {
	token := bearer(r)
	switch {
	case token == "":
		return s.signedIn(w, r)
	case !account.IsAPIToken(token):
		writeError(w, fail(codeUnauthorized, "that bearer token is no API token (%s...): sign in, or send an API token", account.APITokenPrefix))
		return accounts.Account{}, false
	}
	a, ok := s.accounts.TokenAccount(r.Context(), token)
	if !ok {
		writeError(w, badAPIToken())
	}
	return a, ok
}

// who is who sends a game command: the account of an API token, the
// seat of any other bearer token, or else the account of the session
// cookie (none: the zero Who). A bad API token is refused (false, the
// refusal written).
func (s *Server) who(w http.ResponseWriter, r *http.Request) (hall.Who, accounts.Account, bool) {
	token := bearer(r)
	if account.IsAPIToken(token) {
		a, ok := s.accounts.TokenAccount(r.Context(), token)
		if !ok {
			writeError(w, badAPIToken())
			return hall.Who{}, a, false
		}
		return hall.Who{Account: a.ID}, a, true
	}
	if token != "" {
		return hall.Who{Token: token}, accounts.Account{}, true
	}
	a, _ := s.session(r)
	return hall.Who{Account: a.ID}, a, true
}
