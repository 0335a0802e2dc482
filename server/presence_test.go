package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// nextPresence reads a socket's events until a presence event, and
// returns its seats; it fails on a socket closed or silent for 10 s.
func nextPresence(t *testing.T, conn *websocket.Conn) []int {
	t.Helper()
	for {
		_, data := next(t, conn)
		var ev presenceEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == "presence" {
			return ev.Present
		}
	}
}

// holders counts the sockets that hold seat of game.
func (p *presence) holders(game string, seat int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held[game][seat]
}

// dialPresence opens a socket on game id that listens to its presence.
func (ts *testServer) dialPresence(t *testing.T, id string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + ts.http.URL[len("http"):] + "/api/games/" + id + "/ws?presence=on"
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// TestPresence: a socket that asks (?presence=on) is told, after the
// game, the seats whose sockets hold them by an auth, and again at each
// change: a seat held turns present, and absent when the last socket
// holding it closes, not before. A seat is present once however many
// sockets hold it, and a watcher holds none.
func TestPresence(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	watcher := ts.dialPresence(t, g.ID)
	if ev, _ := next(t, watcher); ev.Type != "game" {
		t.Fatalf("the first event is %q, want the game", ev.Type)
	}
	if got := nextPresence(t, watcher); len(got) != 0 {
		t.Fatalf("no one holds a seat yet, the socket is told %v", got)
	}
	white, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	send(t, white, map[string]string{"type": "auth", "token": g.Seats[0].Token})
	if got := nextPresence(t, watcher); !slices.Equal(got, []int{0}) {
		t.Fatalf("White's socket authed: told %v, want [0]", got)
	}
	var blacks []*websocket.Conn
	for range 2 {
		c, err := ts.dial(g.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		send(t, c, map[string]string{"type": "auth", "token": g.Seats[1].Token})
		send(t, c, map[string]string{"type": "auth", "token": g.Seats[1].Token}) // twice: still one seat
		blacks = append(blacks, c)
	}
	if got := nextPresence(t, watcher); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("Black's sockets authed: told %v, want [0 1]", got)
	}
	waitFor(t, 10*time.Second, "both of Black's sockets authed", func() bool { return ts.srv.presence.holders(g.ID, 1) == 2 })
	// Black's first socket closes: Black holds on by the second. Then
	// White moves: the watcher's next event is that move, no presence.
	blacks[0].Close(websocket.StatusNormalClosure, "")
	waitFor(t, 10*time.Second, "Black's first socket gone", func() bool { return ts.srv.presence.holders(g.ID, 1) == 1 })
	if code, msg := ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	if ev, data := next(t, watcher); ev.Type != "game" || ev.Game.Ply != 1 {
		t.Fatalf("after one of Black's two sockets closed, the watcher is told %s, want the move", data)
	}
	blacks[1].Close(websocket.StatusNormalClosure, "")
	if got := nextPresence(t, watcher); !slices.Equal(got, []int{0}) {
		t.Fatalf("Black's last socket closed: told %v, want [0]", got)
	}
	white.Close(websocket.StatusNormalClosure, "")
	if got := nextPresence(t, watcher); len(got) != 0 {
		t.Fatalf("every player gone: told %v, want []", got)
	}
}

// TestPresenceOnlyWhenAsked: a socket opened without ?presence=on sees
// the game's events and its replies alone, as before presence: a seat
// turning present between two moves tells it nothing.
func TestPresenceOnlyWhenAsked(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	plain, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ev, _ := next(t, plain); ev.Type != "game" {
		t.Fatalf("the first event is %q", ev.Type)
	}
	send(t, plain, map[string]string{"type": "auth", "token": g.Seats[0].Token})
	if ev, data := next(t, plain); ev.Type != "auth" {
		t.Fatalf("the auth answered %s", data)
	}
	listener := ts.dialPresence(t, g.ID)
	other, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	send(t, other, map[string]string{"type": "auth", "token": g.Seats[1].Token})
	for got := nextPresence(t, listener); !slices.Equal(got, []int{0, 1}); got = nextPresence(t, listener) {
	}
	if code, msg := ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	if ev, data := next(t, plain); ev.Type != "game" || ev.Game.Ply != 1 {
		t.Fatalf("the plain socket is told %s, want the move", data)
	}
}
