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
	if r.code != 0 || !strings.Contains(r.out, "pommel (first=white hop=friendly maxplies=600 swap=off): 2 games") ||
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
	if !strings.Contains(out, "eximo (first=black maxplies=600 swap=off): 1 games") {
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
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--depth", "1", "--steps", "0", "--out", full}, "--steps 0: want 1 to 10"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--depth", "1", "--steps", "-2", "--out", full}, "--steps -2: want 1 to 10"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--depth", "1", "--steps", "11", "--out", full}, "--steps 11: want 1 to 10"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--depth", "1", "--steps", "x", "--out", full}, "--steps"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--player", "uct", "--depth", "1", "--out", full}, "give --player once"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--depth", "60", "--steps", "5", "--out", full}, "deepest search"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--out", full}, "give the engines a limit"},
		{[]string{"lab", "skill", "pommel", "--player", "ab", "--depth", "1"}, "--out is missing"},
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

func TestLabShardsMergeAndCompare(t *testing.T) {
	root := t.TempDir()
	base := []string{"lab", "pommel", "--player", "random", "--games", "4", "--depth", "1", "--opening", "0", "-q"}
	with := func(extra ...string) []string { return append(base[:len(base):len(base)], extra...) }
	runOK(t, with("--out", filepath.Join(root, "whole"))...)
	runOK(t, with("--shard", "0/2", "--out", filepath.Join(root, "s0"))...)
	out := runOK(t, with("--shard", "1/2", "--out", filepath.Join(root, "s1"))...)
	if !strings.Contains(out, ": 2 games") {
		t.Errorf("shard 1/2 of 4 games: %s", out)
	}
	out = runOK(t, "lab", "merge", filepath.Join(root, "merged"), filepath.Join(root, "s0"), filepath.Join(root, "s1"))
	if !strings.Contains(out, "merged 4 of the run's 4 games") {
		t.Errorf("merge: %s", out)
	}
	for _, name := range []string{"summary.json", "games.csv", "plies.csv"} {
		a, _ := os.ReadFile(filepath.Join(root, "whole", name))
		b, _ := os.ReadFile(filepath.Join(root, "merged", name))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("merged %s differs from the whole run's", name)
		}
	}
	page := filepath.Join(root, "cmp.html")
	svgs := filepath.Join(root, "plots")
	if err := os.Mkdir(svgs, 0o755); err != nil {
		t.Fatal(err)
	}
	out = runOK(t, "lab", "compare", filepath.Join(root, "whole"), filepath.Join(root, "s0"), "--html", page, "--svg", svgs)
	for _, name := range []string{"first-player.svg", "draws.svg", "branching.svg"} {
		if data, err := os.ReadFile(filepath.Join(svgs, name)); err != nil || !strings.Contains(string(data), "<svg") {
			t.Errorf("compare --svg wrote no plot %s: %v", name, err)
		}
	}
	if !strings.Contains(out, "run") || !strings.Contains(out, "whole") || !strings.Contains(out, "s0") ||
		!strings.Contains(out, "first player's edge") {
		t.Errorf("compare:\n%s", out)
	}
	if html, err := os.ReadFile(page); err != nil || strings.Count(string(html), "<svg") != 3 || strings.Contains(string(html), "http") {
		t.Errorf("compare --html: %v, want a page with 3 inline plots and no outside address", err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"lab", "compare", filepath.Join(root, "whole")}, "usage: arbiter lab compare"},
		{[]string{"lab", "compare", filepath.Join(root, "whole"), filepath.Join(root, "s0"), "--svg", page}, "not a folder"},
		{[]string{"lab", "compare", filepath.Join(root, "whole"), root}, "no summary.json"},
		{[]string{"lab", "merge", filepath.Join(root, "m2"), filepath.Join(root, "s0"), filepath.Join(root, "s0")}, "is in both"},
		{[]string{"lab", "merge", filepath.Join(root, "m3")}, "usage: arbiter lab merge"},
	} {
		r := run(t, "", tt.args...)
		if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("arbiter %s: exit %d, stderr %q; want one line with %q", strings.Join(tt.args, " "), r.code, r.errOut, tt.want)
		}
	}
}

func TestLabSkill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trace")
	out := runOK(t, "lab", "skill", "pommel", "--player", "ab", "--depth", "1", "--steps", "2", "--games", "2", "-q", "--out", dir)
	for _, want := range []string{"step 1: ab depth 2 vs ab depth 1: the stronger scores", "step 2: ab depth 3 vs ab depth 2",
		"distinct games (2 played)", "draws ", "the first player's score ", "the mean length ", "written to " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("lab skill printed\n%s\nwant %q", out, want)
		}
	}
	for _, f := range []string{"skill.json", "skill.html", "step-1/summary.json", "step-2/report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("lab skill wrote no %s: %v", f, err)
		}
	}
}
