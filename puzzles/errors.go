package puzzles

import (
	"errors"
	"fmt"
	"time"
)

// Code says what kind of refusal an Error is; the transport maps each
// code to its own answer, the service never names a status.
type Code string

// The refusals of the service.
const (
	NotFound Code = "not_found"    // no such game id or puzzle id
	Invalid  Code = "invalid"      // a theme, rating, streak or mode the rules refuse
	TooMany  Code = "rate_limited" // the account's attempts this hour are used up
)

// Error is a refusal: a code and a one-line message saying what is wrong
// and what is allowed. Errors that are not an *Error are the store's.
type Error struct {
	Code    Code
	Message string
	// RetryAfter, for TooMany, is how long until one more attempt is
	// admitted.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode is err's Code, or "" when it is not a refusal.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
