package cli

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// durationArgs are the arguments that come before a duration flag of
// each command that has one: enough for the command to get as far as
// checking its flags. dir is a folder for the commands that write.
func durationArgs(dir string) map[string][]string {
	lab := []string{"pommel", "--player", "random", "--games", "2", "-q", "--out", filepath.Join(dir, "lab")}
	return map[string][]string{
		"arbiter serve":       {"serve", "--addr", "nowhere"}, // checked after the durations: nothing serves
		"arbiter best":        {"best", "pommel"},
		"arbiter play":        {"play", "pommel", "--black", "random"},
		"arbiter match":       {"match", "pommel", "--player", "a=random", "--player", "b=random", "--depth", "1", "-q"},
		"arbiter rate-levels": {"rate-levels", "pommel", "-q"},
		"arbiter loadtest":    {"loadtest", "--addr", "nowhere"},
		"arbiter lab work":    {"lab", "work", "--queue", filepath.Join(dir, "queue.db")},
		"arbiter work":        {"work", "--queue", filepath.Join(dir, "queue.db")},
		"arbiter bot":         {"bot"}, // the flags are checked before the site, the token and the engine
		"arbiter lab":         append([]string{"lab"}, append(lab, "--player", "ab")...),
		"arbiter lab skill":   append([]string{"lab", "skill"}, append(lab, "--steps", "2")...),
	}
}

// TestEveryDurationFlagIsBounded: every duration flag of every command
// refuses a negative duration, 1ns, a huge one and a malformed one at
// parse time, in one short line that names the flag and quotes at most 80
// characters of the value; 0 only where the help says what 0 means.
// (--idle-after 1ns used to panic after "serving on", and 2ns to spin a
// core.)
func TestEveryDurationFlagIsBounded(t *testing.T) {
	long := strings.Repeat("9", 60_000) + "s"
	found, args := 0, durationArgs(t.TempDir())
	walk(NewRoot(strings.NewReader(""), io.Discard, io.Discard), func(cmd *cobra.Command) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "duration" {
				return
			}
			found++
			prefix, ok := args[cmd.CommandPath()]
			if !ok {
				t.Errorf("%s --%s: no arguments to test it with; add them to durationArgs", cmd.CommandPath(), f.Name)
				return
			}
			values := []string{"-1s", "-1ns", "1ns", "2ns", "1000000h", "99999999999h", "fast", "1e3", long}
			if !strings.Contains(f.Usage, "or 0 for") {
				values = append(values, "0", "0s")
			}
			for _, v := range values {
				checkDurationRefused(t, append(append([]string{}, prefix...), "--"+f.Name, v), f.Name)
			}
		})
	})
	if found < 10 {
		t.Errorf("only %d duration flags found", found)
	}
}

// checkDurationRefused runs args and wants a refusal of flag in one short line
// that quotes little of the input.
func checkDurationRefused(t *testing.T, args []string, flag string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Execute(args, strings.NewReader(""), &out, &errOut)
	line := strings.TrimSpace(errOut.String())
	shown := strings.Join(args, " ")
	if len(shown) > 120 {
		shown = shown[:120] + "…"
	}
	switch {
	case code == 0:
		t.Errorf("%s: accepted", shown)
	case !strings.Contains(line, "--"+flag):
		t.Errorf("%s: %q does not name --%s", shown, line, flag)
	case strings.Contains(line, "\n") || len(line) > 400:
		t.Errorf("%s: a refusal of %d bytes: %.300q", shown, len(line), line)
	case strings.Contains(line, strings.Repeat("9", 81)):
		t.Errorf("%s: the refusal quotes more than 80 characters", shown)
	}
}

// walk calls f on cmd and every command under it.
func walk(cmd *cobra.Command, f func(*cobra.Command)) {
	f(cmd)
	for _, c := range cmd.Commands() {
		walk(c, f)
	}
}

// TestDurationFlagsTakeTheirBounds: the least and the largest duration of
// each of serve's duration flags pass the checks (a bad --addr, checked
// after them, stops serve before it opens anything).
func TestDurationFlagsTakeTheirBounds(t *testing.T) {
	for _, c := range []struct {
		flag, least, most string
	}{
		{"ai-movetime", "10ms", "1m"},
		{"ai-game-pace", "10ms", "1h"},
		{"abort-after", "1s", "24h"},
		{"idle-after", "1s", "24h"},
		{"grace", "100ms", "10m"},
	} {
		for _, v := range []string{c.least, c.most} {
			var out, errOut bytes.Buffer
			Execute([]string{"serve", "--" + c.flag, v, "--addr", "nowhere"}, strings.NewReader(""), &out, &errOut)
			if line := strings.TrimSpace(errOut.String()); !strings.Contains(line, "--addr") {
				t.Errorf("--%s %s: %s, want only --addr refused", c.flag, v, line)
			}
		}
	}
}

// TestServePprofNeedsMetricsAddr: the profiles are served only on the
// metrics' private address, so --pprof alone is refused.
func TestServePprofNeedsMetricsAddr(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Execute([]string{"serve", "--pprof"}, strings.NewReader(""), &out, &errOut)
	if line := strings.TrimSpace(errOut.String()); code == 0 || !strings.Contains(line, "--pprof needs --metrics-addr") {
		t.Errorf("serve --pprof: exit %d, %q", code, line)
	}
}

// TestServeNeverPrintsTheDatabasePassword: a --db URL that cannot be
// used is refused without its password, whether it does not parse or
// names a server that does not answer.
func TestServeNeverPrintsTheDatabasePassword(t *testing.T) {
	const secret = "s3cret-Pa55word"
	for _, db := range []string{
		"postgres://arbiter:" + secret + "@127.0.0.1:1/arbiter?connect_timeout=5",
		"postgres://arbiter:" + secret + "@127.0.0.1:notaport/arbiter",
		"postgres://arbiter:" + secret + "@127.0.0.1/arbiter?sslmode=bogus",
	} {
		var out, errOut bytes.Buffer
		code := Execute([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, strings.NewReader(""), &out, &errOut)
		if code == 0 || strings.Contains(out.String()+errOut.String(), secret) {
			t.Errorf("serve --db %s: exit %d, printed the password: %s%s", db, code, out.String(), errOut.String())
		}
	}
}
