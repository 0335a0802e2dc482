package eximo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/eximo"
	"github.com/arbiter-games/arbiter/textboard"
)

// TestPlayEffects plays one move on a hand-built position and checks the
// position after it: what was removed, where the man stands, the drops.
func TestPlayEffects(t *testing.T) {
	tests := []struct {
		name, fen, move, want string
	}{
		{"an ordinary step", "B:Wh8:Bd4", "d4-d5", "W:Wh8:Bd5"},
		{"a jumping move leaves the jumped friendly men in place",
			"B:Wh8:Bc2,c3,d5", "c2-c4-e6", "W:Wh8:Bc3,d5,e6"},
		{"a capture chain removes every jumped man",
			"B:Wb2,d3,e5,f6,h8:Ba2", "a2xc2xe4xe6xg6", "W:Wh8:Bg6"},
		{"a white capture", "W:Wd5:Bd4,a1", "d5xd3", "B:Wd3:Ba1"},
		{"a chain cut short on the far row: the man leaves, c8 stays",
			"B:Wd5,d7,c8:B" + blackZone + ",d4", "d4xd6xd8", "W:Wc8:B" + blackZone},
		{"a step onto the far row with a full zone: the man is lost",
			"B:Wa5:B" + blackZone + ",d7", "d7-d8", "W:Wa5:B" + blackZone},
		{"one drop", "B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,g2,d7", "d7-c8@e1", "W:Wa5:B" + blackZone},
		{"two drops", "B:Wa5:Bd7", "d7-e8@b1@g2", "W:Wa5:Bb1,g2"},
		{"drops on the start square and a captured man's square",
			"B:Wc2,d3,d5,d7:Bb1,c1,d1,e1,f1,g1,b2,e2,f2,g2", "b2xd2xd4xd6xd8@b2@c2", "W:W:Bb1,c1,d1,e1,f1,g1,b2,c2,e2,f2,g2"},
		{"white leaves on row 1 and drops on rows 7 and 8",
			"W:Wd2:Ba4", "d2-d1@b7@c8", "B:Wb7,c8:Ba4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t), tc.fen)
			gametest.CheckPlay(t, s, game.PlayRuleMoves, tc.move, tc.want)
		})
	}
}

func TestStartPosition(t *testing.T) {
	s := newGame(t).Start()
	const want = "B:Wb6,c6,f6,g6,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,b3,c3,f3,g3"
	if got := s.FEN(); got != want {
		t.Errorf("start:\n got %s\nwant %s", got, want)
	}
	if s.ToMove() != eximo.Black || s.Game().PlayerName(0) != "Black" || s.Game().PlayerName(1) != "White" {
		t.Errorf("Black (player 0) moves first; got player %d, names %s, %s", s.ToMove(), s.Game().PlayerName(0), s.Game().PlayerName(1))
	}
	st := s.(*eximo.State)
	if st.Count(eximo.Black) != 16 || st.Count(eximo.White) != 16 {
		t.Errorf("counts %d %d, want 16 each", st.Count(eximo.Black), st.Count(eximo.White))
	}
}

// dropCycle returns both players to the position they started from in 14
// plies: each walks a man from its drop zone to the far row along the
// edge file, and drops it back on the square it left.
//
//	8  .  w  w  w  w  w  w  .     Black: b1-a2 a2-a3 ... a7-a8@b1
//	7  .  w  w  w  w  w  w  .     White: g8-h7 h7-h6 ... h2-h1@g8
//	2  .  b  b  b  b  b  b  .
//	1  .  b  b  b  b  b  b  .
const dropCycleFEN = "B:Wb7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2"

var dropCycle = strings.Fields("b1-a2 g8-h7 a2-a3 h7-h6 a3-a4 h6-h5 a4-a5 h5-h4 a5-a6 h4-h3 a6-a7 h3-h2 a7-a8@b1 h2-h1@g8")

func TestGameEnd(t *testing.T) {
	twice := append(slices.Clone(dropCycle), dropCycle...)
	tests := []struct {
		name    string
		opts    []string
		fen     string
		moves   []string
		reason  game.Reason
		winners game.PlayerSet
	}{
		{"in progress", nil, "B:Wa5:Bd4", nil, game.Ongoing, 0},
		{"no men loses", nil, "B:Wa5:B", nil, game.NoPieces, game.PlayerSet(0).Add(eximo.White)},
		{"a FEN where the player not to move has no men is won", nil, "W:Wa5:B", nil, game.NoPieces, game.PlayerSet(0).Add(eximo.White)},
		{"capturing the last man wins", nil, "W:Wd5:Bd4", []string{"d5xd3"}, game.NoPieces, game.PlayerSet(0).Add(eximo.White)},
		//  6  w  .  w      Black's a4 can neither step (a5, b5 are
		//  5  w  w  .      taken) nor capture (a6, c6 are taken behind
		//  4  b  .  .      them), and sideways it only captures: it loses.
		{"stalemate: no legal move loses", nil, "B:Wa5,b5,a6,c6:Ba4", nil, game.NoMoves, game.PlayerSet(0).Add(eximo.White)},
		// Without c6, a4's only move is the capture a4xc6.
		{"a capture as the only move plays on", nil, "B:Wa5,b5,a6:Ba4", nil, game.Ongoing, 0},
		{"a white stalemate", nil, "W:Wh5:Bh4,g4,h3,f3", nil, game.NoMoves, game.PlayerSet(0).Add(eximo.Black)},
		{"a man on the far row leaves even as the last man: its drops keep the side alive", nil,
			"B:Wa5:Bd7", []string{"d7-d8@b1@c1"}, game.Ongoing, 0},
		// Drops do not make the game irreversible: the cycle repeats the
		// position, and the third occurrence draws.
		{"the drop cycle once: the position occurs a second time", nil, dropCycleFEN, dropCycle, game.Ongoing, 0},
		{"one ply short of the third occurrence", nil, dropCycleFEN, twice[:27], game.Ongoing, 0},
		{"the third occurrence of a position draws, drops or not", nil, dropCycleFEN, twice, game.Repetition, 0},
		{"maxplies draws", []string{"maxplies=3"}, dropCycleFEN, dropCycle[:3], game.PlyCap, 0},
		{"one ply short of maxplies plays on", []string{"maxplies=3"}, dropCycleFEN, dropCycle[:2], game.Ongoing, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t, tc.opts...), tc.fen)
			gametest.CheckResult(t, s, tc.moves, tc.reason, tc.winners)
		})
	}
	s := gametest.MustParse(t, newGame(t), dropCycleFEN)
	if err := game.PlayMoves(s, dropCycle); err != nil || s.FEN() != dropCycleFEN {
		t.Errorf("the drop cycle ends on %s (%v), want %s", s.FEN(), err, dropCycleFEN)
	}
}

func TestIllegalMoveReasons(t *testing.T) {
	tests := []struct{ fen, move, reason string }{
		{"B:Wd5:Bd4,a1", "a1-a2", "capture is compulsory; the captures are d4xd6"},
		{"B:Wd5:Bd4,a1", "a1xa3", "the piece on a1 cannot capture, and capture is compulsory"},
		{"B:Wh8:Bc2,c3,d5", "c2-c4", "the piece on c2 can play c2-b3, c2-c4-e6, c2-d3"},
		{"B:Wa5:Bd7", "d7-d8", "this move ends on the far row: add the drops, e.g. d7-d8@b1@b2"},
		{"B:Wa5:Bd7", "d7-c8", "this move ends on the far row: add the drops, e.g. d7-c8@b1@b2 (66 ways: moves lists them)"},
		{"B:Wa5:Bd7", "d7-c8@c1@b1", "the drops are written in cell order (a1 < h1 < a2), e.g. d7-c8@b1@b2"},
		{"B:Wa5:Bd7", "d7-c8@b1", "the drops must go on empty cells of your drop zone, as many as the rules allow; this move's are d7-c8@b1@b2,"},
		{"B:Wa5:Bd7", "d7-d8@c1@b1", "the drops are written in cell order"},
		{"B:Wa5:Bd7", "d7-d8@b1@b1", "the drops must go on empty cells of your drop zone"},
		{"B:Wa5:Bd7", "d7-d8@a1@b1", "the drops must go on empty cells of your drop zone"},
		{"B:Wa5:Bd7", "d7-e7", "the piece on d7 can play d7-c8@b1@b2"},
		{"B:Wa5:Bd7", "d7-c8@a1@b1", "the drops must go on empty cells of your drop zone"},
		{"B:Wa5:Bd7", "d7-d8@b1@z9", `"z9" is not a cell of this board`},
		// The core's syntax check lets a trailing '@' through, so the
		// reason is the general one; the move is still refused.
		{"B:Wa5:Bd7", "d7-d8@", "a cell is missing"},
		{"B:Wa5:Bd7", "d7-d8@@b1", "a cell is missing"},
		{"B:Wh8:Bd4", "d5-d6", "there is no piece on d5"},
		{"B:Wh8:Bd4", "h8-h7", "the piece on h8 is White's, and Black is to move"},
		{"B:Wh8:Bd4", "d4-d3", "the piece on d4 can play d4-c5, d4-d5, d4-e5"},
		{"B:Wa5,b5,a6,c6:Ba4", "a4-b4", "the game is over"},
	}
	for _, tc := range tests {
		s := gametest.MustParse(t, newGame(t), tc.fen)
		gametest.CheckIllegal(t, s, tc.move, tc.reason)
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"", "side to move must be B or W"},
		{"X:Wa5:Bb2", "field 1: the side to move must be B or W"},
		{"B:Wa5:Bz9", `field 3: "z9" is not a cell of eximo`},
		{"B:Wa5:Bi1", `field 3: "i1" is not a cell`},
		{"B:Wa5,a5:Bb2", "field 2: two men on a5"},
		{"B:Wa5:Wa6", "field 3: White's men are listed twice"},
		{"B:Wa5:Ba5", "field 3: two men on a5"},
		{"B:WKa5:Bb2", `field 2: "Ka5": Eximo has no kings, only men (write a5)`},
		{"B:Wa5:Bb8", "field 3: a Black man cannot stand on b8: its far row"},
		{"B:Wa1:Bb2", "field 2: a White man cannot stand on a1: its far row"},
		{"B:Wa5:Bb2:Wc5", "at most three fields"},
		{"B:Xa5", `field 2: a list of men starts with W or B, not "Xa5"`},
		{"B:Wa5,,a6", `field 2: "" is not a cell`},
	}
	g := newGame(t)
	for _, tc := range tests {
		_, err := g.ParseFEN(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q) = %v, want an error saying %q", tc.fen, err, tc.want)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	g := newGame(t)
	for _, fen := range []string{"B:W:B", "W:Wa2,h7:Bb1,g7", dropCycleFEN} {
		if got := gametest.MustParse(t, g, fen).FEN(); got != fen {
			t.Errorf("FEN round trip: %s became %s", fen, got)
		}
	}
	// The lists may come in either order, the men in any order; the FEN
	// is written White's list first, in cell order.
	if got := gametest.MustParse(t, g, "W:Bd4,a1:Wh8,c5").FEN(); got != "W:Wc5,h8:Ba1,d4" {
		t.Errorf("got %s", got)
	}
}

// TestShow: the board as text, b for Black's men, w for White's, with the
// coordinates on every edge.
func TestShow(t *testing.T) {
	const want = `    a   b   c   d   e   f   g   h
8   .   w   w   w   w   w   w   .   8
7   .   w   w   w   w   w   w   .   7
6   .   w   w   .   .   w   w   .   6
5   .   .   .   .   .   .   .   .   5
4   .   .   .   .   .   .   .   .   4
3   .   b   b   .   .   b   b   .   3
2   .   b   b   b   b   b   b   .   2
1   .   b   b   b   b   b   b   .   1
    a   b   c   d   e   f   g   h
Black to move
`
	if got := textboard.String(newGame(t).Start()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestStack: the Stacker view shows each cell's man, if any; Eximo has no
// promoted piece.
func TestStack(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), "W:Bd4,a1:Wh8,c5")
	b := s.Game().Board()
	tests := []struct {
		cell string
		want []game.Piece
	}{
		{"d4", []game.Piece{{Owner: eximo.Black, Rank: game.Man}}},
		{"h8", []game.Piece{{Owner: eximo.White, Rank: game.Man}}},
		{"e4", nil},
	}
	for _, tc := range tests {
		c, _ := b.Parse(tc.cell)
		if got := s.(game.Stacker).Stack(c, nil); !slices.Equal(got, tc.want) {
			t.Errorf("Stack(%s) = %v, want %v", tc.cell, got, tc.want)
		}
	}
	if got := s.(game.Stacker).Stack(board.Cell(200), nil); len(got) != 0 {
		t.Errorf("a cell off the board: Stack %v", got)
	}
}
