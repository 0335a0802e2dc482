// Package account holds the rules of player accounts without HTTP or a
// database: which names and passwords are accepted, how passwords are hashed
// (Argon2id) and checked, how repeated failed logins are throttled, and how
// session tokens are made. The server's HTTP layer calls it; the store keeps
// what it returns.
package account

// Code is the reason a name or a password is refused. It is an error itself
// so that errors.Is(err, account.ErrNameReserved) reads naturally; the server
// sends it as the API's error code (422).
type Code string

// The refusals, one per rule.
const (
	ErrNameInvalid        Code = "name_invalid"
	ErrNameReserved       Code = "name_reserved"
	ErrPasswordInvalid    Code = "password_invalid"
	ErrPasswordShort      Code = "password_short"
	ErrPasswordLong       Code = "password_long"
	ErrPasswordCommon     Code = "password_common"
	ErrPasswordSameAsName Code = "password_same_as_name"
	ErrPasswordHasName    Code = "password_contains_name"
)

func (c Code) Error() string { return string(c) }

// Error is a refusal: a Code and a message for a person. A message quotes at
// most 80 characters of a name (internal/clip) and never any of a password.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// Is makes errors.Is(err, code) true for an *Error of that code.
func (e *Error) Is(target error) bool {
	c, ok := target.(Code)
	return ok && c == e.Code
}

func refuse(code Code, message string) error {
	return &Error{Code: code, Message: message}
}
