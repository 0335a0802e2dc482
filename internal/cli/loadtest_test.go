package cli

import (
	"bytes"
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
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
		{[]string{"--games", "5001"}, "--games 5001: want a whole number from 1 to 5000, or 0 for AI games only"},
		{[]string{"--games", "-1"}, "--games -1: want"},
		{[]string{"--games", "many"}, "--games \"many\": want a whole number from 1 to 5000"},
		{[]string{"--games", "0"}, "--games 0 and --ai 0: no games"},
		{[]string{"--moves", "0"}, "--moves 0: want a whole number from 1 to 1000"},
		{[]string{"--moves", "1001"}, "--moves 1001: want"},
		{[]string{"--duration", "11m"}, "--duration 11m0s: want a duration such as 500ms or 2s, up to 10m0s"},
		{[]string{"--duration", "0s"}, "--duration 0s: want"},
		{[]string{"--think", "-1s"}, "--think -1s: want"},
		{[]string{"--think", "2m"}, "--think 2m0s: want"},
		{[]string{"--ai", "1001"}, "--ai 1001: want a whole number from 1 to 1000, or 0 for none"},
		{[]string{"--level", "7"}, "--level 7: want a whole number from 1 to 6"},
		{[]string{"--level", "0"}, "--level 0: want"},
		{[]string{"--game", "chess"}, "--game \"chess\": unknown"},
		{[]string{"--seed", "-3"}, "--seed \"-3\": want a whole number, 0 or more"},
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
	srv, err := server.New(server.Config{Store: st})
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
	code := Execute([]string{"loadtest", "--addr", addr, "--games", "3", "--moves", "4", "--think", "10ms",
		"--duration", "3s", "--ai", "1", "--level", "1"}, strings.NewReader(""), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`target: +` + regexp.QuoteMeta(addr) + ` \(each game from a loopback address of its own\)`),
		regexp.MustCompile(`games held: +3 human, 1 AI;`),
		regexp.MustCompile(`moves: +12 acknowledged`),
		regexp.MustCompile(`acknowledged: +p50 [0-9.]+ms  p90 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms  \(12 moves\)`),
		regexp.MustCompile(`broadcast: +p50 [0-9.]+ms .* \(12 moves\)`),
		regexp.MustCompile(`AI moves: +[1-9][0-9]* at level 1 \([0-9.]+ a second\)`),
		regexp.MustCompile(`errors: +none`),
	} {
		if !want.MatchString(out.String()) {
			t.Errorf("the report has no line matching %s:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "creating 4 games") {
		t.Errorf("no progress on standard error: %q", errOut.String())
	}
}
