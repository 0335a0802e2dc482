package learn

import "fmt"

// Code says what kind of refusal an Error is; a transport maps each code
// to its own answer (the server to an HTTP status).
type Code string

// The refusals of the tutorials.
const (
	NoTutorial  Code = "no_tutorial"  // no tutorial of that family
	NoStep      Code = "no_step"      // the tutorial has no step of that number
	IllegalMove Code = "illegal_move" // a move that is not legal on the step, or not a move
)

// Error is a refusal: a code and a one-line message saying what is wrong
// and what is allowed. Errors that are not an *Error are bugs.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
