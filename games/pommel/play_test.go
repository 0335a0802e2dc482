package pommel_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/pommel"
)

// TestPlayEffects plays one move on a hand-built position and checks the
// position after it: what was removed, where the piece stands, promotion.
func TestPlayEffects(t *testing.T) {
	tests := []struct {
		name, id string
		opts     []string
		fen      string
		move     string
		want     string
	}{
		{"a step onto the last cell promotes", "pommel", nil,
			"W:Wb6:Ba5", "b6-b7", "B:WKb7:Ba5"},
		{"a black step onto the bottom cell promotes", "pommel", nil,
			"B:Wa5:Bd2", "d2-d1", "W:Wa5:BKd1"},
		{"a step elsewhere does not promote", "pommel", nil,
			"W:Wb5:Ba5", "b5-b6", "B:Wb6:Ba5"},
		{"a hop onto the last cell promotes", "pommel", nil,
			"W:Wd5,d6:Ba5", "d5-d7", "B:Wd6,Kd7:Ba5"},
		{"a hop leaves the hopped pieces (hop=any)", "pommel", []string{"hop=any"},
			"W:Wd3,d5:Bd4", "d3-d6", "B:Wd5,d6:Bd4"},
		{"a jump removes the jumped piece", "pommel", nil,
			"W:Wd3,a1:Bd4,g6", "d3xd5", "B:Wa1,d5:Bg6"},
		{"a chain removes every jumped piece", "pommel", nil,
			"W:Wd1:Bd2,e3,f5,a6", "d1xd3xf4xf6", "B:Wf6:Ba6"},
		{"a chain that ends on the last cell promotes", "pommel", nil,
			"W:Wd5:Bd6,a6", "d5xd7", "B:WKd7:Ba6"},
		{"a chain passing the last cell does not promote", "pommel", nil,
			"W:Wd5:Bd6,e6,a6", "d5xd7xf6", "B:Wf6:Ba6"},
		{"a leap removes the whole line and promotes on the last cell", "pommel", nil,
			"W:Wd4:Bd5,d6,a6", "d4xd7", "B:WKd7:Ba6"},
		{"a captain's leap removes the line only", "pommel", nil,
			"W:WKd1:Bd4,d5,e6", "d1xd6", "B:WKd6:Be6"},
		{"a captain's chain removes every jumped piece", "pommel", nil,
			"W:WKd1:Bd4,f6,a6", "d1xd5xg6", "B:WKg6:Ba6"},
		{"a black chain crossing its start cell", "pommel", nil,
			"B:Wd4,c4,c3,d2,a1:Bd3", "d3xd5xb4xd3xd1", "W:Wa1:BKd1"},
		{"pommel-76 soldiers promote on the ninth cell", "pommel-76", nil,
			"W:Wb8:Ba8", "b8-b9", "B:WKb9:Ba8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, tc.id, tc.opts...), tc.fen)
			gametest.CheckPlay(t, s, game.PlayMoves, tc.move, tc.want)
		})
	}
}

func TestStartPositions(t *testing.T) {
	tests := []struct{ id, fen string }{
		{"pommel", "W:Wa1,a2,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"},
		{"pommel-76", "W:Wa1,a2,b1,b2,b3,c1,c2,d1,d2,d3,e1,e2,f1,f2,f3,g1,g2,h1,h2,h3,i1,i2:" +
			"Ba7,a8,b7,b8,b9,c7,c8,d7,d8,d9,e7,e8,f7,f8,f9,g7,g8,h7,h8,h9,i7,i8"},
	}
	for _, tc := range tests {
		if got := gametest.NewGame(t, tc.id).Start().FEN(); got != tc.fen {
			t.Errorf("%s start:\n got %s\nwant %s", tc.id, got, tc.fen)
		}
	}
}

func TestGameEnd(t *testing.T) {
	tests := []struct {
		name    string
		opts    []string
		fen     string
		moves   []string
		reason  game.Reason
		winners game.PlayerSet
	}{
		{"in progress", nil, "W:Wa1:Bg6", nil, game.Ongoing, 0},
		{"no pieces loses", nil, "B:Wa1:B", nil, game.NoPieces, game.PlayerSet(0).Add(0)},
		{"a FEN where the player not to move has no pieces is won", nil, "W:Wa1:B", nil, game.NoPieces, game.PlayerSet(0).Add(0)},
		{"capturing the last piece wins", nil, "W:Wd3:Bd4", []string{"d3xd5"}, game.NoPieces, game.PlayerSet(0).Add(0)},
		{"no legal move loses", nil, "W:Wb6:Ba6,b7,c6,d7", nil, game.NoMoves, game.PlayerSet(0).Add(1)},
		// Without d7, b6's only move is the capture b6xd7: a capture alone
		// keeps the game going.
		{"a capture as the only move plays on", nil, "W:Wb6:Ba6,b7,c6", nil, game.Ongoing, 0},
		{"a position repeated twice is not yet a draw", nil, "W:WKa2,Ka3:BKg6,Kf1,Kc5",
			strings.Fields("a2-b3 g6-g5 b3-a2 g5-g6 a2-b3 g6-g5 b3-a2"), game.Ongoing, 0},
		{"the third occurrence of a position draws", nil, "W:WKa2,Ka3:BKg6,Kf1,Kc5",
			strings.Fields("a2-b3 g6-g5 b3-a2 g5-g6 a2-b3 g6-g5 b3-a2 g5-g6"), game.Repetition, 0},
		{"maxplies draws", []string{"maxplies=3"}, "W:WKa2,Ka3:BKg6,Kf1,Kc5",
			strings.Fields("a2-b3 g6-g5 b3-a2"), game.PlyCap, 0},
		{"one ply short of maxplies plays on", []string{"maxplies=3"}, "W:WKa2,Ka3:BKg6,Kf1,Kc5",
			strings.Fields("a2-b3 g6-g5"), game.Ongoing, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, "pommel", tc.opts...), tc.fen)
			gametest.CheckResult(t, s, tc.moves, tc.reason, tc.winners)
		})
	}
}

// TestDrawSafeguardsOutsidePerft: after a draw by repetition, moves are
// refused for play but perft still counts by the rules.
func TestDrawSafeguardsOutsidePerft(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "pommel"), "W:WKa2,Ka3:BKg6,Kf1,Kc5")
	cycle := strings.Fields("a2-b3 g6-g5 b3-a2 g5-g6 a2-b3 g6-g5 b3-a2 g5-g6")
	if err := game.PlayMoves(s, cycle); err != nil {
		t.Fatal(err)
	}
	_, err := game.ParseMove(s, "a2-b3")
	if err == nil || !strings.Contains(err.Error(), "game is over") {
		t.Errorf("a move after the third repetition: got %v, want a game-over error", err)
	}
	if n := game.Perft(s, 1); n != uint64(len(s.Moves(nil))) || n == 0 {
		t.Errorf("perft 1 after repetition = %d, want the %d rule moves", n, len(s.Moves(nil)))
	}
	if err := game.PlayRuleMoves(s, []string{"a2-b3"}); err != nil {
		t.Errorf("perft's move list refused a rule move: %v", err)
	}
}

func TestIllegalMoveReasons(t *testing.T) {
	tests := []struct{ fen, move, reason string }{
		{"W:Wd3,a1:Bd4", "a1-a2", "capture is compulsory; the captures are d3xd5"},
		{"W:Wd3:Bd6", "d4-d5", "there is no piece on d4"},
		{"W:Wd3:Bd6", "d6-d5", "the piece on d6 is Black's, and White is to move"},
		{"W:Wd3:Bd6", "d3-d5", "the piece on d3 can play d3-c3, d3-d4, d3-e3"},
		{"W:Wd3:Bd6", "d3-z9", `"z9" is not a cell of this board`},
		{"W:Wd3:Bd6", "D3-D4", "moves are written in lower case: d3-d4"},
		{"W:Wd3:Bd6", "d3-d4xd5", "either '-' (no capture) or 'x' (capture)"},
		{"W:Wd3:Bd6", "d3", "write a move as from-to"},
		{"W:Wd3:Bd6", "d3-d4@", "a cell is missing"},
		{"W:Wb6:Ba6,b7,c6,d7", "b6-b7", "the game is over"},
		{"W:Wd3,a1:Bd4", "a1xa3", "the piece on a1 cannot capture, and capture is compulsory"},
	}
	for _, tc := range tests {
		s := gametest.MustParse(t, gametest.NewGame(t, "pommel"), tc.fen)
		gametest.CheckIllegal(t, s, tc.move, tc.reason)
	}
}

func TestParseMoveAcceptsColon(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "pommel"), "W:Wd1:Bd2,e3,f5")
	m, err := game.ParseMove(s, "d1:d3:f4:f6")
	if err != nil || m.Text(s.Game().Board()) != "d1xd3xf4xf6" {
		t.Errorf("got %v, %v; want d1xd3xf4xf6", m.Text(s.Game().Board()), err)
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"", "side to move must be W or B"},
		{"X:Wa1:Bb7", "field 1: the side to move must be W or B"},
		{"W:Wa1:Bz9", `field 3: "z9" is not a cell of pommel`},
		{"W:Wa1,a1:Bb7", "field 2: two pieces on a1"},
		{"W:Wa1:Wa2", "field 3: White's pieces are listed twice"},
		{"W:Wa1:Ba1", "field 3: two pieces on a1"},
		{"W:Wb7:Ba5", "field 2: a White soldier on b7 would have been promoted: write Kb7"},
		{"W:Wa1:Bb1", "field 3: a Black soldier on b1 would have been promoted: write Kb1"},
		{"W:Wa1:Bb7:Wc1", "at most three fields"},
		{"W:Xa1", `field 2: a piece list starts with W or B, not "Xa1"`},
		{"W:Wa1,,a2", `field 2: "" is not a cell`},
		{"W:Wa1,a2,a3,a4,a5,b1,b2,b3,b4,b5,b6,c1,c2,c3,c4", "more than 14 pieces"},
	}
	g := gametest.NewGame(t, "pommel")
	for _, tc := range tests {
		_, err := g.ParseFEN(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q) = %v, want an error saying %q", tc.fen, err, tc.want)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	g := gametest.NewGame(t, "pommel")
	for _, fen := range []string{"W:W:B", "B:WKa1,d3:BKd1,g5", "W:Wa1,a2,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"} {
		s := gametest.MustParse(t, g, fen)
		if got := s.FEN(); got != fen {
			t.Errorf("FEN round trip: %s became %s", fen, got)
		}
	}
	// Pieces may be listed in any order; the FEN is written in cell order.
	if got := gametest.MustParse(t, g, "W:Wd3,a1:Bg5").FEN(); got != "W:Wa1,d3:Bg5" {
		t.Errorf("got %s", got)
	}
}

// TestStack: the Stacker view shows each cell's piece, if any, with its
// rank: a captain is a game.King.
func TestStack(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "pommel"), "W:Wc3,Kc5:Bc4,Kg1")
	b := s.Game().Board()
	tests := []struct {
		cell string
		want []game.Piece
	}{
		{"c3", []game.Piece{{Owner: pommel.White, Rank: game.Man}}},
		{"c5", []game.Piece{{Owner: pommel.White, Rank: game.King}}},
		{"c4", []game.Piece{{Owner: pommel.Black, Rank: game.Man}}},
		{"g1", []game.Piece{{Owner: pommel.Black, Rank: game.King}}},
		{"a1", nil},
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

// TestRepetitionAcrossUndoAndClone: the count of a position's
// occurrences survives taking back an irreversible move (a soldier's
// step) and cloning, so the third occurrence still draws.
func TestRepetitionAcrossUndoAndClone(t *testing.T) {
	const fen = "W:WKa2,Ka3:BKg6,Kf1,Kc5,e6"
	cycle := strings.Fields("a2-b3 g6-g5 b3-a2 g5-g6 a2-b3 g6-g5 b3-a2 g5-g6")
	tests := []struct {
		name string
		// play changes the state after the cycle's first seven plies and
		// returns the state to finish the cycle on.
		play func(t *testing.T, s game.State) game.State
	}{
		{"as played", func(t *testing.T, s game.State) game.State { return s }},
		{"a soldier's step taken back", func(t *testing.T, s game.State) game.State {
			if err := game.PlayMoves(s, []string{"e6-e5"}); err != nil {
				t.Fatal(err)
			}
			if !s.Undo() {
				t.Fatal("Undo failed")
			}
			return s
		}},
		{"a clone", func(t *testing.T, s game.State) game.State { return s.Clone() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, "pommel"), fen)
			if err := game.PlayMoves(s, cycle[:7]); err != nil {
				t.Fatal(err)
			}
			gametest.CheckResult(t, tc.play(t, s), cycle[7:], game.Repetition, 0)
		})
	}
}
