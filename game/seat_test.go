package game_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

var (
	white = game.Seat{Name: "White", Key: "white", Letter: 'w'}
	black = game.Seat{Name: "Black", Key: "black", Letter: 'b'}
	red   = game.Seat{Name: "Red", Key: "red", Letter: 'r'}
)

func TestCheckSeats(t *testing.T) {
	tests := []struct {
		name  string
		seats []game.Seat
		want  string // "" for seats that pass
	}{
		{"white and black", []game.Seat{white, black}, ""},
		{"three seats", []game.Seat{white, black, red}, ""},
		{"one seat", []game.Seat{red}, ""},
		{"none", nil, "no seats"},
		{"no name", []game.Seat{{Key: "white", Letter: 'w'}}, `seat "white": no name`},
		{"no key", []game.Seat{{Name: "White", Letter: 'w'}}, `seat White: key "": want lower-case letters a-z`},
		{"upper-case key", []game.Seat{{Name: "White", Key: "White", Letter: 'w'}}, `key "White": want lower-case letters a-z`},
		{"digit in key", []game.Seat{{Name: "One", Key: "p1", Letter: 'o'}}, `key "p1"`},
		{"space in key", []game.Seat{{Name: "Light Blue", Key: "light blue", Letter: 'l'}}, `key "light blue"`},
		{"non-ASCII key", []game.Seat{{Name: "Weiß", Key: "weiß", Letter: 'w'}}, `key "weiß"`},
		{"upper-case letter", []game.Seat{{Name: "White", Key: "white", Letter: 'W'}}, `seat White: letter 'W': want a lower-case letter a-z`},
		{"digit letter", []game.Seat{{Name: "White", Key: "white", Letter: '1'}}, `letter '1'`},
		{"no letter", []game.Seat{{Name: "White", Key: "white"}}, `letter '\x00'`},
		{"shared key", []game.Seat{white, {Name: "Ivory", Key: "white", Letter: 'i'}}, `seats White and Ivory share the key "white"`},
		// The case: first letters alike, which a letter of each
		// seat's own keeps apart only when the letters differ.
		{"shared letter", []game.Seat{black, {Name: "Blue", Key: "blue", Letter: 'b'}}, `seats Black and Blue share the letter 'b'`},
		{"blue apart from black", []game.Seat{black, {Name: "Blue", Key: "blue", Letter: 'u'}}, ""},
		{"shared name", []game.Seat{white, {Name: "WHITE", Key: "snow", Letter: 's'}}, "seats White and WHITE share a name"},
		{"name is another's key", []game.Seat{white, {Name: "Black", Key: "dark", Letter: 'd'}, {Name: "Dark", Key: "ink", Letter: 'i'}},
			"seats Black and Dark: a name is the other's key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := game.CheckSeats(tc.seats)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestCheckSharedSeats(t *testing.T) {
	two := game.Descriptor{ID: "two", Seats: []game.Seat{white, black}}
	three := game.Descriptor{ID: "three", Seats: []game.Seat{black, white, red}}
	tests := []struct {
		name string
		ds   []game.Descriptor
		want string
	}{
		{"the same seats in another order", []game.Descriptor{two, three}, ""},
		{"a key renamed", []game.Descriptor{two, {ID: "ivory", Seats: []game.Seat{{Name: "Ivory", Key: "white", Letter: 'w'}}}},
			`two and ivory give the key "white" to different seats: White (key "white", letter 'w') and Ivory (key "white", letter 'w')`},
		{"a key with another letter", []game.Descriptor{three, {ID: "x", Seats: []game.Seat{{Name: "Red", Key: "red", Letter: 'x'}}}},
			`three and x give the key "red"`},
		{"a letter shared", []game.Descriptor{two, {ID: "blue", Seats: []game.Seat{{Name: "Blue", Key: "blue", Letter: 'b'}}}},
			`two and blue give the letter 'b' to different seats`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := game.CheckSharedSeats(tc.ds)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSeatsOfGames(t *testing.T) {
	tests := []struct {
		id   string
		want []game.Seat
	}{
		{"pommel", []game.Seat{white, black}},
		{"eximo", []game.Seat{black, white}}, // Black moves first
		{"punt-heks-match-3p", []game.Seat{white, black, red}},
	}
	for _, tc := range tests {
		g, err := game.New(tc.id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := game.Seats(g); !slices.Equal(got, tc.want) {
			t.Errorf("%s: seats %v, want %v", tc.id, got, tc.want)
		}
		var keys []string
		for _, s := range tc.want {
			keys = append(keys, s.Key)
		}
		if got := game.SeatKeys(g); !slices.Equal(got, keys) {
			t.Errorf("%s: keys %v, want %v", tc.id, got, keys)
		}
		if d, _ := game.Lookup(tc.id); !slices.Equal(d.Seats, tc.want) {
			t.Errorf("%s: the descriptor's seats %v, want %v", tc.id, d.Seats, tc.want)
		}
	}
}

func TestFindSeat(t *testing.T) {
	eximo, _ := game.New("eximo", nil)
	punt3, _ := game.New("punt-heks-match-3p", nil)
	tests := []struct {
		g    game.Game
		text string
		want game.Player
	}{
		{eximo, "black", 0},
		{eximo, "white", 1},
		{eximo, "White", 1},
		{eximo, "WHITE", 1},
		{eximo, "red", game.NoPlayer},
		{eximo, "w", game.NoPlayer}, // a letter is not a key
		{eximo, "", game.NoPlayer},
		{punt3, "red", 2},
		{punt3, "Red", 2},
		{punt3, "rED", 2},
	}
	for _, tc := range tests {
		p, ok := game.FindSeat(tc.g, tc.text)
		if p != tc.want || ok != (tc.want != game.NoPlayer) {
			t.Errorf("%s: FindSeat(%q) = %d, %v; want %d", tc.g.ID(), tc.text, p, ok, tc.want)
		}
	}
}

func TestAllSeats(t *testing.T) {
	// checkers-2011 comes first by id (White, Black); Red is only in
	// punt-heks-match-3p.
	if got, want := game.AllSeats(), []game.Seat{white, black, red}; !slices.Equal(got, want) {
		t.Errorf("AllSeats() = %v, want %v", got, want)
	}
	if err := game.CheckSharedSeats(game.All()); err != nil {
		t.Error(err)
	}
}

func TestLookupSeatsAreCopies(t *testing.T) {
	d, _ := game.Lookup("pommel")
	d.Seats[0].Name = "Changed"
	game.All()[0].Seats[0].Key = "changed"
	if again, _ := game.Lookup("pommel"); again.Seats[0] != white {
		t.Errorf("changing a looked-up descriptor's seats changed the registry: %v", again.Seats[0])
	}
	if first := game.All()[0]; first.Seats[0] != white {
		t.Errorf("changing All's seats changed the registry: %v", first.Seats[0])
	}
}

func TestRegisterRefusesSeatsMissing(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "incomplete descriptor") {
			t.Errorf("Register with one seat for two players: panic %v, want an incomplete descriptor", r)
		}
	}()
	game.Register(game.Descriptor{ID: "seatless", Name: "Seatless", Players: 2, Seats: []game.Seat{white},
		New: func(game.Options) (game.Game, error) { return nil, nil }})
}

func TestRegisterRefusesANameless(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "incomplete descriptor") {
			t.Errorf("Register with no name: panic %v, want an incomplete descriptor", r)
		}
	}()
	game.Register(game.Descriptor{ID: "nameless", Players: 1, Seats: []game.Seat{white},
		New: func(game.Options) (game.Game, error) { return nil, nil }})
}
