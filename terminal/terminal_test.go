package terminal

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/internal/testtext"
	"github.com/arbiter-games/arbiter/play"
)

var update = flag.Bool("update", false, "rewrite golden files")

var inOrder = testtext.InOrder

func mustGame(t *testing.T, id string) game.Game {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// newState sets up a pommel position: the start, or fen.
func newState(t *testing.T, fen string) game.State {
	t.Helper()
	g := mustGame(t, "pommel")
	if fen == "" {
		return g.Start()
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// setup is what a test's game starts from: the game (pommel when empty),
// an engine spec for each seat that is not a person's, and the rest of
// the play.Config.
type setup struct {
	game    string
	engines map[game.Player]string
	cfg     play.Config
}

// start starts the game the setup describes; an engine without
// limits thinks for a second, as the play command's do.
func (tb setup) start(t *testing.T) *play.Game {
	t.Helper()
	cfg := tb.cfg
	if cfg.Start == nil {
		cfg.Game = mustGame(t, cmp.Or(tb.game, "pommel"))
	}
	g := cfg.Game
	if g == nil {
		g = cfg.Start.Game()
	}
	cfg.Seats = make([]play.Seat, g.Players())
	for p, spec := range tb.engines {
		e, err := ai.New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Seats[p] = play.Seat{Name: e.Name(), Engine: e}
		if cfg.Limits == (ai.Limits{}) {
			cfg.Limits.MoveTime = time.Second
		}
	}
	pg, err := play.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

// runText runs pg with input and returns what it wrote.
func runText(t *testing.T, pg *play.Game, input string, opt Options) string {
	t.Helper()
	var out strings.Builder
	if err := Run(context.Background(), pg, strings.NewReader(input), &out, opt); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

// playText runs people taking turns from s with input, unsaved.
func playText(t *testing.T, s game.State, input string) string {
	t.Helper()
	return runText(t, setup{cfg: play.Config{Start: s}}.start(t), input, Options{})
}

const startMoves = "Legal moves (30): a1-a3 a1-d3 a2-a3 a2-b3 b1-b3 b1-f3 b2-b3 b2-d3 c1-c3 c1-f3\n" +
	"  c2-b3 c2-c3 c2-d3 d1-d3 d2-b3 d2-d3 d2-f3 e1-b3 e1-e3 e2-d3 e2-e3 e2-f3 f1-b3\n" +
	"  f1-f3 f2-d3 f2-f3 g1-d3 g1-g3 g2-f3 g2-g3\n"

// TestPlayLines checks each command of the game loop on its own.
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
			inOrder(t, playText(t, newState(t, tt.fen), tt.input), tt.want...)
		})
	}
}

// TestPlayTranscript plays a move, takes it back, lists the moves, tries
// an illegal move and quits: the whole transcript is a golden file.
func TestPlayTranscript(t *testing.T) {
	t.Parallel()
	out := playText(t, newState(t, ""), "a1-a3\nundo\nmoves\na1-a4\nquit\n")
	testtext.Golden(t, "testdata/play-pommel.golden", out, *update)
	inOrder(t, out,
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
	if !strings.HasSuffix(out, "White> ") {
		t.Errorf("quit should leave at once, output ends %q", out[max(0, len(out)-40):])
	}
	if n := strings.Count(out, "White to move"); n != 2 {
		t.Errorf("the board is drawn with White to move %d times, want 2 (start, after undo)", n)
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
	pg := setup{cfg: play.Config{Start: newState(t, "W:Wc3:Bc4")}}.start(t)
	out := runText(t, pg, "c3xc5\nc5-c6\nmoves\nundo\nquit\n", Options{})
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
	if got := pg.State().FEN(); got != "W:Wc3:Bc4" {
		t.Errorf("after undo the position is %s, want W:Wc3:Bc4", got)
	}
}

// TestPlayFinishedFrom starts play from a finished position.
func TestPlayFinishedFrom(t *testing.T) {
	t.Parallel()
	out := playText(t, newState(t, "W:W:Ba6"), "a1-a2\nquit\n")
	inOrder(t, out, "Game over: Black wins", "White> ", `illegal move "a1-a2": the game is over`)
}

// TestPlayReadError checks that a failing input ends play with its error.
func TestPlayReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("terminal gone")
	pg := setup{}.start(t)
	if err := Run(context.Background(), pg, iotest.ErrReader(boom), io.Discard, Options{}); !errors.Is(err, boom) {
		t.Errorf("Run = %v, want %v", err, boom)
	}
}

// TestPlayInterrupted: ctx's end (Ctrl-C) leaves at once, no error.
func TestPlayInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	var out strings.Builder
	if err := Run(ctx, setup{}.start(t), pr, &out, Options{}); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
	inOrder(t, out.String(), "White> ", "Interrupted; leaving.\n")
}
