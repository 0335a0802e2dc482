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

// Forms are the keys a password is looked up by, in lower case: whole;
// without punctuation and symbols at its ends ("#123456!" → "123456");
// without digits, punctuation and symbols at its end ("Password123!" →
// "password"), at its start ("1qaz2wsx" → "qaz2wsx"), at both ends
// ("1Password!" → "password"). Empty forms and repeats are left out. So
// every capitalisation of a key, and every run of digits or punctuation
// around it, is refused without the list holding it.
func Forms(password string) []string {
	lower := strings.ToLower(password)
	forms := []string{lower}
	add := func(f string) {
		if f != "" && !contains(forms, f) {
			forms = append(forms, f)
		}
	}
	add(strings.TrimFunc(lower, punct))
	right := strings.TrimRightFunc(lower, punctOrDigit)
	add(right)
	add(strings.TrimLeftFunc(lower, punctOrDigit))
	add(strings.TrimLeftFunc(right, punctOrDigit))
	return forms
}

// Key is the one form of a seed the list stores, so that every string
// whose Forms include it is refused, the seed among them: the letters left
// after trimming digits and punctuation at both ends; for a number, the
// digits without punctuation round them; for punctuation alone, itself.
func Key(seed string) string {
	lower := strings.ToLower(seed)
	if k := strings.TrimFunc(lower, punctOrDigit); k != "" {
		return k
	}
	if k := strings.TrimFunc(lower, punct); k != "" {
		return k
	}
	return lower
}

func contains(forms []string, f string) bool {
	for _, g := range forms {
		if g == f {
			return true
		}
	}
	return false
}

func punct(r rune) bool {
	return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
}

func punctOrDigit(r rune) bool { return unicode.IsDigit(r) || punct(r) }
