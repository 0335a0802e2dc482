package timecontrol

import (
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// TestParseReads: both spellings of a time, a Go duration and plain
// seconds, at the bounds too, and String reads back as the same control.
func TestParseReads(t *testing.T) {
	tests := []struct {
		text string
		want Control
	}{
		{"5m+3s", Control{Base: 5 * time.Minute, Increment: 3 * time.Second}},
		{"90s+0s", Control{Base: 90 * time.Second}},
		{"1h+0s", Control{Base: time.Hour}},
		{"5m", Control{Base: 5 * time.Minute}},
		{"1s+10ms", Control{Base: time.Second, Increment: 10 * ms}},
		{"10+0.1", Control{Base: 10 * time.Second, Increment: 100 * ms}},
		{"90", Control{Base: 90 * time.Second}},
		{"5", Control{Base: 5 * time.Second}},
		{" 1s + 0 ", Control{Base: time.Second}},
		{"1ms+24h", Control{Base: ms, Increment: 24 * time.Hour}},
		{"720h+0s", Control{Base: 30 * Day}},
		{"2592000+86400", Control{Base: 30 * Day, Increment: Day}},
		{"1m0.5s+1.5", Control{Base: time.Minute + 500*ms, Increment: 1500 * ms}},
	}
	for _, tc := range tests {
		got, err := Parse(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.text, got, err, tc.want)
			continue
		}
		if again, err := Parse(got.String()); err != nil || again != got {
			t.Errorf("Parse(%q) = %+v, %v; want %+v back", got.String(), again, err, got)
		}
	}
}

// TestParseRefuses: every malformed or out-of-range control is one line
// that says what is wrong and quotes at most 80 characters of it.
func TestParseRefuses(t *testing.T) {
	long := "1s+" + strings.Repeat("9", 100)
	tests := []struct{ text, want string }{
		{"", "the base is missing"},
		{"+10ms", "the base is missing"},
		{"1s+", "the increment is missing"},
		{"5m+x", `the increment "x" is not a duration or a number of seconds`},
		{"soon", `"soon" is not a duration or a number of seconds`},
		{"0+0", "a base of 0s is out of range"},
		{"0s+3s", "a base of 0s is out of range"},
		{"-5m+3s", "a base of -5m0s is out of range"},
		{"1s+-10ms", "an increment of -10ms is out of range"},
		{"1s+-0.5", "an increment of -500ms is out of range"},
		{"0.0001", "a base of 100µs is out of range"},
		{"721h", "a base of 721h0m0s is out of range"},
		{"9999h+1s", "a base of 9999h0m0s is out of range"},
		{"5m+25h", "an increment of 25h0m0s is out of range"},
		{"1e9", `"1e9" is over 720h0m0s`},
		{"1e400", `"1e400" is not a finite number`},
		{"NaN+0", `"NaN" is not a finite number`},
		{"1s+Inf", `"Inf" is not a finite number`},
		{"-inf", `"-inf" is not a finite number`},
		{"1s+10xs", `"10xs" is not a duration or a number of seconds`},
		{"1s+1s+1s", `"1s+1s" is not a duration`},
		{"9999999h", "is not a duration"},
		{"3 days per move", "is not a duration"},
		{long, "longer than 64 bytes"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%.40q) = %v, want an error with %q", tc.text, err, tc.want)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || strings.Count(msg, "9") > 80 {
			t.Errorf("Parse(%.40q): error is not one short line: %q", tc.text, msg)
		}
	}
}

func TestDaysPerMove(t *testing.T) {
	tc, err := DaysPerMove(3)
	if err != nil || tc.PerMove != 72*time.Hour || tc.String() != "3 days per move" || tc.Tag() != "1/259200" || tc.Full() != 72*time.Hour {
		t.Fatalf("DaysPerMove(3) = %+v %q %q, %v", tc, tc.String(), tc.Tag(), err)
	}
	if one, _ := DaysPerMove(1); one.String() != "1 day per move" {
		t.Errorf("one day: %q", one.String())
	}
	for _, days := range []int{0, -1, MaxDays + 1} {
		if _, err := DaysPerMove(days); err == nil || !strings.Contains(err.Error(), "want 1 to 30 days per move") {
			t.Errorf("DaysPerMove(%d): %v", days, err)
		}
	}
}

// TestCheck: a control filled in by hand is held to the same bounds.
func TestCheck(t *testing.T) {
	tests := []struct {
		c  Control
		ok bool
	}{
		{Control{Base: time.Second}, true},
		{Control{PerMove: MaxDays * Day}, true},
		{Control{}, false},
		{Control{Increment: time.Second}, false},
		{Control{Base: time.Second, Increment: -1}, false},
		{Control{Base: 31 * Day}, false},
		{Control{PerMove: time.Hour}, false},
		{Control{PerMove: -Day}, false},
		{Control{PerMove: Day, Base: time.Second}, false},
		{Control{PerMove: (MaxDays + 1) * Day}, false},
	}
	for _, tc := range tests {
		if err := tc.c.Check(); (err == nil) != tc.ok {
			t.Errorf("%+v.Check() = %v, want ok %v", tc.c, err, tc.ok)
		}
	}
}

func TestTagAndString(t *testing.T) {
	tests := []struct {
		c        Control
		str, tag string
	}{
		{Control{}, "0s+0s", ""},
		{Control{Base: 5 * time.Minute, Increment: 3 * time.Second}, "5m+3s", "300+3"},
		{Control{Base: 10 * time.Second, Increment: 100 * ms}, "10s+100ms", "10+0.1"},
		{Control{Base: 20 * ms, Increment: 5 * ms}, "20ms+5ms", "0.02+0.005"},
		{Control{Base: time.Hour + time.Second}, "1h1s+0s", "3601+0"},
	}
	for _, tc := range tests {
		if tc.c.String() != tc.str || tc.c.Tag() != tc.tag {
			t.Errorf("%+v: String %q, Tag %q; want %q, %q", tc.c, tc.c.String(), tc.c.Tag(), tc.str, tc.tag)
		}
	}
}

// FuzzParse: Parse never panics, a control it reads is within bounds,
// and its String reads back as the same control.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"5m+3s", "10+0.1", "5m", "1ms+24h", "NaN", "1e400", "-1s+0", "720h+1s", "0.0000000001+1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := Parse(text)
		if err != nil {
			// Text is at most 64 bytes, quoted twice with escapes at
			// most 4 bytes a byte: a refusal stays one short line.
			if msg := err.Error(); len(msg) > 1024 || strings.Contains(msg, "\n") {
				t.Errorf("Parse(%q): a refusal of %d bytes: %q", text, len(msg), msg)
			}
			return
		}
		if err := c.Check(); err != nil {
			t.Errorf("Parse(%q) = %+v out of bounds: %v", text, c, err)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Errorf("Parse(%q) = %+v, written %q, reads back as %+v, %v", text, c, c.String(), back, err)
		}
	})
}
