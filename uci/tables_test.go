package uci

import (
	"path/filepath"
	"strconv"
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

// longWin is a 2-piece Pommel position decided in more plies than the
// searches of these tests see.
const longWin = "W:Wb2:Bf6"

// TestTablesOption: with the Tables option the engine scores a position
// of the tables by its exact value, whether the option came before
// newgame or after; ab:tables=off and <empty> search without them.
func TestTablesOption(t *testing.T) {
	dir, tb := twoPieceTables(t)
	g, _ := game.New("pommel", nil)
	s, _ := g.ParseFEN(longWin)
	v, err := tb.Probe(s)
	if err != nil || v.Kind == endgame.Draw || v.Plies <= 4 {
		t.Fatalf("%s is %v (%v): want a win or loss beyond depth 2", longWin, v, err)
	}
	score := ai.Mate - v.Plies
	if v.Kind == endgame.Loss {
		score = -score
	}
	exact := "score " + strconv.Itoa(score) + " "
	set := "setoption name Tables value " + dir
	search := []string{"position fen " + longWin, "go depth 2"}
	for _, tc := range []struct {
		name     string
		commands []string
		exact    bool
	}{
		{"before newgame", append([]string{set, "setoption name Player value ab", "newgame pommel"}, search...), true},
		{"after newgame", append([]string{"setoption name Player value ab", "newgame pommel", set}, search...), true},
		{"the default level 6", append([]string{set, "newgame pommel"}, search...), true},
		{"tables=on", append([]string{set, "newgame pommel", "setoption name Player value ab:tables=on"}, search...), true},
		{"tables=off", append([]string{set, "setoption name Player value ab:tables=off", "newgame pommel"}, search...), false},
		{"removed", append([]string{set, "setoption name Tables value <empty>", "setoption name Player value ab", "newgame pommel"}, search...), false},
		{"maxplies is no rule of the tables", append([]string{set, "setoption name Player value ab", "newgame pommel maxplies=300"}, search...), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runDialogue(t, tc.commands...)
			text := strings.Join(got, "\n")
			if strings.Contains(text, "info string") {
				t.Errorf("an error:\n%s", text)
			}
			if strings.Contains(text, exact) != tc.exact {
				t.Errorf("the tables' score %q found %v, want %v:\n%s", exact, !tc.exact, tc.exact, text)
			}
		})
	}
}

// TestTablesOptionRefused: a Tables value that names no folder, an
// over-long one, and tables of another game or other rules once a game is
// set are refused on one line quoting at most 80 characters of the path;
// tables that do not fit a new game leave it playing without them.
func TestTablesOptionRefused(t *testing.T) {
	dir, _ := twoPieceTables(t)
	long := filepath.Join(t.TempDir(), strings.Repeat("x", 5000))
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		name     string
		commands []string
		want     string
	}{
		{"no folder", []string{"setoption name Tables value " + missing}, "no such folder"},
		{"over-long", []string{"setoption name Tables value " + long}, "a path of 50"},
		{"no tables in the folder", []string{"newgame pommel", "setoption name Tables value " + t.TempDir()}, "holds no endgame tables"},
		{"other rules", []string{"newgame pommel hop=any", "setoption name Tables value " + dir}, "not of pommel (hop=any)"},
		{"other game", []string{"newgame pommel-76", "setoption name Tables value " + dir}, "not of pommel-76"},
		{"tables=on without tables", []string{"newgame pommel", "setoption name Player value ab:tables=on"}, "given no endgame tables"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runDialogue(t, tc.commands...)
			last := got[len(got)-1]
			if !strings.HasPrefix(last, "info string error: ") || !strings.Contains(last, tc.want) || len(last) > 300 {
				t.Errorf("last answer %.400q, want an error line saying %q", last, tc.want)
			}
		})
	}
	got := runDialogue(t, "setoption name Tables value "+dir, "newgame pommel-76", "go depth 1")
	text := strings.Join(got, "\n")
	if !strings.Contains(text, "info string no endgame tables for this game: ") || !strings.Contains(text, "\nbestmove ") ||
		strings.Contains(text, "bestmove (none)") {
		t.Errorf("pommel-76 with tables of pommel:\n%s", text)
	}
}
