package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/coder/websocket"
)

// dial opens a websocket on a game.
func (ts *testServer) dial(id string, header http.Header) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/api/games/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err == nil {
		ts.t.Cleanup(func() { conn.CloseNow() })
	}
	return conn, err
}

// next reads one event from a socket.
func next(t *testing.T, conn *websocket.Conn) (event, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, data, err := conn.Read(ctx)
	if err != nil {
		t.Fatalf("reading the socket: %v", err)
	}
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatal(err)
	}
	return ev, data
}

func send(t *testing.T, conn *websocket.Conn, v any) {
	t.Helper()
	data, _ := json.Marshal(v)
	if err := conn.Write(context.Background(), websocket.MessageText, data); err != nil {
		t.Fatal(err)
	}
}

func TestViewersSeeEveryMoveWithItsVersion(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	var viewers []*websocket.Conn
	for range 3 {
		conn, err := ts.dial(g.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ev, _ := next(t, conn); ev.Type != "game" || ev.Version != 1 || ev.Game.Ply != 0 {
			t.Fatalf("first event %+v", ev)
		}
		viewers = append(viewers, conn)
	}
	tokens := []string{g.Seats[0].Token, g.Seats[1].Token}
	var played []string
	var positions [][]byte // GET .../position after each move
	for ply := range 4 {
		v := ts.game(g.ID)
		played = append(played, v.Legal[0])
		if code, ec := ts.move(g.ID, tokens[v.ToMove], v.Legal[0], ply); code != 200 {
			t.Fatalf("ply %d: %d %s", ply, code, ec)
		}
		code, pos := ts.do("GET", fmt.Sprintf("/api/games/%s/position?ply=%d", g.ID, ply+1), "", nil)
		if code != 200 {
			t.Fatalf("position after ply %d: %d %s", ply, code, pos)
		}
		positions = append(positions, pos)
	}
	var wires [4][]byte // the first viewer's events, as sent
	for i, conn := range viewers {
		for ply := range 4 {
			ev, data := next(t, conn)
			if ev.Version != int64(ply+2) || ev.Game.Ply != ply+1 || ev.Effects == nil || ev.Effects.Move != played[ply] {
				t.Fatalf("viewer %d, event %d: %+v", i, ply, ev)
			}
			if got, _ := json.Marshal(ev.Position); !jsonEqual(t, got, positions[ply]) {
				t.Errorf("viewer %d, event %d: position %s, GET answers %s", i, ply, got, positions[ply])
			}
			if i == 0 {
				wires[ply] = data
			} else if !bytes.Equal(data, wires[ply]) {
				t.Errorf("viewer %d, event %d differs from the first viewer's:\n%s\n%s", i, ply, data, wires[ply])
			}
		}
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(va, vb)
}

func TestSpectatorSocketsRefuseCommands(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	conn, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, conn)
	legal := ts.game(g.ID).Legal[0]
	send(t, conn, map[string]any{"type": "move", "move": legal, "ply": 0})
	if ev, _ := next(t, conn); ev.Type != "error" || ev.Error.Code != codeForbidden {
		t.Errorf("a spectator's move: %+v", ev)
	}
	send(t, conn, map[string]any{"type": "auth", "token": "wrong"})
	if ev, _ := next(t, conn); ev.Type != "error" || ev.Error.Code != codeForbidden {
		t.Errorf("auth with a wrong token: %+v", ev)
	}
	send(t, conn, map[string]any{"type": "move", "move": legal, "ply": 0})
	next(t, conn)
	if v := ts.game(g.ID); v.Ply != 0 {
		t.Fatalf("a spectator's socket played a move")
	}
	// With a seat's token the same socket plays, and the answer is the broadcast.
	send(t, conn, map[string]any{"type": "auth", "token": g.Seats[0].Token})
	if ev, _ := next(t, conn); ev.Type != "auth" || ev.Seat == nil || *ev.Seat != 0 {
		t.Fatalf("auth: %+v", ev)
	}
	send(t, conn, map[string]any{"type": "move", "move": legal, "ply": 0})
	if ev, _ := next(t, conn); ev.Type != "game" || ev.Version != 2 {
		t.Errorf("after the socket's move: %+v", ev)
	}
}

func TestSocketOriginChecked(t *testing.T) {
	ts := newTestServer(t, siteConfig{Origins: []string{"allowed.example"}})
	g := ts.twoHumans()
	if _, err := ts.dial(g.ID, http.Header{"Origin": {"https://evil.example"}}); err == nil {
		t.Error("a foreign origin opened a socket")
	}
	if _, err := ts.dial(g.ID, http.Header{"Origin": {"https://allowed.example"}}); err != nil {
		t.Errorf("an --origin origin: %v", err)
	}
	if _, err := ts.dial("nosuch", nil); err == nil {
		t.Error("a socket on no game")
	}
}

func TestSocketsPerClientLimited(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{Sockets: 2}})
	g := ts.twoHumans()
	for range 2 {
		if _, err := ts.dial(g.ID, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ts.dial(g.ID, nil); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("third socket: %v, want 429", err)
	}
}

// TestTokenNeverLeaks reads everything anyone may read about a game and
// looks for its tokens and their hashes.
func TestTokenNeverLeaks(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "open"}})
	conn, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, first := next(t, conn)
	_, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", `{"seat":1}`)
	var joined hall.Invite
	_ = json.Unmarshal(body, &joined)
	_, afterJoin := next(t, conn)
	ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0)
	_, afterMove := next(t, conn)
	var seen []string
	for _, path := range []string{"/api/games/" + g.ID, "/api/games", "/api/games/" + g.ID + "/record", "/api/games/" + g.ID + "/effects?ply=0"} {
		_, body := ts.do("GET", path, "", nil)
		seen = append(seen, string(body))
	}
	seen = append(seen, ts.metricsText())
	seen = append(seen, string(first), string(afterJoin), string(afterMove))
	for _, token := range []string{g.Seats[0].Token, joined.Token} {
		h := hashToken(token)
		for _, secret := range []string{token, hex.EncodeToString(h), base64.StdEncoding.EncodeToString(h), base64.RawURLEncoding.EncodeToString(h)} {
			for i, text := range seen {
				if strings.Contains(text, secret) {
					t.Errorf("payload %d holds a token or its hash: %.200s", i, text)
				}
			}
		}
	}
}

func TestGracefulShutdown(t *testing.T) {
	st := openTestStore(t)
	srv, err := newSite(siteConfig{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, 5*time.Second) }()
	base := "http://" + ln.Addr().String()
	resp, err := http.Post(base+"/api/games", "application/json", strings.NewReader(`{"game":"pommel","seats":["human","ai:level=6"]}`))
	if err != nil || resp.StatusCode != 201 {
		t.Fatalf("create: %v %v", resp, err)
	}
	var g hall.Created
	_ = json.NewDecoder(resp.Body).Decode(&g)
	resp.Body.Close()
	conn, _, err := websocket.Dial(context.Background(), "ws://"+ln.Addr().String()+"/api/games/"+g.ID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	stop()
	_, _, err = conn.Read(context.Background())
	for err == nil {
		_, _, err = conn.Read(context.Background())
	}
	if websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("socket closed with %v, want going away", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("the server still answers after shutting down")
	}
	legal := g.Game.Legal[0]
	if _, err := srv.Hall().Move(context.Background(), g.ID, hall.Who{Token: g.Seats[0].Token}, legal, 0); asAPIError(err).Code != codeShutdown {
		t.Errorf("a move after the shutdown: %v", err)
	}
	if stored, _ := st.Get(context.Background(), g.ID); stored.Ply != 0 {
		t.Error("a move was stored after the shutdown")
	}
}
