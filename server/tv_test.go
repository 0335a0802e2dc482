package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// seekGame starts a game of a's seek that b accepts, with the seek's
// clock (nil: none), and answers its id.
func seekGame(t *testing.T, a, b *member, clock map[string]int) string {
	t.Helper()
	body := map[string]any{"game": "pommel"}
	if clock != nil {
		body["clock"] = clock
	}
	var seek struct{ ID string }
	a.must(201, "POST", "/api/seeks", body, &seek)
	var started struct{ Game string }
	b.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	return started.Game
}

// tvOf reads GET /api/tv from base with c.
func tvOf(t *testing.T, c *http.Client, base string) (tvAnswer, string) {
	t.Helper()
	resp, err := c.Get(base + "/api/tv")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /api/tv: %d %s", resp.StatusCode, data)
	}
	var out tvAnswer
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("GET /api/tv: %v in %s", err, data)
	}
	return out, strings.TrimSpace(string(data))
}

// TestTVAPI: GET /api/tv names the real-time game in play between
// accounts, with its players and ratings; a correspondence game and a
// game against an anonymous seat are not shown, nor is a game once it
// ended; and a second server on the same store shows the same game.
func TestTVAPI(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, WatchFresh: time.Nanosecond})
	ada, bob, cy, dee := ts.signUp("ada"), ts.signUp("bob"), ts.signUp("cy"), ts.signUp("dee")
	if _, raw := tvOf(t, ada.c, ts.http.URL); raw != `{"game":null}` {
		t.Fatalf("nothing in play: %s", raw)
	}
	live := seekGame(t, ada, bob, map[string]int{"initial": 180, "increment": 2})
	seekGame(t, cy, dee, map[string]int{"days": 3})                                                    // newer, but correspondence
	ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "3m+2s"}) // anonymous seats
	got, raw := tvOf(t, ada.c, ts.http.URL)
	g := got.Game
	if g == nil || g.ID != live || g.Game != "pommel" || len(g.Seats) != 2 || g.Tournament != nil {
		t.Fatalf("GET /api/tv = %s, want %s between ada and bob", raw, live)
	}
	names := map[string]bool{g.Seats[0].Name: true, g.Seats[1].Name: true}
	if !names["ada"] || !names["bob"] || g.Seats[0].Rating != 1500 || g.Seats[1].Rating != 1500 {
		t.Fatalf("the seats: %+v, want ada and bob at 1500", g.Seats)
	}
	if !strings.Contains(raw, `"tournament":null`) || !strings.Contains(raw, `"rating":1500`) {
		t.Fatalf("the wire: %s", raw)
	}

	// A second server on the store shows the game the first one hosts.
	second := httptest.NewServer(startOn(t, ts.store).Handler())
	t.Cleanup(second.Close)
	if got, raw := tvOf(t, http.DefaultClient, second.URL); got.Game == nil || got.Game.ID != live {
		t.Fatalf("the second server: %s, want %s", raw, live)
	}

	ada.must(200, "POST", "/api/games/"+live+"/resign", nil, nil)
	if _, raw := tvOf(t, ada.c, ts.http.URL); raw != `{"game":null}` {
		t.Fatalf("after the resignation: %s, want no game", raw)
	}
	// Its choice is a second old at most (polled slower than its reads'
	// limit).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if got, _ := tvOf(t, http.DefaultClient, second.URL); got.Game == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second server still shows the game ended 10s ago")
		}
	}
}

// TestTVPage: /tv is the watching page's shell, titled in the reader's
// language.
func TestTVPage(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for lang, title := range map[string]string{"en": "<title>Top game (arbiter)</title>", "nl": "<title>Topspel (arbiter)</title>"} {
		if _, page := getPage(t, ts, "/tv", "Accept-Language", lang); !strings.Contains(page, `data-page="tv"`) || !strings.Contains(page, title) {
			t.Errorf("GET /tv in %s: want data-page tv and %s in\n%.600s", lang, title, page)
		}
	}
}

// TestTVTournament: a running tournament's game, made by the tournament
// service, takes the top from a casual game, and /api/tv names its
// tournament.
func TestTVTournament(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, TournamentTick: 20 * time.Millisecond, WatchFresh: time.Nanosecond})
	ada, bob, cy, dee := ts.signUp("ada"), ts.signUp("bob"), ts.signUp("cy"), ts.signUp("dee")
	var made struct{ ID string }
	cy.must(201, "POST", "/api/tournaments", map[string]any{"kind": "swiss", "game": "pommel", "name": "Spring Cup",
		"clock": map[string]int{"initial": 600}, "rounds": 1}, &made)
	for _, m := range []*member{cy, dee} {
		m.must(204, "POST", "/api/tournaments/"+made.ID+"/join", nil, nil)
	}
	casual := seekGame(t, ada, bob, map[string]int{"initial": 180, "increment": 2})
	if got, raw := tvOf(t, ada.c, ts.http.URL); got.Game == nil || got.Game.ID != casual {
		t.Fatalf("before the tournament: %s, want %s", raw, casual)
	}
	cy.must(204, "POST", "/api/tournaments/"+made.ID+"/start", nil, nil)
	var got tvAnswer
	var raw string
	waitFor(t, 20*time.Second, "the tournament's game on top", func() bool {
		got, raw = tvOf(t, ada.c, ts.http.URL)
		return got.Game != nil && got.Game.ID != casual
	})
	if tr := got.Game.Tournament; tr == nil || tr.ID != made.ID || tr.Name != "Spring Cup" {
		t.Fatalf("the top game's tournament: %s, want %s, Spring Cup", raw, made.ID)
	}
	if names := got.Game.Seats[0].Name + " " + got.Game.Seats[1].Name; names != "cy dee" && names != "dee cy" {
		t.Fatalf("the tournament's game seats %q, want cy and dee", names)
	}
}
