package lab

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestFirstPlayerIsTheSeatThatMovedFirst: the first player's score is
// that of the seat the games began with, by the option first or by the
// FEN the run starts from, not the first seat of the rules.
func TestFirstPlayerIsTheSeatThatMovedFirst(t *testing.T) {
	self := []string{"ab", "ab"}
	// Two Black wins and a White win: Black scores 2/3, White 1/3.
	games := []GameStats{
		gameOf(0, "a1-a2", self, 1), gameOf(1, "a1-a3", self, 1), gameOf(2, "a1-a4", self, 0),
	}
	blackFirst := newGameWith(t, "pommel", "first", "black")
	tests := []struct {
		name  string
		g     game.Game
		from  string
		seat  string
		score Rate
	}{
		{"default", newGame(t, "pommel"), "", "White", shareRate(1, 3, 1)},
		{"first=black", blackFirst, "", "Black", shareRate(2, 3, 2)},
		{"from a FEN with Black to move", newGame(t, "pommel"), "B:Wa1:Bg6", "Black", shareRate(2, 3, 2)},
		{"first=black from a FEN with White to move", blackFirst, "W:Wa1:Bg6", "White", shareRate(1, 3, 1)},
	}
	for _, tt := range tests {
		s := summarize(tt.g, Manifest{Game: "pommel", From: tt.from}, games, nil)
		if s.FirstPlayer.Seat != tt.seat || s.FirstPlayer.Score != tt.score {
			t.Errorf("%s: first player %s scores %+v, want %s scoring %+v", tt.name, s.FirstPlayer.Seat, s.FirstPlayer.Score, tt.seat, tt.score)
		}
	}
}
