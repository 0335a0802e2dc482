package commonpw

import (
	"slices"
	"strings"
	"testing"
)

func TestForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"password", []string{"password"}},
		{"Password123!", []string{"password123!", "password123", "password"}},
		{"1Password!", []string{"1password!", "1password", "password!", "password"}},
		{"#123456!", []string{"#123456!", "123456"}},
		{"!@#$%^&*", []string{"!@#$%^&*"}},
		{"1qaz2wsx", []string{"1qaz2wsx", "qaz2wsx"}},
		{"ÉTÉ2024", []string{"été2024", "été"}},
	} {
		if got := Forms(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Forms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Password1", "password"},
		{"123abc!", "abc"},
		{"123456", "123456"},
		{"(123456)", "123456"},
		{"!@#$", "!@#$"},
		{"1q2w3e4r", "q2w3e4r"},
	} {
		if got := Key(tc.in); got != tc.want {
			t.Errorf("Key(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestKeyInForms: what the list stores for a seed is among the forms of
// the seed wrapped in any case, digits and punctuation (numbers in
// punctuation only: digits around a number make another one; punctuation
// alone matches only whole).
func TestKeyInForms(t *testing.T) {
	for _, seed := range []string{"dragon", "p@ssw0rd", "1q2w3e4r", "123456", "!@#$%", "qwerty123", "été"} {
		wraps := [][2]string{{"", ""}}
		if strings.Trim(seed, "!@#$%") != "" {
			wraps = append(wraps, [2]string{"!", "!"}, [2]string{"#", ""}, [2]string{"", "?!"})
		}
		if strings.Trim(seed, "0123456789!@#$%") != "" {
			wraps = append(wraps, [2]string{"1", "1990"}, [2]string{"#12", "!"}, [2]string{"", "2024"})
		}
		for _, w := range wraps {
			for _, s := range []string{seed, strings.ToUpper(seed)} {
				c := w[0] + s + w[1]
				if !slices.Contains(Forms(c), Key(seed)) {
					t.Errorf("Forms(%q) = %q: Key(%q) = %q is not among them", c, Forms(c), seed, Key(seed))
				}
			}
		}
	}
}

func TestLeetVariants(t *testing.T) {
	got := leetVariants("toast")
	// Every t the same (t/7), o: o/0; a: a/@/4; s: s/$/5 → 2×2×3×3 = 36,
	// less "toast" itself.
	if len(got) != 35 || slices.Contains(got, "toast") {
		t.Fatalf("leetVariants(toast) = %d variants, want 35 without toast", len(got))
	}
	for _, want := range []string{"7oas7", "t0@st", "70457", "704$7"} {
		if !slices.Contains(got, want) {
			t.Errorf("leetVariants(toast) lacks %q", want)
		}
	}
	if n := len(leetVariants("realistically")); n > maxLeet {
		t.Errorf("leetVariants of a long word: %d, over %d", n, maxLeet)
	}
	if got := leetVariants("xyz"); len(got) != 0 {
		t.Errorf("leetVariants(xyz) = %q, want none", got)
	}
}

func TestDates(t *testing.T) {
	d := dates()
	days := 0
	for y := FirstYear; y <= LastYear; y++ {
		days += 365
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			days++
		}
	}
	if len(d) != 2*days {
		t.Errorf("%d dates, want 2 forms × %d days", len(d), days)
	}
	for _, want := range []string{"29022000", "02292000", "01011950", "31122030", "12312030"} {
		if !slices.Contains(d, want) {
			t.Errorf("dates lack %s", want)
		}
	}
	for _, bad := range []string{"29021999", "31042000", "01011949", "01012031"} {
		if slices.Contains(d, bad) {
			t.Errorf("dates hold %s", bad)
		}
	}
}

func TestDigitRunsAndWalks(t *testing.T) {
	runs, walks := digitRuns(), keyboardWalks()
	for _, want := range []string{"11111111", "12121212", "123123123", "19901990", "34567890", "987654321", "890123"} {
		if !slices.Contains(runs, want) {
			t.Errorf("digit runs lack %s", want)
		}
	}
	for _, want := range []string{"qwer", "poiuytrewq", "asdfghjkl", "1qaz2wsx", "qazwsxedc", "1q2w3e4r", "azerty", "!@#$%^&*"} {
		if !slices.Contains(walks, want) {
			t.Errorf("keyboard walks lack %s", want)
		}
	}
}

func TestExpand(t *testing.T) {
	keys := Expand([]string{"Dragon", "ab", "ab1234", "12345"})
	if !slices.IsSorted(keys) || slices.Compact(slices.Clone(keys)) == nil || len(slices.Compact(slices.Clone(keys))) != len(keys) {
		t.Fatalf("Expand is not sorted without repeats")
	}
	for _, want := range []string{"dragon", "dr@gon", "drag0n", "14071989", "qwerty"} {
		if _, ok := slices.BinarySearch(keys, want); !ok {
			t.Errorf("Expand lacks %s", want)
		}
	}
	for _, short := range []string{"ab", "12345", "Dragon"} {
		if _, ok := slices.BinarySearch(keys, short); ok {
			t.Errorf("Expand holds %q (too short, or not lowered)", short)
		}
	}
}

func TestParseSeeds(t *testing.T) {
	seeds, err := ParseSeeds("# comment\n\ndragon\nPass word\n")
	if err != nil || !slices.Equal(seeds, []string{"dragon", "Pass word"}) {
		t.Errorf("ParseSeeds = %q, %v", seeds, err)
	}
	for _, bad := range []string{" dragon\n", "dragon \n", "dra\xffgon\n"} {
		if _, err := ParseSeeds(bad); err == nil {
			t.Errorf("ParseSeeds(%q) took it", bad)
		}
	}
}

func TestDoubledAndAlternations(t *testing.T) {
	if doubled("asdf") != "asdfasdf" || doubled("dragons") != "" {
		t.Errorf("doubled(asdf) = %q, doubled(dragons) = %q; want asdfasdf and nothing", doubled("asdf"), doubled("dragons"))
	}
	alt := alternations()
	for _, want := range []string{"a1b2c3", "1a2b3c", "a1b2c3d4e5f6"} {
		if !slices.Contains(alt, want) {
			t.Errorf("alternations lack %s", want)
		}
	}
}
