package account

//go:generate go run gen_common.go

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/account/internal/commonpw"
)

// Password lengths, in characters (runes).
const (
	PasswordMin = 8
	PasswordMax = 256
)

// minNameInPassword is the least name length for which a password that
// merely contains the name is refused; a shorter name ("ed") is too likely
// to turn up by chance.
const minNameInPassword = 4

// commonText is the common-password list: sorted keys, one a line, made by
// `go generate` from seeds.txt.
//
//go:embed common.txt
var commonText string

// Passwords checks passwords against the rules and the common-password
// list. Make one with NewPasswords and share it: it is read-only.
type Passwords struct {
	common []string // sorted keys of the list
}

// NewPasswords reads the embedded list (about a millisecond).
func NewPasswords() *Passwords {
	return &Passwords{common: strings.Split(strings.TrimSuffix(commonText, "\n"), "\n")}
}

// Len is the number of keys in the list.
func (p *Passwords) Len() int { return len(p.common) }

// Common tells whether a password is on the list, whatever its case and
// whatever digits or punctuation it has at either end.
func (p *Passwords) Common(password string) bool {
	for _, form := range commonpw.Forms(password) {
		if _, found := slices.BinarySearch(p.common, form); found {
			return true
		}
	}
	return false
}

// Check refuses a password for the account name: not UTF-8
// (ErrPasswordInvalid), fewer than 8 or more than 256 characters
// (ErrPasswordShort, ErrPasswordLong), the name itself in any case
// (ErrPasswordSameAsName), containing a name of 4 or more characters
// (ErrPasswordHasName), on the common list (ErrPasswordCommon). Messages
// never quote the password.
func (p *Passwords) Check(password, name string) error {
	if !utf8.ValidString(password) {
		return refuse(ErrPasswordInvalid, "the password is not valid UTF-8 text")
	}
	n := utf8.RuneCountInString(password)
	switch {
	case n < PasswordMin:
		return refuse(ErrPasswordShort, fmt.Sprintf("the password has %d characters: it needs at least %d", n, PasswordMin))
	case n > PasswordMax:
		return refuse(ErrPasswordLong, fmt.Sprintf("the password has %d characters: at most %d are allowed", n, PasswordMax))
	}
	lower, key := strings.ToLower(password), Key(name)
	switch {
	case key != "" && lower == key:
		return refuse(ErrPasswordSameAsName, "the password is the account's name")
	case len(key) >= minNameInPassword && strings.Contains(lower, key):
		return refuse(ErrPasswordHasName, "the password contains the account's name")
	case p.Common(password):
		return refuse(ErrPasswordCommon, "the password is too common: it is on the list of the passwords people use most (whatever the case and the digits around it)")
	}
	return nil
}
