package analysis

import (
	"fmt"
	"time"
)

// Code says what kind of refusal an Error is; the transport maps each to
// its own answer.
type Code string

// The refusals of the analysis.
const (
	// RateLimited: the client used its search time, or runs a search
	// already; RetryAfter says when its budget suffices again.
	RateLimited Code = "rate_limited"
	// Busy: every analysis worker is taken and the wait ran out, or too
	// many searches wait already.
	Busy Code = "busy"
	// ShuttingDown: the service is closing.
	ShuttingDown Code = "shutting_down"
)

// Error is a refusal: a code, a one-line message, and for RateLimited
// how long to wait.
type Error struct {
	Code       Code
	Message    string
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func errorf(code Code, retry time.Duration, format string, args ...any) *Error {
	return &Error{Code: code, RetryAfter: retry, Message: fmt.Sprintf(format, args...)}
}
