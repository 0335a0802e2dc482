package hall

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestCheckName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ann", "Ann"}, {"  Ann  ", "Ann"}, {"", ""}, {"José", "José"}, {"Jose\u0301", "José"},
		{strings.Repeat("é", 40), strings.Repeat("é", 40)}, {"李小龙", "李小龙"}, {"Ann Bob", "Ann Bob"},
	} {
		got, err := checkName("name", c.in)
		if err != nil || got != c.want {
			t.Errorf("checkName(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"Ann\u202eeve", "A\u200bnn", "A\u200dnn", "Ann\x7f", "Ann\xff", "An\u2066n", "Ann\u00ad",
		"Ann\ufeff", "An\u2028n", "Ann\ue000", "Ann\tBob", "Ann\nBob", "\x00", strings.Repeat("a", 41), "A\u061cnn"} {
		if got, err := checkName("name", in); err == nil || ErrorCode(err) != Invalid {
			t.Errorf("checkName(%q) = %q, %v; want an invalid refusal", in, got, err)
		}
	}
}

// FuzzCheckName: a name kept is valid UTF-8 in NFC, at most
// MaxNameLength characters, with nothing hidden in it.
func FuzzCheckName(f *testing.F) {
	for _, seed := range []string{"Ann", "Jose\u0301", "Ann\u202eeve", "\xff", strings.Repeat("é", 41)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := checkName("name", in)
		if err != nil {
			if len(err.Error()) > 200 {
				t.Errorf("a refusal of %d bytes", len(err.Error()))
			}
			return
		}
		if !utf8.ValidString(got) || !norm.NFC.IsNormalString(got) || utf8.RuneCountInString(got) > MaxNameLength ||
			strings.IndexFunc(got, hiddenRune) >= 0 {
			t.Errorf("checkName(%q) kept %q", in, got)
		}
	})
}

// TestFoldName: a name folds to what it reads as at a glance, so that an
// anonymous name is compared with the accounts' names as it looks.
func TestFoldName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"alice", "alice"},
		{"ALICE", "alice"},
		{"Ａｌｉｃｅ", "alice"},
		{"AI‐Level‐6", "ai-level-6"}, // U+2010 hyphens
		{"ai–level—6", "ai-level-6"}, // en and em dashes
		{"ſam", "sam"},               // the long s
		{"ﬁona", "fiona"},            // a ligature
		{"Zoë", "zoë"},
	} {
		if got := foldName(c.in); got != c.want {
			t.Errorf("foldName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
