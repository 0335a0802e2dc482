package checkers2011_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/checkers2011"
	"github.com/arbiter-games/arbiter/textboard"
)

const startFEN = "W:a1=w,b1=w,c1=w,d1=w,e1=w,f1=w,g1=w,h1=w,a2=w,b2=w,c2=w,d2=w,e2=w,f2=w,g2=w,h2=w," +
	"a7=b,b7=b,c7=b,d7=b,e7=b,f7=b,g7=b,h7=b,a8=b,b8=b,c8=b,d8=b,e8=b,f8=b,g8=b,h8=b"

func TestStartPosition(t *testing.T) {
	s := newGame(t).Start()
	if got := s.FEN(); got != startFEN {
		t.Errorf("start:\n got %s\nwant %s", got, startFEN)
	}
	if s.ToMove() != checkers2011.White {
		t.Errorf("%v moves first, want White", s.ToMove())
	}
}

func TestGameEnd(t *testing.T) {
	white, black := game.PlayerSet(0).Add(checkers2011.White), game.PlayerSet(0).Add(checkers2011.Black)
	tests := []struct {
		name    string
		opts    []string
		fen     string
		moves   []string
		reason  game.Reason
		winners game.PlayerSet
	}{
		{"in progress", nil, "W:a1=w,h8=B", nil, game.Ongoing, 0},
		{"a player who commands no stack loses, though pieces of theirs are prisoners", nil,
			"B:d4=bbw,h7=Bw", nil, game.NoPieces, white},
		{"a FEN where the player not to move commands nothing is won", nil, "W:d4=bw", nil, game.NoPieces, white},
		{"imprisoning the last enemy commander wins", nil, "W:c3=w,d4=b", []string{"c3xe5"}, game.NoPieces, white},
		{"eliminating the last enemy stacks wins", nil,
			"W:e7=W,g1=w,g8=b,h8=b,h7=b,h6=b,h5=b,h4=b,h3=b,h2=b,h1=B", []string{"e7-f8"}, game.NoPieces, white},
		{"no legal move loses", nil, "W:a7=w,a8=b,b8=b,b7=b", nil, game.NoMoves, black},
		{"an imprisonment as the only move plays on", nil, "W:a6=w,a7=b,b7=b,b6=b,c8=b", nil, game.Ongoing, 0},
		{"a position repeated twice is not yet a draw", nil, "W:a1=W,h8=B",
			strings.Fields("a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1"), game.Ongoing, 0},
		{"the third occurrence of a position draws", nil, "W:a1=W,h8=B",
			strings.Fields("a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1 h7-h8"), game.Repetition, 0},
		{"maxplies draws", []string{"maxplies=3"}, "W:a1=W,h8=B", strings.Fields("a1-a2 h8-h7 a2-a1"), game.PlyCap, 0},
		{"one ply short of maxplies plays on", []string{"maxplies=3"}, "W:a1=W,h8=B",
			strings.Fields("a1-a2 h8-h7"), game.Ongoing, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t, tc.opts...), tc.fen)
			gametest.CheckResult(t, s, tc.moves, tc.reason, tc.winners)
		})
	}
}

// TestDrawSafeguardsOutsidePerft: after a draw by repetition, moves are
// refused for play but perft still counts by the rules.
func TestDrawSafeguardsOutsidePerft(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), "W:a1=W,h8=B")
	if err := game.PlayMoves(s, strings.Fields("a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1 h7-h8")); err != nil {
		t.Fatal(err)
	}
	if _, err := game.ParseMove(s, "a1-a2"); err == nil || !strings.Contains(err.Error(), "game is over") {
		t.Errorf("a move after the third repetition: got %v, want a game-over error", err)
	}
	if n := game.Perft(s, 1); n != 3 {
		t.Errorf("perft 1 after repetition = %d, want the 3 rule moves", n)
	}
}

func TestIllegalMoveReasons(t *testing.T) {
	tests := []struct{ fen, move, reason string }{
		{"W:c3=w,d4=b,a1=w,h8=B", "a1-a2", "capture is compulsory; the captures are c3xe5"},
		{"W:c3=w,h8=B", "d4-d5", "there is no piece on d4"},
		{"W:c3=w,h8=B", "h8-h7", "the piece on h8 is Black's, and White is to move"},
		{"W:c3=w,h8=B", "c3-c2", "the piece on c3 can play c3-b3, c3-b4, c3-c4, c3-d3, c3-d4"},
		{"W:c3=w,g2=w,g3=b,d4=b,e6=b,b4=b,h8=B", "g2xg4", "the piece on g2 cannot capture, and capture is compulsory; the captures are c3xe5xe7"},
		{"W:c3=w,g2=w,g3=b,d4=b,e6=b,b4=b,h8=B", "c3xe5", "the piece on c3 can play c3xe5xe7"},
		{"W:c3=w,h8=B", "c3-z9", `"z9" is not a cell of this board`},
		{"W:a7=w,a8=b,b8=b,b7=b", "a7-a8", "the game is over"},
	}
	for _, tc := range tests {
		s := gametest.MustParse(t, newGame(t), tc.fen)
		gametest.CheckIllegal(t, s, tc.move, tc.reason)
	}
}

func TestParseMoveAcceptsColon(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), "W:c1=w,c2=b,c4=b,d6=b,h8=B")
	m, err := game.ParseMove(s, "c1:c3:c5:e7")
	if err != nil || m.Text(s.Game().Board()) != "c1xc3xc5xe7" {
		t.Errorf("got %v, %v; want c1xc3xc5xe7", m.Text(s.Game().Board()), err)
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"", "field 1: the side to move must be W or B"},
		{"X:a1=w", "field 1: the side to move must be W or B"},
		{"W", "a FEN has two fields"},
		{"W:a1=w:h8=b", "a FEN has two fields"},
		{"W:a1=w,a1", `field 2, stack 2 "a1": write a stack as cell=pieces`},
		{"W:a1=w,z9=b", `field 2, stack 2 "z9=b": "z9" is not a cell`},
		{"W:a1=w,a1=b", `field 2, stack 2 "a1=b": a second stack on a1`},
		{"W:a1=", `field 2, stack 1 "a1=": the stack on a1 has no pieces`},
		{"W:a1=wx", `field 2, stack 1 "a1=wx": "x" is not a piece`},
		{"W:a1=w,,b2=b", `field 2, stack 2 "": write a stack as cell=pieces`},
		{"W:a1=wwwwwwwwwwwwwwwww", "White has more than 16 pieces"},
		{"W:a1=wwwwwwww,h8=bbbbbbbbbbbbbbbb,b1=wwwwwwwwb", `stack 3 "b1=wwwwwwwwb": Black has more than 16 pieces`},
		{"W:d8=bw", `stack 1 "d8=bw": a White soldier commanding on d8 would have been promoted: write its letter W`},
		{"W:d1=b", `stack 1 "d1=b": a Black soldier commanding on d1 would have been promoted: write its letter B`},
	}
	g := newGame(t)
	for _, tc := range tests {
		s, err := g.ParseFEN(tc.fen)
		var fe *game.FENError
		if err == nil || s != nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q) = %v, want an error saying %q", tc.fen, err, tc.want)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	g := newGame(t)
	for _, fen := range []string{"W:", "B:", startFEN, "B:a1=B,d4=wbWbw", "W:h8=wwwwwwwwwwwwwwwwbbbbbbbbbbbbbbbB", "W:d1=B,d8=bW"} {
		if got := gametest.MustParse(t, g, fen).FEN(); got != fen {
			t.Errorf("FEN round trip: %s became %s", fen, got)
		}
	}
	// Stacks may be listed in any order; the FEN is written in cell order.
	if got := gametest.MustParse(t, g, " W:h8=B,a1=bw ").FEN(); got != "W:a1=bw,h8=B" {
		t.Errorf("got %s", got)
	}
}

// TestStacker: the state shows whole stacks through game.Stacker, bottom
// first, every piece with its owner and rank; Owner is the commander's.
func TestStacker(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), "W:d4=wBbW,h8=B")
	st, ok := s.(game.Stacker)
	if !ok {
		t.Fatal("the state does not implement game.Stacker")
	}
	b := s.Game().Board()
	d4, _ := b.Parse("d4")
	w, k := checkers2011.White, checkers2011.Black
	want := []game.Piece{{Owner: w, Rank: game.Man}, {Owner: k, Rank: game.King}, {Owner: k, Rank: game.Man}, {Owner: w, Rank: game.King}}
	if got := st.Stack(d4, nil); !slices.Equal(got, want) {
		t.Errorf("Stack(d4) = %v, want %v", got, want)
	}
	if got := s.Owner(d4); got != w {
		t.Errorf("Owner(d4) = %v, want White, the commander", got)
	}
	e4, _ := b.Parse("e4")
	if got := st.Stack(e4, nil); len(got) != 0 || s.Owner(e4) != game.NoPlayer {
		t.Errorf("an empty cell: Stack %v, Owner %v", got, s.Owner(e4))
	}
	if got := st.Stack(board.Cell(200), nil); len(got) != 0 {
		t.Errorf("a cell off the board: Stack %v", got)
	}
}

// TestString: the drawing shows every stack bottom to top within its
// cell, a legend under the board, and who is to move.
func TestString(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), "B:a1=w,c3=bbW,h8=B")
	want := "" +
		"    a   b   c   d   e   f   g   h\n" +
		"8   .   .   .   .   .   .   .   B   8\n" +
		"7   .   .   .   .   .   .   .   .   7\n" +
		"6   .   .   .   .   .   .   .   .   6\n" +
		"5   .   .   .   .   .   .   .   .   5\n" +
		"4   .   .   .   .   .   .   .   .   4\n" +
		"3   .   .  bbW  .   .   .   .   .   3\n" +
		"2   .   .   .   .   .   .   .   .   2\n" +
		"1   w   .   .   .   .   .   .   .   1\n" +
		"    a   b   c   d   e   f   g   h\n" +
		"Stacks: bbW = bottom to top, W on top.\n" +
		"Black to move\n"
	if got := textboard.String(s); got != want {
		t.Errorf("drawing:\n%s\nwant\n%s", got, want)
	}
}
