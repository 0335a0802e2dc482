package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// The error codes the API answers with, and the one table that maps each
// to its HTTP status: handlers name a code, never a status.
const (
	codeBadRequest   = "bad_request"   // a body that is not the JSON asked for
	codeUnauthorized = "unauthorized"  // no token
	codeForbidden    = "forbidden"     // a token of no seat of this game
	codeNotFound     = "not_found"     // no such game, board or page
	codeNotYourTurn  = "not_your_turn" // another seat is to move
	codeWrongPly     = "wrong_ply"     // the move is for another ply
	codeGameOver     = "game_over"     // the game has ended
	codeConflict     = "conflict"      // the request does not fit the game's state
	codeTooLarge     = "too_large"     // a body over the limit
	codeIllegalMove  = "illegal_move"  // an illegal or malformed move
	codeInvalid      = "invalid"       // well-formed JSON with values that are not allowed
	codeRateLimited  = "rate_limited"  // too many requests from one client
	codeShutdown     = "shutting_down" // the server is stopping
	codeUnavailable  = "unavailable"   // the store cannot be used
	codeInternal     = "internal"      // the store failed
)

var statusOf = map[string]int{
	codeBadRequest:   http.StatusBadRequest,
	codeUnauthorized: http.StatusUnauthorized,
	codeForbidden:    http.StatusForbidden,
	codeNotFound:     http.StatusNotFound,
	codeNotYourTurn:  http.StatusConflict,
	codeWrongPly:     http.StatusConflict,
	codeGameOver:     http.StatusConflict,
	codeConflict:     http.StatusConflict,
	codeTooLarge:     http.StatusRequestEntityTooLarge,
	codeIllegalMove:  http.StatusUnprocessableEntity,
	codeInvalid:      http.StatusUnprocessableEntity,
	codeRateLimited:  http.StatusTooManyRequests,
	codeShutdown:     http.StatusServiceUnavailable,
	codeUnavailable:  http.StatusServiceUnavailable,
	codeInternal:     http.StatusInternalServerError,
}

// apiError is a refusal: a code from the table and a one-line message
// saying what is wrong and what is allowed.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

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

// asAPIError makes any error a refusal; an error that is not one already
// is the store's or the server's fault.
func asAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	return fail(codeInternal, "the server could not complete the request; try again")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err *apiError) {
	writeJSON(w, status(err), map[string]*apiError{"error": err})
}
