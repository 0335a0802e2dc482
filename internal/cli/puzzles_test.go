package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/record"
)

// cheap are the flags of a quick run: small searches, short games.
var cheap = []string{"--nodes", "1000", "--verify", "4000", "--play-nodes", "200", "-q"}

// runPuzzles runs 'arbiter puzzles' with args and returns the puzzles it
// wrote to standard output.
func runPuzzles(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := Execute(append([]string{"puzzles"}, args...), strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
	}
	var ps []map[string]any
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var p map[string]any
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestPuzzlesSelfPlay: self-play puzzles come out as JSON lines of the
// RULINGS shape and what the generator knows, the same for the same
// flags, to standard output or to --out.
func TestPuzzlesSelfPlay(t *testing.T) {
	args := append([]string{"eximo", "--selfplay", "2", "--seed", "3"}, cheap...)
	a := runPuzzles(t, args...)
	if len(a) == 0 {
		t.Fatal("no puzzles in two eximo games; pick another seed")
	}
	for _, p := range a {
		for _, k := range []string{"id", "game", "fen", "solution", "themes", "rating", "margin", "nodes", "verifyNodes", "source"} {
			if _, ok := p[k]; !ok {
				t.Errorf("puzzle %v has no %q", p, k)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "p.jsonl")
	runPuzzles(t, append(args, "--out", path)...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	for _, p := range a {
		line, _ := json.Marshal(p)
		again.Write(line)
		again.WriteByte('\n')
	}
	var b []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var p map[string]any
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		b = append(b, p)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("--out differs from the run before:\n%s\n%s", ja, jb)
	}
}

// TestPuzzlesGames: --games reads a PDN file; its puzzles name it.
func TestPuzzlesGames(t *testing.T) {
	g, err := game.New("eximo", nil)
	if err != nil {
		t.Fatal(err)
	}
	start, moves, err := puzzle.SelfPlay(t.Context(), g, 3, 0, 200, 8)
	if err != nil {
		t.Fatal(err)
	}
	rec := record.New(g, "", nil, "2026.12.03")
	s := start.Clone()
	for _, m := range moves[:30] {
		rec.Moves = append(rec.Moves, m.Text(g.Board()))
		s.Play(m)
	}
	var buf bytes.Buffer
	if err := record.Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.pdn")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ps := runPuzzles(t, append([]string{"eximo", "--games", path}, cheap...)...)
	for _, p := range ps {
		if src, _ := p["source"].(string); !strings.HasPrefix(src, "games "+path+" #1") {
			t.Errorf("source %q", src)
		}
	}
	// The file is of eximo: asking for pommel's puzzles in it is refused.
	var out, errOut bytes.Buffer
	if code := Execute(append([]string{"puzzles", "pommel", "--games", path}, cheap...), strings.NewReader(""), &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "not of pommel") {
		t.Errorf("pommel in an eximo file: exit %d, %q", code, errOut.String())
	}
}

// TestPuzzlesRefusals: every bad flag is refused in one line that names
// it and quotes no more than clip allows.
func TestPuzzlesRefusals(t *testing.T) {
	long := strings.Repeat("x", 500)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eximo"}, "--selfplay N, --games FILE and --recheck FILE"},
		{[]string{"eximo", "--selfplay", "1", "--games", "f.pdn"}, "--selfplay N, --games FILE and --recheck FILE"},
		{[]string{"eximo", "--selfplay", "1", "--recheck", "p.jsonl"}, "--recheck FILE"},
		{[]string{"eximo", "--selfplay", "1", "--deeper", "400000"}, "--deeper goes with --recheck"},
		{[]string{"eximo", "--selfplay", "1", "--first", "-1"}, "--first"},
		{[]string{"eximo", "--selfplay", "1", "--first", "100001"}, "--first"},
		{[]string{"eximo", "--games", "g.pdn", "--first", "3"}, "--first goes with --selfplay"},
		{[]string{"eximo", "--recheck", "p.jsonl", "--deeper", "-1"}, "--deeper"},
		{[]string{"eximo", "--recheck", "p.jsonl", "--deeper", "10000001"}, "--deeper"},
		{[]string{"eximo", "--recheck", filepath.Join(t.TempDir(), long)}, "--recheck"},
		{[]string{"eximo", "--recheck", badPuzzles(t, `{"id":"x","game":"eximo"`)}, "line 1"},
		{[]string{"eximo", "--recheck", badPuzzles(t, `{"id":"x","game":"eximo","extra":1}`)}, "line 1"},
		{[]string{"eximo", "--recheck", badPuzzles(t, `{"id":"x","game":"pommel","fen":"W:Wa1:Bb2","solution":["a1-a2"]}`)}, "not of eximo"},
		{[]string{"eximo", "--recheck", badPuzzles(t, `{"id":"x","game":"eximo","fen":"W:nonsense","solution":["a1-a2"],"verifyNodes":80000}`)}, "line 1"},
		{[]string{"eximo", "--recheck", badPuzzles(t, "\n")}, "no puzzles"},
		{[]string{"eximo", "--selfplay", "0"}, "--selfplay"},
		{[]string{"eximo", "--selfplay", "-3"}, "--selfplay"},
		{[]string{"eximo", "--selfplay", "100001"}, "--selfplay"},
		{[]string{"eximo", "--selfplay", "99999999999999999999"}, "--selfplay"},
		{[]string{"eximo", "--selfplay", "two"}, "--selfplay"},
		{[]string{"eximo", "--selfplay", "1", "--seed", "-1"}, "--seed"},
		{[]string{"eximo", "--selfplay", "1", "--nodes", "0"}, "--nodes"},
		{[]string{"eximo", "--selfplay", "1", "--nodes", "10000001"}, "--nodes"},
		{[]string{"eximo", "--selfplay", "1", "--nodes", "1000", "--verify", "1000"}, "--verify"},
		{[]string{"eximo", "--selfplay", "1", "--verify", "99999999999"}, "--verify"},
		{[]string{"eximo", "--selfplay", "1", "--play-nodes", "0"}, "--play-nodes"},
		{[]string{"eximo", "--selfplay", "1", "--random-plies", "-1"}, "--random-plies"},
		{[]string{"eximo", "--selfplay", "1", "--random-plies", "201"}, "--random-plies"},
		{[]string{"eximo", "--selfplay", "1", "--margin", "0"}, "--margin"},
		{[]string{"eximo", "--selfplay", "1", "--margin", "1.5"}, "--margin"},
		{[]string{"eximo", "--selfplay", "1", "--margin", "NaN"}, "--margin"},
		{[]string{"eximo", "--selfplay", "1", "--margin", long}, "--margin"},
		{[]string{"eximo", "--selfplay", "1", "--max-moves", "0"}, "--max-moves"},
		{[]string{"eximo", "--selfplay", "1", "--max-moves", "21"}, "--max-moves"},
		{[]string{"eximo", "--games", filepath.Join(t.TempDir(), long)}, "--games"},
		{[]string{long, "--selfplay", "1"}, ""},
		{[]string{"pommel", "--selfplay", "1", "--tables", filepath.Join(t.TempDir(), long)}, "--tables"},
	} {
		var out, errOut bytes.Buffer
		code := Execute(append([]string{"puzzles"}, tc.args...), strings.NewReader(""), &out, &errOut)
		line := strings.TrimSpace(errOut.String())
		if code == 0 || !strings.Contains(line, tc.want) || strings.Contains(line, "\n") || strings.Count(line, "x") > 2*80 {
			t.Errorf("%.60v: exit %d, %.300q", tc.args, code, line)
		}
	}
}

// TestPuzzlesTables: with --tables, a table position of a record is an
// exact puzzle: the only winning move, the tables' value with it.
func TestPuzzlesTables(t *testing.T) {
	dir, _ := endgametest.Build(t, "pommel", nil, 2)
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Only a1-a5 keeps the captain's win against the soldier.
	rec := record.New(g, "W:WKa1:Bf3", nil, "2026.12.03")
	rec.Moves = []string{"a1-b1"}
	var buf bytes.Buffer
	if err := record.Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.pdn")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ps := runPuzzles(t, append([]string{"pommel", "--games", path, "--tables", dir}, cheap...)...)
	if len(ps) != 1 || ps[0]["table"] != "win in 9" {
		t.Fatalf("puzzles %v, want one, win in 9", ps)
	}
	if sol, _ := ps[0]["solution"].([]any); len(sol) == 0 || sol[0] != "a1-a5" {
		t.Errorf("solution %v, want a1-a5 first", ps[0]["solution"])
	}
}

// badPuzzles writes line to a puzzles file and names it.
func badPuzzles(t *testing.T, line string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(line, `\n`, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPuzzlesRecheck: --recheck writes the puzzles whose solution a
// deeper search confirms and drops the one whose first move the tables
// show to be no win.
func TestPuzzlesRecheck(t *testing.T) {
	dir, _ := endgametest.Build(t, "pommel", nil, 2)
	good := puzzle.Puzzle{ID: "pommel-good", Game: "pommel", FEN: "W:WKa1:Bf3", Solution: []string{"a1-a5"}, VerifyNodes: 4000}
	bad := good
	bad.ID, bad.Solution = "pommel-bad", []string{"a1-b1"}
	var lines bytes.Buffer
	for _, p := range []puzzle.Puzzle{good, bad} {
		if err := json.NewEncoder(&lines).Encode(p); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(path, lines.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ps := runPuzzles(t, "pommel", "--recheck", path, "--tables", dir, "--deeper", "16000", "-q")
	if len(ps) != 1 || ps[0]["id"] != "pommel-good" {
		t.Fatalf("kept %v, want pommel-good alone", ps)
	}
}

// TestPuzzlesFirst: --first I --selfplay N plays games I to I+N-1 of the
// seed, the same games a longer run plays after its first I: a set can
// be grown without playing its games again.
func TestPuzzlesFirst(t *testing.T) {
	whole := runPuzzles(t, append([]string{"eximo", "--selfplay", "3", "--seed", "3"}, cheap...)...)
	tail := runPuzzles(t, append([]string{"eximo", "--first", "1", "--selfplay", "2", "--seed", "3"}, cheap...)...)
	inTail := map[any]bool{}
	for _, p := range tail {
		if src := p["source"]; src != "selfplay seed 3 game 1" && src != "selfplay seed 3 game 2" {
			t.Errorf("--first 1: a puzzle of %v", src)
		}
		inTail[p["id"]] = true
	}
	later := 0
	for _, p := range whole {
		if p["source"] == "selfplay seed 3 game 0" {
			continue
		}
		later++
		if !inTail[p["id"]] {
			t.Errorf("%v of the whole run (%v) is not in the --first run", p["id"], p["source"])
		}
	}
	if later == 0 {
		t.Fatal("no puzzles in games 1 and 2 of seed 3; pick another seed")
	}
}
