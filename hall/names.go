package hall

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// MaxNameLength bounds a player's name, in characters (after NFC).
const MaxNameLength = 40

// checkName is a player's name as the hall keeps it: trimmed, in Unicode
// normal form C, at most MaxNameLength characters, with no control or
// invisible formatting characters (bidi overrides and isolates, zero-width
// spaces and joiners, DEL, line separators), no private-use and no
// invalid UTF-8, so that no name can pass for another in a list.
func checkName(what, name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", Errorf(Invalid, "%s: not valid UTF-8", what)
	}
	name = strings.TrimSpace(norm.NFC.String(name))
	if n := utf8.RuneCountInString(name); n > MaxNameLength {
		return "", Errorf(Invalid, "%s: %d characters; at most %d", what, n, MaxNameLength)
	}
	if i := strings.IndexFunc(name, hiddenRune); i >= 0 {
		r, _ := utf8.DecodeRuneInString(name[i:])
		return "", Errorf(Invalid, "%s: character %U is not allowed in a name (control, invisible or formatting characters)", what, r)
	}
	return name, nil
}

// hiddenRune reports a character that prints nothing, reorders text or
// is not a character: controls (Cc, DEL included), formatting (Cf: bidi
// marks, overrides and isolates, zero-width characters, soft hyphen),
// line and paragraph separators, private use, surrogates, and the
// replacement character.
func hiddenRune(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) ||
		r == utf8.RuneError || unicode.IsSpace(r) && r != ' '
}

// quote quotes a client's text in a message: at most 80 characters of it.
func quote(s string) string { return clip.Quote(s) }
