package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
)

// solveTwo builds Pommel's tables of 2 pieces (a few milliseconds) into
// a new folder and returns it with solve's output.
func solveTwo(t *testing.T) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tables")
	out := runOK(t, "solve", "pommel", "--pieces", "2", "--out", dir)
	return dir, out
}

// TestSolveTable: solve prints one row per material of the manifest it
// wrote, with the manifest's figures, then the totals and a summary.
func TestSolveTable(t *testing.T) {
	dir, out := solveTwo(t)
	g, _ := game.New("pommel", nil)
	tables, err := endgame.Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	man := tables.Manifest()
	rows := lines(t, out)
	if len(rows) != len(man.Materials)+3 {
		t.Fatalf("%d lines for %d materials, want a header, a row each, the totals and a summary:\n%s", len(rows), len(man.Materials), out)
	}
	var total endgame.MaterialStats
	for i, ms := range man.Materials {
		want := []string{ms.Material, fmt.Sprint(ms.Positions), fmt.Sprint(ms.Wins), fmt.Sprint(ms.Draws), fmt.Sprint(ms.Losses), fmt.Sprint(ms.LongestWin)}
		if got := strings.Fields(rows[i+1]); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("row %d: %q, want %q", i+1, got, want)
		}
		if ms.Positions == 0 || ms.Wins+ms.Draws+ms.Losses != ms.Positions {
			t.Errorf("%s: %d positions, %d+%d+%d wins, draws and losses", ms.Material, ms.Positions, ms.Wins, ms.Draws, ms.Losses)
		}
		total.Positions += ms.Positions
		total.LongestWin = max(total.LongestWin, ms.LongestWin)
	}
	if f := strings.Fields(rows[len(rows)-2]); f[0] != "total" || f[1] != fmt.Sprint(total.Positions) || f[5] != fmt.Sprint(total.LongestWin) {
		t.Errorf("totals %q, want %d positions and a longest win of %d", f, total.Positions, total.LongestWin)
	}
	if want := fmt.Sprintf("%d materials of pommel, up to 2 pieces, in ", len(man.Materials)); !strings.HasPrefix(rows[len(rows)-1], want) {
		t.Errorf("summary %q, want it to start %q", rows[len(rows)-1], want)
	}
}

// TestSolveResumes: a second run on the same folder reads every material
// instead of building it (the files stay the very same files), and a
// material whose files are gone is built again, byte for byte the same.
func TestSolveResumes(t *testing.T) {
	dir, first := solveTwo(t)
	before := folderFiles(t, dir)
	again := runOK(t, "solve", "pommel", "--pieces", "2", "--out", dir)
	if table(first) != table(again) {
		t.Errorf("the second run's table differs:\n%s\nfrom the first's:\n%s", again, first)
	}
	for name, old := range before {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name != "manifest.json" && !os.SameFile(old.info, info) {
			t.Errorf("%s was written again: a re-run must read the materials done", name)
		}
	}
	for _, ext := range []string{".wdl", ".dtm"} {
		if err := os.Remove(filepath.Join(dir, "MvK"+ext)); err != nil {
			t.Fatal(err)
		}
	}
	runOK(t, "solve", "pommel", "--pieces", "2", "--out", dir)
	after := folderFiles(t, dir)
	for name, old := range before {
		if !bytes.Equal(old.data, after[name].data) {
			t.Errorf("%s differs after the rebuild", name)
		}
	}
}

// TestSolveFewerPieces: a build of fewer pieces than the folder's tables
// is refused, the folder left as it was; here the folder is that of a
// build of 3 pieces stopped after the materials of 2, which probe
// refuses a position of 3 pieces.
func TestSolveFewerPieces(t *testing.T) {
	dir, _ := solveTwo(t)
	path := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	three := bytes.Replace(data, []byte(`"pieces": 2,`), []byte(`"pieces": 3,`), 1)
	if bytes.Equal(three, data) {
		t.Fatalf("the manifest has no \"pieces\": 2:\n%s", data)
	}
	if err := os.WriteFile(path, three, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "solve", "pommel", "--pieces", "2", "--out", dir)
	if want := "--pieces 2: the tables in " + dir + " are of up to 3 pieces; give --pieces 3 or more"; r.code == 0 || r.out != "" || !strings.Contains(r.errOut, want) {
		t.Errorf("a smaller build over a larger one: exit %d, stdout %q, stderr %q; want %q", r.code, r.out, r.errOut, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, three) {
		t.Error("the refused build changed the manifest")
	}
	r = run(t, "", "probe", "pommel", "--tables", dir, "--from", "W:Wa1,b1:Ba2")
	if want := "do not hold MMvM (the build stopped before it)"; r.code == 0 || r.out != "" || !strings.Contains(r.errOut, want) {
		t.Errorf("probe of a material the stopped build lacks: exit %d, stdout %q, stderr %q; want %q", r.code, r.out, r.errOut, want)
	}
}

// TestSolveStopped: a build whose context is cancelled (as Ctrl-C does)
// stops with a one-line error that says how to go on, and the same
// command then finishes the tables.
func TestSolveStopped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tables")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	root := NewRoot(strings.NewReader(""), &out, &errOut)
	root.SetArgs([]string{"solve", "pommel", "--pieces", "2", "--out", dir})
	err := root.ExecuteContext(ctx)
	if err == nil || !strings.Contains(err.Error(), "stopped: the materials finished are kept in "+dir) || out.Len() != 0 {
		t.Fatalf("a cancelled build: error %v, output %q; want it stopped and nothing printed", err, out.String())
	}
	_, fresh := solveTwo(t)
	if got := runOK(t, "solve", "pommel", "--pieces", "2", "--out", dir); table(got) != table(fresh) {
		t.Errorf("the build after the stop:\n%s\nwant:\n%s", got, fresh)
	}
}

// TestSolveCheck: --check after a build and on a folder alone passes
// sound tables, and fails tables where one value was changed (with a
// valid checksum, so that only the check can tell), naming the position.
func TestSolveCheck(t *testing.T) {
	dir, _ := solveTwo(t)
	g, _ := game.New("pommel", nil)
	tables, err := endgame.Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	var positions uint64
	for _, ms := range tables.Manifest().Materials {
		positions += ms.Positions
	}
	out := runOK(t, "solve", "pommel", "--pieces", "2", "--out", dir, "--check")
	if want := fmt.Sprintf("checked %d positions of 4 materials", positions); !strings.Contains(out, want) || !strings.Contains(out, ": 0 failures") {
		t.Errorf("solve --check on sound tables, want %q:\n%s", want, out)
	}
	if checkOnly := runOK(t, "solve", "pommel", "--out", dir, "--check"); len(lines(t, checkOnly)) != 1 {
		t.Errorf("solve --check without --pieces builds nothing and prints one line, not:\n%s", checkOnly)
	}
	s, err := g.ParseFEN("W:Wa1:Ba2")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := tables.Probe(s); err != nil || v != (endgame.Value{Kind: endgame.Win, Plies: 1}) {
		t.Fatalf("W:Wa1:Ba2 probes to %v (%v), want win 1: a1xa3 takes the last piece", v, err)
	}
	index := indexOf(t, tables, "MvM", s.FEN())
	rewriteTable(t, filepath.Join(dir, "MvM.wdl"), func(data []byte) {
		data[index/4] &^= 3 << (2 * (index % 4)) // a draw, where the table had a win
	})
	r := run(t, "", "solve", "pommel", "--out", dir, "--check")
	if r.code == 0 || !strings.Contains(r.out, "W:Wa1:Ba2: the table says draw, its moves say win 1") ||
		!strings.Contains(r.errOut, "fail the check") || strings.Count(r.errOut, "\n") != 1 {
		t.Errorf("solve --check on a damaged table: exit %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
	}
}

// indexOf finds the index of the position fen in material m.
func indexOf(t *testing.T, tables *endgame.Tables, m, fen string) uint64 {
	t.Helper()
	mat, err := endgame.ParseMaterial(m)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tables.Indexes(mat) {
		if s, err := tables.Position(mat, i); err == nil && s.FEN() == fen {
			return i
		}
	}
	t.Fatalf("%s is not in %s", fen, m)
	return 0
}

// rewriteTable changes a table file's data and writes the checksum that
// fits it, as docs/tables.md describes the format: a magic line, a 4-byte
// little-endian header length, the JSON header, the data.
func rewriteTable(t *testing.T, path string, change func([]byte)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const magic = "ARBEGT1\n"
	n := int(binary.LittleEndian.Uint32(raw[len(magic):]))
	head := map[string]any{}
	if err := json.Unmarshal(raw[len(magic)+4:len(magic)+4+n], &head); err != nil {
		t.Fatal(err)
	}
	data := raw[len(magic)+4+n:]
	change(data)
	sum := sha256.Sum256(data)
	head["sha256"] = hex.EncodeToString(sum[:])
	newHead, err := json.Marshal(head)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32([]byte(magic), uint32(len(newHead)))
	out = append(append(out, newHead...), data...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSolveRefused: every bad flag, game or folder is refused with one
// line on stderr, nothing on stdout, before any table is built.
func TestSolveRefused(t *testing.T) {
	root := t.TempDir()
	other, _ := solveTwo(t)
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "new")
	long := strings.Repeat("9", 200)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a game without tables", []string{"checkers-2011", "--pieces", "2", "--out", out}, "checkers-2011 has no tables"},
		{"five pieces of eximo", []string{"eximo", "--pieces", "5", "--out", out}, "the tables of eximo hold 2 to 4"},
		{"an unknown game", []string{"chess", "--pieces", "2", "--out", out}, `unknown game "chess"`},
		{"a bad option", []string{"pommel", "-o", "hop=sideways", "--pieces", "2", "--out", out}, "hop"},
		{"no --pieces", []string{"pommel", "--out", out}, "--pieces is missing"},
		{"one piece", []string{"pommel", "--pieces", "1", "--out", out}, "--pieces 1: want a whole number from 2 to 5"},
		{"six pieces", []string{"pommel", "--pieces", "6", "--out", out}, "--pieces 6: want a whole number from 2 to 5"},
		{"negative pieces", []string{"pommel", "--pieces", "-3", "--out", out}, "--pieces -3: want"},
		{"pieces not a number", []string{"pommel", "--pieces", "two", "--out", out}, `--pieces "two": want a whole number from 2 to 5`},
		{"huge pieces", []string{"pommel", "--pieces", long, "--out", out}, `--pieces "` + strings.Repeat("9", 80) + `"…: want`},
		{"no --out", []string{"pommel", "--pieces", "2"}, "--out is missing"},
		{"blank --out", []string{"pommel", "--pieces", "2", "--out", " "}, "--out is missing"},
		{"a long --out", []string{"pommel", "--pieces", "2", "--out", filepath.Join(root, strings.Repeat("y", 300))}, `"…: file name too long`},
		{"a long --out to check", []string{"pommel", "--check", "--out", filepath.Join(root, strings.Repeat("y", 300))}, `"…/manifest.json: file name too long`},
		{"--out a file", []string{"pommel", "--pieces", "2", "--out", file}, "not a directory"},
		{"--out another game's tables", []string{"pommel-76", "--pieces", "2", "--out", other}, "holds tables of pommel (hop=friendly), not of pommel-76"},
		{"--out other rules' tables", []string{"pommel", "-o", "hop=any", "--pieces", "2", "--out", other}, "holds tables of pommel (hop=friendly), not of pommel (hop=any)"},
		{"--check on no tables", []string{"pommel", "--check", "--out", out}, "holds no endgame tables"},
		{"no workers", []string{"pommel", "--pieces", "2", "--out", out, "--workers", "0"}, "--workers 0: want a whole number from 1 to 256"},
		{"too many workers", []string{"pommel", "--pieces", "2", "--out", out, "--workers", "257"}, "--workers 257: want"},
		{"negative workers", []string{"pommel", "--pieces", "2", "--out", out, "--workers", "-1"}, "--workers -1: want"},
		{"workers overflow", []string{"pommel", "--pieces", "2", "--out", out, "--workers", long}, `--workers "` + strings.Repeat("9", 80) + `"…: want a whole number from 1 to 256`},
		{"too little memory", []string{"pommel", "--pieces", "2", "--out", out, "--memory", "1KiB"}, "more than the 1024 bytes allowed"},
	}
	for _, m := range []struct{ value, want string }{
		{"0", "no memory at all"}, {"0.1", "no memory at all"}, {"-1GiB", "want a size above 0"}, {"NaN", "want a size above 0"},
		{"Inf", "want a size above 0"}, {"1e9", "want a size above 0"}, {"3e", `unit "e": want B, KiB`}, {"8XiB", `unit "XiB"`}, {"", "want a size"},
		{"2000TiB", "more than 1024TiB"}, {long + "GiB", "more than 1024TiB"}, {"1.GiB", "want a size"},
	} {
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"--memory " + m.value, []string{"pommel", "--pieces", "2", "--out", out, "--memory", m.value}, m.want})
	}
	for _, tt := range tests {
		r := run(t, "", append([]string{"solve"}, tt.args...)...)
		if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 || len(r.errOut) > 300 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one line with %q", tt.name, r.code, r.out, r.errOut, tt.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused build made its folder %s", out)
	}
}

// TestParseSize: sizes in every unit, with decimals and a space.
func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"512MiB", 512 << 20}, {"8GiB", 8 << 30}, {"1.5GB", 1_500_000_000}, {"100", 100}, {"100B", 100},
		{"2 KiB", 2048}, {"3TiB", 3 << 40}, {"4kB", 4000}, {"4KB", 4000}, {"7MB", 7_000_000}, {"1TB", 1e12}, {"1024TiB", 1 << 50},
	}
	for _, tt := range tests {
		if got, err := parseSize(tt.in); err != nil || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

// TestBuildBar: the progress bar names the material, says when it was
// read rather than built, and shows the share of positions done.
func TestBuildBar(t *testing.T) {
	var w bytes.Buffer
	bar := &buildBar{w: &w}
	kmvk, _ := endgame.ParseMaterial("KMvK")
	kvk, _ := endgame.ParseMaterial("KvK")
	bar.show(endgame.Progress{Material: kmvk, Done: 50, Total: 200})
	bar.show(endgame.Progress{Material: kvk, Done: 100, Total: 200, Loaded: true})
	bar.finish()
	text := w.String()
	for _, want := range []string{"KMvK", "25%", "KvK (read)", "50%", "(100/200", "\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the bar %q does not show %q", text, want)
		}
	}
	var none *buildBar
	none.finish() // no bar: nothing to end, and no panic
}

// tableFile is a file of a table folder.
type tableFile struct {
	info os.FileInfo
	data []byte
}

// folderFiles reads every file of dir.
func folderFiles(t *testing.T, dir string) map[string]tableFile {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]tableFile{}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = tableFile{info, data}
	}
	return files
}

// table is solve's output without its last line, which gives the time.
func table(out string) string {
	return out[:strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1]
}

// TestSolveBoundedByTheMachine: without --memory a build that needs more
// memory than the machine has is refused at once, in one line, and
// writes nothing.
func TestSolveBoundedByTheMachine(t *testing.T) {
	if m := machineMemory(); m == 0 || m > 200<<30 {
		t.Skipf("the machine's memory (%d bytes) is unknown or holds five pieces of Pommel 76", m)
	}
	out := filepath.Join(t.TempDir(), "tables")
	r := run(t, "", "solve", "pommel-76", "--pieces", "5", "--out", out, "-q")
	if r.code != 1 || strings.Count(r.errOut, "\n") != 1 || !strings.Contains(r.errOut, "more than the") {
		t.Errorf("exit %d, stderr %q; want a one-line refusal", r.code, r.errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the refused build made its folder %s", out)
	}
}
