package clip

import (
	"strconv"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	a80 := strings.Repeat("a", 80)
	e80 := strings.Repeat("é", 80)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"short", "a1-a2", `"a1-a2"`},
		{"exactly 80", a80, strconv.Quote(a80)},
		{"81 is cut", a80 + "b", strconv.Quote(a80) + "…"},
		{"multibyte counts runes", e80 + "é", strconv.Quote(e80) + "…"},
		{"80 multibyte runes are whole", e80, strconv.Quote(e80)},
		{"invalid UTF-8", "a\xffb", `"a\xffb"`},
		{"invalid UTF-8 cut by bytes", strings.Repeat("\xff", 81), strconv.Quote(strings.Repeat("\xff", 80)) + "…"},
		{"a rune is never split", strings.Repeat("a", 79) + "日本", strconv.Quote(strings.Repeat("a", 79)+"日") + "…"},
		{"60 KB", strings.Repeat("a1-", 20_000), strconv.Quote(strings.Repeat("a1-", 27)[:80]) + "…"},
		{"control characters are escaped", "a\nb", `"a\nb"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote(tc.in); got != tc.want {
				t.Errorf("Quote(%.20q…) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestQuoteIsShort: whatever the input, the quote stays a line of bounded
// length (every rune escaped at its longest, \U0001f600 or \xff, is 10 bytes).
func TestQuoteIsShort(t *testing.T) {
	for _, in := range []string{strings.Repeat("\x00", 1e5), strings.Repeat("\U0001f600", 1e5), strings.Repeat("\xff", 1e5)} {
		got := Quote(in)
		if len(got) > 10*Max+2+len("…") || strings.Contains(got, "\n") {
			t.Errorf("Quote of %d bytes gave %d bytes", len(in), len(got))
		}
	}
}

func TestBare(t *testing.T) {
	a81 := strings.Repeat("a", 81)
	tests := []struct{ in, want string }{
		{"", ""},
		{"NaN", "NaN"},
		{"a1-a3", "a1-a3"},
		{strings.Repeat("a", 80), strings.Repeat("a", 80)},
		{a81, strconv.Quote(a81[:80]) + "…"},
		{"a b", "a b"},
		{"a\tb", `"a\tb"`},
		{"a\xffb", `"a\xffb"`},
		{`a"b`, `"a\"b"`},
	}
	for _, tc := range tests {
		if got := Bare(tc.in); got != tc.want {
			t.Errorf("Bare(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
