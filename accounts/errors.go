package accounts

import (
	"fmt"
	"strconv"
	"time"
)

// Code says what kind of refusal an Error is. The transport maps each
// code to its own answer (an HTTP status and the API's code) in one
// table; the service never names a status. The codes the hall has too
// (invalid, not_found, forbidden) mean what they mean there.
type Code string

// The refusals of the service.
const (
	Invalid   Code = "invalid"      // a name, a password, a passkey or a claim the rules refuse
	NameTaken Code = "name_taken"   // another account has the name, ignoring case
	BadLogin  Code = "bad_login"    // a wrong name or password (or passkey), whichever it was
	TooMany   Code = "rate_limited" // too many hashes, sign-ups, failed logins or exports at once
	NotFound  Code = "not_found"    // no such player, passkey or ceremony
	Forbidden Code = "forbidden"    // a ceremony that is another account's, or of the other kind; a bot's login
	Conflict  Code = "conflict"     // an account that cannot turn into a bot (it played, or is one already)
)

// Error is a refusal: a code, a one-line message saying what is wrong
// and what is allowed, and for TooMany how long to wait. Errors that are
// not an *Error are failures of the store, of the hasher, or of the
// games (whose refusals are the hall's).
type Error struct {
	Code    Code
	Message string
	// RetryAfter, when not zero, is how long until the refused work may
	// be admitted.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// tooMany is a TooMany refusal that waits wait; the message's "%s" is
// the wait in whole seconds.
func tooMany(wait time.Duration, format string) *Error {
	e := refuse(TooMany, format, Seconds(wait))
	e.RetryAfter = wait
	return e
}

// Seconds is a wait in whole seconds, rounded up, as a refusal (and a
// Retry-After header) gives it.
func Seconds(wait time.Duration) string {
	return strconv.Itoa(int((wait + time.Second - 1) / time.Second))
}
