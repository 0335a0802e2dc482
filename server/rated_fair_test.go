package server

import (
	"context"
	"strings"
	"testing"
)

// TestRatedGameNeedsAPersonAndEachAccountOnce: a rated game with no
// person's account seated, or with one account (an AI level's included)
// at two seats, is refused on every path that makes one, and leaves the
// levels' ratings as they were; a person against a level is still rated.
func TestRatedGameNeedsAPersonAndEachAccountOnce(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("ada")
	before := levelRating(t, ts, "ai-level-2", "pommel")
	clock := "1m+0s"
	for _, tt := range []struct {
		name   string
		signed bool
		game   string
		seats  []string
		want   int
		says   string
	}{
		{"anonymous, a level against itself", false, "pommel", []string{"ai:level=2", "ai:level=2"}, 422, "one seat"},
		{"anonymous, two levels", false, "pommel", []string{"ai:level=2", "ai:level=3"}, 422, "a person"},
		{"signed in, two levels", true, "pommel", []string{"ai:level=2", "ai:level=3"}, 422, "a person"},
		{"signed in, a level at two seats of three", true, "punt-heks-match-3p", []string{"human", "ai:level=2", "ai:level=2"}, 422, "one seat"},
		{"signed in, an open seat", true, "pommel", []string{"human", "open"}, 422, "no account"},
		{"signed in, against a level", true, "pommel", []string{"human", "ai:level=2"}, 201, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := map[string]any{"game": tt.game, "seats": tt.seats, "rated": true, "clock": clock}
			var code int
			var body []byte
			if tt.signed {
				code, body = ada.call("POST", "/api/games", req)
			} else {
				code, body = ts.do("POST", "/api/games", "", req)
			}
			if code != tt.want || !strings.Contains(string(body), tt.says) {
				t.Fatalf("POST /api/games %v rated: %d %s; want %d saying %q", tt.seats, code, body, tt.want, tt.says)
			}
		})
	}
	if after := levelRating(t, ts, "ai-level-2", "pommel"); after != before {
		t.Errorf("ai-level-2's pommel rating went from %v to %v", before, after)
	}
}

// TestRatedSeekTakenByItsOwnSeeker: the seeker cannot take their own
// rated seek, so no rated game seats one account twice by the lobby.
func TestRatedSeekTakenByItsOwnSeeker(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("ada")
	var seek struct{ ID string }
	ada.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "rated": true, "clock": map[string]int{"days": 3}}, &seek)
	if code, body := ada.call("POST", "/api/seeks/"+seek.ID+"/accept", nil); code < 400 || code > 499 {
		t.Fatalf("ada takes her own rated seek: %d %s; want a refusal", code, body)
	}
}

// levelRating is an account's rating in a game as the store holds it.
func levelRating(t *testing.T, ts *testServer, account, game string) float64 {
	t.Helper()
	list, err := ts.store.Ratings(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if r.Game == game {
			return r.Rating
		}
	}
	t.Fatalf("%s has no %s rating", account, game)
	return 0
}
