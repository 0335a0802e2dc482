package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/store"
)

func TestAIGamePlaysToItsEnd(t *testing.T) {
	ts := newTestServer(t, siteConfig{AIGamePace: time.Millisecond})
	g := ts.create(map[string]any{"game": "pommel", "options": map[string]string{"maxplies": "30"},
		"seats": []string{"ai:level=1", "ai:level=1"}})
	var v hall.View
	waitFor(t, 60*time.Second, "end of the AI game", func() bool {
		v = ts.game(g.ID)
		return v.Result != nil
	})
	if v.Ply == 0 || v.Ply > 30 || len(v.Legal) != 0 {
		t.Errorf("ended at ply %d with %d legal moves", v.Ply, len(v.Legal))
	}
	_, body := ts.do("GET", "/api/games/"+g.ID+"/record", "", nil)
	recs, err := record.Read(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recs[0].Replay(0); err != nil || recs[0].Get("Result") == "*" {
		t.Errorf("record %s: %v", body, err)
	}
}

func TestAIAnswersAPersonsMove(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "ai:level=2"}})
	v := ts.game(g.ID)
	if code, ec := ts.move(g.ID, g.Seats[0].Token, v.Legal[0], 0); code != 200 {
		t.Fatalf("move: %d %s", code, ec)
	}
	waitFor(t, 30*time.Second, "the AI's reply", func() bool { return ts.game(g.ID).Ply == 2 })
	if code, ec := ts.move(g.ID, g.Seats[0].Token, "a1-a2", 1); code != 409 || ec != codeWrongPly {
		t.Errorf("a move for the AI's ply: %d %s", code, ec)
	}
}

// TestPendingAITurnsResumeAtStart stores a game whose AI is to move, as a
// server that stopped would leave it, and starts a server on the store.
func TestPendingAITurnsResumeAtStart(t *testing.T) {
	st := openTestStore(t)
	now := time.Now()
	h := store.Header{ID: "resumeme", Game: "pommel", Options: map[string]string{}, Version: 1, DrawOffer: -1,
		Seats: []store.Seat{{Player: "ai:level=1"}, {Player: "human", TokenHash: hashToken("x")}}, Created: now, Updated: now}
	if err := st.Create(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, siteConfig{Store: st})
	waitFor(t, 30*time.Second, "the resumed AI move", func() bool { return ts.game("resumeme").Ply == 1 })
}

func TestResignation(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	path := "/api/games/" + g.ID + "/resign"
	if code, body := ts.do("POST", path, "", nil); code != 401 {
		t.Errorf("resign without a token: %d %s", code, body)
	}
	if code, body := ts.do("POST", path, "nope", nil); code != 403 {
		t.Errorf("resign with a wrong token: %d %s", code, body)
	}
	code, body := ts.do("POST", path, g.Seats[1].Token, nil)
	if code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}
	v := ts.game(g.ID)
	if v.Result == nil || len(v.Result.Winners) != 1 || v.Result.Winners[0] != 0 || v.Result.Reason != "resignation" {
		t.Errorf("result %+v", v.Result)
	}
	if code, ec := ts.move(g.ID, g.Seats[0].Token, "a1-a2", 0); code != 409 || ec != codeGameOver {
		t.Errorf("move after the end: %d %s", code, ec)
	}
	if code, _ := ts.do("POST", path, g.Seats[0].Token, nil); code != 409 {
		t.Errorf("resigning an ended game: %d", code)
	}
	if after := ts.game(g.ID); after.Version != v.Version {
		t.Errorf("refusals after the end changed the version %d to %d", v.Version, after.Version)
	}
}

func TestDrawOffers(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	draw := func(g hall.Created, seat int, action string) (int, string) {
		code, body := ts.do("POST", "/api/games/"+g.ID+"/draw", g.Seats[seat].Token, map[string]string{"action": action})
		return code, errorCode(body)
	}
	g := ts.twoHumans()
	if code, ec := draw(g, 0, "accept"); code != 409 || ec != codeConflict {
		t.Errorf("accept with no offer: %d %s", code, ec)
	}
	if code, ec := draw(g, 0, "maybe"); code != 422 {
		t.Errorf("unknown action: %d %s", code, ec)
	}
	if code, _ := draw(g, 0, "offer"); code != 200 || ts.game(g.ID).DrawOffer != 0 {
		t.Fatalf("offer: %d, offer on the table %d", code, ts.game(g.ID).DrawOffer)
	}
	if code, ec := draw(g, 0, "accept"); code != 409 {
		t.Errorf("accepting one's own offer: %d %s", code, ec)
	}
	if code, _ := draw(g, 1, "decline"); code != 200 || ts.game(g.ID).DrawOffer != -1 {
		t.Errorf("decline: %d", code)
	}
	draw(g, 1, "offer")
	if code, _ := draw(g, 0, "accept"); code != 200 {
		t.Fatalf("accept: %d", code)
	}
	if v := ts.game(g.ID); v.Result == nil || len(v.Result.Winners) != 0 || v.Result.Reason != "agreement" {
		t.Errorf("after acceptance: %+v", v.Result)
	}
	three := ts.create(map[string]any{"game": "punt-heks-match-3p", "seats": []string{"human", "human", "human"}})
	if code, ec := draw(three, 0, "offer"); code != 422 {
		t.Errorf("a draw offer in a game of three: %d %s", code, ec)
	}
	// A move declines the offer on the table.
	g = ts.twoHumans()
	draw(g, 1, "offer")
	ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0)
	if v := ts.game(g.ID); v.DrawOffer != -1 {
		t.Errorf("after the other seat's move the offer is %d", v.DrawOffer)
	}
}

func TestJoinAnOpenSeatFromTheLobby(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "open"}, "names": []string{"Ann"}})
	if len(g.Seats) != 1 {
		t.Fatalf("invites %+v: want one, for the human seat", g.Seats)
	}
	var lobby map[string][]hall.LobbyGame
	_, body := ts.do("GET", "/api/games", "", nil)
	if err := json.Unmarshal(body, &lobby); err != nil || len(lobby["open"]) != 1 || lobby["open"][0].ID != g.ID || len(lobby["live"]) != 1 {
		t.Fatalf("lobby %s", body)
	}
	for _, c := range []struct {
		body   string
		status int
	}{{`{"seat":0}`, 409}, {`{"seat":7}`, 422}, {`{"seat":"one"}`, 400}} {
		if code, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", c.body); code != c.status {
			t.Errorf("join %s: %d %s, want %d", c.body, code, body, c.status)
		}
	}
	code, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", `{"seat":1,"name":"Bob"}`)
	var inv hall.Invite
	if code != 200 || json.Unmarshal(body, &inv) != nil || inv.Seat != 1 || inv.Token == "" {
		t.Fatalf("join: %d %s", code, body)
	}
	if code, _ := ts.do("POST", "/api/games/"+g.ID+"/join", "", `{"seat":1}`); code != 409 {
		t.Errorf("joining a taken seat: %d", code)
	}
	ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0)
	if code, ec := ts.move(g.ID, inv.Token, ts.game(g.ID).Legal[0], 1); code != 200 {
		t.Errorf("the joined seat's move: %d %s", code, ec)
	}
	v := ts.game(g.ID)
	if v.Seats[1].Open || v.Seats[1].Name != "Bob" || v.Seats[0].Name != "Ann" {
		t.Errorf("seats %+v", v.Seats)
	}
	_, body = ts.do("GET", "/api/games", "", nil)
	_ = json.Unmarshal(body, &lobby)
	if len(lobby["open"]) != 0 {
		t.Errorf("the lobby still lists the game as open: %s", body)
	}
}

func TestEffectsAndBoards(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	first := ts.game(g.ID).Legal[0]
	ts.move(g.ID, g.Seats[0].Token, first, 0)
	code, body := ts.do("GET", "/api/games/"+g.ID+"/effects?ply=0", "", nil)
	var eff struct {
		Move string
		Path []string
	}
	if code != 200 || json.Unmarshal(body, &eff) != nil || eff.Move != first || len(eff.Path) < 2 {
		t.Errorf("effects: %d %s", code, body)
	}
	for _, q := range []string{"ply=1", "ply=-1", "ply=x", ""} {
		if code, _ := ts.do("GET", "/api/games/"+g.ID+"/effects?"+q, "", nil); code != 422 {
			t.Errorf("effects?%s: %d, want 422", q, code)
		}
	}
	board := ts.srv.boardOf(t, "pommel")
	code, body = ts.do("GET", "/api/boards/"+board+"?turn=180", "", nil)
	var geo struct {
		Board string
		Turn  int
		Cells []json.RawMessage
	}
	if code != 200 || json.Unmarshal(body, &geo) != nil || geo.Board != board || geo.Turn != 180 || len(geo.Cells) == 0 {
		t.Errorf("board %s: %d %.200s", board, code, body)
	}
	if code, _ := ts.do("GET", "/api/boards/nosuch", "", nil); code != 404 {
		t.Errorf("unknown board: %d", code)
	}
	if code, _ := ts.do("GET", "/api/boards/"+board+"?turn=x", "", nil); code != 422 {
		t.Errorf("bad turn: %d", code)
	}
}

func TestClockEndsAGameOnTime(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "1s+0s"})
	v := ts.game(g.ID)
	if v.Clock == nil || v.Clock.Running || v.Clock.LeftMs[0] != 1000 {
		t.Fatalf("clock before the first move: %+v", v.Clock)
	}
	ts.move(g.ID, g.Seats[0].Token, v.Legal[0], 0)
	reply := ts.game(g.ID).Legal[0]
	waitFor(t, 5*time.Second, "the flag fall", func() bool { return ts.game(g.ID).Result != nil })
	v = ts.game(g.ID)
	if len(v.Result.Winners) != 1 || v.Result.Winners[0] != 0 || v.Result.Reason != "time forfeit" || v.Clock.LeftMs[1] != 0 {
		t.Errorf("after the flag fall: %+v %+v", v.Result, v.Clock)
	}
	if code, ec := ts.move(g.ID, g.Seats[1].Token, reply, 1); code != 409 {
		t.Errorf("a move after the flag fall: %d %s", code, ec)
	}
}

func TestCorrespondenceClock(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "days": 3})
	v := ts.game(g.ID)
	if v.Clock == nil || v.Clock.Kind != "correspondence" || v.Clock.PerMoveMs != 3*24*3600*1000 {
		t.Errorf("clock %+v", v.Clock)
	}
}

func TestMetrics(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0)
	text := ts.metricsText()
	for _, want := range []string{"arbiter_games_created_total 1", `arbiter_moves_total{by="human"} 1`,
		"arbiter_ai_queue_depth 0", "arbiter_move_latency_seconds_count 1", "arbiter_games_live 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	if code, _ := ts.do("GET", "/metrics", "", nil); code != http.StatusNotFound {
		t.Errorf("GET /metrics on the API's address: %d, want 404 (metrics are served on --metrics-addr)", code)
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, path := range []string{"/", "/api/games/none", "/healthz", "/play/x", "/api/nothing"} {
		resp, err := http.Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for _, h := range securityHeaders {
			if got := resp.Header.Get(h[0]); got != h[1] {
				t.Errorf("%s: %s %q", path, h[0], got)
			}
		}
		if csp := resp.Header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("CSP %q", csp)
		}
	}
}

func TestLimitsAnswer429(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 0.001, MoveBurst: 2, GamesPerHour: 2}})
	g := ts.twoHumans()
	ts.twoHumans()
	if code, body := ts.do("POST", "/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}}); code != 429 || errorCode(body) != codeRateLimited {
		t.Errorf("third game in the hour: %d %s", code, body)
	}
	ts.move(g.ID, g.Seats[1].Token, "x", 0)
	ts.move(g.ID, g.Seats[1].Token, "x", 0)
	if code, ec := ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0); code != 429 || ec != codeRateLimited {
		t.Errorf("third move at once: %d %s", code, ec)
	}
	if v := ts.game(g.ID); v.Ply != 0 {
		t.Errorf("a refused move was played")
	}
}
