package checkers2011_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// TestMoveRules pins the legal moves of hand-built positions, one rule per
// case (RULINGS section 3). Stacks are written bottom first: "wbB" is a
// white soldier under a black soldier under a black king, commanded by the
// king. A lone enemy far away (h8=B, a1=w) keeps the game from being over.
func TestMoveRules(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want []string
	}{
		// Steps.
		{"white soldier steps forward, diagonally forward and sideways",
			"W:d4=w,h8=B", []string{"d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"}},
		{"black soldier steps down the board and sideways",
			"B:a1=w,d5=b", []string{"d5-c4", "d5-c5", "d5-d4", "d5-e4", "d5-e5"}},
		{"soldier never steps backward", "W:d1=w,h8=B", []string{"d1-c1", "d1-c2", "d1-d2", "d1-e1", "d1-e2"}},
		{"king steps in all eight directions",
			"W:d4=W,h8=B", []string{"d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5"}},
		{"the commander decides: white kings under a black soldier move as Black's soldier",
			"B:a1=w,d5=WWb", []string{"d5-c4", "d5-c5", "d5-d4", "d5-e4", "d5-e5"}},
		{"a king commander moves a stack of soldiers in eight directions",
			"W:d4=bbwW,h8=B", []string{"d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5"}},
		{"nothing steps onto or jumps its own stacks",
			"W:d4=W,d5=w,e5=w,h8=B", []string{"d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e4",
				"d5-c5", "d5-c6", "d5-d6", "d5-e6", "e5-d6", "e5-e6", "e5-f5", "e5-f6"}},

		// Imprisonment.
		{"imprisonment is compulsory", "W:c3=w,d4=b,a1=w,h8=B", []string{"c3xe5"}},
		{"soldier jumps forward and diagonally forward",
			"W:d4=w,c5=b,d5=b,e5=b,h8=B", []string{"d4xb6", "d4xd6", "d4xf6"}},
		{"soldier never jumps sideways or backward",
			"W:d4=w,d3=b,c3=b,e3=b,c4=b,e4=b,h8=B", []string{"d4-c5", "d4-d5", "d4-e5"}},
		{"king jumps backward", "W:d4=W,d3=b,h8=B", []string{"d4xd2"}},
		{"king jumps diagonally backward", "W:d4=W,c3=b,h8=B", []string{"d4xb2"}},
		{"king never jumps sideways",
			"W:d4=W,c4=b,e4=b,h8=B", []string{"d4-c3", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e5"}},
		{"black soldier jumps down the board", "B:a1=w,d5=b,c4=w,d4=w,e4=w", []string{"d5xb3", "d5xd3", "d5xf3"}},
		{"a jump needs the cell just beyond empty", "W:d4=w,d5=b,d6=b,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-e4", "d4-e5"}},
		{"a jump needs the cell just beyond on the board", "W:d7=w,d8=b,h1=B",
			[]string{"d7-c7", "d7-c8", "d7-e7", "d7-e8"}},
		{"a stack commanded by the mover is not jumped, even over enemy prisoners",
			"W:d4=w,d5=bw,h8=B", []string{"d4-c4", "d4-c5", "d4-e4", "d4-e5", "d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6"}},
		{"an enemy-commanded stack is jumped, even over the mover's prisoners",
			"W:d4=w,d5=wwb,h8=B", []string{"d4xd6"}},
		{"only adjacent stacks are jumped", "W:d3=W,d5=b,h8=B",
			[]string{"d3-c2", "d3-c3", "d3-c4", "d3-d2", "d3-d4", "d3-e2", "d3-e3", "d3-e4"}},

		// Chains and the maximum-jumps rule.
		{"the jumping stack goes on while it can", "W:c1=w,c2=b,c4=b,d6=b,h8=B", []string{"c1xc3xc5xe7"}},
		{"a branching chain gives one move per branch",
			"W:b2=W,c3=b,c5=b,e5=b,a1=w", []string{"b2xd4xb6", "b2xd4xf6"}},
		{"only the sequences with the most jumps, over all stacks",
			"W:c3=w,g2=w,g3=b,d4=b,e6=b,b4=b,h8=B", []string{"c3xe5xe7"}},
		{"the most jumps, even against a shorter capture that would sandwich more",
			"W:b2=w,b3=b,c4=bbb,d4=w,e2=w,e3=b,e5=b,h8=B", []string{"e2xe4xe6"}},
		{"sequences of equal length from different stacks are all legal",
			"W:a2=w,a3=b,h2=w,h3=b,d8=B", []string{"a2xa4", "h2xh4"}},
		{"a king reverses and jumps the same stack again while its top is an enemy",
			"W:d3=W,d4=wbB,h8=B", []string{"d3xd5xd3"}},
		{"a king takes a tall enemy stack piece by piece",
			"W:d3=W,d4=bbbbB,a1=w", []string{"d3xd5xd3xd5xd3xd5"}},
		{"the jumper's start cell is empty during its move",
			"W:c3=W,d4=b,d6=b,b6=b,b4=b,h8=B", []string{"c3xa5xc7xe5xc3", "c3xe5xc7xa5xc3"}},
		{"a soldier's chain ends on the last rank",
			"W:c5=w,c6=b,c8=B,h1=B", []string{"c5xc7"}},

		// End of the game.
		{"no moves once the opponent commands no stack", "W:d4=w,e6=Bw", nil},
		{"no moves for a side that commands no stack", "B:d4=w,e6=Bw", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t), tc.fen)
			if got := gametest.RuleMoves(s); !slices.Equal(got, tc.want) {
				t.Errorf("%s\nmoves: %v\nwant:  %v", tc.fen, got, tc.want)
			}
		})
	}
}

// TestPlayEffects plays one move on a hand-built position and checks the
// position after it: imprisonment, liberation, promotion, and undo.
func TestPlayEffects(t *testing.T) {
	tests := []struct {
		name, fen, move, want string
	}{
		{"a step moves the whole stack", "W:d4=bbW,h8=B", "d4-e5", "B:e5=bbW,h8=B"},
		{"the jumped piece goes to the bottom of the jumper", "W:c3=w,d4=b,h8=B", "c3xe5", "B:e5=bw,h8=B"},
		{"the rest of the jumped stack is liberated under its new top",
			"W:c3=w,d4=wwb,h8=B", "c3xe5", "B:d4=ww,e5=bw,h8=B"},
		{"an enemy piece under the top keeps the stack the enemy's",
			"W:c3=w,d4=bbb,h8=B", "c3xe5", "B:d4=bb,e5=bw,h8=B"},
		{"prisoners keep their rank, and a liberated king commands as a king",
			"B:d5=b,e4=Ww,h1=W", "d5xf3", "W:h1=W,f3=wb,e4=W"},
		{"each prisoner goes under the earlier ones", "W:c1=w,c2=b,c4=B,h8=B", "c1xc3xc5", "B:c5=Bbw,h8=B"},
		{"a king's double jump of one stack", "W:d3=W,d4=wbB,h8=B", "d3xd5xd3", "B:d3=bBW,d4=w,h8=B"},
		{"a soldier commander ending on the last rank is promoted", "W:d7=w,a1=B", "d7-d8", "B:a1=B,d8=W"},
		{"only the commander is promoted", "W:d7=wbw,a1=B", "d7-d8", "B:a1=B,d8=wbW"},
		{"a capture ending on the last rank promotes", "W:d6=w,d7=b,a1=B", "d6xd8", "B:a1=B,d8=bW"},
		{"Black is promoted on rank 1", "B:d2=b,h8=W", "d2-d1", "W:d1=B,h8=W"},
		{"a sideways step elsewhere does not promote", "W:d7=w,a1=B", "d7-e7", "B:a1=B,e7=w"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkPlay(t, tc.fen, tc.move, tc.want)
		})
	}
}

// checkPlay plays move from fen and checks the position reached, its
// hash and the undo.
func checkPlay(t *testing.T, fen, move, want string) {
	t.Helper()
	gametest.CheckPlay(t, gametest.MustParse(t, newGame(t), fen), game.PlayMoves, move, want)
}

// TestElimination pins the custodial capture of RULINGS section 3: after
// every move, runs of enemy-commanded stacks closed by a friendly one along
// the four orthogonal lines from the moved stack leave the board whole.
func TestElimination(t *testing.T) {
	tests := []struct {
		name, fen, move, want string
	}{
		{"a line of two along a rank",
			"W:f3=w,b4=w,c4=b,d4=b,h8=B", "f3-e4", "B:b4=w,e4=w,h8=B"},
		{"a single stack along a file",
			"W:e3=w,d5=b,d6=w,h1=B", "e3-d4", "B:h1=B,d4=w,d6=w"},
		{"whole stacks go, prisoners of both colours included",
			"W:b4=w,c4=wwB,e3=w,h8=B", "e3-d4", "B:b4=w,d4=w,h8=B"},
		{"an enemy-commanded stack with friendly prisoners is part of the run, a friendly-commanded one with enemy prisoners closes it",
			"W:b4=bbw,c4=wb,d4=wwb,f3=w,h8=B", "f3-e4", "B:b4=bbw,e4=w,h8=B"},
		{"three directions at once",
			"W:d3=w,c4=b,e4=b,d5=b,b4=w,f4=w,d6=w,b5=w,f5=w,h1=B", "d3-d4", "B:h1=B,b4=w,d4=w,f4=w,b5=w,f5=w,d6=w"},
		{"an empty cell breaks the run", "W:f3=w,b4=w,c4=b,h8=B", "f3-e4", "B:b4=w,c4=b,e4=w,h8=B"},
		{"a run that reaches the edge away from a corner is safe",
			"W:d3=w,a4=b,b4=b,h8=B", "d3-c4", "B:a4=b,b4=b,c4=w,h8=B"},
		{"diagonal lines never sandwich", "W:d3=w,c5=b,b6=w,h8=B", "d3-d4", "B:d4=w,c5=b,b6=w,h8=B"},
		{"a stack that moves between two enemies is safe",
			"B:c4=w,e4=w,b3=w,f3=w,d5=b,h1=W", "d5-d4", "W:h1=W,b3=w,f3=w,c4=w,d4=b,e4=w"},
		{"only the moved stack sandwiches: a liberated friend does not",
			"W:e3=w,d4=wb,c4=b,b4=w,h8=B", "e3xc5", "B:b4=w,c4=b,d4=w,c5=bw,h8=B"},
		{"jumps do not sandwich on the way, only the final cell does",
			"W:c1=w,c2=b,c4=b,b3=b,a3=w,h8=B", "c1xc3xc5", "B:a3=w,b3=b,c5=bbw,h8=B"},
		{"a capture sandwiches from where it ends",
			"W:c3=w,d4=b,f5=b,g5=w,h1=B", "c3xe5", "B:h1=B,e5=bw,g5=w"},
		{"elimination comes after promotion, and a friend in the corner closes a run",
			"W:c7=w,b8=b,a8=W,e1=B", "c7-c8", "B:e1=B,a8=W,c8=W"},

		// Corners. The board near a1, before the move, for the third case:
		//
		//  3  W  .  .
		//  2  B  .  .  .  W
		//  1  B  B  B  .  .
		//     a  b  c  d  e
		//
		// e2-d1: the run west from d1 is c1 b1 a1, turns north at the corner
		// a1, goes on with a2 and is closed by White's a3.
		{"a lone enemy in a corner falls to friends on both its neighbours (arriving along rank 1)",
			"W:c2=W,a1=B,a2=w,h8=B", "c2-b1", "B:b1=W,a2=w,h8=B"},
		{"a lone enemy in a corner falls to friends on both its neighbours (arriving along file a)",
			"W:b3=W,a1=B,b1=w,h8=B", "b3-a2", "B:b1=w,a2=W,h8=B"},
		{"a run along an edge turns the corner",
			"W:e2=W,c1=B,b1=B,a1=B,a2=B,a3=W,h8=B", "e2-d1", "B:d1=W,a3=W,h8=B"},
		{"a run turns at every corner it reaches: g8 h8, down the h file, closed on g1",
			"W:e7=W,g1=w,g8=b,h8=b,h7=b,h6=b,h5=b,h4=b,h3=b,h2=b,h1=B", "e7-f8", "B:g1=w,f8=W"},
		{"an empty corner stops the run",
			"W:e2=W,c1=B,b1=B,a2=B,a3=w,h8=B", "e2-d1", "B:b1=B,c1=B,d1=W,a2=B,a3=w,h8=B"},
		{"a run around a corner must still be closed by a friend",
			"W:e2=W,c1=B,b1=B,a1=B,a2=B,h8=B", "e2-d1", "B:a1=B,b1=B,c1=B,d1=W,a2=B,h8=B"},
		{"a run from the corner itself goes along both edges",
			"W:b2=W,a2=b,a3=b,a4=w,b1=B,c1=w,h8=B", "b2-a1", "B:a1=W,c1=w,a4=w,h8=B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkPlay(t, tc.fen, tc.move, tc.want)
		})
	}
}
