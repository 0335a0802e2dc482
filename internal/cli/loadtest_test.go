package cli

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/internal/site"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

func TestLoadtestRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", "10.0.0.1:8080"}, "--addr: 10.0.0.1: not a loopback address"},
		{[]string{"--addr", "0.0.0.0:8080"}, "--addr: 0.0.0.0: not a loopback address"},
		{[]string{"--addr", ":8080"}, "--addr: address \":8080\": no host"},
		{[]string{"--addr", "8080"}, "want HOST:PORT"},
		{[]string{"--games", "20001"}, "--games 20001: want a whole number from 1 to 20000, or 0 for AI games only"},
		{[]string{"--games", "-1"}, "--games -1: want"},
		{[]string{"--games", "many"}, "--games \"many\": want a whole number from 1 to 20000"},
		{[]string{"--games", "0"}, "--games 0 and --ai 0: no games"},
		{[]string{"--accounts", "--games", "0", "--ai", "1"}, "--accounts with --games 0: accounts play the human games; give --games above 0"},
		{[]string{"--accounts=maybe"}, "--accounts \"maybe\": want true or false"},
		{[]string{"--moves", "0"}, "--moves 0: want a whole number from 1 to 1000"},
		{[]string{"--moves", "1001"}, "--moves 1001: want"},
		{[]string{"--duration", "3h"}, "--duration 3h0m0s: want a duration from 1s to 2h, such as 30s or 5m"},
		{[]string{"--duration", "-1m"}, "--duration -1m0s: want"},
		{[]string{"--flood", "-1"}, "--flood -1: want a whole number from 1 to 1000, or 0 for none"},
		{[]string{"--flood", "1001"}, "--flood 1001: want a whole number from 1 to 1000, or 0 for none"},
		{[]string{"--flood", "99999999999999999999"}, "--flood \"99999999999999999999\": want a whole number from 1 to 1000, or 0 for none"},
		{[]string{"--flood", "lots"}, "--flood \"lots\": want a whole number from 1 to 1000"},
		{[]string{"--flood"}, "--flood needs a value: a whole number from 1 to 1000"},
		{[]string{"--slow", "-5"}, "--slow -5: want a whole number from 1 to 5000, or 0 for none"},
		{[]string{"--slow", "5001"}, "--slow 5001: want a whole number from 1 to 5000, or 0 for none"},
		{[]string{"--slow", "1e3"}, "--slow \"1e3\": want a whole number from 1 to 5000"},
		{[]string{"--pid", "-1"}, "--pid -1: want a whole number from 1 to 4194304, or 0 for no sampling"},
		{[]string{"--pid", "4194305"}, "--pid 4194305: want a whole number from 1 to 4194304"},
		{[]string{"--pid", "x"}, "--pid \"x\": want a whole number from 1 to 4194304"},
		{[]string{"--sample-every", "500ms"}, "--sample-every 500ms: want"},
		{[]string{"--pid", "4194304"}, "--pid 4194304: cannot read its memory"},
		{[]string{"--duration", "0s"}, "--duration 0s: want"},
		{[]string{"--think", "-1s"}, "--think -1s: want"},
		{[]string{"--think", "2m"}, "--think 2m0s: want"},
		{[]string{"--ai", "1001"}, "--ai 1001: want a whole number from 1 to 1000, or 0 for none"},
		{[]string{"--level", "7"}, "--level 7: want a whole number from 1 to 6"},
		{[]string{"--level", "0"}, "--level 0: want"},
		{[]string{"--game", "chess"}, "--game \"chess\": unknown"},
		{[]string{"--seed", "-3"}, "--seed \"-3\": want a whole number, 0 or more"},
		{[]string{"--cpuprofile", "/nonexistent/folder/cpu.prof"}, "--cpuprofile: open /nonexistent/folder/cpu.prof: no such file or directory"},
		{[]string{"extra"}, "unknown command"},
	} {
		var out, errOut bytes.Buffer
		code := Execute(append([]string{"loadtest"}, c.args...), strings.NewReader(""), &out, &errOut)
		line := strings.TrimSpace(errOut.String())
		if code == 0 || !strings.Contains(line, c.want) || strings.Contains(line, "\n") && !strings.Contains(c.want, "unknown") {
			t.Errorf("loadtest %v: exit %d, %q; want one line with %q", c.args, code, line, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("loadtest %v printed %q before refusing", c.args, out.String())
		}
	}
}

func TestLoadtestAgainstAServer(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := site.New(site.Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		st.Close()
	})
	addr := hs.Listener.Addr().String()
	// The AI game and the flood play for the whole duration; the human
	// games' twelve moves take a fraction of a second.
	duration := "3s"
	if testing.Short() {
		duration = "1500ms"
	}
	profile := filepath.Join(t.TempDir(), "cpu.prof")
	var out, errOut bytes.Buffer
	code := Execute([]string{"loadtest", "--addr", addr, "--games", "3", "--moves", "4", "--think", "10ms",
		"--duration", duration, "--ai", "1", "--level", "1", "--flood", "2", "--slow", "3", "--pid", strconv.Itoa(os.Getpid()),
		"--sample-every", "1s", "--cpuprofile", profile},
		strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if info, err := os.Stat(profile); err != nil || info.Size() == 0 {
		t.Errorf("--cpuprofile wrote no profile: %v", err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`target: +` + regexp.QuoteMeta(addr) + ` \(each game from a loopback address of its own\)`),
		regexp.MustCompile(`games held: +3 human, 1 AI;`),
		regexp.MustCompile(`moves: +12 acknowledged`),
		regexp.MustCompile(`acknowledged: +p50 [0-9.]+ms  p90 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms  \(12 moves\)`),
		regexp.MustCompile(`broadcast: +p50 [0-9.]+ms .* \(12 moves\)`),
		regexp.MustCompile(`AI moves: +[1-9][0-9]* at level 1 \([0-9.]+ a second\)`),
		regexp.MustCompile(`errors: +none`),
		regexp.MustCompile(`flood: +2 workers from 127\.0\.1\.1: [1-9][0-9]* requests in `),
		regexp.MustCompile(`answered 200: [1-9][0-9]*, 429 \(rate limited\): [0-9]+, other: none; no answer: 0`),
		regexp.MustCompile(`slow: +3 connections from 127\.0\.1\.2`),
		regexp.MustCompile(`trickled POST body \(1\): opened 1, closed by the server 0, refused 0, open at the end 1`),
		regexp.MustCompile(`idle keep-alive \(1\): opened 1, .* open at the end 1; first answers: 200 ×1`),
		regexp.MustCompile(`silent \(1\): opened 1, .* open at the end 1`),
		regexp.MustCompile(`server: +resident memory and open files\n +start +RSS [0-9.]+ MiB  fds [0-9]+\n(.*\n)* +end +RSS [0-9.]+ MiB  fds [0-9]+\n +end\+1s +RSS [0-9.]+ MiB  fds [0-9]+  \([-+][0-9]+% RSS, [-+][0-9]+ fds since the start\)`),
		regexp.MustCompile(`summary: +the game moves' acknowledgement p99 [0-9.]+ms (<|>=) 100\.0ms: (held|NOT held) \(p50 [0-9.]+ms, max [0-9.]+ms, 12 moves\)`),
	} {
		if !want.MatchString(out.String()) {
			t.Errorf("the report has no line matching %s:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "creating 4 games") || !strings.Contains(errOut.String(), "with 2 flood workers and 3 slow connections") {
		t.Errorf("no progress on standard error: %q", errOut.String())
	}
}

func TestLoadtestWithAccounts(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Cheap password hashing: the sign-ups take microseconds.
	srv, err := site.New(site.Config{Store: st, Accounts: accounts.Config{Params: &account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		st.Close()
	})
	addr := hs.Listener.Addr().String()
	var out, errOut bytes.Buffer
	code := Execute([]string{"loadtest", "--addr", addr, "--accounts", "--games", "2", "--moves", "4", "--think", "10ms", "--duration", "30s"},
		strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	latencies := func(n int, what string) string {
		return `p50 [0-9.]+ms  p90 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms  \(` + strconv.Itoa(n) + ` ` + what + `\)`
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`target: +` + regexp.QuoteMeta(addr) + ` \(each account from a loopback address of its own, a new one for each game\)`),
		regexp.MustCompile(`games held: +2 human, 0 AI; 0 started after one ended; 2 human games played all their moves, 0 stopped on errors`),
		regexp.MustCompile(`moves: +8 acknowledged`),
		regexp.MustCompile(`acknowledged: +` + latencies(8, "moves")),
		regexp.MustCompile(`accounts: +4 signed up, each game's players paired through the lobby`),
		regexp.MustCompile(`sign-ups: +` + latencies(4, "sign-ups")),
		regexp.MustCompile(`seeks: +` + latencies(2, "seeks")),
		regexp.MustCompile(`lobby reads: +` + latencies(2, "reads")),
		regexp.MustCompile(`accepts: +` + latencies(2, "accepts")),
		regexp.MustCompile(`errors: +none`),
	} {
		if !want.MatchString(out.String()) {
			t.Errorf("the report has no line matching %s:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "signing up 4 accounts") || !strings.Contains(errOut.String(), "creating 2 games (the human ones through the lobby)") {
		t.Errorf("no progress on standard error: %q", errOut.String())
	}
}
