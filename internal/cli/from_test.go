package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endgamePosition is a Pommel position with play left: White's one man against
// two of Black's.
const endgamePosition = "W:Wa1:Bb2,a2"

// TestMatchFrom: every game of a match starts from --from, and its record
// says so (a FEN tag) and replays.
func TestMatchFrom(t *testing.T) {
	path := filepath.Join(t.TempDir(), "match.pdn")
	runOK(t, "match", "pommel", "-o", "maxplies=40", "--from", endgamePosition, "--player", "a=ab", "--player", "b=random",
		"--games", "2", "--depth", "1", "--opening", "0", "-q", "--out", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `[FEN "`+endgamePosition+`"]`); n != 2 {
		t.Errorf("the record file has %d FEN tags of %s, want one per game:\n%s", n, endgamePosition, data)
	}
	if out := runOK(t, "replay", path); !strings.Contains(out, "Game 2: pommel") {
		t.Errorf("the games from --from do not replay:\n%s", out)
	}
}

// TestLabFrom: a lab run from --from keeps its position in run.json and
// summary.json, writes it into every record, and is refused as the
// continuation or a shard of a run from elsewhere.
func TestLabFrom(t *testing.T) {
	root := t.TempDir()
	base := []string{"lab", "pommel", "-o", "maxplies=40", "--player", "ab", "--games", "2", "--depth", "1", "--opening", "0", "-q"}
	with := func(extra ...string) []string { return append(base[:len(base):len(base)], extra...) }
	dir := filepath.Join(root, "from")
	runOK(t, with("--from", endgamePosition, "--out", dir)...)
	var sum struct {
		Run struct{ From string }
	}
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil || sum.Run.From != endgamePosition {
		t.Errorf("summary.json's run.from is %q (%v), want %q", sum.Run.From, err, endgamePosition)
	}
	if pdn, _ := os.ReadFile(filepath.Join(dir, "games.pdn")); strings.Count(string(pdn), `[FEN "`+endgamePosition+`"]`) != 2 {
		t.Errorf("games.pdn lacks the FEN tags:\n%s", pdn)
	}
	// The same command continues the run.
	if out := runOK(t, with("--from", endgamePosition, "--games", "3", "--out", dir)...); !strings.Contains(out, "3 games") {
		t.Errorf("continued run from %s: %s", endgamePosition, out)
	}
	runOK(t, with("--from", endgamePosition, "--shard", "0/2", "--out", filepath.Join(root, "s0"))...)
	runOK(t, with("--shard", "1/2", "--out", filepath.Join(root, "s1"))...)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{with("--out", dir), `holds another run (from "` + endgamePosition + `" there, the start here)`},
		{with("--from", "W:Wa1:Bb2", "--out", dir), `holds another run (from "` + endgamePosition + `" there, "W:Wa1:Bb2" here)`},
		{[]string{"lab", "merge", filepath.Join(root, "m"), filepath.Join(root, "s0"), filepath.Join(root, "s1")},
			`holds another run than ` + filepath.Join(root, "s0") + ` (from "` + endgamePosition + `" there, the start here)`},
	} {
		r := run(t, "", tt.args...)
		if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("arbiter %s: exit %d, stderr %q; want one line with %q", strings.Join(tt.args, " "), r.code, r.errOut, tt.want)
		}
	}
}

// TestFromRefuses: lab and match refuse a --from that is no position, an
// empty one, and one where the game is over, before playing, quoting at
// most 80 characters of it.
func TestFromRefuses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "never")
	long := "W:Wa1:B" + strings.Repeat("b2,", 60) + "zz"
	commands := [][]string{
		{"lab", "pommel", "--player", "ab", "--depth", "1", "--out", out},
		{"match", "pommel", "--player", "a=ab", "--player", "b=ab", "--depth", "1", "-q", "--out", out},
	}
	for _, cmd := range commands {
		for _, tt := range []struct {
			from string
			want []string
		}{
			{"W:Wz9:Ba6", []string{"--from: bad FEN", `"W:Wz9:Ba6"`, "z9"}},
			{"", []string{"--from is empty"}},
			{"W:W:Bc4", []string{`--from: the game is over in "W:W:Bc4" (Black wins`, "give a position with a move to play"}},
			{"W:Wc3:B", []string{`--from: the game is over in "W:Wc3:B" (White wins`}},
			{long, []string{"--from: bad FEN", `"` + long[:80] + `"…`}},
		} {
			args := append(cmd[:len(cmd):len(cmd)], "--from", tt.from)
			r := run(t, "", args...)
			ok := r.code != 0 && strings.Count(r.errOut, "\n") == 1 && !strings.Contains(r.errOut, long[:81])
			for _, w := range tt.want {
				ok = ok && strings.Contains(r.errOut, w)
			}
			if !ok {
				t.Errorf("arbiter %s --from %.20q: exit %d, stderr %q; want one line with %q", cmd[0], tt.from, r.code, r.errOut, tt.want)
			}
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused --from made %s", out)
	}
}
