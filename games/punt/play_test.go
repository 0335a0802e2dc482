package punt_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
	"github.com/arbiter-games/arbiter/textboard"
)

// TestPlayEffects plays one move on a hand-built position and checks the
// position after it: the whole pile moves, lands on top of the pile there,
// the new top controls, and the next player in turn order moves.
func TestPlayEffects(t *testing.T) {
	tests := []struct {
		name, id, fen, move, want string
	}{
		{"a pawn moves to an empty cell", "punt-match",
			"W:d3=w,d5=b", "d3-d4", "B:d4=w,d5=b"},
		{"a pawn lands on an enemy pawn and controls the pile", "punt-match",
			"W:d3=w,d5=b", "d3-d5", "B:d5=bw"},
		{"a pawn lands on its own pile", "punt-match",
			"W:d3=w,d4=bw,a7=b", "d3-d4", "B:d4=bww,a7=b"},
		{"a black pile moves whole and keeps its order", "punt-match",
			"B:a1=w,d4=wwbwb,g7=b", "d4-d3", "W:a1=w,d3=wwbwb,g7=b"},
		{"a pile of three lands on a pile of two, on top, in order", "punt-heks-match-3p",
			"B:c3=wrb,c4=rw,i5=r", "c3-c4", "R:c4=rwwrb,i5=r"},
		{"Red lands on Black's frozen pawn and takes it over", "punt-heks-match-3p",
			"R:a1=w,a5=b,b5=r", "b5-a5", "W:a1=w,a5=br"},
		{"a player may land on their own frozen pile", "punt-heks-match-3p",
			"W:a1=b,a5=r,h3=w,i3=w", "h3-i3", "B:a1=b,a5=r,i3=ww"},
		{"Black takes over White's frozen pawn", "punt-heks-match-3p",
			"B:a3=w,g6=r,i2=b,i3=w", "i2-i3", "R:a3=w,g6=r,i3=wb"},
		{"Red moves and White is next", "punt-heks-match-3p",
			"R:a3=w,g6=r,i2=b", "g6-g5", "W:a3=w,g5=r,i2=b"},
		{"Black moves and White is next with two players", "punt-heks-match",
			"B:a3=w,i2=b", "i2-h2", "W:a3=w,h2=b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, tc.id), tc.fen)
			gametest.CheckPlay(t, s, game.PlayMoves, tc.move, tc.want)
		})
	}
}

// TestTakenOverPileMovesForItsNewController: White's pawn on its end-row
// is frozen; once Black lands on it, the pile is Black's and moves for
// Black, and no longer for White.
func TestTakenOverPileMovesForItsNewController(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "punt-heks-match-3p"), "B:a3=w,g6=r,i2=b,i3=w")
	if err := game.PlayMoves(s, strings.Fields("i2-i3 g6-g5 a3-a4")); err != nil {
		t.Fatal(err)
	}
	want := []string{"i3-g3", "i3-g5", "i3-h3", "i3-h4", "i3-i4", "i3-i5"}
	if got := gametest.RuleMoves(s); !slices.Equal(got, want) {
		t.Errorf("Black's moves: %v, want %v", got, want)
	}
	if err := game.PlayMoves(s, []string{"i3-h3", "g5-g4"}); err != nil {
		t.Fatal(err)
	}
	for _, m := range gametest.RuleMoves(s) {
		if strings.HasPrefix(m, "h3") {
			t.Errorf("White moves Black's pile: %s", m)
		}
	}
}

// TestTurnOrder: White, Black, Red, White... (and White, Black, White with
// two players); the FEN names the player to move.
func TestTurnOrder(t *testing.T) {
	tests := []struct {
		id    string
		moves string
		order []game.Player
		sides string
	}{
		{"punt-heks-match-3p", "b1-c1 d1-d2 d8-d7 c1-d1 d2-d3",
			[]game.Player{punt.Black, punt.Red, punt.White, punt.Black, punt.Red}, "BRWBR"},
		{"punt-heks-match", "b1-c1 h1-g1 c1-d1", []game.Player{punt.Black, punt.White, punt.Black}, "BWB"},
		{"punt-match", "a2-a3 a6-a5", []game.Player{punt.Black, punt.White}, "BW"},
	}
	for _, tc := range tests {
		s := gametest.NewGame(t, tc.id).Start()
		var sides []byte
		for i, m := range strings.Fields(tc.moves) {
			if err := game.PlayMoves(s, []string{m}); err != nil {
				t.Fatal(err)
			}
			if s.ToMove() != tc.order[i] {
				t.Errorf("%s after %s: player %d to move, want %d", tc.id, m, s.ToMove(), tc.order[i])
			}
			sides = append(sides, s.FEN()[0])
		}
		if string(sides) != tc.sides {
			t.Errorf("%s: FEN sides %s, want %s", tc.id, sides, tc.sides)
		}
	}
}

// TestGameEnd: the game ends when the player to move has no move (even if
// others could move), and the highest score wins; equal highest scores
// share, which is a draw with two players.
func TestGameEnd(t *testing.T) {
	set := func(ps ...game.Player) game.PlayerSet {
		var s game.PlayerSet
		for _, p := range ps {
			s = s.Add(p)
		}
		return s
	}
	tests := []struct {
		name, id, fen string
		moves         []string
		reason        game.Reason
		winners       game.PlayerSet
		scores        [game.MaxPlayers]int
	}{
		{"the start is in progress", "punt-heks-match-3p", "", nil, game.Ongoing, 0, [4]int{}},
		{"only frozen piles: the game ends although the opponent could move; all colours count", "punt-match",
			"W:c1=wb,d4=b,a7=w,b7=bw", nil, game.Scored, set(punt.White), [4]int{3, 2}},
		{"a player's pile on the other's end-row scores for nobody", "punt-heks-match",
			"B:a1=wwb,a3=bw,i1=w", nil, game.Scored, set(punt.Black), [4]int{1, 3}},
		{"equal scores draw with two players", "punt-heks-match",
			"W:a1=b,a2=b,i1=w,i2=w", nil, game.Scored, 0, [4]int{2, 2}},
		{"no pawns at all: no move, nothing scored, a draw", "punt-heks-match",
			"W:c3=b", nil, game.Scored, 0, [4]int{}},
		{"the last move ends the game", "punt-heks-match",
			"W:a1=b,h1=w", []string{"h1-i1"}, game.Scored, 0, [4]int{1, 1}},
		{"three players: the highest score wins", "punt-heks-match-3p",
			"R:a1=r,c1=wbr,e9=b,i1=w", nil, game.Scored, set(punt.Red), [4]int{1, 1, 4}},
		{"three players: two equal highest share the win", "punt-heks-match-3p",
			"B:c3=w,d1=r,e9=b", nil, game.Scored, set(punt.Black, punt.Red), [4]int{0, 1, 1}},
		{"three players: all equal share the win", "punt-heks-match-3p",
			"R:a5=b,e1=r,i1=w", nil, game.Scored, set(punt.White, punt.Black, punt.Red), [4]int{1, 1, 1}},
		{"three players: White without a move ends the game", "punt-heks-match-3p",
			"W:c4=b,c5=r,i1=w", nil, game.Scored, set(punt.White), [4]int{1, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, tc.id)
			s := gametest.Position(t, g, tc.fen)
			if err := game.PlayMoves(s, tc.moves); err != nil {
				t.Fatal(err)
			}
			r := s.Result()
			if r.Reason != tc.reason || r.Winners != tc.winners || r.Scores != tc.scores {
				t.Fatalf("result %v winners %03b scores %v, want %v winners %03b scores %v (%s)",
					r.Reason, r.Winners, r.Scores, tc.reason, tc.winners, tc.scores, r.Describe(g))
			}
			if r.Over() != (len(s.Moves(nil)) == 0) {
				t.Errorf("over %v with %d moves", r.Over(), len(s.Moves(nil)))
			}
			if r.Over() && len(game.MoveTexts(s)) != 0 {
				t.Errorf("a finished game lists moves %v", game.MoveTexts(s))
			}
		})
	}
}

// TestScoresDuringPlay: the scores so far count only the piles each
// player controls on their own end-row.
func TestScoresDuringPlay(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "punt-heks-match-3p"), "W:a1=b,a5=wrb,c3=w,e1=bbr,e9=bw,i1=w,i2=rw,i5=wr").(*punt.State)
	if got, want := s.Scores(), [game.MaxPlayers]int{3, 3, 3}; got != want {
		t.Errorf("scores %v, want %v", got, want)
	}
	if s.Result().Over() {
		t.Error("the game is over with White's c3 free to move")
	}
}

func TestDrawSafeguards(t *testing.T) {
	cycle3 := strings.Fields("c3-c4 e5-f5 c6-d6 c4-c3 f5-e5 d6-c6")
	tests := []struct {
		name, id, fen string
		opts          []string
		moves         []string
		reason        game.Reason
	}{
		{"sideways moves repeat a position: twice is not yet a draw", "punt-match", "W:a3=w,g5=b", nil,
			strings.Fields("a3-b3 g5-f5 b3-a3 f5-g5 a3-b3 g5-f5 b3-a3"), game.Ongoing},
		{"the third occurrence draws", "punt-match", "W:a3=w,g5=b", nil,
			strings.Fields("a3-b3 g5-f5 b3-a3 f5-g5 a3-b3 g5-f5 b3-a3 f5-g5"), game.Repetition},
		{"three players repeat a position", "punt-heks-match-3p", "W:c3=w,c6=r,e5=b", nil,
			append(slices.Clone(cycle3), cycle3...), game.Repetition},
		{"three players, one cycle short", "punt-heks-match-3p", "W:c3=w,c6=r,e5=b", nil,
			append(slices.Clone(cycle3), cycle3[:5]...), game.Ongoing},
		{"maxplies draws", "punt-heks-match", "", []string{"maxplies=3"},
			strings.Fields("b1-c1 h1-g1 c1-d1"), game.PlyCap},
		{"one ply short of maxplies plays on", "punt-heks-match", "", []string{"maxplies=3"},
			strings.Fields("b1-c1 h1-g1"), game.Ongoing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, tc.id, tc.opts...)
			s := gametest.Position(t, g, tc.fen)
			if err := game.PlayMoves(s, tc.moves); err != nil {
				t.Fatal(err)
			}
			r := s.Result()
			if r.Reason != tc.reason || r.Over() && !r.Draw() {
				t.Fatalf("result %v (%s), want %v", r.Reason, r.Describe(g), tc.reason)
			}
			if r.Over() {
				if _, err := game.ParseMove(s, tc.moves[0]); err == nil || !strings.Contains(err.Error(), "game is over") {
					t.Errorf("a move after the draw: %v, want a game-over error", err)
				}
				if n := game.Perft(s, 1); n == 0 || n != uint64(len(s.Moves(nil))) {
					t.Errorf("perft 1 after the draw = %d, want the %d rule moves", n, len(s.Moves(nil)))
				}
			}
		})
	}
}

func TestIllegalMoveReasons(t *testing.T) {
	tests := []struct{ id, fen, move, reason string }{
		{"punt-heks-match-3p", "W:a1=b,e5=w,i3=w,i5=r", "i3-i4", "the piece on i3 has no legal move"},
		{"punt-heks-match-3p", "W:a1=b,e5=w,i3=w,i5=r", "e5-d5", "the piece on e5 can play e5-e2, e5-e3"},
		{"punt-heks-match-3p", "W:a1=b,e5=w,i3=w,i5=r", "a1-a2", "the piece on a1 is Black's, and White is to move"},
		{"punt-heks-match-3p", "W:a1=b,e5=w,i3=w,i5=r", "i5-i4", "the piece on i5 is Red's, and White is to move"},
		{"punt-heks-match-3p", "W:a1=b,e5=w,i3=w,i5=r", "c3-c4", "there is no piece on c3"},
		{"punt-heks-match-3p", "W:a1=b,e5=w,i3=w,i5=r", "e5-e10", `"e10" is not a cell of this board`},
		{"punt-heks-match", "W:c3=bw,i1=b", "c3-c6", "the piece on c3 can play c3-c1, c3-c2, c3-c4, c3-c5"},
		{"punt-match", "W:d2=w,d4=w,a7=b", "d2-d5", "the piece on d2 can play"},
		{"punt-match", "W:d2=w,a7=b", "D2-D3", "moves are written in lower case: d2-d3"},
		{"punt-match", "W:a1=b,a7=w", "a7-b7", "the game is over"},
	}
	for _, tc := range tests {
		s := gametest.MustParse(t, gametest.NewGame(t, tc.id), tc.fen)
		gametest.CheckIllegal(t, s, tc.move, tc.reason)
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ id, fen, want string }{
		{"punt-match", "", `field 1: the player to move must be one of W, B, not ""`},
		{"punt-match", "X:a1=w", `field 1: the player to move must be one of W, B, not "X"`},
		{"punt-match", "R:a1=w,a7=b", `field 1: the player to move must be one of W, B, not "R"`},
		{"punt-heks-match-3p", "w:a1=w", `field 1: the player to move must be one of W, B, R, not "w"`},
		{"punt-match", "W", "a FEN has two fields separated by ':', the player to move and the piles"},
		{"punt-match", "W:a1=w:a7=b", "a FEN has two fields"},
		{"punt-match", "W:z9=w", `field 2, pile 1 "z9=w": "z9" is not a cell of punt-match`},
		{"punt-heks-match", "W:a1=w,a6=b", `field 2, pile 2 "a6=b": "a6" is not a cell of punt-heks-match`},
		{"punt-match", "W:a1=w,a1=b", `field 2, pile 2 "a1=b": a second pile on a1`},
		{"punt-match", "W:a1", `field 2, pile 1 "a1": write a pile as cell=colours, bottom pawn first, such as a1=w or a1=bw`},
		{"punt-match", "W:a1=wxw", `field 2, pile 1 "a1=wxw": "x" is not a pawn colour of punt-match (colours: w, b)`},
		{"punt-match", "W:a1=W", `"W" is not a pawn colour of punt-match`},
		{"punt-match", "W:a1=wrw", `"r" is not a pawn colour of punt-match`},
		{"punt-match", "W:a1=", `field 2, pile 1 "a1=": the pile on a1 has no pawns`},
		{"punt-match", "W:a1=wwwwwwwwwwwwwww", "more than 14 White pawns, the number each player has"},
		{"punt-heks-match-3p", "W:a1=w,b1=rrrrrrrrrrrrb", `pile 2 "b1=rrrrrrrrrrrrb": more than 11 Red pawns`},
		{"punt-match", "W:a1=w,,a2=w", `field 2, pile 2 "": write a pile as cell=colours`},
	}
	for _, tc := range tests {
		s, err := gametest.NewGame(t, tc.id).ParseFEN(tc.fen)
		var fe *game.FENError
		if s != nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s ParseFEN(%q) = %v, want an error saying %q", tc.id, tc.fen, err, tc.want)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	tests := []struct{ id, fen string }{
		{"punt-match", "W:"},
		{"punt-match", "B:a1=w,c4=bw,d4=b,g7=wwb"},
		{"punt-heks-match", "W:a1=bbbbbbwwwwwwwwb,e5=bbbwbw,i1=w"},
		{"punt-heks-match-3p", "R:"},
		{"punt-heks-match-3p", "B:c3=rw,c4=wrb,e1=br,e9=b,g6=r,i3=w"},
	}
	for _, tc := range tests {
		g := gametest.NewGame(t, tc.id)
		if got := gametest.MustParse(t, g, tc.fen).FEN(); got != tc.fen {
			t.Errorf("%s: FEN round trip: %s became %s", tc.id, tc.fen, got)
		}
	}
	// Piles may come in any order and blanks around the FEN are ignored;
	// the FEN is written in cell order: by row, then number on the hex
	// board, by rank, then file on the square one.
	tests = []struct{ id, fen string }{
		{"punt-heks-match-3p", " R:e9=r,a2=r,d3=w,b1=w,a5=bw "},
		{"punt-match", "W:g1=w,a2=b,b1=w"},
	}
	for i, want := range []string{"R:a2=r,a5=bw,b1=w,d3=w,e9=r", "W:b1=w,g1=w,a2=b"} {
		if got := gametest.MustParse(t, gametest.NewGame(t, tests[i].id), tests[i].fen).FEN(); got != want {
			t.Errorf("%s %q: got %s, want %s", tests[i].id, tests[i].fen, got, want)
		}
	}
}

// TestStack: the Stacker view lists a pile bottom first.
func TestStack(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "punt-heks-match-3p"), "W:a1=w,c4=rbw")
	b := s.Game().Board()
	c4, _ := b.Parse("c4")
	a1, _ := b.Parse("a1")
	e5, _ := b.Parse("e5")
	st := s.(game.Stacker)
	want := []game.Piece{{Owner: punt.Red}, {Owner: punt.Black}, {Owner: punt.White}}
	if got := st.Stack(c4, nil); !slices.Equal(got, want) {
		t.Errorf("Stack(c4) = %v, want %v", got, want)
	}
	if got := st.Stack(a1, []game.Piece{{Owner: punt.Red}}); len(got) != 2 || got[1].Owner != punt.White {
		t.Errorf("Stack(a1) appended %v", got)
	}
	if got := st.Stack(e5, nil); len(got) != 0 {
		t.Errorf("Stack of an empty cell = %v", got)
	}
	if s.Owner(c4) != punt.White || s.Owner(e5) != game.NoPlayer || s.Owner(board.Cell(200)) != game.NoPlayer {
		t.Errorf("owners %d %d", s.Owner(c4), s.Owner(e5))
	}
	if h := s.(*punt.State).Height(c4); h != 3 {
		t.Errorf("height of c4 = %d", h)
	}
}

// TestShow pins the drawing: each pile bottom to top in its cell, the
// piles too tall for it listed below, the scores and the player to move.
func TestShow(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "punt-heks-match-3p"), "B:c3=rw,c4=wrb,e1=br,e9=b,g6=r,i3=w")
	want := `             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | w | . | . | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | r | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e |br | . | . | . | . | . | . | . | b | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . |rw |wrb| . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
Stacks: rw = bottom to top, w on top.
Scores: White 1, Black 1, Red 2
Black to move
`
	if got := textboard.String(s); got != want {
		t.Errorf("drawing:\n%s\nwant\n%s", got, want)
	}
	sq := textboard.String(gametest.MustParse(t, gametest.NewGame(t, "punt-match"), "W:a1=wwwwwbbbbbw,c4=bw,d4=bbbwb"))
	for _, line := range []string{"4   .   .  bw  5b   .   .   .   4\n", "1  11w  .   .   .   .   .   .   1\n",
		"Tall stacks, bottom to top:\n  a1 wwwwwbbbbbw, d4 bbbwb\n",
		"Scores: White 0, Black 0\nWhite to move\n"} {
		if !strings.Contains(sq, line) {
			t.Errorf("square drawing lacks %q:\n%s", line, sq)
		}
	}
	big := textboard.String(gametest.MustParse(t, gametest.NewGame(t, "punt-heks-match"), "W:a1=bbbbbbwwwwwwwwb,e5=bbbwbw,i1=w"))
	if !strings.Contains(big, "|15b|") || !strings.Contains(big, "|6w |") {
		t.Errorf("hex drawing of tall piles:\n%s", big)
	}
}
