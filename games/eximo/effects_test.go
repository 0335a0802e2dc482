package eximo_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game/gametest"
)

// TestMoveEffects pins game.MoveEffects on the positions of the rule
// tests: jumps over friendly men take nothing, a capture chain takes every
// man it jumps, a man reaching the far row leaves the board (even in the
// middle of a chain) and its owner drops new men, on cells emptied by the
// move too. Black moves first and is b, White is w.
func TestMoveEffects(t *testing.T) {
	tests := []struct {
		name, fen, move, want string
	}{
		{"a jumping move over friendly men takes nothing", "B:Wh8:Bc2,c3,d5", "c2-c4-e6",
			"moving b; landed b"},
		{"a capture chain takes every man it jumps, leg by leg", "B:Wb2,d3,e5,f6,h8:Ba2", "a2xc2xe4xe6xg6",
			"moving b; b2 leg 1 loses w leaving -; d3 leg 2 loses w leaving -; e5 leg 3 loses w leaving -; " +
				"f6 leg 4 loses w leaving -; landed b"},
		{"a step onto the far row with a full zone: the man leaves, nothing is dropped",
			"B:Wa5:B" + blackZone + ",d7", "d7-d8", "moving b; removed; landed -"},
		{"two drops after a step onto the far row", "B:Wa5:Bd7", "d7-e8@b1@g2",
			"moving b; removed; drop b1 b; drop g2 b; landed -"},
		{"a chain cut short on the far row", "B:Wd5,d7,c8:B" + blackZone + ",d4", "d4xd6xd8",
			"moving b; d5 leg 1 loses w leaving -; d7 leg 2 loses w leaving -; removed; landed -"},
		{"drops on the start cell and on a captured man's cell",
			"B:Wc2,d3,d5,d7:Bb1,c1,d1,e1,f1,g1,b2,e2,f2,g2", "b2xd2xd4xd6xd8@b2@c2",
			"moving b; c2 leg 1 loses w leaving -; d3 leg 2 loses w leaving -; d5 leg 3 loses w leaving -; " +
				"d7 leg 4 loses w leaving -; removed; drop b2 b; drop c2 b; landed -"},
		{"White leaves on row 1 and drops on rows 7 and 8", "W:Wd2:Ba4", "d2-d1@b7@c8",
			"moving w; removed; drop b7 w; drop c8 w; landed -"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gametest.CheckEffectsText(t, newGame(t), tc.fen, tc.move, tc.want)
		})
	}
}
