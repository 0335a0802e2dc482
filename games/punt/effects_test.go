package punt_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// TestMoveEffects pins game.MoveEffects on the positions of the rules
// page: a pile lands on top of whatever stands there and nothing is ever
// taken; the scores change when a pile reaches its controller's end-row
// or is taken over there.
func TestMoveEffects(t *testing.T) {
	tests := []struct {
		name, id, fen, move, want string
	}{
		{"a pawn moves to an empty cell", "punt-match", "W:d3=w,d5=b", "d3-d4",
			"moving w; landed w; scores 0 0 change +0 +0"},
		{"a pawn lands on an enemy pawn: nothing is taken", "punt-match", "W:d3=w,d5=b", "d3-d5",
			"moving w; landed bw; scores 0 0 change +0 +0"},
		{"a pile of three lands on a pile of two, on top, in order", "punt-heks-match-3p", "B:c3=wrb,c4=rw,i5=r", "c3-c4",
			"moving wrb; landed rwwrb; scores 0 0 0 change +0 +0 +0"},
		{"a pile of two reaches the end-row and scores two", "punt-match", "W:d5=ww,a1=b", "d5-d7",
			"moving ww; landed ww; scores 2 1 change +2 +0"},
		{"a pawn reaches the end-row, ending the game (rules page, example 8)", "punt-heks-match", "W:a1=wb,h1=w,i3=bw", "h1-i1",
			"moving w; landed w; scores 3 2 change +1 +0"},
		{"taking over a frozen pawn takes its score (rules page, example 6)", "punt-heks-match-3p", "B:a3=w,g6=r,i2=b,i3=w", "i2-i3",
			"moving b; landed wb; scores 0 0 0 change -1 +0 +0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gametest.CheckEffectsText(t, gametest.NewGame(t, tc.id), tc.fen, tc.move, tc.want)
		})
	}
}

// TestScorer: a Punt state is a game.Scorer, and counts every pawn of a
// pile for its own colour and the whole pile for its controller.
func TestScorer(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "punt-match"), "W:c1=wb,d4=b,a7=w,b7=bw")
	sc, ok := s.(game.Scorer)
	if !ok {
		t.Fatal("a Punt state is not a game.Scorer")
	}
	if got, want := sc.Scores(), [game.MaxPlayers]int{3, 2}; got != want {
		t.Errorf("scores %v, want %v", got, want)
	}
	counts, err := game.CountPieces(s)
	if err != nil {
		t.Fatal(err)
	}
	want := [game.MaxPlayers]game.Counts{
		{Pieces: 3, Stacks: 2, Commanded: 3},
		{Pieces: 3, Stacks: 2, Commanded: 3},
	}
	if counts != want {
		t.Errorf("counts %+v, want %+v", counts, want)
	}
}
