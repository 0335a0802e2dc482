package cli

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/arbiter-games/arbiter/internal/testtext"
)

// inOrder fails unless out holds every part, one after the other.
var inOrder = testtext.InOrder

// TestPlayCommand drives "arbiter play pommel": the help, a move, undo, an
// illegal move, quit (the terminal's own tests check every line of it).
func TestPlayCommand(t *testing.T) {
	t.Parallel()
	r := run(t, "a1-a3\nundo\na1-a4\nquit\n", "play", "pommel")
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.errOut)
	}
	inOrder(t, r.out,
		"undo [N]      take back your last move", // the help comes first
		"White: a person; Black: a person.", "White to move\n", "Legal moves (30): ", "White> ",
		"Black to move\n", "Black> ", "White to move\n", "White> ",
		`illegal move "a1-a4": the piece on a1 can play a1-a3, a1-d3`+"\nWhite> ",
	)
	if !strings.HasSuffix(r.out, "White> ") {
		t.Errorf("quit should leave at once, output ends %q", r.out[max(0, len(r.out)-40):])
	}
}

// TestPlayNoTakebacks: with --no-takebacks undo is refused, as a server
// game created with "takebacks": false refuses them, and the move stays.
func TestPlayNoTakebacks(t *testing.T) {
	t.Parallel()
	r := run(t, "a1-a3\nundo\nhistory\nquit\n", "play", "pommel", "--no-takebacks")
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.errOut)
	}
	inOrder(t, r.out, "Black> this game allows no take-backs\n", "Black> ", "  1. a1-a3\n")
	if strings.Contains(r.out, "Took back") {
		t.Error("undo took a move back with --no-takebacks")
	}
}

// TestPlayFinishedFrom starts play from a finished position.
func TestPlayFinishedFrom(t *testing.T) {
	t.Parallel()
	r := run(t, "a1-a2\nquit\n", "play", "pommel", "--from", "W:W:Ba6")
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.errOut)
	}
	inOrder(t, r.out, "Game over: Black wins", "White> ", `illegal move "a1-a2": the game is over`)
}

// TestPlayOptions checks that play takes --option and --from like the
// other commands, and refuses bad ones before reading anything.
func TestPlayOptions(t *testing.T) {
	t.Parallel()
	r := run(t, "moves\nquit\n", "play", "pommel", "--from", "W:Wc3,c5:Bc4,Kg1", "-o", "hop=any")
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.errOut)
	}
	inOrder(t, r.out, "Legal moves (6): c3-b4 c3-c6 c3-d4 c5-b6 c5-c6 c5-d6\n", "White> c3-b4\nc3-c6\n")

	for _, args := range [][]string{
		{"play", "nope"},
		{"play", "pommel", "-o", "hop=sideways"},
		{"play", "pommel", "--from", "W:Wz9:B"},
	} {
		r := run(t, "quit\n", args...)
		if r.code == 0 || r.out != "" || !strings.HasPrefix(r.errOut, "arbiter: ") {
			t.Errorf("arbiter %s: exit %d, stdout %q, stderr %q; want an error alone", strings.Join(args, " "), r.code, r.out, r.errOut)
		}
	}
}

// TestPlayReadError checks that a failing input ends play with its error.
func TestPlayReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("terminal gone")
	r := run(t, "", "play", "pommel")
	if r.code != 0 {
		t.Errorf("play with empty input: exit %d, want 0", r.code)
	}
	var o, e strings.Builder
	if code := Execute([]string{"play", "pommel"}, iotest.ErrReader(boom), &o, &e); code == 0 || !strings.Contains(e.String(), "terminal gone") {
		t.Errorf("play with a failing input: exit %d, stderr %q; want non-zero and the error", code, e.String())
	}
}
