package terminal

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// TestPlayCommands checks the commands of terminal play one by one.
func TestPlayCommands(t *testing.T) {
	t.Parallel()
	aiBlack := map[game.Player]string{1: "ab:depth=2"}
	tests := []struct {
		name    string
		input   string
		game    string
		engines map[game.Player]string
		save    bool     // in a record file
		noTake  bool     // take-backs off
		want    []string // in this order
		not     []string
	}{
		{name: "history", input: "a1-a3\ng6-g4\nb1-b3\nhistory\nquit\n",
			want: []string{"Black> ", "  1. a1-a3 g6-g4\n  2. b1-b3\nBlack> "}},
		{name: "history at the start", input: "history\nquit\n", want: []string{"White> No moves yet.\nWhite> "}},
		{name: "undo N says what it took back", input: "a1-a3\ng6-g4\nundo 2\nquit\n",
			want: []string{"Took back g6-g4 (Black) and a1-a3 (White).\n", "White to move"}},
		{name: "undo with a bad count", input: "undo x\nundo 0\nundo -2\nquit\n",
			want: []string{"undo x: write undo, or undo N", "undo 0: write undo, or undo N", "undo -2: write undo, or undo N"}},
		{name: "moves of one piece", input: "moves a1\nmoves e4\nmoves z9\nquit\n",
			want: []string{"White> a1-a3\na1-d3\nWhite> ", "no legal move starts on e4\n", `"z9" is not a cell of this board`}},
		{name: "two moves on one line", input: "a1-a3 g6-g4\nhistory\nquit\n",
			want: []string{"White> \n", "White to move", "White> ", "  1. a1-a3 g6-g4\nWhite> "}, not: []string{"Black to move"}},
		{name: "second of two moves illegal", input: "a1-a3 a1-a2\nquit\n",
			want: []string{`illegal move "a1-a2": there is no piece on a1`, "Black> "}},
		{name: "resign", input: "a1-a3\nresign\nquit\n", save: true,
			want: []string{"Black resigns.\n", "Game over: White wins: Black resigned\n", "Type history to see the game, or quit"}, not: []string{"Type undo"}},
		{name: "draw agreed at the board", input: "draw\na1-a3\ndraw\nquit\n",
			want: []string{"White offers a draw; Black may accept", "White offers a draw: type draw to accept", "Black> ",
				"Draw agreed.\n", "Game over: draw: agreed by the players"}},
		{name: "a move declines a draw", input: "draw\na1-a3\ng6-g4\nquit\n",
			want: []string{"White offers a draw; Black may accept"}, not: []string{"Draw agreed"}},
		{name: "no draw with three", input: "draw\nquit\n", game: "punt-heks-match-3p",
			want: []string{"White> draws are offered in two-player games only\n"}},
		{name: "hint", input: "hint\nquit\n", want: []string{"White> Hint: ", " (score ", " for White)\nWhite> "}},
		{name: "flip", input: "flip\nquit\n", want: []string{"White> \n", "White to move"}},
		{name: "the AI declines an even draw", input: "draw\nquit\n", engines: aiBlack,
			want: []string{"Black (ab:depth=2) declines the draw.\n"}},
		{name: "the AI replies and undo takes back both", input: "a1-a3\nundo\nquit\n", engines: aiBlack,
			want: []string{"White: a person; Black: the AI (ab:depth=2).", "Black (ab:depth=2) is thinking...\n",
				"Black (ab:depth=2) plays ", "Took back ", " (Black) and a1-a3 (White).\n"},
			not: []string{"a5-a4 a5-b5"}}, // no list of moves for the AI
		// undo keeps the server's rules of take-backs.
		{name: "undo refused with take-backs off", input: "a1-a3\nundo\nhistory\nquit\n", noTake: true,
			want: []string{"Black> this game allows no take-backs\n", "  1. a1-a3\n"}, not: []string{"Took back"}},
		{name: "undo refused between people in three", input: "undo\nquit\n", game: "punt-heks-match-3p",
			want: []string{"between people, moves are taken back in two-player games only\n"}},
		{name: "no undo offered at the end with take-backs off", input: "a1-a3\nresign\nquit\n", noTake: true,
			want: []string{"Type history to see the game, or quit"}, not: []string{"Type undo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tb := setup{game: tt.game, engines: tt.engines}
			tb.cfg.NoTakebacks = tt.noTake
			if tt.save {
				tb.cfg.Keeper = NewGameFile(filepath.Join(t.TempDir(), "game.pdn"))
			}
			out := runText(t, tb.start(t), tt.input, Options{})
			inOrder(t, out, tt.want...)
			for _, not := range tt.not {
				if strings.Contains(out, not) {
					t.Errorf("output holds %q:\n%s", not, out)
				}
			}
		})
	}
}

// TestPlayView: the board is drawn from a fixed seat's side, and flip
// turns it.
func TestPlayView(t *testing.T) {
	t.Parallel()
	black := game.Player(1)
	out := runText(t, setup{}.start(t), "flip\nquit\n", Options{View: &black})
	inOrder(t, out, "    g   f   e   d   c   b   a\n", "White> ", "    a   b   c")
}

// TestPlayQuitStopsTheAI: quit is heard at once while the AI thinks, and
// the end of the input lets it finish.
func TestPlayQuitStopsTheAI(t *testing.T) {
	t.Parallel()
	start := time.Now()
	tb := setup{engines: map[game.Player]string{1: "ab"}, cfg: play.Config{Limits: ai.Limits{MoveTime: 30 * time.Second}}}
	out := runText(t, tb.start(t), "a1-a3\nquit\n", Options{})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("quit while the AI thinks took %s", took)
	}
	if !strings.Contains(out, "Black (ab) is thinking...") || strings.Contains(out, "Black (ab) plays") {
		t.Errorf("quit while the AI thinks:\n%s", out)
	}
	tb.cfg.Limits = ai.Limits{Depth: 1}
	out = runText(t, tb.start(t), "a1-a3\n", Options{})
	inOrder(t, out, "Black (ab) is thinking...", "Black (ab) plays ", "White> \n")
}

// TestPlayClockFlagFall: a person who does not move in time loses.
func TestPlayClockFlagFall(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	var out bytes.Buffer
	done := make(chan error)
	pg := setup{cfg: play.Config{Clock: &timecontrol.Control{Base: time.Second}}}.start(t)
	go func() { done <- Run(context.Background(), pg, pr, &out, Options{}) }()
	time.Sleep(1500 * time.Millisecond)
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	inOrder(t, out.String(), "Clock: *White 1.0s   Black 1.0s", "White> ", "Game over: Black wins: White ran out of time",
		"Clock:  White 0.0s   Black 1.0s")
}

// TestPlayResignSaved: a resignation is a result in the record file.
func TestPlayResignSaved(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.pdn")
	runText(t, setup{cfg: play.Config{Keeper: NewGameFile(path)}}.start(t), "a1-a3\nresign\n", Options{})
	data, _ := os.ReadFile(path)
	for _, want := range []string{`[Result "1-0"]`, `[Termination "resignation"]`, "1. a1-a3 1-0"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("record lacks %q:\n%s", want, data)
		}
	}
}
