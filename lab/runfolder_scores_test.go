package lab

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
)

// TestScoresKeptWhenTheyDecide: a game decided by its scores keeps them,
// at its natural end and at a repetition scored as it stands; a drawn
// repetition keeps none.
func TestScoresKeptWhenTheyDecide(t *testing.T) {
	g := newGame(t, "punt-heks-match-3p")
	scores := [game.MaxPlayers]int{3, 1, 0}
	for _, tt := range []struct {
		name   string
		result game.Result
		want   []int
	}{
		{"scored", game.Result{Reason: game.Scored, Winners: game.PlayerSet(0).Add(0), Scores: scores}, []int{3, 1, 0}},
		{"scored repetition", game.Result{Reason: game.Repetition, Winners: game.PlayerSet(0).Add(0), Scores: scores}, []int{3, 1, 0}},
		{"drawn repetition", game.Result{Reason: game.Repetition}, nil},
	} {
		d := fromLog(0, &match.GameLog{Game: g, Seats: []string{"a", "b", "c"}, Result: tt.result})
		if !slices.Equal(d.Scores, tt.want) {
			t.Errorf("%s: scores %v, want %v", tt.name, d.Scores, tt.want)
		}
	}
}
