package account

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/account/internal/commonpw"
)

func TestCheckPassword(t *testing.T) {
	p := NewPasswords()
	good := "tAng0-Vel0cipede"
	tests := []struct {
		label, password, name string
		want                  error // nil: accepted
	}{
		{"7 runes", "xk4-Wq9", "someone", ErrPasswordShort},
		{"8 runes", "xk4-Wq9z", "someone", nil},
		{"empty", "", "someone", ErrPasswordShort},
		{"256 runes", strings.Repeat("xk4-Wq9z", 32), "someone", nil},
		{"257 runes", strings.Repeat("xk4-Wq9z", 32) + "!", "someone", ErrPasswordLong},
		{"8 multibyte runes, 24 bytes", "日本語のパスワ語", "someone", nil},
		{"7 multibyte runes, 21 bytes", "日本語のパスワ", "someone", ErrPasswordShort},
		{"256 multibyte runes", strings.Repeat("éß日本", 64), "someone", nil},
		{"257 multibyte runes", strings.Repeat("éß日本", 64) + "é", "someone", ErrPasswordLong},
		{"invalid UTF-8", "xk4-Wq9z\xff", "someone", ErrPasswordInvalid},
		{"common", "password", "someone", ErrPasswordCommon},
		{"common, capitalised", "PassWord", "someone", ErrPasswordCommon},
		{"common with digits and punctuation", "Password123!", "someone", ErrPasswordCommon},
		{"common with a year", "Dragon1987", "someone", ErrPasswordCommon},
		{"common with leading digits", "123iloveyou", "someone", ErrPasswordCommon},
		{"common leetspeak", "P@ssw0rd!", "someone", ErrPasswordCommon},
		{"digits", "12345678", "someone", ErrPasswordCommon},
		{"digits with punctuation", "123456789!", "someone", ErrPasswordCommon},
		{"keyboard walk", "qwertyuiop", "someone", ErrPasswordCommon},
		{"keyboard column walk", "1qaz2wsx", "someone", ErrPasswordCommon},
		{"a date", "14071989", "someone", ErrPasswordCommon},
		{"repeated digits", "19901990", "someone", ErrPasswordCommon},
		{"common inside a longer one is fine", "mydragonflyisgreen", "someone", nil},
		{"same as name", "Checkers-99", "checkers-99", ErrPasswordSameAsName},
		{"contains name", "xx" + "Zorro42" + "yy", "zorro42", ErrPasswordHasName},
		{"contains name of 4", "vw-ABCD-vw", "abcd", ErrPasswordHasName},
		{"contains a name of 3: allowed", "vw-ABC-vwxy", "abc", nil},
		{"good", good, "someone", nil},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			err := p.Check(tc.password, tc.name)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("Check(%q, %q) = %v, want %v", tc.password, tc.name, err, tc.want)
			}
		})
	}
}

// TestCheckPasswordNeverQuoted: no refusal's message holds the password,
// which would then reach logs.
func TestCheckPasswordNeverQuoted(t *testing.T) {
	p := NewPasswords()
	for _, pw := range []string{"Zq7", "Zq7" + strings.Repeat("x", 300), "Zq7xxxxx\xff", "Zq7-Longname", "Zq7-longname-Zq7"} {
		err := p.Check(pw, "Zq7-longname")
		if err == nil || strings.Contains(err.Error(), "Zq7") {
			t.Errorf("Check(%.20q, Zq7-longname) = %v: want a refusal that does not quote the password", pw, err)
		}
	}
}

// TestCommonSeeds: every seed is refused, whatever its case and suffix.
func TestCommonSeeds(t *testing.T) {
	p := NewPasswords()
	seeds := readSeeds(t)
	for _, s := range seeds {
		variants := []string{s, strings.ToUpper(s), s + "2024!", "#" + s + "1"}
		if strings.TrimLeft(s, "0123456789") == "" {
			variants = []string{s, s + "!", "#" + s} // more digits make another number
		}
		for _, v := range variants {
			if !p.Common(v) {
				t.Errorf("Common(%q) = false; the seed is %q", v, s)
			}
		}
	}
	if p.Len() < len(seeds) || p.Len() > 200_000 {
		t.Errorf("the list holds %d keys from %d seeds", p.Len(), len(seeds))
	}
}

// TestCommonListIsFresh: common.txt is what `go generate` makes of
// seeds.txt, sorted, one key a line, under 1 MB.
func TestCommonListIsFresh(t *testing.T) {
	want := strings.Join(commonpw.Expand(readSeeds(t)), "\n") + "\n"
	if commonText != want {
		t.Fatalf("common.txt (%d bytes) is not what seeds.txt gives (%d bytes): run go generate ./account", len(commonText), len(want))
	}
	if len(commonText) > 1<<20 {
		t.Errorf("common.txt is %d bytes, over 1 MiB", len(commonText))
	}
}

func readSeeds(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("seeds.txt")
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := commonpw.ParseSeeds(string(src))
	if err != nil || len(seeds) < 300 {
		t.Fatalf("seeds.txt: %d seeds, %v", len(seeds), err)
	}
	return seeds
}
