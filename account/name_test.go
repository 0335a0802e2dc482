package account

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		want error // nil: accepted
	}{
		{"a", ErrNameInvalid},
		{"", ErrNameInvalid},
		{"ab", nil},
		{strings.Repeat("x", 20), nil},
		{strings.Repeat("x", 21), ErrNameInvalid},
		{"Some_Body-9", nil},
		{"über", ErrNameInvalid},
		{"日本", ErrNameInvalid},
		{"two words", ErrNameInvalid},
		{"dot.name", ErrNameInvalid},
		{"at@name", ErrNameInvalid},
		{"tab\tname", ErrNameInvalid},
		{"deleted", ErrNameReserved},
		{"Anonymous", ErrNameReserved},
		{"ADMIN", ErrNameReserved},
		{"Arbiter", ErrNameReserved},
		{"system", ErrNameReserved},
		{"ai-level-3", ErrNameReserved},
		{"AI-Level-12", ErrNameReserved},
		{"ai-anything", ErrNameReserved},
		{"ai_level_3", ErrNameReserved},
		{"aidan", nil},
		{"admins", nil},
		{"sysadmin", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckName(tc.name)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("CheckName(%q) = %v, want %v", tc.name, err, tc.want)
			}
			var e *Error
			if err != nil && (!errors.As(err, &e) || e.Code != tc.want) {
				t.Errorf("CheckName(%q) = %#v, want an *Error of code %s", tc.name, err, tc.want)
			}
		})
	}
}

// TestCheckNameQuotesLittle: a megabyte of name comes back as 80
// characters and "…".
func TestCheckNameQuotesLittle(t *testing.T) {
	for _, name := range []string{strings.Repeat("x", 1<<20), strings.Repeat("é", 1<<20)} {
		err := CheckName(name)
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "…") {
			t.Errorf("CheckName of %d bytes = %.300v (%d bytes)", len(name), err, len(err.Error()))
		}
	}
}

func TestKeyFoldsCase(t *testing.T) {
	if Key("Some_Body-9") != Key("sOME_bODY-9") || Key("Some_Body-9") != "some_body-9" {
		t.Errorf("Key(Some_Body-9) = %q, Key(sOME_bODY-9) = %q, want both some_body-9", Key("Some_Body-9"), Key("sOME_bODY-9"))
	}
}

func TestLevelNames(t *testing.T) {
	for level := 1; level <= 6; level++ {
		n := LevelName(level)
		if !IsLevelName(n) || CheckName(n) == nil {
			t.Errorf("LevelName(%d) = %q: IsLevelName %v, CheckName %v; want a level name CheckName refuses", level, n, IsLevelName(n), CheckName(n))
		}
	}
	for _, n := range []string{"ai-level-", "ai-level-0", "ai-level-01", "ai-level-x", "ai-level-1x", "ai-levels-1", "level-1", "ai-level-1234567890"} {
		if IsLevelName(n) {
			t.Errorf("IsLevelName(%q) = true, want false", n)
		}
	}
	if !IsLevelName("AI-Level-6") {
		t.Errorf("IsLevelName(AI-Level-6) = false: names ignore case")
	}
}
