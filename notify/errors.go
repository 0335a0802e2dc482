package notify

import (
	"fmt"
	"time"
)

// Code says what kind of refusal an Error is. The transport maps each
// code to its own answer in one table; the service never names a status.
type Code string

// The refusals of the notification service.
const (
	Invalid     Code = "invalid"      // a choice, an address, a subscription or a token the rules refuse
	NotFound    Code = "not_found"    // no such subscription
	Conflict    Code = "conflict"     // the address is another account's
	TooMany     Code = "rate_limited" // too many subscriptions, verifications or resets
	Unavailable Code = "unavailable"  // the site sends no e-mail
)

// Error is a refusal: a code, a one-line message saying what is wrong
// and what is allowed, and for TooMany, when known, how long to wait.
// Errors that are not an *Error are the store's failures.
type Error struct {
	Code       Code
	Message    string
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
