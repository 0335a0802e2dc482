package commonpw

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Years are the years of the dates the list holds (birthdays and the like).
const (
	FirstYear = 1950
	LastYear  = 2030
)

// minKey is the least length of a key made from letters: shorter ones
// ("ab" from "ab123456") would refuse too much of what merely starts so.
const minKey = 3

// minDigits is the least length of a key of digits alone; shorter ones can
// only match a password of 8 or more characters by its trailing symbols.
const minDigits = 6

// leet are the look-alike substitutions people make for a letter.
func leet(letter rune) string {
	switch letter {
	case 'a':
		return "@4"
	case 'e':
		return "3"
	case 'i':
		return "1!"
	case 'o':
		return "0"
	case 's':
		return "$5"
	case 't':
		return "7"
	case 'l':
		return "1"
	}
	return ""
}

// maxLeet bounds the look-alike variants of one seed (a long word with
// every substitutable letter would otherwise give hundreds).
const maxLeet = 256

// ParseSeeds reads the seed file: one seed a line; blank lines and lines
// starting with '#' are comments. A seed must be valid UTF-8 without spaces
// at its ends.
func ParseSeeds(text string) ([]string, error) {
	var seeds []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if !utf8.ValidString(s) || strings.TrimSpace(s) != s {
			return nil, fmt.Errorf("seeds line %d: %q is not a clean seed", line, s)
		}
		seeds = append(seeds, s)
	}
	return seeds, sc.Err()
}

// Expand makes the list's keys, sorted and without repeats, from the seeds:
// each seed, its look-alike (leetspeak) variants and, when short, itself
// twice; keyboard walks (also twice); letters and digits in step
// ("a1b2c3"); dates of the years FirstYear to LastYear; and runs of
// repeated or consecutive digits. Capitalisations and digit or year suffixes need no entries: Forms
// folds them away at lookup.
func Expand(seeds []string) []string {
	keys := make([]string, 0, 1<<17)
	add := func(s string) {
		if k := Key(s); keep(k) {
			keys = append(keys, k)
		}
	}
	for _, s := range seeds {
		add(s)
		add(doubled(s))
		for _, v := range leetVariants(strings.ToLower(s)) {
			add(v)
		}
	}
	for _, s := range keyboardWalks() {
		add(s)
		add(doubled(s))
	}
	for _, s := range alternations() {
		add(s)
	}
	for _, s := range dates() {
		add(s)
	}
	for _, s := range digitRuns() {
		add(s)
	}
	slices.Sort(keys)
	return slices.Clip(slices.Compact(keys))
}

func keep(key string) bool {
	if strings.IndexFunc(key, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return len(key) >= minDigits
	}
	return utf8.RuneCountInString(key) >= minKey
}

// leetVariants are word with some of its letters swapped for look-alikes:
// every choice per kind of letter (all its a's stay, or all become '@', or
// all become '4'), at most maxLeet of them, the seed itself excluded.
func leetVariants(word string) []string {
	variants := []string{word}
	for _, letter := range "aeiostl" {
		if !strings.ContainsRune(word, letter) {
			continue
		}
		var next []string
		for _, v := range variants {
			next = append(next, v)
			for _, sub := range leet(letter) {
				next = append(next, strings.ReplaceAll(v, string(letter), string(sub)))
			}
		}
		if len(next) > maxLeet {
			next = next[:maxLeet]
		}
		variants = next
	}
	return variants[1:]
}

// maxDoubled is the longest seed that is also stored doubled ("passpass",
// "asdfasdf"): a longer word typed twice is rare, and would double the
// list.
const maxDoubled = 6

// doubled is a short seed written twice, or "" for a longer one.
func doubled(seed string) string {
	if utf8.RuneCountInString(seed) > maxDoubled {
		return ""
	}
	return seed + seed
}

// alternations are letters and digits in step: "a1b2c3d4", "1a2b3c", 3 to
// 6 pairs each way.
func alternations() []string {
	var out []string
	for n := 3; n <= 6; n++ {
		var letterFirst, digitFirst strings.Builder
		for i := range n {
			letter, digit := byte('a'+i), byte('1'+i)
			letterFirst.Write([]byte{letter, digit})
			digitFirst.Write([]byte{digit, letter})
		}
		out = append(out, letterFirst.String(), digitFirst.String())
	}
	return out
}

// keyboardRows are the rows of the common layouts (QWERTY, AZERTY, QWERTZ).
var keyboardRows = [...]string{
	"1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm",
	"azertyuiop", "qsdfghjklm", "wxcvbn", "qwertzuiop", "yxcvbnm",
	"!@#$%^&*()",
}

// keyboardWalks are runs of 4 or more keys along a row, both ways, and
// walks down the columns of the QWERTY layout ("1qaz2wsx", "qazwsx",
// "1q2w3e4r").
func keyboardWalks() []string {
	var walks []string
	for _, row := range keyboardRows {
		for _, r := range []string{row, reverse(row)} {
			for i := 0; i < len(r); i++ {
				for j := i + 4; j <= len(r); j++ {
					walks = append(walks, r[i:j])
				}
			}
		}
	}
	digits, top, home, bottom := keyboardRows[0], keyboardRows[1], keyboardRows[2], keyboardRows[3]
	for start := 0; start < len(bottom); start++ {
		var down, downNoDigit, zigzag strings.Builder
		for c := start; c < len(bottom) && c < start+5; c++ {
			fmt.Fprintf(&down, "%c%c%c%c", digits[c], top[c], home[c], bottom[c])
			fmt.Fprintf(&downNoDigit, "%c%c%c", top[c], home[c], bottom[c])
			fmt.Fprintf(&zigzag, "%c%c", digits[c], top[c])
			walks = append(walks, down.String(), downNoDigit.String(), zigzag.String())
		}
	}
	return walks
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// dates are the days of the years FirstYear to LastYear as DDMMYYYY and
// MMDDYYYY, the forms birthdays take as passwords.
func dates() []string {
	var out []string
	for y := FirstYear; y <= LastYear; y++ {
		for m := 1; m <= 12; m++ {
			for d := 1; d <= daysIn(m, y); d++ {
				out = append(out, digits(d, 2)+digits(m, 2)+digits(y, 4), digits(m, 2)+digits(d, 2)+digits(y, 4))
			}
		}
	}
	return out
}

// digits is n in width decimal digits, zeros in front.
func digits(n, width int) string {
	b := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b)
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digitRuns are blocks of 1 to 4 digits repeated to 8, 9, 10 or 12 digits
// ("11111111", "12121212", "123123123", "19901990"), and runs of consecutive
// digits up or down, wrapping round, 6 to 12 long ("34567890", "98765432").
func digitRuns() []string {
	var out []string
	for block := 1; block <= 4; block++ {
		limit := 1
		for range block {
			limit *= 10
		}
		for n := range limit {
			b := digits(n, block)
			for _, length := range []int{8, 9, 10, 12} {
				if length%block == 0 {
					out = append(out, strings.Repeat(b, length/block))
				}
			}
		}
	}
	for start := range 10 {
		for length := 6; length <= 12; length++ {
			var up, down strings.Builder
			for i := range length {
				up.WriteByte(byte('0' + (start+i)%10))
				down.WriteByte(byte('0' + (start-i+100)%10))
			}
			out = append(out, up.String(), down.String())
		}
	}
	return out
}
