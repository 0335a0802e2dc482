package all_test

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestLongInputShortErrors: however long the move, FEN or option a user
// writes, every game's error quotes at most the start of it, and still
// says what is wrong.
func TestLongInputShortErrors(t *testing.T) {
	const most = 300 // bytes of an error line
	long := func(unit string) string { return strings.Repeat(unit, 60_000/len(unit)) }
	for _, d := range game.All() {
		g, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := g.Board().Name(0)
		moves := []struct{ move, says string }{
			{long(name+"-") + name, `illegal move "` + name + "-"},
			{long(strings.ToUpper(name) + "-"), "lower case"},
			{name + "-" + long("z9"), "is not a cell"},
		}
		for _, tc := range moves {
			_, err := game.ParseMove(g.Start(), tc.move)
			check(t, d.ID+" move", err, tc.says, most)
			err = game.PlayMoves(g.Start(), []string{tc.move})
			check(t, d.ID+" moves", err, "move 1 ", most)
		}
		for _, tc := range []struct{ fen, says string }{
			{long("X"), "bad FEN"},
			{"W:" + long("z9"), "bad FEN"},
			{"W:W" + long("K"), "bad FEN"},
			{"W:W" + name + "=" + long("w"), "bad FEN"},
			{"W:" + name + "=" + long("w"), "bad FEN"},
		} {
			_, err := g.ParseFEN(tc.fen)
			check(t, d.ID+" FEN", err, tc.says, most)
		}
		_, err = game.New(d.ID, map[string]string{"maxplies": long("9")})
		check(t, d.ID+" option value", err, "maxplies=", most)
		_, err = game.New(d.ID, map[string]string{long("k"): "1"})
		check(t, d.ID+" option key", err, "unknown option", most)
	}
	_, err := game.New(long("x"), nil)
	check(t, "game", err, "unknown game", most)
	_, _, err = game.ParseOption(long("x"))
	check(t, "option", err, "key=value", most)
}

func check(t *testing.T, what string, err error, says string, most int) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: no error", what)
	case len(err.Error()) > most || !strings.Contains(err.Error(), says):
		t.Errorf("%s: error of %d bytes, want at most %d saying %q: %.200s", what, len(err.Error()), most, says, err)
	}
}
