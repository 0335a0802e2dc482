package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/arbiter-games/arbiter/hall"
)

// TestAIAnswersDrawOffer: an AI seat answers a draw offer at once, in the
// answer to the offer, by ai.AcceptsDraw's rule (the terminal's): it
// declines at the start, where nobody stands worse, and accepts when the
// offerer is far ahead.
func TestAIAnswersDrawOffer(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, tc := range []struct {
		name, fen string
		accepted  bool
	}{
		{"the start: declined", "", false},
		// White, offering, has four pieces and the captain against one.
		{"the offerer far ahead: accepted", "W:Wa1,b1,c1,e1,Kd1:Bg6", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}}
			if tc.fen != "" {
				req["fen"] = tc.fen
			}
			g := ts.create(req)
			code, body := ts.do("POST", "/api/games/"+g.ID+"/draw", g.Seats[0].Token, map[string]string{"action": "offer"})
			if code != http.StatusOK {
				t.Fatalf("offer: %d %s", code, body)
			}
			var v hall.View
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatal(err)
			}
			drawn := v.Result != nil && len(v.Result.Winners) == 0
			if drawn != tc.accepted || v.DrawOffer != -1 {
				t.Errorf("after the offer: result %+v, draw offer %d; want accepted %v and no offer on the table", v.Result, v.DrawOffer, tc.accepted)
			}
		})
	}
}

// TestSeatArrives: a person's seat no one has opened is not "arrived";
// POST .../arrive with its token (the page sends it when it opens) marks
// it arrived, and every watcher is told at once, a new version, before
// any move; a second call changes nothing.
func TestSeatArrives(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	if v := ts.game(g.ID); v.Seats[1].Arrived {
		t.Fatalf("Black's invite counts as opened before anyone opened it: %+v", v.Seats[1])
	}
	watcher, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ev, _ := next(t, watcher); ev.Type != "game" || ev.Version != 1 {
		t.Fatalf("first event %+v", ev)
	}
	for range 2 {
		if code, body := ts.do("POST", "/api/games/"+g.ID+"/arrive", g.Seats[1].Token, nil); code != http.StatusOK {
			t.Fatalf("arrive: %d %s", code, body)
		}
	}
	ev, _ := next(t, watcher)
	if ev.Type != "game" || ev.Version != 2 || ev.Game == nil || !ev.Game.Seats[1].Arrived || ev.Game.Seats[0].Arrived {
		t.Fatalf("after Black's page opened the watcher got %+v", ev)
	}
	if v := ts.game(g.ID); v.Version != 2 || !v.Seats[1].Arrived {
		t.Errorf("after a second arrive: version %d, seat %+v", v.Version, v.Seats[1])
	}
	if code, _ := ts.do("POST", "/api/games/"+g.ID+"/arrive", "not-a-token", nil); code != http.StatusForbidden {
		t.Errorf("arrive with a wrong token: %d, want 403", code)
	}
}
