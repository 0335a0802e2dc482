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
// the first socket that authenticates with its token marks it arrived,
// and every watcher is told at once, a new version, before any move.
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
	friend, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, friend) // the game as it is
	send(t, friend, map[string]any{"type": "auth", "token": g.Seats[1].Token})
	ev, _ := next(t, watcher)
	if ev.Type != "game" || ev.Version != 2 || ev.Game == nil || !ev.Game.Seats[1].Arrived || ev.Game.Seats[0].Arrived {
		t.Fatalf("after Black's page authenticated the watcher got %+v", ev)
	}
	// A second auth changes nothing.
	send(t, friend, map[string]any{"type": "auth", "token": g.Seats[1].Token})
	if v := ts.game(g.ID); v.Version != 2 || !v.Seats[1].Arrived {
		t.Errorf("after a second auth: version %d, seat %+v", v.Version, v.Seats[1])
	}
}
