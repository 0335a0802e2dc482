package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlaySwapAndReplay: play takes -o first= and -o swap=, offers swap
// at the second player's first turn, saves it, and replay replays it.
func TestPlaySwapAndReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pdn")
	r := run(t, "g6-g4\nswap\ng6-g4\nquit\n", "play", "pommel", "-o", "first=black", "-o", "swap=on", "--save", path)
	if r.code != 0 || !strings.Contains(r.out, " swap\n") {
		t.Fatalf("play: %+v", r)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if text := string(data); !strings.Contains(text, `[Options "first=black hop=friendly maxplies=600 swap=on"]`) ||
		!strings.Contains(text, "1... g6-g4 2. swap g6-g4 *") {
		t.Fatalf("saved file:\n%s", text)
	}
	out := runOK(t, "replay", path)
	if !strings.Contains(out, "3 moves") || !strings.Contains(out, "White to move") {
		t.Errorf("replay:\n%s", out)
	}
}

// TestOptionsRefusedInOneLine: a bad first= and swap in a three-player
// game are refused by the commands that take -o, in one line.
func TestOptionsRefusedInOneLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"moves", "pommel", "-o", "first=red"}, "must be one of white, black"},
		{[]string{"perft", "punt-heks-match-3p", "1", "-o", "swap=on"}, "the pie rule is for two players"},
		{[]string{"moves", "pommel", "-o", "swap=maybe"}, "must be one of off, on"},
	}
	for _, tt := range tests {
		r := run(t, "", tt.args...)
		if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(strings.TrimSpace(r.errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want one line saying %q", tt.args, r.code, r.errOut, tt.want)
		}
	}
}
