package hall

import (
	"slices"
	"testing"
)

// heksPieces are the pieces of the three-player game's start.
const heksPieces = "a1=w,a2=w,a3=w,a4=w,a5=w,b1=w,b2=w,b3=w,b4=w,b5=w,b6=w,d1=b,d8=r,e1=b,e2=b,e8=r,e9=r," +
	"f1=b,f2=b,f7=r,f8=r,g1=b,g2=b,g6=r,g7=r,h1=b,h2=b,h5=r,h6=r,i1=b,i2=b,i4=r,i5=r"

// TestViewMovers: a game's view says which seat made each move, for games
// set up with any seat to move, as the moves are played and when the game
// is read again from the store.
func TestViewMovers(t *testing.T) {
	h := newTestHall(t, Config{})
	tests := []struct {
		name string
		req  NewGame
		want []int // after one move of each seat, in turn
	}{
		{"from the start", humans("pommel"), []int{0, 1}},
		{"Black to move", NewGame{Game: "pommel", Seats: []string{"human", "human"},
			FEN: "B:Wa2,a3,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"}, []int{1, 0}},
		{"three, Black to move", NewGame{Game: "punt-heks-match-3p", Seats: []string{"human", "human", "human"},
			FEN: "B:" + heksPieces}, []int{1, 2, 0}},
		{"three, Red to move", NewGame{Game: "punt-heks-match-3p", Seats: []string{"human", "human", "human"},
			FEN: "R:" + heksPieces}, []int{2, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := create(t, h, tc.req)
			if c.Game.Movers == nil || len(c.Game.Movers) != 0 {
				t.Errorf("a new game's movers are %#v, want none", c.Game.Movers)
			}
			for _, seat := range tc.want {
				playFirst(t, h, c, seat)
			}
			if got := get(t, h, c.ID).Movers; !slices.Equal(got, tc.want) {
				t.Errorf("movers %v, want %v", got, tc.want)
			}
			e := h.lock(c.ID)
			h.forget(e) // the next request reads the game from the store
			e.mu.Unlock()
			if got := get(t, h, c.ID).Movers; !slices.Equal(got, tc.want) {
				t.Errorf("read again from the store, movers %v, want %v", got, tc.want)
			}
		})
	}
}

// TestViewMoversEmpty: a game with no moves has an empty list of movers,
// not nil, so that the wire shows [] and a client may take its length.
func TestViewMoversEmpty(t *testing.T) {
	h := newTestHall(t, Config{})
	c := create(t, h, humans("pommel"))
	if v := get(t, h, c.ID); v.Movers == nil || len(v.Movers) != 0 {
		t.Errorf("a new game's movers: %#v, want an empty list", v.Movers)
	}
}
