package game

import (
	"slices"
	"testing"
)

func TestPlaces(t *testing.T) {
	won := func(ps ...Player) PlayerSet {
		var s PlayerSet
		for _, p := range ps {
			s = s.Add(p)
		}
		return s
	}
	tests := []struct {
		name    string
		r       Result
		players int
		want    []int
	}{
		{"two players, the first wins", Win(0, NoPieces), 2, []int{1, 2}},
		{"two players, the second wins", Win(1, NoMoves), 2, []int{2, 1}},
		{"two players draw", DrawBy(Repetition), 2, []int{1, 1}},
		{"two players draw on equal scores", Result{Reason: Scored, Scores: [MaxPlayers]int{4, 4}}, 2, []int{1, 1}},
		{"two players, scored", Result{Reason: Scored, Winners: won(1), Scores: [MaxPlayers]int{3, 7}}, 2, []int{2, 1}},
		{"three players draw", DrawBy(PlyCap), 3, []int{1, 1, 1}},
		{"a draw agreed in a scoring game", Result{Reason: Agreement, Scores: [MaxPlayers]int{3, 1, 2}}, 3, []int{1, 1, 1}},
		{"three players, one wins unscored", Win(2, NoMoves), 3, []int{2, 2, 1}},
		{"three players, one resigns", Result{Reason: Resignation, Winners: won(0, 2)}, 3, []int{1, 3, 1}},
		{"three players scored, all apart", Result{Reason: Scored, Winners: won(0), Scores: [MaxPlayers]int{9, 2, 5}}, 3, []int{1, 3, 2}},
		{"three players scored, the others tie", Result{Reason: Scored, Winners: won(1), Scores: [MaxPlayers]int{4, 8, 4}}, 3, []int{2, 1, 2}},
		{"three players scored, two share the win", Result{Reason: Scored, Winners: won(0, 1), Scores: [MaxPlayers]int{6, 6, 1}}, 3, []int{1, 1, 3}},
		// A tie-break gave the win to one of two equal scores: the
		// winner stays above the player it tied with.
		{"three players scored, a tie broken", Result{Reason: Scored, Winners: won(2), Scores: [MaxPlayers]int{5, 1, 5}}, 3, []int{2, 3, 1}},
		{"four players scored", Result{Reason: Scored, Winners: won(3), Scores: [MaxPlayers]int{2, 7, 2, 9}}, 4, []int{3, 2, 3, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Places(tt.players); !slices.Equal(got, tt.want) {
				t.Errorf("Places(%d) of %+v = %v, want %v", tt.players, tt.r, got, tt.want)
			}
		})
	}
}
