package checkers2011_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// TestMoveEffects pins game.MoveEffects on the positions of the rules
// page and the rule tests: a prisoner taken from the top of a stack, a
// liberation, a king taking a stack piece by piece, promotion, and
// sandwiches that remove whole stacks, after a step or a capture. Stacks
// are written bottom first, as in the FEN.
func TestMoveEffects(t *testing.T) {
	tests := []struct {
		name, fen, move, want string
	}{
		{"a step moves the whole stack and takes nothing", "W:d4=bbW,h8=B", "d4-e5",
			"moving bbW; landed bbW"},
		{"the jumped piece goes under the jumper", "W:c3=w,d4=b,h8=B", "c3xe5",
			"moving w; d4 leg 1 loses b leaving -; prisoners b; landed bw"},
		{"a prisoner taken from the top of a stack leaves the rest", "W:c3=w,d4=Wbb,h8=B", "c3xe5",
			"moving w; d4 leg 1 loses b leaving Wb; prisoners b; landed bw"},
		{"a liberation: the king under the taken piece commands again", "W:c3=w,d4=Wb,h8=B", "c3xe5",
			"moving w; d4 leg 1 loses b leaving W; prisoners b; landed bw"},
		{"a chain: each prisoner goes under the earlier ones", "W:c1=w,c2=b,c4=B,h8=B", "c1xc3xc5",
			"moving w; c2 leg 1 loses b leaving -; c4 leg 2 loses B leaving -; prisoners Bb; landed Bbw"},
		{"a king jumps one stack twice and lands on its own start cell", "W:d3=W,d4=wbB,h8=B", "d3xd5xd3",
			"moving W; d4 leg 1 loses bB leaving w; prisoners bB; landed bBW"},
		{"only the commander is promoted", "W:d7=wbw,a1=B", "d7-d8",
			"moving wbw; promoted d8; landed wbW"},
		{"a capture ending on the last rank promotes", "W:d6=w,d7=b,a1=B", "d6xd8",
			"moving w; d7 leg 1 loses b leaving -; prisoners b; promoted d8; landed bW"},
		{"a step sandwiches whole stacks, prisoners included", "W:f3=w,b4=w,c4=wb,d4=B,h8=B", "f3-e4",
			"moving w; c4 leg 0 loses wb leaving -; d4 leg 0 loses B leaving -; landed w"},
		{"a capture sandwiches from where it ends", "W:c3=w,d4=b,f5=b,g5=w,h1=B", "c3xe5",
			"moving w; d4 leg 1 loses b leaving -; f5 leg 0 loses b leaving -; prisoners b; landed bw"},
		{"elimination after promotion, closed by a friend in the corner", "W:c7=w,b8=b,a8=W,e1=B", "c7-c8",
			"moving w; b8 leg 0 loses b leaving -; promoted c8; landed W"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gametest.CheckEffectsText(t, newGame(t), tc.fen, tc.move, tc.want)
		})
	}
}

// TestCountPieces counts prisoners for their own colour, kings wherever
// they stand, and whole stacks for their commander.
func TestCountPieces(t *testing.T) {
	s := gametest.MustParse(t, newGame(t), "W:c3=w,d4=Wbb,e5=bbW,h8=B")
	got, err := game.CountPieces(s)
	if err != nil {
		t.Fatal(err)
	}
	want := [game.MaxPlayers]game.Counts{
		{Pieces: 3, Kings: 2, Stacks: 2, Commanded: 4},
		{Pieces: 5, Kings: 1, Stacks: 2, Commanded: 4},
	}
	if got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
}

// TestCustodial: Checkers 2011 says it removes pieces without a capture.
func TestCustodial(t *testing.T) {
	cu, ok := newGame(t).(game.Custodian)
	if !ok || !cu.Custodial() {
		t.Error("checkers-2011 is not a custodial game.Custodian")
	}
}
