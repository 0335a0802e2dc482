package gametest

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// CheckSeats checks the seats of d, a game's descriptor, and of g, a game
// built from it: every seat has a name, a key of lower-case ASCII letters
// and a lower-case ASCII letter, no two seats share a key, a letter or a
// name (game.CheckSeats); g.Seat and g.PlayerName give the descriptor's
// seats; and a key or a letter means the same seat here as in every
// registered game, so that a flag such as --white or a clock word such as
// wtime cannot be read two ways.
func CheckSeats(t T, d game.Descriptor, g game.Game) {
	t.Helper()
	if err := game.CheckSeats(d.Seats); err != nil {
		t.Errorf("%s: %v", d.ID, err)
	}
	if len(d.Seats) != g.Players() {
		t.Errorf("%s: %d seats for %d players", d.ID, len(d.Seats), g.Players())
		return
	}
	for p, want := range d.Seats {
		if got := g.Seat(game.Player(p)); got != want {
			t.Errorf("%s: Seat(%d) is %s, the descriptor says %s", d.ID, p, seatText(got), seatText(want))
		}
		if got := g.PlayerName(game.Player(p)); got != want.Name {
			t.Errorf("%s: PlayerName(%d) = %q, the seat's name is %q", d.ID, p, got, want.Name)
		}
	}
	if err := game.CheckSharedSeats(append(game.All(), d)); err != nil {
		t.Errorf("%v", err)
	}
}

// seatText writes all three parts of a seat.
func seatText(s game.Seat) string {
	return fmt.Sprintf("%s (key %q, letter %q)", s.Name, s.Key, s.Letter)
}
