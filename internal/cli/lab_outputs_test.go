package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabCompareMakesTheSVGFolder: --svg names a folder that need not
// exist yet, parents and all.
func TestLabCompareMakesTheSVGFolder(t *testing.T) {
	root := t.TempDir()
	for _, seed := range []string{"1", "2"} {
		runOK(t, "lab", "pommel", "--player", "random", "--games", "1", "--depth", "1", "--seed", seed, "-q",
			"--out", filepath.Join(root, "run"+seed))
	}
	svgs := filepath.Join(root, "paper", "figures")
	runOK(t, "lab", "compare", filepath.Join(root, "run1"), filepath.Join(root, "run2"), "--svg", svgs)
	info, err := os.Stat(svgs)
	if err != nil || info.Mode().Perm() != 0o755 {
		t.Fatalf("compare --svg made no folder 0755: %v", err)
	}
	for _, name := range []string{"first-player.svg", "draws.svg", "branching.svg"} {
		if data, err := os.ReadFile(filepath.Join(svgs, name)); err != nil || !strings.Contains(string(data), "<svg") {
			t.Errorf("compare --svg into a new folder wrote no %s: %v", name, err)
		}
	}
}

// TestLabSaysWhatItWrites: after the bar's 100% the lab says that it is
// measuring and writing, rather than falling silent; so does a run with
// no game left to play.
func TestLabSaysWhatItWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"lab", "pommel", "--player", "random", "--games", "1", "--depth", "1", "--out", dir}
	for _, name := range []string{"a new run", "a run with every game played"} {
		r := run(t, "", args...)
		done := strings.LastIndex(r.errOut, "(1/1)")
		if name == "a run with every game played" {
			done = 0
		}
		note := strings.Index(r.errOut, writingNote)
		if r.code != 0 || done < 0 || note < done {
			t.Errorf("%s: exit %d, stderr %q: want %q after the bar", name, r.code, r.errOut, writingNote)
		}
	}
	r := run(t, "", "lab", "skill", "pommel", "--player", "random", "--depth", "1", "--steps", "1", "--games", "1",
		"--out", filepath.Join(t.TempDir(), "trace"))
	if done := strings.LastIndex(r.errOut, "(1/1)"); r.code != 0 || done < 0 || strings.Index(r.errOut, writingNote) < done {
		t.Errorf("lab skill: exit %d, stderr %q: want %q after the bar", r.code, r.errOut, writingNote)
	}
	r = run(t, "", append(args, "-q")...)
	if r.code != 0 || r.errOut != "" {
		t.Errorf("-q: exit %d, stderr %q; want nothing", r.code, r.errOut)
	}
}

// TestLabPrintsTheEngineTable: with two different engines the console
// says how each engine did, whatever its seat.
func TestLabPrintsTheEngineTable(t *testing.T) {
	out := runOK(t, "lab", "pommel", "--player", "ab", "--player", "random", "--games", "2", "--depth", "1", "-q",
		"--out", filepath.Join(t.TempDir(), "run"))
	for _, want := range []string{"engine", "score [95% interval]", "\nab ", "\nrandom "} {
		if !strings.Contains(out, want) {
			t.Errorf("lab with two engines printed\n%s\nwant %q", out, want)
		}
	}
}
