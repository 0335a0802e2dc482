package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestCreateWithFirstAndSwap: a game created with first=black starts with
// Black to move; one with swap=on offers swap to the second player after
// the first move, the API plays it, and the game goes on with the first
// player to move and the mirrored position; the record has the swap.
func TestCreateWithFirstAndSwap(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	black := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "options": map[string]string{"first": "black"}})
	if g := ts.game(black.ID); g.ToMove != 1 || g.Options["first"] != "black" || !strings.HasPrefix(g.FEN, "B:") {
		t.Errorf("first=black: toMove %d, options %v, fen %s", g.ToMove, g.Options, g.FEN)
	}

	pie := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "options": map[string]string{"swap": "on"}})
	if code, msg := ts.move(pie.ID, pie.Seats[0].Token, "a1-a3", 0); code != http.StatusOK {
		t.Fatalf("a1-a3: %d %s", code, msg)
	}
	g := ts.game(pie.ID)
	if !slices.Contains(g.Legal, "swap") {
		t.Fatalf("after the first move the legal moves lack swap: %v", g.Legal)
	}
	if code, msg := ts.move(pie.ID, pie.Seats[0].Token, "swap", 1); code == http.StatusOK {
		t.Errorf("White played Black's swap: %d %s", code, msg)
	}
	if code, msg := ts.move(pie.ID, pie.Seats[1].Token, "swap", 1); code != http.StatusOK {
		t.Fatalf("swap: %d %s", code, msg)
	}
	g = ts.game(pie.ID)
	// White's soldier from a3 stands, turned, on g4 as Black's; White
	// has Black's untouched army, turned, and is to move.
	fields := strings.Split(g.FEN, ":")
	blacks := strings.Split(strings.TrimPrefix(fields[len(fields)-1], "B"), ",")
	if g.Ply != 2 || g.ToMove != 0 || slices.Contains(g.Legal, "swap") || !slices.Contains(blacks, "g4") || len(blacks) != 14 {
		t.Errorf("after swap: ply %d, toMove %d, fen %s, legal %v", g.Ply, g.ToMove, g.FEN, g.Legal)
	}
	if code, msg := ts.move(pie.ID, pie.Seats[0].Token, g.Legal[0], 2); code != http.StatusOK {
		t.Fatalf("the first move after swap: %d %s", code, msg)
	}
	_, body := ts.do("GET", "/api/games/"+pie.ID+"/record", "", nil)
	if !strings.Contains(string(body), "1. a1-a3 swap 2. "+g.Legal[0]) || !strings.Contains(string(body), "swap=on") {
		t.Errorf("the record lacks the swap or the option:\n%s", body)
	}
}

// TestCreateRefusesBadFirstAndSwap: a seat the game has not and swap in a
// three-player game are refused with 422 and one line naming the option.
func TestCreateRefusesBadFirstAndSwap(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	cases := []struct {
		game    string
		options map[string]string
		want    string
	}{
		{"pommel", map[string]string{"first": "red"}, "must be one of white, black"},
		{"punt-heks-match-3p", map[string]string{"swap": "on"}, "the pie rule is for two players"},
	}
	for _, c := range cases {
		seats := []string{"human", "human"}
		if c.game == "punt-heks-match-3p" {
			seats = append(seats, "human")
		}
		code, body := ts.do("POST", "/api/games", "", map[string]any{"game": c.game, "seats": seats, "options": c.options})
		if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), c.want) {
			t.Errorf("%s %v: %d %s, want 422 saying %q", c.game, c.options, code, body, c.want)
		}
	}
}
