package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLabRunsAndContinues(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"lab", "pommel", "--player", "ab", "--player", "random", "--games", "2", "--depth", "1", "--opening", "2", "--out", dir}
	r := run(t, "", args...)
	if r.code != 0 || !strings.Contains(r.out, "pommel (hop=friendly maxplies=600): 2 games") ||
		!strings.Contains(r.out, "written to "+dir) || !strings.Contains(r.errOut, "(2/2)") {
		t.Fatalf("arbiter lab: exit %d\nout %s\nerr %s", r.code, r.out, r.errOut)
	}
	out := runOK(t, "replay", filepath.Join(dir, "games.pdn"))
	if !strings.Contains(out, "Game 2: pommel") {
		t.Errorf("games.pdn does not replay as two games:\n%s", out)
	}
	// The same command with more games continues the run quietly.
	out = runOK(t, append(args[:len(args):len(args)], "--games", "3", "-q")...)
	if !strings.Contains(out, "3 games") {
		t.Errorf("continued run: %s", out)
	}
	// Self-play: one --player plays both seats.
	out = runOK(t, "lab", "eximo", "--player", "random", "--games", "1", "--nodes", "1", "-q", "--out", t.TempDir())
	if !strings.Contains(out, "eximo (maxplies=600): 1 games") {
		t.Errorf("self-play run: %s", out)
	}
}

func TestLabRefuses(t *testing.T) {
	dir := t.TempDir()
	runOK(t, "lab", "pommel", "--player", "random", "--games", "1", "--depth", "1", "-q", "--out", dir)
	full := filepath.Join(t.TempDir(), "notes")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"lab", "pommel", "--player", "random", "--games", "1", "--depth", "1", "--seed", "2", "--out", dir},
			"holds another run (seed 1 there, 2 here)"},
		{[]string{"lab", "pommel", "--player", "random", "--depth", "1"}, "--out is missing"},
		{[]string{"lab", "pommel", "--player", "random", "--out", full}, "give the engines a limit"},
		{[]string{"lab", "pommel", "--depth", "1", "--out", full}, "give --player once (it plays every seat) or 2 times, not 0 times"},
		{[]string{"lab", "punt-heks-match-3p", "--player", "ab", "--player", "ab", "--depth", "1", "--out", full},
			"punt-heks-match-3p has 3 seats: give --player once (it plays every seat) or 3 times, not 2 times"},
		{[]string{"lab", "pommel", "--player", "nosuch", "--depth", "1", "--out", full}, "--player nosuch:"},
		{[]string{"lab", "pommel", "--player", "ab", "--depth", "1", "--shard", "2/2", "--out", full}, "--shard \"2/2\": want I/N"},
		{[]string{"lab", "pommel", "--player", "ab", "--depth", "1", "--games", "0", "--out", full}, "--games 0: want a whole number from 1"},
		{[]string{"lab", "pommel", "--player", "ab", "--depth", "1", "--opening", "600", "--out", full}, "--opening 600: want"},
		{[]string{"lab", "pommel", "-o", "hop=no", "--player", "ab", "--depth", "1", "--out", full}, "hop"},
		{[]string{"lab"}, "usage: arbiter lab GAME"},
	}
	for _, tt := range tests {
		r := run(t, "", tt.args...)
		if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("arbiter %s: exit %d, stderr %q; want one line with %q", strings.Join(tt.args, " "), r.code, r.errOut, tt.want)
		}
	}
	if _, err := os.Stat(full); err == nil {
		t.Errorf("a refused run made its folder")
	}
}
