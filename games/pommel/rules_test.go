package pommel_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// The boards in the comments are drawn by "arbiter show pommel --from FEN";
// only the cells that matter are named.
//
// pommel, 45 cells:          a6 c6 e6 g6 are the top cells of the short
//
//	    __    __    __         columns, b7 d7 f7 of the long ones; b1 d1 f1
//	 __/b7\__/d7\__/f7\__      are the lowest cells of the board.
//	/a6\__/c6\__/e6\__/g6\
//	\__/b6\__/d6\__/f6\__/
//	/a5\__/c5\__/e5\__/g5\
//	\__/b5\__/d5\__/f5\__/
//	/a4\__/c4\__/e4\__/g4\
//	\__/b4\__/d4\__/f4\__/
//	/a3\__/c3\__/e3\__/g3\
//	\__/b3\__/d3\__/f3\__/
//	/a2\__/c2\__/e2\__/g2\
//	\__/b2\__/d2\__/f2\__/
//	/a1\__/c1\__/e1\__/g1\
//	\__/b1\__/d1\__/f1\__/
//	   \__/  \__/  \__/
func TestMoveRules(t *testing.T) {
	tests := []struct {
		name string
		id   string
		opts []string
		fen  string
		want []string
	}{
		{"soldier steps in its three forward directions", "pommel", nil,
			"W:We3:Ba6", []string{"e3-d4", "e3-e4", "e3-f4"}},
		{"soldier never steps backward or sideways", "pommel", nil,
			"W:Wd1:Bg6", []string{"d1-c1", "d1-d2", "d1-e1"}},
		{"black soldier steps down", "pommel", nil,
			"B:Wa1:Bd5", []string{"d5-c4", "d5-d4", "d5-e4"}},
		{"soldier hops any number of friendly pieces", "pommel", nil,
			"W:Wd3,d4:Bg6", []string{"d3-c3", "d3-d5", "d3-e3", "d4-c4", "d4-d5", "d4-e4"}},
		{"soldier hops a line of three friendly pieces", "pommel", nil,
			"W:Wb1,c1,d2,e2:Ba6", []string{"b1-a1", "b1-b2", "b1-f3", "c1-b2", "c1-c2", "c1-f3",
				"d2-c2", "d2-d3", "d2-f3", "e2-d3", "e2-e3", "e2-f3"}},
		{"hop=friendly: an enemy piece blocks the hop", "pommel", nil,
			"W:Wd3,d5:Bd4", []string{"d3-c3", "d3-e3", "d5-c5", "d5-d6", "d5-e5"}},
		{"hop=any: the hop passes enemy pieces without taking them", "pommel", []string{"hop=any"},
			"W:Wd3,d5:Bd4", []string{"d3-c3", "d3-d6", "d3-e3", "d5-c5", "d5-d6", "d5-e5"}},
		{"soldier cannot hop off the board", "pommel", nil,
			"W:Wa4,a5,Ka6:BKb1", []string{"a4-b5", "a5-b6", "a6-b6", "a6-b7", "a6-g3"}},
		{"capture is compulsory, and any capture may be chosen", "pommel", nil,
			"W:Wa1,d2,g1:Bd3,d5,d6,g2,g3", []string{"d2xd4", "g1xg4"}},
		{"soldiers capture in all six directions", "pommel", nil,
			"W:Wd4:Bd5,e4,e3,d3,c3,c4", []string{"d4xb3", "d4xb5", "d4xd2", "d4xd6", "d4xf3", "d4xf5"}},
		{"a jump needs an empty cell just beyond", "pommel", nil,
			"W:Wd3,d5:Bd4", []string{"d3-c3", "d3-e3", "d5-c5", "d5-d6", "d5-e5"}},
		{"a jump chain must go on while it can", "pommel", nil,
			"W:Wd1:Bd2,e3,f5", []string{"d1xd3xf4xf6"}},
		{"a chain may pass the mover's own start cell", "pommel", nil,
			"W:Wd3:Bd4,c4,c3,d2", []string{"d3xb4xd5xd3xd1", "d3xd1", "d3xd5xb4xd3xd1"}},
		{"a line of two is leapt whole and the move ends", "pommel", nil,
			"W:Wg1:Bg2,g3,g5", []string{"g1xg4"}},
		{"a line of three is leapt whole", "pommel", nil,
			"W:Wd1:Bd2,d3,d4", []string{"d1xd5"}},
		{"a line ended by the board edge cannot be leapt", "pommel", nil,
			"W:Wd4,a1:Bd5,d6,d7", []string{"a1-a2", "a1-b2", "d4-c4", "d4-e4"}},
		{"a chain ends when only a leap is left", "pommel", nil,
			"W:Wd2:Bd3,d5,d6", []string{"d2xd4"}},
		{"captain jumps after a run of empty cells and lands just beyond", "pommel", nil,
			"W:WKd1:Bd5", []string{"d1xd6"}},
		{"captain leaps a line after a run of empty cells; the move ends", "pommel", nil,
			"W:WKd1:Bd4,d5,e6", []string{"d1xd6"}},
		{"captain jump chain, each jump with its own run", "pommel", nil,
			"W:WKd1:Bd4,f6", []string{"d1xd5xg6"}},
		{"captain chain ends when only a leap is left", "pommel", nil,
			"W:WKd1:Bd3,c5,b6", []string{"d1xd4"}},
		{"captain cannot capture past a friendly piece", "pommel", nil,
			"W:WKd1,d3:Bd5", []string{"d3-c3", "d3-d4", "d3-e3"}},
		{"captain quiet moves stop only where a line reaches an enemy", "pommel", nil,
			"W:WKa1:Bg6", []string{"a1-a3", "a1-g4"}},
		{"captain quiet move: the vacated start cell counts as empty", "pommel", nil,
			"W:WKd2:Bd7", []string{"d2-d1", "d2-d3", "d2-d4", "d2-d5", "d2-d6"}},
		{"no moves once the opponent has no pieces", "pommel", nil,
			"W:Wa1:B", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, tc.id, tc.opts...), tc.fen)
			if got := gametest.RuleMoves(s); !slices.Equal(got, tc.want) {
				t.Errorf("%s\nmoves: %v\nwant:  %v", tc.fen, got, tc.want)
			}
		})
	}
}
