package lobby

import "fmt"

// Code says what kind of refusal an Error is. The transport maps each
// code to its own answer (an HTTP status and the API's code) in one
// table; the lobby never names a status. The codes the hall has too
// (invalid, not_found, forbidden, conflict) mean what they mean there.
type Code string

// The refusals of the lobby.
const (
	Invalid   Code = "invalid"        // a seek the rules do not allow, or a challenge to no one
	BadQuery  Code = "bad_query"      // a list's filter, cursor or limit that is malformed
	NotFound  Code = "not_found"      // no such open seek (or none of the account's)
	Forbidden Code = "forbidden"      // accepting a challenge to another player
	OwnSeek   Code = "own_seek"       // accepting one's own seek
	Conflict  Code = "conflict"       // another joined the seek at the same moment
	TooMany   Code = "too_many_seeks" // the account or the address has as many open seeks as allowed
	Blocked   Code = "blocked"        // a block stands between the two accounts
	Banned    Code = "banned"         // a moderator banned the account
)

// Error is a refusal: a code and a one-line message saying what is wrong
// and what is allowed. Errors that are not an *Error are failures of the
// store or of the hall (whose refusals are *hall.Error).
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
