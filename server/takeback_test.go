package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Take-backs over the API: a request the other seat accepts or declines,
// refused when the game turned them off, with the codes of the draws'.
func TestTakebacks(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	takeback := func(id, token, action string) (int, string) {
		code, body := ts.do("POST", "/api/games/"+id+"/takeback", token, map[string]string{"action": action})
		return code, errorCode(body)
	}
	g := ts.twoHumans()
	white, black := g.Seats[0].Token, g.Seats[1].Token
	if code, ec := takeback(g.ID, white, "request"); code != 409 || ec != codeConflict {
		t.Errorf("a request before any move: %d %s, want 409 conflict", code, ec)
	}
	ts.move(g.ID, white, "a1-a3", 0)
	ts.move(g.ID, black, "g6-g4", 1)
	if code, ec := takeback(g.ID, white, "undo"); code != 422 {
		t.Errorf("an unknown action: %d %s, want 422", code, ec)
	}
	if code, _ := takeback(g.ID, "", "request"); code != 401 {
		t.Errorf("a request with no token: %d, want 401", code)
	}
	if code, _ := takeback(g.ID, white, "request"); code != 200 || ts.game(g.ID).Takeback != 0 {
		t.Fatalf("request: %d, on the table %d", code, ts.game(g.ID).Takeback)
	}
	if code, _ := takeback(g.ID, black, "decline"); code != 200 || ts.game(g.ID).Takeback != -1 {
		t.Errorf("decline: %d, on the table %d", code, ts.game(g.ID).Takeback)
	}
	takeback(g.ID, white, "request")
	if code, _ := takeback(g.ID, black, "accept"); code != 200 {
		t.Fatalf("accept: %d", code)
	}
	if v := ts.game(g.ID); v.Ply != 0 || len(v.Moves) != 0 || v.Takeback != -1 {
		t.Errorf("after the take-back: ply %d, moves %v, request %d", v.Ply, v.Moves, v.Takeback)
	}
	off := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "takebacks": false})
	if v := ts.game(off.ID); v.Takebacks {
		t.Error("a game created with takebacks false shows them allowed")
	}
	ts.move(off.ID, off.Seats[0].Token, "a1-a3", 0)
	if code, ec := takeback(off.ID, off.Seats[0].Token, "request"); code != 409 || ec != codeConflict {
		t.Errorf("take-backs off: %d %s, want 409 conflict", code, ec)
	}
}

// Premoves over the API: set by a seat, told to that seat only, played
// when the turn comes, cleared with "".
func TestPremoves(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	white, black := g.Seats[0].Token, g.Seats[1].Token
	premove := func(token string) string {
		code, body := ts.do("GET", "/api/games/"+g.ID+"/premove", token, nil)
		var v struct{ Premove string }
		if code != 200 || json.Unmarshal(body, &v) != nil {
			t.Fatalf("GET premove: %d %s", code, body)
		}
		return v.Premove
	}
	set := func(token string, body any) (int, string) {
		code, resp := ts.do("POST", "/api/games/"+g.ID+"/premove", token, body)
		return code, errorCode(resp)
	}
	if code, ec := set(white, map[string]string{"move": "a1-a3"}); code != 409 || ec != codeNotYourTurn {
		t.Errorf("a premove on one's own turn: %d %s", code, ec)
	}
	ts.move(g.ID, white, "a1-a3", 0)
	if code, _ := set(white, map[string]string{}); code != 422 {
		t.Errorf("no move: %d, want 422", code)
	}
	if code, _ := set(white, map[string]string{"move": strings.Repeat("a", 300)}); code != 422 {
		t.Errorf("an over-long premove: %d, want 422", code)
	}
	if code, _ := set(white, map[string]string{"move": "b1-b3"}); code != 200 {
		t.Fatalf("set: %d", code)
	}
	if got := premove(white); got != "b1-b3" {
		t.Errorf("the seat reads %q", got)
	}
	if got := premove(black); got != "" {
		t.Errorf("the other seat reads the premove %q", got)
	}
	if code, _ := ts.do("GET", "/api/games/"+g.ID+"/premove", "", nil); code != 401 {
		t.Errorf("a spectator reading the premove: %d, want 401", code)
	}
	if strings.Contains(string(mustBody(t, ts, "/api/games/"+g.ID)), "b1-b3") {
		t.Error("the game as anyone reads it shows the premove")
	}
	ts.move(g.ID, black, "g6-g4", 1)
	if v := ts.game(g.ID); !slices.Equal(v.Moves, []string{"a1-a3", "g6-g4", "b1-b3"}) {
		t.Errorf("after Black's move: %v, want the premove played", v.Moves)
	}
	set(white, map[string]string{"move": "a3-a4"})
	if code, _ := set(white, map[string]string{"move": ""}); code != 200 || premove(white) != "" {
		t.Errorf("clearing: %d, premove %q", code, premove(white))
	}
	if code, ec := set(white, map[string]string{"move": ""}); code != 409 || ec != codeConflict {
		t.Errorf("clearing no premove: %d %s, want 409 conflict", code, ec)
	}
}

func mustBody(t *testing.T, ts *testServer, path string) []byte {
	t.Helper()
	code, body := ts.do("GET", path, "", nil)
	if code != 200 {
		t.Fatalf("GET %s: %d", path, code)
	}
	return body
}

// A seek with "takebacks": false lists it and starts its game with
// take-backs off (a request is refused 409); a seek that says nothing
// allows them.
func TestSeekTakebacks(t *testing.T) {
	ts := newAccountServer(t)
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	for _, off := range []bool{true, false} {
		body := map[string]any{"game": "pommel"}
		if off {
			body["takebacks"] = false
		}
		var seek struct{ ID string }
		ada.must(201, "POST", "/api/seeks", body, &seek)
		var list []struct {
			ID        string
			Takebacks bool
		}
		ada.must(200, "GET", "/api/seeks", nil, &list)
		if len(list) != 1 || list[0].ID != seek.ID || list[0].Takebacks == off {
			t.Errorf("take-backs off %v: the seeks list %+v", off, list)
		}
		var started struct{ Game string }
		bob.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
		var g struct {
			Takebacks bool
			ToMove    int
			Seats     []struct{ Account string }
		}
		ada.must(200, "GET", "/api/games/"+started.Game, nil, &g)
		if g.Takebacks == off {
			t.Errorf("take-backs off %v: the game shows takebacks %v", off, g.Takebacks)
		}
		first, second := ada, bob
		if g.Seats[g.ToMove].Account == "bob" {
			first, second = bob, ada
		}
		var v struct{ Legal []string }
		first.must(200, "GET", "/api/games/"+started.Game, nil, &v)
		first.must(200, "POST", "/api/games/"+started.Game+"/moves", map[string]any{"move": v.Legal[0], "ply": 0}, nil)
		code, resp := first.call("POST", "/api/games/"+started.Game+"/takeback", map[string]string{"action": "request"})
		switch {
		case off && (code != 409 || errorCode(resp) != codeConflict):
			t.Errorf("a request with take-backs off: %d %s, want 409 conflict", code, resp)
		case !off && code != 200:
			t.Errorf("a request with take-backs on: %d %s, want 200", code, resp)
		}
		second.must(200, "POST", "/api/games/"+started.Game+"/resign", nil, nil)
	}
}

// GET /api/games/{id}/premove tells the seat the ply its premove is for
// and, once the premove was dropped (no longer legal), that it was, until
// the seat moves: a page opened after the drop says so.
func TestPremoveReadAfterADrop(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	white, black := g.Seats[0].Token, g.Seats[1].Token
	read := func(token string) (v struct {
		Premove, Dropped string
		Ply              int
	}) {
		code, body := ts.do("GET", "/api/games/"+g.ID+"/premove", token, nil)
		if code != 200 || json.Unmarshal(body, &v) != nil {
			t.Fatalf("GET premove: %d %s", code, body)
		}
		return v
	}
	ts.move(g.ID, white, "a1-a3", 0)
	ts.do("POST", "/api/games/"+g.ID+"/premove", white, map[string]string{"move": "a1-a7"})
	if v := read(white); v.Premove != "a1-a7" || v.Ply != 2 || v.Dropped != "" {
		t.Errorf("the premove set: %+v, want a1-a7 for ply 2", v)
	}
	ts.move(g.ID, black, "g6-g4", 1)
	if v := read(white); v.Premove != "" || v.Dropped != "a1-a7" {
		t.Errorf("after Black's move: %+v, want a1-a7 dropped", v)
	}
	if v := read(black); v.Dropped != "" {
		t.Errorf("Black is told White's dropped premove: %+v", v)
	}
	ts.move(g.ID, white, "b1-b3", 2)
	if v := read(white); v.Dropped != "" {
		t.Errorf("after White's move: %+v, want nothing dropped", v)
	}
}
