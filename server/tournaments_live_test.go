package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/store/sqlite"
)

// dialTournament opens m's socket on tournament id at ts (m's cookie
// with it, nil for a visitor's).
func dialTournament(t *testing.T, ts *testServer, m *member, id string) (*websocket.Conn, error) {
	t.Helper()
	header := http.Header{}
	if m != nil {
		for _, c := range m.c.Jar.Cookies(mustParse(ts.http.URL)) {
			header.Add("Cookie", c.String())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/api/tournaments/"+id+"/ws", &websocket.DialOptions{HTTPHeader: header})
	if err == nil {
		t.Cleanup(func() { conn.CloseNow() })
	}
	return conn, err
}

// liveView is a tournament socket's message as the tests read it.
type liveView struct {
	tview
	Playing string `json:"playing"`
	You     *struct {
		Score float64 `json:"score"`
	} `json:"you"`
}

// readUntil reads the socket's views until ok holds, failing after a
// generous deadline (a busy machine is slow, never wrong).
func readUntil(t *testing.T, conn *websocket.Conn, what string, ok func(liveView) bool) liveView {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		var v liveView
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if ok(v) {
			return v
		}
	}
}

// TestTournamentSocketAcrossServers: a tournament page's socket on one
// server is sent what is done on another sharing the store (a join, the
// start, a result), and its own player's game going on; the game's view
// names its tournament.
func TestTournamentSocketAcrossServers(t *testing.T) {
	dir := t.TempDir()
	var servers [2]*testServer
	params := cheapHash
	for i := range servers {
		st, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		servers[i] = newTestServer(t, siteConfig{Store: st, PasswordHash: &params, TournamentTick: 20 * time.Millisecond})
	}
	ada, bob := servers[0].signUp("ada"), servers[1].signUp("bob")
	var made struct{ ID string }
	ada.must(201, "POST", "/api/tournaments", map[string]any{"kind": "arena", "game": "pommel",
		"clock": map[string]int{"initial": 300}, "minutes": 30}, &made)
	conn, err := dialTournament(t, servers[0], ada, made.ID)
	if err != nil {
		t.Fatal(err)
	}
	readUntil(t, conn, "the first view", func(v liveView) bool { return v.State == "created" && len(v.Standings) == 0 })
	bob.must(204, "POST", "/api/tournaments/"+made.ID+"/join", nil, nil)
	readUntil(t, conn, "bob's join, made on the other server", func(v liveView) bool { return len(v.Standings) == 1 })
	ada.must(204, "POST", "/api/tournaments/"+made.ID+"/join", nil, nil)
	ada.must(204, "POST", "/api/tournaments/"+made.ID+"/start", nil, nil)
	v := readUntil(t, conn, "ada's game", func(v liveView) bool { return v.Playing != "" })
	if v.State != "running" || len(v.Rounds) != 1 || v.Rounds[0].Games[0].ID != v.Playing {
		t.Fatalf("ada's game %q in %+v", v.Playing, v.Rounds)
	}
	var g struct {
		Tournament string `json:"tournament"`
	}
	bob.must(200, "GET", "/api/games/"+v.Playing, nil, &g)
	if g.Tournament != made.ID {
		t.Errorf("the game's view names tournament %q, want %q", g.Tournament, made.ID)
	}
	bob.must(200, "POST", "/api/games/"+v.Playing+"/resign", nil, nil)
	readUntil(t, conn, "ada's win", func(v liveView) bool { return v.You != nil && v.You.Score == 2 })
	// A game of no tournament names none.
	other := casualGame(t, ada, bob)
	var plain map[string]any
	ada.must(200, "GET", "/api/games/"+other, nil, &plain)
	if _, ok := plain["tournament"]; ok {
		t.Errorf("a casual game's view names a tournament: %v", plain["tournament"])
	}
}

// TestTournamentSocketRefusals: no such tournament is 404 before the
// handshake; the sockets count in the client's open sockets (429 beyond
// them); a visitor's socket is sent the view without a seat of its own.
func TestTournamentSocketRefusals(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, Limits: Limits{Sockets: 2}})
	ada := ts.signUp("ada")
	var made struct{ ID string }
	ada.must(201, "POST", "/api/tournaments", map[string]any{"kind": "swiss", "game": "pommel",
		"clock": map[string]int{"days": 2}, "rounds": 3}, &made)
	for _, id := range []string{"nope", strings.Repeat("x", 300)} {
		if _, err := dialTournament(t, ts, nil, id); err == nil || !strings.Contains(err.Error(), "404") {
			t.Errorf("a socket on tournament %.20q: %v, want 404", id, err)
		}
	}
	visitor, err := dialTournament(t, ts, nil, made.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v := readUntil(t, visitor, "the visitor's view", func(liveView) bool { return true }); v.You != nil || v.State != "created" {
		t.Errorf("a visitor's view: %+v", v)
	}
	if _, err := ts.dial(ts.twoHumans().ID, nil); err != nil {
		t.Fatal(err) // a game's socket: the second of two
	}
	if _, err := dialTournament(t, ts, nil, made.ID); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("a third socket of two allowed: %v, want 429", err)
	}
}
