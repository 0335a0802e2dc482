package hall

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
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

// checkAnonymousName is checkName for a seat played without an account,
// which must not pass for an account: a name that folds (foldName) to an
// account's name or to a name the site reserves (admin, ai-level-6, any
// "ai-"...) is refused, so that "alice", "ALICE" and "Ａｌｉｃｅ" are
// Alice's alone.
func (h *Hall) checkAnonymousName(ctx context.Context, what, name string) (string, error) {
	name, err := checkName(what, name)
	if err != nil || name == "" {
		return name, err
	}
	key := foldName(name)
	if account.Reserved(key) {
		return "", Errorf(Invalid, "%s %s: the name is kept for the site and its AI levels; choose another", what, quote(name))
	}
	switch _, err := h.store.AccountByName(ctx, key); {
	case err == nil:
		return "", Errorf(Invalid, "%s %s: an account has that name; sign in to play as it, or choose another", what, quote(name))
	case !errors.Is(err, store.ErrNoAccount):
		return "", err
	}
	return name, nil
}

// foldName is a name as it reads at a glance: compatibility characters
// as their plain forms (NFKC: full-width "Ａ" is "A", "ﬁ" is "fi"),
// every dash as '-', and case folded (cases.Fold: "ALICE" and "ſam" are
// "alice" and "sam"). Account names are ASCII keys (account.Key), so an
// anonymous name that folds to one would pass for that account.
func foldName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Pd, r) {
			return '-'
		}
		return r
	}, norm.NFKC.String(name))
	return cases.Fold().String(name)
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
