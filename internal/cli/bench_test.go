package cli

import (
	"regexp"
	"strings"
	"testing"
)

func TestBench(t *testing.T) {
	out := runOK(t, "bench", "pommel", "--seconds", "0.05")
	for _, name := range []string{"playouts/s", "perft/s", "perft-bulk/s", "ab-nodes/s", "mcts-iterations/s", "signature"} {
		if !regexp.MustCompile(`(?m)^pommel ` + regexp.QuoteMeta(name) + ` \d+`).MatchString(out) {
			t.Errorf("bench printed\n%s\nwant a line pommel %s N", out, name)
		}
	}
	if !regexp.MustCompile(`(?m)\Asignature \d+$|\nsignature \d+\n\z`).MatchString(out) {
		t.Errorf("bench printed\n%s\nwant a last line signature N", out)
	}
}

func TestBenchRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--seconds", "0"}, "--seconds 0: want a number of seconds from 0.05 to 3600"},
		{[]string{"bench", "--seconds", "-1"}, "--seconds -1: want"},
		{[]string{"bench", "--seconds", "1e9"}, "--seconds 1e+09: want"},
		{[]string{"bench", "--seconds", "soon"}, `--seconds "soon": want`},
		{[]string{"bench", "--seconds", "NaN"}, "--seconds NaN: want"},
		{[]string{"bench", "nosuch"}, `unknown game "nosuch"`},
	} {
		r := run(t, "", tt.args...)
		if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 || r.out != "" {
			t.Errorf("arbiter %s: exit %d, stdout %q, stderr %q; want one line with %q", strings.Join(tt.args, " "), r.code, r.out, r.errOut, tt.want)
		}
	}
}
