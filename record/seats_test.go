package record_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/eximo"
	_ "github.com/arbiter-games/arbiter/games/punt"
	"github.com/arbiter-games/arbiter/record"
)

func tagNames(r *record.Record) []string {
	var names []string
	for _, t := range r.Tags {
		names = append(names, t.Name)
	}
	return names
}

// TestSeatTagsInTurnOrder: a record names each seat by its name, and its
// tags come in the game's turn order: Eximo's Black moves first, and the
// Result tag's shares are in that order too.
func TestSeatTagsInTurnOrder(t *testing.T) {
	tests := []struct {
		id   string
		want []string
	}{
		{"pommel", []string{"Date", "Game", "Options", "White", "Black", "Result"}},
		{"eximo", []string{"Date", "Game", "Options", "Black", "White", "Result"}},
		{"punt-heks-match-3p", []string{"Date", "Game", "Options", "White", "Black", "Red", "Result"}},
	}
	for _, tc := range tests {
		g, err := game.New(tc.id, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := record.New(g, "", []string{"Ann", "Bob", "Cy"}, "2026.11.21")
		if got := tagNames(r); !slices.Equal(got, tc.want) {
			t.Errorf("%s: tags %v, want %v", tc.id, got, tc.want)
		}
		if got := r.Get(g.Seat(0).Name); got != "Ann" {
			t.Errorf("%s: %s is %q, want Ann", tc.id, g.Seat(0).Name, got)
		}
	}
}

// TestSetPlacesSeatTags: a seat tag added later goes where its seat comes
// in turn order; without a known game it is an ordinary tag, kept after
// the roster.
func TestSetPlacesSeatTags(t *testing.T) {
	tests := []struct {
		name string
		set  [][2]string
		want []string
	}{
		{"eximo's seats", [][2]string{{"Game", "eximo"}, {"Result", "*"}, {"White", "Ann"}, {"Black", "Bob"}, {"Event", "club"}},
			[]string{"Event", "Game", "Black", "White", "Result"}},
		{"the third seat", [][2]string{{"Game", "punt-heks-match-3p"}, {"FEN", "x"}, {"Red", "Cy"}, {"Annotator", "Di"}, {"White", "Ann"}},
			[]string{"Game", "White", "Red", "FEN", "Annotator"}},
		{"no game", [][2]string{{"Result", "*"}, {"White", "Ann"}, {"Black", "Bob"}, {"Date", "2026.11.21"}},
			[]string{"Date", "Result", "White", "Black"}},
		{"a game with no such seat", [][2]string{{"Game", "pommel"}, {"Result", "*"}, {"Red", "Cy"}, {"White", "Ann"}},
			[]string{"Game", "White", "Result", "Red"}},
	}
	for _, tc := range tests {
		var r record.Record
		for _, kv := range tc.set {
			r.Set(kv[0], kv[1])
		}
		if got := tagNames(&r); !slices.Equal(got, tc.want) {
			t.Errorf("%s: tags %v, want %v", tc.name, got, tc.want)
		}
	}
}
