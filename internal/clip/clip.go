// Package clip shortens user input before an error message quotes it back,
// so that a request of megabytes cannot make a log line, a response or a
// terminal line of megabytes.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// Max is the most runes of input that Quote keeps.
const Max = 80

// Quote is strconv.Quote of at most the first Max runes of s, followed by
// "…" outside the quotes when s was cut. Invalid UTF-8 is quoted byte by
// byte as strconv.Quote does; each invalid byte counts as one rune.
func Quote(s string) string {
	cut, ok := prefix(s, Max)
	if ok {
		return strconv.Quote(s)
	}
	return strconv.Quote(cut) + "…"
}

// Bare is s as it is when it is short (at most Max runes) and plain
// (nothing in it that strconv.Quote would escape), else Quote(s): for
// messages that show a short value bare, as in "c=NaN", without letting a
// long or odd one through.
func Bare(s string) string {
	if _, whole := prefix(s, Max); whole && strconv.Quote(s) == `"`+s+`"` {
		return s
	}
	return Quote(s)
}

// prefix returns the first n runes of s, and whether that is all of s.
func prefix(s string, n int) (string, bool) {
	i := 0
	for range n {
		if i == len(s) {
			return s, true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i], i == len(s)
}
