package game

import (
	"testing"

	"github.com/arbiter-games/arbiter/board"
)

// TestBase: a Base answers for its game from what it was made with, and
// keeps its own copy of the seats.
func TestBase(t *testing.T) {
	seats := []Seat{{Name: "White", Key: "white", Letter: 'w'}, {Name: "Black", Key: "black", Letter: 'b'}}
	b := board.NewSquare(8, 8)
	opts := Options{kv: map[string]string{"maxplies": "600"}}
	base := NewBase("test", opts, seats, b)
	seats[0].Name = "changed"
	if base.ID() != "test" || base.Options().String() != "maxplies=600" || base.Players() != 2 || base.Board() != b {
		t.Errorf("base: %q %q %d %p", base.ID(), base.Options().String(), base.Players(), base.Board())
	}
	if base.Seat(0).Name != "White" || base.PlayerName(1) != "Black" || base.Seat(1).Letter != 'b' {
		t.Errorf("seats: %+v %+v %q", base.Seat(0), base.Seat(1), base.PlayerName(1))
	}
	if got := base.PlayerName(2); got != "player 2" {
		t.Errorf("PlayerName(2) = %q", got)
	}
}
