// Package commonpw is the shared part of the common-password list: how a
// password is brought to the keys the list holds (Forms), and how the list
// is made from the hand-written seeds (Expand). Package account looks keys
// up; the generator (account/gen_common.go) writes the list; a test checks
// that the two agree.
package commonpw

import (
	"strings"
	"unicode"
)

// Forms are the keys a password is looked up by: in lower case; without its
// trailing digits, punctuation and symbols ("Password123!" → "password");
// and without those at both ends ("1Password!" → "password"). Empty forms
// and repeats are left out. Every capitalisation and every run of digits or
// punctuation around a key is so refused without the list holding it.
func Forms(password string) []string {
	lower := strings.ToLower(password)
	forms := []string{lower}
	right := strings.TrimRightFunc(lower, stripped)
	if right != "" && right != lower {
		forms = append(forms, right)
	}
	both := strings.TrimLeftFunc(right, stripped)
	if both != "" && both != right {
		forms = append(forms, both)
	}
	return forms
}

// Key is the one form of a seed the list stores: trimmed at both ends when
// that leaves something, else (digits or punctuation alone) lowered whole.
// Every string whose Forms include Key(s) is refused, which covers s.
func Key(seed string) string {
	forms := Forms(seed)
	return forms[len(forms)-1]
}

func stripped(r rune) bool {
	return unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
}
