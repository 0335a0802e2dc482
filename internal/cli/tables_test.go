package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
)

// twoPieceTables builds Pommel's 2-piece tables (a tenth of a second)
// into a temporary folder and returns it with the tables opened.
func twoPieceTables(t *testing.T) (string, *endgame.Tables) {
	t.Helper()
	return endgametest.Build(t, "pommel", nil, 2)
}

// TestBestTables: best --tables prints the tables' value of a position
// they hold as its first line and plays on it (its score is the same
// win or loss); a position they do not hold gets no such line.
func TestBestTables(t *testing.T) {
	dir, tb := twoPieceTables(t)
	g, _ := game.New("pommel", nil)
	for _, tc := range []struct {
		fen  string
		held bool
	}{
		{"W:WKd5:Bf3", true},
		{"B:WKd5:Bf3", true},
		{"W:Wb2:Bf6", true},
		{"W:Wa1:Bb2,a2", false},
		{"", false},
	} {
		args := []string{"best", "pommel", "--tables", dir, "--depth", "3"}
		if tc.fen != "" {
			args = append(args, "--from", tc.fen)
		}
		out := lines(t, runOK(t, args...))
		if !strings.HasPrefix(out[len(out)-1], "bestmove ") {
			t.Errorf("%s: the last line is %q, not bestmove", tc.fen, out[len(out)-1])
		}
		if !tc.held {
			if !strings.HasPrefix(out[0], "depth ") {
				t.Errorf("%q: the first line is %q; want a search's line", tc.fen, out[0])
			}
			continue
		}
		s, err := g.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		v, err := tb.Probe(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := valueLine(v); out[0] != want {
			t.Errorf("%s: first line %q, want %q", tc.fen, out[0], want)
		}
		if want := "score " + strings.ReplaceAll(v.String(), " ", ""); !strings.Contains(out[1], want) {
			t.Errorf("%s (%v): %q does not say %q", tc.fen, v, out[1], want)
		}
	}
}

// TestValueLine: the three kinds of value as best writes them.
func TestValueLine(t *testing.T) {
	for _, tc := range []struct {
		v    endgame.Value
		want string
	}{
		{endgame.Value{Kind: endgame.Win, Plies: 7}, "win in 7 (tables)"},
		{endgame.Value{Kind: endgame.Loss, Plies: 12}, "loss in 12 (tables)"},
		{endgame.Value{Kind: endgame.Loss}, "loss in 0 (tables)"},
		{endgame.Value{Kind: endgame.Draw}, "draw (tables)"},
	} {
		if got := valueLine(tc.v); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestTablesRefused: every command that takes --tables refuses an empty,
// over-long or control-character path, a folder without tables and
// tables of another game or other rules, on one short line that quotes
// at most the path's start; ab:tables=on without --tables is refused,
// and so is --tables with a queued lab run.
func TestTablesRefused(t *testing.T) {
	dir, _ := twoPieceTables(t)
	empty := t.TempDir()
	long := filepath.Join(empty, strings.Repeat("x", 5000))
	refusals := []struct {
		args []string // after the command and game
		want string
	}{
		{[]string{"--tables", ""}, "--tables is empty"},
		{[]string{"--tables", "   "}, "--tables is empty"},
		{[]string{"--tables", long}, "at most 4096"},
		{[]string{"--tables", empty + "/a\nb"}, "control character"},
		{[]string{"--tables", empty}, "holds no endgame tables"},
		{[]string{"--tables", filepath.Join(empty, "missing")}, "holds no endgame tables"},
		{[]string{"--tables", dir, "-o", "hop=any"}, "not of pommel (hop=any)"},
	}
	commands := [][]string{
		{"best", "pommel", "--depth", "1"},
		{"match", "pommel", "--player", "a=ab", "--player", "b=ab", "--depth", "1", "-q"},
		{"lab", "pommel", "--player", "ab", "--depth", "1", "-q", "--out", filepath.Join(t.TempDir(), "run")},
		{"play", "pommel", "--white", "ab", "--black", "ab", "--depth", "1"},
	}
	for _, cmd := range commands {
		for _, r := range refusals {
			checkRefused(t, append(append([]string{}, cmd...), r.args...), r.want)
		}
		other := append([]string{cmd[0], "pommel-76"}, cmd[2:]...)
		checkRefused(t, append(other, "--tables", dir), "not of pommel-76")
	}
	checkRefused(t, []string{"match", "pommel", "--player", "a=ab:tables=on", "--player", "b=ab", "--depth", "1"}, "given no endgame tables")
	checkRefused(t, []string{"lab", "pommel", "--player", "ab", "--depth", "1", "--out", t.TempDir(), "--tables", dir,
		"--queue", filepath.Join(t.TempDir(), "q.db")}, "--tables with --queue")
}

// checkRefused runs args and fails unless they exit 1 with one short
// line on standard error that says want.
func checkRefused(t *testing.T, args []string, want string) {
	t.Helper()
	r := run(t, "", args...)
	what := strings.Join(args, " ")
	if r.code != 1 || len(r.errOut) > 300 || strings.Count(r.errOut, "\n") != 1 || !strings.Contains(r.errOut, want) {
		t.Errorf("arbiter %.120q: exit %d, stderr %.400q; want 1 and one short line saying %q", what, r.code, r.errOut, want)
	}
	if strings.Contains(r.errOut, strings.Repeat("x", 100)) {
		t.Errorf("arbiter %.120q quotes more than 80 characters of the path: %.400q", what, r.errOut)
	}
}

// TestMatchTablesOneSide: in a match from a won table position where
// only one player has the tables (the other's spec says tables=off), the
// player with the tables wins the game it starts on the winning seat,
// and the record names the players by their specs' names.
func TestMatchTablesOneSide(t *testing.T) {
	dir, tb := twoPieceTables(t)
	g, _ := game.New("pommel", nil)
	const from = "W:WKd5:Bf3"
	s, _ := g.ParseFEN(from)
	if v, err := tb.Probe(s); err != nil || v.Kind != endgame.Win {
		t.Fatalf("%s is %v (%v), want a win for White", from, v, err)
	}
	path := filepath.Join(t.TempDir(), "m.pdn")
	runOK(t, "match", "pommel", "--from", from, "--tables", dir, "--player", "tb=ab", "--player", "plain=ab:tables=off",
		"--depth", "1", "--games", "2", "--opening", "0", "-q", "--out", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "[White \"tb\"]\n[Black \"plain\"]\n[Result \"1-0\"]") {
		t.Errorf("tb on the winning seat did not win:\n%s", text)
	}
}

// TestEngineOptionsTables: no tables, no options; tables, the option
// that gives them.
func TestEngineOptionsTables(t *testing.T) {
	if opts := engineOptions(nil); len(opts) != 0 {
		t.Errorf("%d options without tables", len(opts))
	}
	_, tb := twoPieceTables(t)
	if _, err := ai.New("ab:tables=on", 1, engineOptions(tb)...); err != nil {
		t.Errorf("ab:tables=on with the tables: %v", err)
	}
}

// TestLabRunKeepsItsTables: a lab run records the tables its engines
// probed; continuing it without them, or with others, is refused in one
// line, and with the same tables it goes on.
func TestLabRunKeepsItsTables(t *testing.T) {
	dir, tb := twoPieceTables(t)
	out := filepath.Join(t.TempDir(), "run")
	base := []string{"lab", "pommel", "--from", "W:WKa4:Bc6", "--player", "ab", "--depth", "2", "--opening", "0", "-q", "--out", out}
	runOK(t, append(base, "--games", "2", "--tables", dir)...)
	data, err := os.ReadFile(filepath.Join(out, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), tb.Identity()) {
		t.Fatalf("run.json does not name the tables %q:\n%s", tb.Identity(), data)
	}
	checkRefused(t, append(base, "--games", "4"), "endgame tables")
	runOK(t, append(base, "--games", "4", "--tables", dir)...)
	if testing.Short() {
		return // other tables take a second or two to build
	}
	other := t.TempDir()
	g, _ := game.New("pommel", nil)
	if _, err := endgame.Build(context.Background(), endgame.Config{Game: g, Pieces: 3, Dir: other}); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, append(base, "--games", "6", "--tables", other), "endgame tables")
}
