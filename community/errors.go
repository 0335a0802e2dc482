package community

import "fmt"

// Code says what kind of refusal an Error is. The transport maps each
// code to its own answer in one table; the service never names a status.
type Code string

// The refusals of the community service.
const (
	Invalid   Code = "invalid"      // a message, reason or action that breaks the rules
	NotFound  Code = "not_found"    // no such account, game, message or report
	Forbidden Code = "forbidden"    // a room or a page the account may not use
	Blocked   Code = "blocked"      // the other account blocks this one, or this one blocks it
	Muted     Code = "muted"        // a moderator muted the account
	Banned    Code = "banned"       // a moderator banned the account
	TooMany   Code = "rate_limited" // over the messages a minute, the blocks or the open reports
)

// Error is a refusal: a code and a one-line message saying what is wrong
// and what is allowed. Errors that are not an *Error are the store's
// failures.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
