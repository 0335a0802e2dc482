package gametest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// recorder is a gametest.T that keeps the errors instead of failing.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// renamed is a real game whose seats say something else than its
// descriptor: the case CheckSeats exists to catch.
type renamed struct {
	game.Game
	seats []game.Seat
}

func (g renamed) Seat(p game.Player) game.Seat    { return g.seats[p] }
func (g renamed) PlayerName(p game.Player) string { return g.seats[p].Name }

func TestCheckSeats(t *testing.T) {
	pommel, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := game.Lookup("pommel")
	white, black := d.Seats[0], d.Seats[1]
	blue := game.Seat{Name: "Blue", Key: "blue", Letter: 'b'}
	ivory := game.Seat{Name: "Ivory", Key: "white", Letter: 'i'}
	tests := []struct {
		name string
		d    game.Descriptor
		g    game.Game
		want string // "" for a game that passes
	}{
		{"pommel as registered", d, pommel, ""},
		{"Blue and Black share a letter", game.Descriptor{ID: "blues", Seats: []game.Seat{blue, black}},
			renamed{pommel, []game.Seat{blue, black}}, "blues: seats Blue and Black share the letter 'b'"},
		{"the game disagrees with its descriptor", d, renamed{pommel, []game.Seat{black, white}},
			`pommel: Seat(0) is Black (key "black", letter 'b'), the descriptor says White (key "white", letter 'w')`},
		{"a seat too few", game.Descriptor{ID: "one", Seats: []game.Seat{white}}, pommel, "one: 1 seats for 2 players"},
		{"a key another game gives another seat", game.Descriptor{ID: "ivory", Seats: []game.Seat{ivory, black}},
			renamed{pommel, []game.Seat{ivory, black}}, `and ivory give the key "white" to different seats`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			gametest.CheckSeats(&r, tc.d, tc.g)
			got := strings.Join(r.errs, "\n")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("errors:\n%s\nwant one containing %q", got, tc.want)
			}
		})
	}
}

func TestCheckSeatsNames(t *testing.T) {
	pommel, _ := game.New("pommel", nil)
	d, _ := game.Lookup("pommel")
	var r recorder
	gametest.CheckSeats(&r, d, misnamed{pommel})
	if want := `pommel: PlayerName(1) = "Dark", the seat's name is "Black"`; len(r.errs) != 1 || r.errs[0] != want {
		t.Errorf("errors %q, want [%s]", r.errs, want)
	}
}

// misnamed names Black otherwise than its seat does.
type misnamed struct{ game.Game }

func (g misnamed) PlayerName(p game.Player) string {
	if p == 1 {
		return "Dark"
	}
	return g.Game.PlayerName(p)
}
