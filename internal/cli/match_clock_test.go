package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/record"
)

// clockBase are the flags of a cheap match on a clock: short pommel
// games between players who answer at once.
func clockBase(clock string) []string {
	return []string{"match", "pommel", "-o", "maxplies=40", "-q", "--player", "a=random", "--player", "b=random", "--clock", clock}
}

// TestMatchClockRefusals: every refusal of --clock is one line naming the
// flag, quoting at most 80 characters of what was given.
func TestMatchClockRefusals(t *testing.T) {
	long := "1s+" + strings.Repeat("7", 200)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"empty", clockBase(""), `--clock "": the base is missing`},
		{"zero base", clockBase("0+1"), "a base of 0s is out of range"},
		{"negative", clockBase("-1s+0"), "a base of -1s is out of range"},
		{"negative increment", clockBase("1s+-1ms"), "an increment of -1ms is out of range"},
		{"huge", clockBase("800h"), "a base of 800h0m0s is out of range"},
		{"huge seconds", clockBase("1e12"), "is over 720h"},
		{"NaN", clockBase("NaN"), `"NaN" is not a finite number`},
		{"Inf", clockBase("1+Inf"), `"Inf" is not a finite number`},
		{"malformed", clockBase("fast"), `"fast" is not a duration or a number of seconds`},
		{"over-long", clockBase(long), "longer than 64 bytes"},
		{"with --movetime", append(clockBase("1s+10ms"), "--movetime", "1s"), "--clock and --movetime: give one"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, "", c.args...)
			if r.code == 0 || !strings.Contains(r.errOut, c.want) || strings.Count(strings.TrimSpace(r.errOut), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want a failure of one line with %q", r.code, r.errOut, c.want)
			}
			if !strings.HasPrefix(r.errOut, "arbiter: --clock") || strings.Count(r.errOut, "7") > 80 {
				t.Errorf("stderr %q: want it to name --clock and quote at most 80 characters", r.errOut)
			}
		})
	}
}

// TestMatchOnClock: a match on a clock needs no other limit, writes the
// clock to every record, reports the flag falls in its table and, with
// --sprt, in its report before the verdict; --depth still caps the search.
func TestMatchOnClock(t *testing.T) {
	out := filepath.Join(t.TempDir(), "clock.pdn")
	table := runOK(t, append(clockBase("10+0.1"), "--games", "2", "--depth", "2", "--out", out)...)
	if !strings.Contains(table, "clock 10s+100ms: 0 flag falls in 2 games (a 0, b 0)") {
		t.Errorf("the table has no clock line:\n%s", table)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.Read(strings.NewReader(string(data)))
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, rec := range recs {
		if rec.Get("TimeControl") != "10+0.1" {
			t.Errorf("TimeControl %q, want 10+0.1", rec.Get("TimeControl"))
		}
	}
	report := runOK(t, append(clockBase("10+0.1"), "--games", "2", "--sprt", "elo0=0,elo1=5", "--concurrency", "2")...)
	ls := lines(t, report)
	if len(ls) < 2 || !strings.HasPrefix(ls[len(ls)-2], "clock 10s+100ms: 0 flag falls in 2 games") {
		t.Errorf("the --sprt report has no clock line before its verdict:\n%s", report)
	}
}

// TestMatchOnClockExternalEngine: an external engine on a clock is sent
// its clock words and plays whole games without losing on time (arbiter
// itself as the engine, from this test binary).
func TestMatchOnClockExternalEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an engine process per game")
	}
	t.Setenv("ARBITER_TEST_MAIN", "1")
	table := runOK(t, "match", "pommel", "-o", "maxplies=40", "-q", "--player", "ext=cmd:"+os.Args[0]+" engine",
		"--player", "ab=ab", "--clock", "2s+50ms", "--games", "2")
	if !strings.Contains(table, "clock 2s+50ms: 0 flag falls in 2 games (ext 0, ab 0)") {
		t.Errorf("the table:\n%s", table)
	}
}
