package cli

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/arbiter-games/arbiter/game"
)

// newState sets up a pommel position: the start, or fen.
func newState(t *testing.T, fen string) game.State {
	t.Helper()
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return g.Start()
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play runs Play on s with input and returns what it wrote.
func play(t *testing.T, s game.State, input string) string {
	t.Helper()
	var out strings.Builder
	if err := Play(s, strings.NewReader(input), &out); err != nil {
		t.Fatalf("Play: %v", err)
	}
	return out.String()
}

// inOrder fails unless out holds every part, one after the other.
func inOrder(t *testing.T, out string, parts ...string) {
	t.Helper()
	rest := out
	for _, p := range parts {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Fatalf("output lacks %q after the parts before it; whole output:\n%s", p, out)
		}
		rest = rest[i+len(p):]
	}
}

const startMoves = "Legal moves (30): a1-a3 a1-d3 a2-a3 a2-b3 b1-b3 b1-f3 b2-b3 b2-d3 c1-c3 c1-f3\n" +
	"  c2-b3 c2-c3 c2-d3 d1-d3 d2-b3 d2-d3 d2-f3 e1-b3 e1-e3 e2-d3 e2-e3 e2-f3 f1-b3\n" +
	"  f1-f3 f2-d3 f2-f3 g1-d3 g1-g3 g2-f3 g2-g3\n"

// TestPlayCommand drives "arbiter play pommel": a move, undo, moves, an
// illegal move, quit. The whole transcript is a golden file.
func TestPlayCommand(t *testing.T) {
	t.Parallel()
	r := run(t, "a1-a3\nundo\nmoves\na1-a4\nquit\n", "play", "pommel")
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.errOut)
	}
	checkGolden(t, "play-pommel.golden", r.out)
	inOrder(t, r.out,
		"undo [N]      take back your last move", // the help comes first
		"White to move\n", startMoves, "White> ",
		// a1-a3 is played: Black's turn, the board from Black's side (a
		// on the right), a1 empty and a3 White's, both marked.
		"    g   f   e   d   c   b   a\n", "1 / w \\___/ w \\___/ w \\___[ . ] 1\n", "3 / . \\___/ . \\___/ . \\___[ w ] 3\n", "Black to move\n", "Legal moves (30): ", "Black> ",
		// undo: back to the start.
		"White to move\n", startMoves, "White> ",
		// moves: one per line, no board redrawn.
		"a1-a3\na1-d3\na2-a3\n", "g2-g3\nWhite> ",
		`illegal move "a1-a4": the piece on a1 can play a1-a3, a1-d3`+"\nWhite> ",
	)
	if !strings.HasSuffix(r.out, "White> ") {
		t.Errorf("quit should leave at once, output ends %q", r.out[max(0, len(r.out)-40):])
	}
	if n := strings.Count(r.out, "White to move"); n != 2 {
		t.Errorf("the board is drawn with White to move %d times, want 2 (start, after undo)", n)
	}
}

// TestPlayLines checks each command of the play loop on its own.
func TestPlayLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, fen, input string
		want             []string // in this order
	}{
		{"quit at once", "", "quit\n", []string{startMoves, "White> "}},
		{"q", "", "q\n", []string{"White> "}},
		{"exit", "", "exit\n", []string{"White> "}},
		{"eof without quit", "", "a1-a3\n", []string{"Black to move\n", "Black> \n"}},
		{"eof without newline", "", "a1-a3", []string{"Black to move\n", "Black> \n"}},
		{"empty input", "", "", []string{startMoves, "White> \n"}},
		{"nothing to undo", "", "undo\nquit\n", []string{"White> nothing to undo\nWhite> "}},
		{"u undoes", "", "a1-a3\nu\nquit\n", []string{"Black> ", "White to move\n", "White> "}},
		{"blank line", "", "\n  \nquit\n", []string{"White> White> White> "}},
		{"fen", "", "a1-a3\nfen\nquit\n", []string{
			"Black> B:Wa2,a3,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6\nBlack> "}},
		{"help", "", "help\nquit\n", []string{"White> Enter a move", "Ctrl-C too)\nWhite> "}},
		{"board", "", "board\nquit\n", []string{"White> \n    a   b", "White to move\n", startMoves, "White> "}},
		{"spaces around a move", "", "  a1-a3  \nquit\n", []string{"Black to move\n"}},
		{"uppercase", "", "A1-A3\nquit\n", []string{`White> illegal move "A1-A3": moves are written in lower case: a1-a3` + "\nWhite> "}},
		{"not a move", "", "hello\nquit\n", []string{`illegal move "hello": write a move as from-to`}},
		{"wrong side", "", "a6-a5\nquit\n", []string{`illegal move "a6-a5": the piece on a6 is Black's, and White is to move`}},
		{"capture is compulsory", "W:Wc3,a1:Bc4", "a1-a2\nc3-c4\nquit\n", []string{
			"Legal moves (1): c3xc5\n",
			`illegal move "a1-a2": capture is compulsory; the captures are c3xc5`,
			`illegal move "c3-c4": capture is compulsory; the captures are c3xc5`}},
		{"colon for x", "W:Wc3,a1:Bc4,a6", "c3:c5\nquit\n", []string{"Black to move\n", "Black> "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			inOrder(t, play(t, newState(t, tt.fen), tt.input), tt.want...)
		})
	}
}

// TestPlayGameOver plays the capture that ends a game: the result is
// announced, moves are refused, undo takes the capture back.
//
//	c5  .
//	c4  b   White's c3 jumps Black's last soldier.
//	c3  w
func TestPlayGameOver(t *testing.T) {
	t.Parallel()
	s := newState(t, "W:Wc3:Bc4")
	out := play(t, s, "c3xc5\nc5-c6\nmoves\nundo\nquit\n")
	inOrder(t, out,
		"Legal moves (1): c3xc5\nWhite> ",
		"Black to move\nGame over: White wins: Black has no pieces left in play\n",
		"Type undo to take back the last move, history to see the game, or quit to leave.\n",
		`illegal move "c5-c6": the game is over (White wins: Black has no pieces left in play)`,
		"no legal moves: the game is over\n",
		"White to move\nLegal moves (1): c3xc5\nWhite> ",
	)
	if strings.Contains(out, "Black to move\nLegal moves") {
		t.Errorf("moves listed in a finished game:\n%s", out)
	}
	if got := s.FEN(); got != "W:Wc3:Bc4" {
		t.Errorf("after undo the position is %s, want W:Wc3:Bc4", got)
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
	var out strings.Builder
	if err := Play(newState(t, ""), iotest.ErrReader(boom), &out); !errors.Is(err, boom) {
		t.Errorf("Play = %v, want %v", err, boom)
	}
	r := run(t, "", "play", "pommel")
	if r.code != 0 {
		t.Errorf("play with empty input: exit %d, want 0", r.code)
	}
	var o, e strings.Builder
	if code := Execute([]string{"play", "pommel"}, iotest.ErrReader(boom), &o, &e); code == 0 || !strings.Contains(e.String(), "terminal gone") {
		t.Errorf("play with a failing input: exit %d, stderr %q; want non-zero and the error", code, e.String())
	}
}
