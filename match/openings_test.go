package match

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// TestParseOpeningsRefuses: every bad book is refused with one line that
// names the line at fault.
func TestParseOpeningsRefuses(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, book, want string
	}{
		{"illegal move", "a1-a3\na1-a3 a1-a3\n", `line 2: move 2 "a1-a3" is illegal`},
		{"not a move", "# book\n\nzz9\n", `line 3: move 1 "zz9" is illegal`},
		{"bad FEN", "W:Wz9", "line 1: "},
		{"finished position", "a1-a3\nW:W:Bc4\n", `line 2: the game is over after "W:W:Bc4"`},
		{"empty book", "# only a comment\n\n", "no opening"},
		{"long line", strings.Repeat("a1-a3 ", MaxBookLine), "line 1: 24576 characters, want at most 4096"},
		{"too many", strings.Repeat("a1-a3\n", MaxOpenings+1), fmt.Sprintf("line %d: more than %d openings", MaxOpenings+1, MaxOpenings)},
		{"too big", strings.Repeat("#\n", MaxBookBytes), "want at most 1048576"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseOpenings(g.Start(), tt.book)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseOpenings: %v, want one line saying %q", err, tt.want)
			}
		})
	}
}

// TestParseOpeningsNormalises: comments and spacing do not matter, ':'
// is read as 'x', and the same book spelt otherwise has the same hash.
func TestParseOpeningsNormalises(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseOpenings(g.Start(), "# a book\n a1-a3   a5-a4 # eval +3\n\nW:Wa1:Bb2,a2\n")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseOpenings(g.Start(), "a1-a3 a5-a4\nW:Wa1:Ba2,b2")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 2 || a[0].Text() != "a1-a3 a5-a4" || a[1].FEN == "" || len(a[1].Moves) != 0 {
		t.Errorf("book %+v, want a move line and a FEN line", a)
	}
	if BookHash(a) != BookHash(b) {
		t.Errorf("the same book spelt otherwise: hashes %s and %s", BookHash(a), BookHash(b))
	}
	if c, _ := ParseOpenings(g.Start(), "a1-a3 a5-a4"); BookHash(c) == BookHash(a) {
		t.Error("a shorter book has the same hash")
	}
}

// TestOpeningsCycle: group g starts from line g mod the book's length, its
// games with the seats rotated; a FEN line is the game's From.
func TestOpeningsCycle(t *testing.T) {
	g, err := game.New("pommel", map[string]string{"maxplies": "6"})
	if err != nil {
		t.Fatal(err)
	}
	book, err := ParseOpenings(g.Start(), "a1-a3\nW:Wa1:Bb2,a2\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{player("a", "random"), player("b", "random")}, Games: 6,
		Limits: ai.Limits{Depth: 1}, Openings: book}
	tests := []struct {
		from, first string
		seatOfA     game.Player
	}{{"", "a1-a3", 0}, {"", "a1-a3", 1}, {book[1].FEN, "", 0}, {book[1].FEN, "", 1}, {"", "a1-a3", 0}, {"", "a1-a3", 1}}
	for i, tt := range tests {
		l, err := Play(context.Background(), cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		first := ""
		if len(l.Opening) > 0 {
			first = l.Opening[0]
		}
		if l.From != tt.from || first != tt.first || l.Players[0] != tt.seatOfA {
			t.Errorf("game %d: from %q opening %v, a in seat %d; want from %q, %q first, seat %d", i, l.From, l.Opening,
				l.Players[0], tt.from, tt.first, tt.seatOfA)
		}
	}
}

// TestBadBookLineRefused: a book built by hand with a line that gives no
// game is refused by Run before any game, and by Play for the games that
// start from that line alone.
func TestBadBookLineRefused(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		bad  Opening
		want string
	}{
		{"illegal moves", Opening{Moves: []string{"a1-a3", "a1-a3"}}, `opening 2 ("a1-a3 a1-a3"): move 2 "a1-a3" is illegal`},
		{"finished position", Opening{FEN: "W:W:Bc4"}, `opening 2 ("W:W:Bc4"): the game is over after it`},
		{"bad FEN", Opening{FEN: "W:Wz9"}, `opening 2 ("W:Wz9"): `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Game: g, Players: []Player{player("a", "random"), player("b", "random")}, Games: 4,
				Limits: ai.Limits{Depth: 1}, Openings: []Opening{{Moves: []string{"a1-a3"}}, tt.bad}}
			if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: %v, want %q", err, tt.want)
			}
			if _, err := Play(context.Background(), cfg, 0); err != nil {
				t.Errorf("game 1 starts from the good line: %v", err)
			}
			if _, err := Play(context.Background(), cfg, 2); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Play game 3: %v, want %q", err, tt.want)
			}
		})
	}
}

// TestBookThenRandomPlies: random plies given with a book follow its
// line, the same for every game of a group.
func TestBookThenRandomPlies(t *testing.T) {
	g, err := game.New("pommel", map[string]string{"maxplies": "6"})
	if err != nil {
		t.Fatal(err)
	}
	book, err := ParseOpenings(g.Start(), "a1-a3\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{player("a", "random"), player("b", "random")}, Games: 2,
		Limits: ai.Limits{Depth: 1}, Openings: book, OpeningPlies: 2, Seed: 4}
	var openings [][]string
	for i := range 2 {
		l, err := Play(context.Background(), cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		openings = append(openings, l.Opening)
	}
	if len(openings[0]) != 3 || openings[0][0] != "a1-a3" || strings.Join(openings[0], " ") != strings.Join(openings[1], " ") {
		t.Errorf("openings %q, want a1-a3 and the same two random plies in both games", openings)
	}
}
