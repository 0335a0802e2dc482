package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/community"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/learn"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/tournament"
)

// The error codes the API answers with: the hall's refusals (and the
// lobby's and the tutorials', mapped to these), and the transport's own.
// One table maps each to its HTTP status: handlers name a code, never a
// status.
const (
	codeBadRequest   = "bad_request"            // a body that is not the JSON asked for
	codeUnsupported  = "unsupported_media_type" // a body that is not application/json
	codeUnauthorized = "unauthorized"           // no token
	codeTooLarge     = "too_large"              // a body over the limit
	codeRateLimited  = "rate_limited"           // too many requests from one client
	codeUnavailable  = "unavailable"            // the store cannot be used
	codeNotFound     = string(hall.NotFound)
	codeForbidden    = string(hall.Forbidden)
	codeInvalid      = string(hall.Invalid)
	codeWrongPly     = string(hall.WrongPly)
	codeGameOver     = string(hall.GameOver)
	codeShutdown     = string(hall.ShuttingDown)
	codeInternal     = string(hall.Internal)
	codeIllegalMove  = string(hall.IllegalMove)
	codeNotYourTurn  = string(hall.NotYourTurn)
	codeConflict     = string(hall.Conflict)
	codeNameTaken    = "name_taken"    // another account has the name, ignoring case
	codeBadLogin     = "bad_login"     // a wrong name or password, whichever it was
	codeOwnSeek      = "own_seek"      // accepting one's own seek
	codeGameNotOver  = "game_not_over" // a review asked for a game that goes on
	codeQueueFull    = "queue_full"    // the review queue holds all it may
	codeBlocked      = "blocked"       // a block stands between two accounts
	codeMuted        = "muted"         // a moderator muted the account: it does not chat
	codeBanned       = "banned"        // a moderator banned the account: it does not play or chat
)

var statusOf = map[string]int{
	codeBadRequest:            http.StatusBadRequest,
	codeUnsupported:           http.StatusUnsupportedMediaType,
	codeUnauthorized:          http.StatusUnauthorized,
	codeTooLarge:              http.StatusRequestEntityTooLarge,
	codeRateLimited:           http.StatusTooManyRequests,
	codeUnavailable:           http.StatusServiceUnavailable,
	codeNameTaken:             http.StatusConflict,
	codeBadLogin:              http.StatusUnauthorized,
	codeOwnSeek:               http.StatusConflict,
	codeGameNotOver:           http.StatusConflict,
	codeQueueFull:             http.StatusTooManyRequests,
	codeBlocked:               http.StatusForbidden,
	codeMuted:                 http.StatusForbidden,
	codeBanned:                http.StatusForbidden,
	string(hall.Invalid):      http.StatusUnprocessableEntity,
	string(hall.NotFound):     http.StatusNotFound,
	string(hall.Forbidden):    http.StatusForbidden,
	string(hall.NotYourTurn):  http.StatusConflict,
	string(hall.WrongPly):     http.StatusConflict,
	string(hall.GameOver):     http.StatusConflict,
	string(hall.Conflict):     http.StatusConflict,
	string(hall.IllegalMove):  http.StatusUnprocessableEntity,
	string(hall.ShuttingDown): http.StatusServiceUnavailable,
	string(hall.Busy):         http.StatusServiceUnavailable,
	string(hall.OverBudget):   http.StatusUnprocessableEntity,
	string(hall.Internal):     http.StatusInternalServerError,
}

// apiError is a refusal: a code from the table and a one-line message
// saying what is wrong and what is allowed.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

// maxMessage bounds a refusal's message as the client gets it, in bytes:
// a message quotes at most 80 characters of each input (quote), and this
// one bound, applied to every refusal encoded (an answer's body, a
// socket's event), holds even where a message would quote more.
const maxMessage = 400

// MarshalJSON writes the refusal with its message cut to maxMessage.
func (e *apiError) MarshalJSON() ([]byte, error) {
	type plain apiError // no methods: no recursion
	return json.Marshal(plain{Code: e.Code, Message: clipMessage(e.Message)})
}

// clipMessage is msg cut to at most maxMessage bytes, on a rune boundary,
// with "…" where it was cut.
func clipMessage(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	const ellipsis = "…"
	cut := maxMessage - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + ellipsis
}

func fail(code, format string, args ...any) *apiError {
	return &apiError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// status is the HTTP status of err: its code's, or 500 for an error that
// is not a refusal.
func status(err *apiError) int {
	if s, ok := statusOf[err.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// asAPIError makes any error a refusal: the transport's own, the
// tutorials' or the hall's by its code; any other error is the store's
// or the server's fault, and its words stay in the log.
func asAPIError(err error) *apiError {
	if ae, ok := err.(*apiError); ok {
		return ae
	}
	var le *learn.Error
	if errors.As(err, &le) {
		return &apiError{Code: learnCode(le.Code), Message: le.Message}
	}
	var lbe *lobby.Error
	if errors.As(err, &lbe) {
		return &apiError{Code: lobbyCodes[lbe.Code], Message: lbe.Message}
	}
	var ace *accounts.Error
	if errors.As(err, &ace) {
		return &apiError{Code: accountCodes[ace.Code], Message: ace.Message}
	}
	var ce *community.Error
	if errors.As(err, &ce) {
		return &apiError{Code: communityCodes[ce.Code], Message: ce.Message}
	}
	var te *tournament.Error
	if errors.As(err, &te) {
		return &apiError{Code: tournamentCodes[te.Code], Message: te.Message}
	}
	var ne *notify.Error
	if errors.As(err, &ne) {
		return &apiError{Code: notifyCodes[ne.Code], Message: ne.Message}
	}
	return &apiError{Code: string(hall.ErrorCode(err)), Message: hall.ErrorMessage(err)}
}

// tournamentCodes are the API's codes of the tournaments' refusals.
var tournamentCodes = map[tournament.Code]string{
	tournament.Invalid:   codeInvalid,
	tournament.NotFound:  codeNotFound,
	tournament.Forbidden: codeForbidden,
	tournament.Conflict:  codeConflict,
	tournament.TooMany:   codeRateLimited,
	tournament.Banned:    codeBanned,
}

// lobbyCodes are the API's codes of the lobby's refusals (whose statuses
// are statusOf's).
var lobbyCodes = map[lobby.Code]string{
	lobby.Invalid:   codeInvalid,
	lobby.BadQuery:  codeBadRequest,
	lobby.NotFound:  codeNotFound,
	lobby.Forbidden: codeForbidden,
	lobby.OwnSeek:   codeOwnSeek,
	lobby.Conflict:  codeConflict,
	lobby.TooMany:   codeRateLimited,
	lobby.Blocked:   codeBlocked,
	lobby.Banned:    codeBanned,
}

// accountCodes are the API's codes of the account service's refusals
// (whose statuses are statusOf's; a TooMany refusal's wait is its
// Retry-After, see retryHeader).
var accountCodes = map[accounts.Code]string{
	accounts.Invalid:   codeInvalid,
	accounts.NameTaken: codeNameTaken,
	accounts.BadLogin:  codeBadLogin,
	accounts.TooMany:   codeRateLimited,
	accounts.NotFound:  codeNotFound,
	accounts.Forbidden: codeForbidden,
	accounts.Conflict:  codeConflict,
}

// communityCodes are the API's codes of the community service's
// refusals.
var communityCodes = map[community.Code]string{
	community.Invalid:   codeInvalid,
	community.NotFound:  codeNotFound,
	community.Forbidden: codeForbidden,
	community.Blocked:   codeBlocked,
	community.Muted:     codeMuted,
	community.Banned:    codeBanned,
	community.TooMany:   codeRateLimited,
}

// notifyCodes are the API's codes of the notification service's
// refusals.
var notifyCodes = map[notify.Code]string{
	notify.Invalid:     codeInvalid,
	notify.NotFound:    codeNotFound,
	notify.Conflict:    codeConflict,
	notify.TooMany:     codeRateLimited,
	notify.Unavailable: codeUnavailable,
}

// retryHeader sets Retry-After for a refusal that says how long to wait
// (the account service's, the notification service's).
func retryHeader(w http.ResponseWriter, err error) {
	var ace *accounts.Error
	if errors.As(err, &ace) && ace.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfter(ace.RetryAfter))
	}
	var ne *notify.Error
	if errors.As(err, &ne) && ne.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfter(ne.RetryAfter))
	}
}

// learnCode is the API's code of a refusal of the tutorials.
func learnCode(c learn.Code) string {
	switch c {
	case learn.NoTutorial, learn.NoStep:
		return codeNotFound
	case learn.IllegalMove:
		return codeIllegalMove
	}
	return codeInternal
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err *apiError) {
	writeJSON(w, status(err), map[string]*apiError{"error": err})
}
