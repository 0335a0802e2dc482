package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
)

// TestProbeKnown: positions whose values follow from the rules by hand.
func TestProbeKnown(t *testing.T) {
	small, _ := solveTwo(t)
	big := filepath.Join(t.TempDir(), "tables-76")
	runOK(t, "solve", "pommel-76", "--pieces", "2", "--out", big)
	tests := []struct {
		name, game, dir, fen, want string
		options                    []string
	}{
		// a1xa3 takes Black's last piece.
		{"a capture of the last piece", "pommel", small, "W:Wa1:Ba2", "win 1", nil},
		{"a capture of the last piece, sideways", "pommel", small, "W:Wa1:Bb2", "win 1", nil},
		// Black's one move is a2-b2, and a1xc2 takes it.
		{"one move, into a capture", "pommel", small, "B:Wa1:Ba2", "loss 2", nil},
		{"the big board", "pommel-76", big, "W:Wa1:Ba2", "win 1", nil},
		{"the big board, one move into a capture", "pommel-76", big, "B:Wa1:Ba2", "loss 2", nil},
		// The ply cap plays no part in a value: tables built with the
		// default answer games with another.
		{"another ply cap", "pommel", small, "W:Wa1:Ba2", "win 1", []string{"-o", "maxplies=50"}},
	}
	for _, tt := range tests {
		args := append([]string{"probe", tt.game, "--tables", tt.dir, "--from", tt.fen}, tt.options...)
		if got := runOK(t, args...); got != tt.want+"\n" {
			t.Errorf("%s: probe %s prints %q, want %q", tt.name, tt.fen, got, tt.want)
		}
	}
}

// eximoStart is Eximo's starting position.
const eximoStart = "B:Wb6,c6,f6,g6,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,b3,c3,f3,g3"

// TestProbeRefused: a position outside the tables and every bad flag is
// one line on stderr, a non-zero exit and nothing on stdout.
func TestProbeRefused(t *testing.T) {
	dir, _ := solveTwo(t)
	empty := t.TempDir()
	long := strings.Repeat("x", 200)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"too many pieces", []string{"pommel", "--from", "W:Wa1,b1:Ba2"}, "the position has 3 pieces; the tables in " + dir + " hold at most 2"},
		{"a side without pieces", []string{"pommel", "--from", "W:Wa1:B"}, "the game is over: a side has no pieces"},
		{"another game", []string{"pommel-76", "--from", "W:Wa1:Ba2"}, "holds tables of pommel (hop=friendly), not of pommel-76"},
		{"other rules", []string{"pommel", "-o", "hop=any", "--from", "W:Wa1:Ba2"}, "not of pommel (hop=any)"},
		{"a game without tables", []string{"checkers-2011", "--from", "x"}, "checkers-2011 has no endgame tables"},
		{"another game's position", []string{"eximo", "--from", eximoStart}, "holds tables of pommel (hop=friendly), not of eximo"},
		{"a game without tables, sampled", []string{"punt-heks-match-3p", "--sample", "3"}, "punt-heks-match-3p has no endgame tables"},
		{"a malformed FEN", []string{"pommel", "--from", "W:Wz9:Ba2"}, "bad FEN"},
		{"a long malformed FEN", []string{"pommel", "--from", long}, `"` + strings.Repeat("x", 80) + `"…`},
		{"a soldier on its last row", []string{"pommel", "--from", "W:Wa6:Ba1"}, "would have been promoted"},
		{"an empty --from", []string{"pommel", "--from", " "}, "--from is empty"},
		{"neither --from nor --sample", []string{"pommel"}, "give --from FEN to look a position up, or --sample N"},
		{"--from and --sample", []string{"pommel", "--from", "W:Wa1:Ba2", "--sample", "3"}, "--from and --sample do not go together"},
		{"--value with --from", []string{"pommel", "--from", "W:Wa1:Ba2", "--value", "win"}, "--value goes with --sample"},
		{"--material with --from", []string{"pommel", "--from", "W:Wa1:Ba2", "--material", "KvK"}, "--material goes with --sample"},
		{"--seed with --from", []string{"pommel", "--from", "W:Wa1:Ba2", "--seed", "4"}, "--seed goes with --sample"},
		{"no sample", []string{"pommel", "--sample", "0"}, "--sample 0: want a whole number from 1 to 10000"},
		{"a negative sample", []string{"pommel", "--sample", "-2"}, "--sample -2: want"},
		{"a huge sample", []string{"pommel", "--sample", "10001"}, "--sample 10001: want"},
		{"a sample not a number", []string{"pommel", "--sample", "many"}, `--sample "many": want a whole number from 1 to 10000`},
		{"a bad value", []string{"pommel", "--sample", "3", "--value", "wins"}, `--value "wins": want win, draw or loss`},
		{"a long value", []string{"pommel", "--sample", "3", "--value", long}, `"` + strings.Repeat("x", 80) + `"…`},
		{"a bad material", []string{"pommel", "--sample", "3", "--material", "KxK"}, `material "KxK": want the two sides`},
		{"a long material", []string{"pommel", "--sample", "3", "--material", long}, "more pieces than any table holds"},
		{"a material not held", []string{"pommel", "--sample", "3", "--material", "KKvK"}, "--material KKvK: the tables in " + dir + " do not hold it (up to 2 pieces)"},
		{"more than the tables hold", []string{"pommel", "--sample", "3", "--material", "KvK", "--value", "draw"}, "--sample 3: the tables hold only 0 such positions"},
		{"a bad seed", []string{"pommel", "--sample", "3", "--seed", "-1"}, `--seed "-1": want a whole number, 0 or more`},
	}
	for _, tt := range tests {
		r := run(t, "", append([]string{"probe", "--tables", dir}, tt.args...)...)
		if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 || len(r.errOut) > 300 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one line with %q", tt.name, r.code, r.out, r.errOut, tt.want)
		}
	}
	for _, tt := range []struct{ name, tables, want string }{
		{"no --tables", "", "--tables is missing"},
		{"a folder without tables", empty, "holds no endgame tables (no manifest.json): build them with arbiter solve"},
		{"a folder that is not there", filepath.Join(empty, "none"), "holds no endgame tables"},
		{"a long folder name", filepath.Join(empty, strings.Repeat("y", 300)), `"…/manifest.json: file name too long`},
	} {
		r := run(t, "", "probe", "pommel", "--tables", tt.tables, "--from", "W:Wa1:Ba2")
		if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 || len(r.errOut) > 300 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one line with %q", tt.name, r.code, r.out, r.errOut, tt.want)
		}
	}
}

// TestProbeSample: a sample is the same for the same seed, holds
// distinct positions of the material and value asked, each probing to
// its comment, and reads as an openings book.
func TestProbeSample(t *testing.T) {
	dir, _ := solveTwo(t)
	checkSample(t, "pommel", dir, 30, nil)
	checkSample(t, "pommel", dir, 12, []string{"--material", "KvM"})
	checkSample(t, "pommel", dir, 12, []string{"--value", "loss", "--material", "MvM"})
	base := []string{"probe", "pommel", "--tables", dir, "--sample", "20"}
	if runOK(t, append(base, "--seed", "7")...) == runOK(t, append(base, "--seed", "8")...) {
		t.Error("seeds 7 and 8 draw the same sample")
	}
	// Asking for every win of KvK gives each once.
	g, _ := game.New("pommel", nil)
	tables, err := endgame.Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	var wins uint64
	for _, ms := range tables.Manifest().Materials {
		if ms.Material == "KvK" {
			wins = ms.Wins
		}
	}
	if wins == 0 {
		t.Fatal("the tables of 2 pieces have no win of KvK")
	}
	all := fmt.Sprint(wins)
	out := runOK(t, "probe", "pommel", "--tables", dir, "--sample", all, "--material", "KvK", "--value", "win")
	if got := lines(t, out); uint64(len(got)) != wins || len(slices.Compact(slices.Sorted(slices.Values(got)))) != len(got) {
		t.Errorf("--sample %s of KvK's %d wins: %d lines, not all distinct", all, wins, len(got))
	}
	r := run(t, "", "probe", "pommel", "--tables", dir, "--sample", fmt.Sprint(wins+1), "--material", "KvK", "--value", "win")
	if want := fmt.Sprintf("the tables hold only %d such positions", wins); r.code == 0 || r.out != "" || !strings.Contains(r.errOut, want) {
		t.Errorf("one more than KvK's wins: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
	}
}

// TestProbeSampleDraws: the draws of three pieces sample and probe as
// draws (a build of three pieces takes seconds).
func TestProbeSampleDraws(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Pommel's tables of 3 pieces")
	}
	dir := filepath.Join(t.TempDir(), "tables")
	runOK(t, "solve", "pommel", "--pieces", "3", "--out", dir)
	checkSample(t, "pommel", dir, 10, []string{"--value", "draw"})
	checkSample(t, "pommel", dir, 10, []string{"--value", "win", "--material", "MMvM"})
}

// checkSample draws a sample of n with extra flags twice with one seed and
// checks it: the same both times, n distinct lines "FEN # value material"
// of the flags' value and material, each FEN probing to its value, and
// the whole an openings book where every game goes on.
func checkSample(t *testing.T, id, dir string, n int, extra []string) {
	t.Helper()
	args := append([]string{"probe", id, "--tables", dir, "--sample", fmt.Sprint(n), "--seed", "5"}, extra...)
	out := runOK(t, args...)
	if again := runOK(t, args...); again != out {
		t.Errorf("%v: two runs with one seed differ:\n%s\n%s", extra, out, again)
	}
	got := lines(t, out)
	if len(got) != n || len(slices.Compact(slices.Sorted(slices.Values(got)))) != n {
		t.Fatalf("%v: %d lines, want %d distinct:\n%s", extra, len(got), n, out)
	}
	flag := func(name string) string {
		if i := slices.Index(extra, name); i >= 0 {
			return extra[i+1]
		}
		return ""
	}
	for _, line := range got {
		fen, comment, ok := strings.Cut(line, " # ")
		words := strings.Fields(comment)
		if !ok || len(words) < 2 {
			t.Fatalf("line %q: want FEN # value material", line)
		}
		value, material := strings.Join(words[:len(words)-1], " "), words[len(words)-1]
		if m := flag("--material"); m != "" && material != m {
			t.Errorf("line %q: want material %s", line, m)
		}
		if v := flag("--value"); v != "" && words[0] != v {
			t.Errorf("line %q: want value %s", line, v)
		}
		if p := runOK(t, "probe", id, "--tables", dir, "--from", fen); p != value+"\n" {
			t.Errorf("line %q: the FEN probes to %q", line, p)
		}
	}
	g, _ := game.New(id, nil)
	if book, err := match.ParseOpenings(g.Start(), out); err != nil || len(book) != n {
		t.Errorf("%v: the sample as an openings book: %d openings, %v", extra, len(book), err)
	}
}
