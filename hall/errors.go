package hall

import (
	"errors"
	"fmt"
)

// Code says what kind of refusal an Error is. The transport maps each
// code to its own answer (an HTTP status, a line on a terminal) in one
// table; the hall never names a status.
type Code string

// The refusals of the hall.
const (
	Invalid      Code = "invalid"       // values that are not allowed (an unknown game, a bad seat spec)
	NotFound     Code = "not_found"     // no such game
	Forbidden    Code = "forbidden"     // a token of no seat of this game
	NotYourTurn  Code = "not_your_turn" // another seat is to move
	WrongPly     Code = "wrong_ply"     // the move is for another ply
	GameOver     Code = "game_over"     // the game has ended
	Conflict     Code = "conflict"      // the request does not fit the game's state
	IllegalMove  Code = "illegal_move"  // an illegal or malformed move
	ShuttingDown Code = "shutting_down" // the hall is stopping
	Busy         Code = "busy"          // every AI worker is taken; try again soon
	OverBudget   Code = "over_budget"   // the engines would pass the AI memory budget
	Internal     Code = "internal"      // the store failed, or a bug
)

// Error is a refusal: a code and a one-line message saying what is wrong
// and what is allowed. Errors that are not an *Error are failures of the
// store or of the hall itself.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf makes a refusal.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode is the code of err: its own when it is (or wraps) an *Error,
// Internal for any other error, "" for nil.
func ErrorCode(err error) Code {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return Internal
}

// ErrorMessage is the message of a refusal, or a generic one for a
// failure that must not reach a client in its own words.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "the server could not complete the request; try again"
}
