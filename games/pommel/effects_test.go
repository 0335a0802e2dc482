package pommel_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// TestMoveEffects pins game.MoveEffects on the positions of the rule
// tests: a leap takes a whole line in one leg, a chain one piece a leg, a
// soldier ending on its last cell is promoted to captain, and a captain
// may end its chain on a cell it emptied earlier in it.
func TestMoveEffects(t *testing.T) {
	tests := []struct {
		name, id, fen, move, want string
	}{
		{"a hop over friendly pieces takes nothing and promotes on the last cell", "pommel",
			"W:Wd5,d6:Ba5", "d5-d7", "moving w; promoted d7; landed W"},
		{"a jump takes one piece", "pommel", "W:Wd3,a1:Bd4,g6", "d3xd5",
			"moving w; d4 leg 1 loses b leaving -; landed w"},
		{"a leap takes a line of three in one leg", "pommel", "W:Wd1:Bd2,d3,d4", "d1xd5",
			"moving w; d2 leg 1 loses b leaving -; d3 leg 1 loses b leaving -; d4 leg 1 loses b leaving -; landed w"},
		{"a leap onto the last cell promotes", "pommel", "W:Wd4:Bd5,d6,a6", "d4xd7",
			"moving w; d5 leg 1 loses b leaving -; d6 leg 1 loses b leaving -; promoted d7; landed W"},
		{"a chain takes a piece a leg", "pommel", "W:Wd1:Bd2,e3,f5,a6", "d1xd3xf4xf6",
			"moving w; d2 leg 1 loses b leaving -; e3 leg 2 loses b leaving -; f5 leg 3 loses b leaving -; landed w"},
		{"a captain leaps a line after a run of empty cells", "pommel", "W:WKd1:Bd4,d5,e6", "d1xd6",
			"moving W; d4 leg 1 loses b leaving -; d5 leg 1 loses b leaving -; landed W"},
		{"a black chain crossing its start cell promotes on the bottom cell", "pommel",
			"B:Wd4,c4,c3,d2,a1:Bd3", "d3xd5xb4xd3xd1",
			"moving b; d4 leg 1 loses w leaving -; c4 leg 2 loses w leaving -; c3 leg 3 loses w leaving -; " +
				"d2 leg 4 loses w leaving -; promoted d1; landed B"},
		{"a captain ends its chain on a cell it emptied in its first leg", "pommel",
			"B:Wb1,b2,d1,e2,e3,f4,g2:BKa1,a6,b5,b6,b7,Kd5,d6,d7,e5,f6,f7,g6", "d5xg3xg1xd3xf4",
			"moving B; f4 leg 1 loses w leaving B; g2 leg 2 loses w leaving -; e2 leg 3 loses w leaving -; " +
				"e3 leg 4 loses w leaving -; landed B"},
		{"pommel-76 soldiers promote on the ninth cell", "pommel-76", "W:Wb8:Ba8", "b8-b9",
			"moving w; promoted b9; landed W"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gametest.CheckEffectsText(t, gametest.NewGame(t, tc.id), tc.fen, tc.move, tc.want)
		})
	}
}

// TestCountPieces counts soldiers and captains for their owner.
func TestCountPieces(t *testing.T) {
	got, err := game.CountPieces(gametest.MustParse(t, gametest.NewGame(t, "pommel"), "W:Wa2,Kd7,e2:BKd1,b5"))
	if err != nil {
		t.Fatal(err)
	}
	want := [game.MaxPlayers]game.Counts{
		{Pieces: 3, Kings: 1, Stacks: 3, Commanded: 3},
		{Pieces: 2, Kings: 1, Stacks: 2, Commanded: 2},
	}
	if got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
}
