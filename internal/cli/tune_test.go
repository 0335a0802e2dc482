package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/games/pommel"
)

// TestTune makes a small position file, fits the weights to it, and
// checks the weights file: it reads as the game's weights, names the
// command, and comes out the same from the same file.
func TestTune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, out := filepath.Join(dir, "pommel.txt"), filepath.Join(dir, "pommel.json")
	g, _ := game.New("pommel", nil)
	runOK(t, "tune", "pommel", "--data", data, "--positions", "400", "--nodes", "30", "--workers", "2", "-q", "--out", out)
	text := testRead(t, data)
	if n := strings.Count(text, "\n"); n != 401 {
		t.Fatalf("%d lines in the position file, want a header and 400", n)
	}
	first := testRead(t, out)
	var w pommel.Weights
	if err := game.ParseWeights([]byte(first), "pommel", &w); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first, "arbiter tune pommel") || !strings.Contains(first, "--positions 400 --nodes 30 --random-plies 8 --seed 1") {
		t.Errorf("the file does not name the command that made it:\n%s", first)
	}
	// Again from the same positions, printed this time.
	if again := runOK(t, "tune", "pommel", "--data", data, "--workers", "1", "-q"); again != first {
		t.Errorf("a second fit of the same positions differs:\n%s\n%s", first, again)
	}
	// Held weights stay.
	held := runOK(t, "tune", "pommel", "--data", data, "--workers", "1", "-q", "--hold", "Captain,Edge", "--hold", "Home")
	var hw pommel.Weights
	if err := game.ParseWeights([]byte(held), "pommel", &hw); err != nil {
		t.Fatal(err)
	}
	if own := g.(game.Tunable).Weights().(*pommel.Weights); hw.Captain != own.Captain || hw.Edge != own.Edge || hw.Home != own.Home || !strings.Contains(held, "--hold Captain,Edge,Home") {
		t.Errorf("held weights moved, or the command does not say so:\n%s", held)
	}
	// The report names the error before and after.
	r := run(t, "", "tune", "pommel", "--data", data, "--workers", "1")
	if r.code != 0 || !strings.Contains(r.errOut, "held out") || r.out != first {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
}

func testRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTuneRefused: every bad flag and bad file is one line on stderr, a
// non-zero exit and nothing on stdout.
func TestTuneRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "some.txt")
	testWrite(t, data, "# arbiter tune positions game=eximo options=first=black,maxplies=600,swap=off seed=1 nodes=5 random-plies=0\n")
	junk := filepath.Join(dir, "junk.txt")
	testWrite(t, junk, "my shopping list\n")
	none := filepath.Join(dir, "none.txt")
	long := strings.Repeat("x", 200)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no --data", []string{"pommel"}, "--data is missing"},
		{"positions 0", []string{"pommel", "--data", none, "--positions", "0"}, "--positions 0: give 1 to 10000000"},
		{"positions negative", []string{"pommel", "--data", none, "--positions", "-5"}, "--positions -5"},
		{"positions huge", []string{"pommel", "--data", none, "--positions", "10000001"}, "--positions 10000001"},
		{"positions not a number", []string{"pommel", "--data", none, "--positions", "many"}, "--positions"},
		{"nodes 0", []string{"pommel", "--data", none, "--nodes", "0"}, "--nodes 0: give 1 to"},
		{"nodes huge", []string{"pommel", "--data", none, "--nodes", "99999999999999999999"}, "--nodes"},
		{"random plies negative", []string{"pommel", "--data", none, "--random-plies", "-1"}, "--random-plies -1"},
		{"random plies huge", []string{"pommel", "--data", none, "--random-plies", "201"}, "201"},
		{"workers 0", []string{"pommel", "--data", none, "--workers", "0"}, "--workers 0"},
		{"workers huge", []string{"pommel", "--data", none, "--workers", "257"}, "--workers 257"},
		{"a bad option", []string{"pommel", "--data", none, "-o", "hop=never"}, "hop"},
		{"an unknown game", []string{long, "--data", none}, strings.Repeat("x", 80)},
		{"another game's file", []string{"pommel", "--data", data}, "the positions are of eximo"},
		{"not a position file", []string{"pommel", "--data", junk}, "not a position file"},
		{"generation flags with a file", []string{"eximo", "--data", data, "--nodes", "5"}, "--nodes: " + `"` + data + `" exists`},
		{"a file with no positions", []string{"eximo", "--data", data}, "at least 10 are needed"},
		{"an unknown weight held", []string{"pommel", "--data", none, "--hold", "Captain,King"}, `--hold "King": pommel has no such weight`},
		{"a long weight held", []string{"pommel", "--data", none, "--hold", long}, strings.Repeat("x", 80)},
	} {
		r := run(t, "", append([]string{"tune"}, tc.args...)...)
		if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, tc.want) || strings.Count(r.errOut, "\n") != 1 || len(r.errOut) > 300 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one line with %q", tc.name, r.code, r.out, r.errOut, tc.want)
		}
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("a refused run left a position file")
	}
}

func testWrite(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
