package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// theLine is White's line in Pommel after a1-a3: if g6-g4 then b1-b3,
// then if g5-g3 then g2xg5.
var theLine = []string{"g6-g4", "b1-b3", "g5-g3", "g2xg5"}

// lineAnswer is the answer of POST and GET /api/games/{id}/conditional.
type lineAnswer struct {
	Moves []string `json:"moves"`
	Ply   int      `json:"ply"`
}

// byDays makes a correspondence game of two people, White's a1-a3
// played.
func (ts *testServer) byDays() (id, white, black string) {
	ts.t.Helper()
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "days": 3})
	if code, ec := ts.move(g.ID, g.Seats[0].Token, "a1-a3", 0); code != 200 {
		ts.t.Fatalf("a1-a3: %d %s", code, ec)
	}
	return g.ID, g.Seats[0].Token, g.Seats[1].Token
}

// readLine reads a seat's line, failing unless it answers 200.
func (ts *testServer) readLine(id, token string) lineAnswer {
	ts.t.Helper()
	code, body := ts.do("GET", "/api/games/"+id+"/conditional", token, nil)
	var v lineAnswer
	if code != 200 || json.Unmarshal(body, &v) != nil {
		ts.t.Fatalf("GET conditional: %d %s", code, body)
	}
	return v
}

// Conditional moves over the API: set by a seat, told to it alone,
// played as the expected move comes, dropped by another move, cleared.
func TestConditionalMoves(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	id, white, black := ts.byDays()
	code, body := ts.do("POST", "/api/games/"+id+"/conditional", white, map[string]any{"moves": theLine})
	var set lineAnswer
	if code != 200 || json.Unmarshal(body, &set) != nil || !slices.Equal(set.Moves, theLine) || set.Ply != 1 {
		t.Fatalf("set: %d %s", code, body)
	}
	if got := ts.readLine(id, white); !slices.Equal(got.Moves, theLine) || got.Ply != 1 {
		t.Errorf("White reads %+v", got)
	}
	if got := ts.readLine(id, black); len(got.Moves) != 0 {
		t.Errorf("Black reads White's line: %+v", got)
	}
	if code, _ := ts.do("GET", "/api/games/"+id+"/conditional", "", nil); code != 401 {
		t.Errorf("a spectator reading the line: %d, want 401", code)
	}
	if code, _ := ts.do("GET", "/api/games/"+id+"/conditional", "not-a-token", nil); code != 403 {
		t.Errorf("a token of no seat reading the line: %d, want 403", code)
	}
	if strings.Contains(string(mustBody(t, ts, "/api/games/"+id)), "g2xg5") {
		t.Error("the game as anyone reads it shows the line")
	}
	code, body = ts.do("POST", "/api/games/"+id+"/moves", black, map[string]any{"move": "g6-g4", "ply": 1})
	var after struct{ Moves []string }
	if code != 200 || json.Unmarshal(body, &after) != nil || !slices.Equal(after.Moves, []string{"a1-a3", "g6-g4", "b1-b3"}) {
		t.Fatalf("Black's expected move: %d %s; want the reply in the answer", code, body)
	}
	if got := ts.readLine(id, white); !slices.Equal(got.Moves, theLine[2:]) || got.Ply != 3 {
		t.Errorf("after the reply White reads %+v", got)
	}
	ts.move(id, black, "a5-a4", 3)
	if got := ts.readLine(id, white); len(got.Moves) != 0 {
		t.Errorf("after an unexpected move White reads %+v, want the line dropped", got)
	}
	if v := ts.game(id); len(v.Moves) != 4 || v.ToMove != 0 {
		t.Errorf("after an unexpected move: moves %v, %d to move; want White to move", v.Moves, v.ToMove)
	}
	// Clearing.
	id, white, _ = ts.byDays()
	ts.do("POST", "/api/games/"+id+"/conditional", white, map[string]any{"moves": theLine})
	code, body = ts.do("POST", "/api/games/"+id+"/conditional", white, map[string]any{"moves": []string{}})
	if code != 200 || !strings.Contains(string(body), `"moves":[]`) || len(ts.readLine(id, white).Moves) != 0 {
		t.Errorf("clearing: %d %s", code, body)
	}
	if code, _ := ts.do("POST", "/api/games/"+id+"/conditional", white, map[string]any{"moves": []string{}}); code != 200 {
		t.Errorf("clearing no line: %d, want 200", code)
	}
}

// The refusals of POST /api/games/{id}/conditional, each with its status,
// code and, where it says so, what it says.
func TestConditionalRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	id, white, black := ts.byDays()
	fischer := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "5m+3s"})
	ts.move(fischer.ID, fischer.Seats[0].Token, "a1-a3", 0)
	untimed := ts.twoHumans()
	ts.move(untimed.ID, untimed.Seats[0].Token, "a1-a3", 0)
	three := ts.create(map[string]any{"game": "punt-heks-match-3p", "seats": []string{"human", "human", "human"}, "days": 3})
	long := strings.Repeat("b", 150)
	tests := []struct {
		name   string
		id     string
		token  string
		body   any
		status int
		code   string
		says   string
	}{
		{"a Fischer game", fischer.ID, fischer.Seats[0].Token, map[string]any{"moves": theLine}, 409, codeConflict, "correspondence"},
		{"an untimed game", untimed.ID, untimed.Seats[0].Token, map[string]any{"moves": theLine}, 409, codeConflict, "correspondence"},
		{"a game of three", three.ID, three.Seats[1].Token, map[string]any{"moves": []string{"a", "b"}}, 409, codeConflict, "two players"},
		{"no token", id, "", map[string]any{"moves": theLine}, 401, codeUnauthorized, ""},
		{"another game's token", id, fischer.Seats[0].Token, map[string]any{"moves": theLine}, 403, codeForbidden, ""},
		{"one's own turn", id, black, map[string]any{"moves": []string{"b1-b3", "g6-g4"}}, 409, codeNotYourTurn, "play the move"},
		{"an odd line", id, white, map[string]any{"moves": theLine[:3]}, 422, codeInvalid, "3 moves"},
		{"a line over 20 moves", id, white, map[string]any{"moves": slices.Repeat(theLine, 6)}, 422, codeInvalid, "at most 20"},
		{"a move over 200 bytes", id, white, map[string]any{"moves": []string{strings.Repeat("a", 201), "b1-b3"}}, 422, codeInvalid, "at most 200"},
		{"an illegal first move", id, white, map[string]any{"moves": []string{"a3-a4", "g6-g4"}}, 422, codeIllegalMove, `move 1 "a3-a4"`},
		{"an illegal third move", id, white, map[string]any{"moves": []string{"g6-g4", "b1-b3", "g5-g2", "g2xg5"}}, 422, codeIllegalMove, `move 3 "g5-g2"`},
		{"a long illegal move", id, white, map[string]any{"moves": []string{long, "b1-b3"}}, 422, codeIllegalMove, strings.Repeat("b", 80) + "\"…"},
		{"no moves", id, white, map[string]any{}, 422, codeInvalid, "no moves"},
		{"moves null", id, white, `{"moves": null}`, 422, codeInvalid, "no moves"},
		{"moves a string", id, white, `{"moves": "g6-g4 b1-b3"}`, 400, codeBadRequest, ""},
		{"a move a number", id, white, `{"moves": ["g6-g4", 3]}`, 400, codeBadRequest, ""},
		{"not JSON", id, white, `moves: g6-g4`, 400, codeBadRequest, ""},
		{"an unknown field", id, white, `{"moves": [], "line": []}`, 400, codeBadRequest, ""},
	}
	for _, tt := range tests {
		code, body := ts.do("POST", "/api/games/"+tt.id+"/conditional", tt.token, tt.body)
		var e struct{ Error apiError }
		_ = json.Unmarshal(body, &e)
		if code != tt.status || e.Error.Code != tt.code || !strings.Contains(e.Error.Message, tt.says) {
			t.Errorf("%s: %d %s, want %d %s saying %q", tt.name, code, body, tt.status, tt.code, tt.says)
		}
		if strings.Contains(string(body), strings.Repeat("b", 81)) {
			t.Errorf("%s: the answer quotes more than 80 characters: %s", tt.name, body)
		}
	}
	if got := ts.readLine(id, white); len(got.Moves) != 0 {
		t.Errorf("after the refusals White's line is %+v", got)
	}
	// The opponent's draw offer on the table is answered first.
	ts.do("POST", "/api/games/"+id+"/draw", black, map[string]string{"action": "offer"})
	code, body := ts.do("POST", "/api/games/"+id+"/conditional", white, map[string]any{"moves": theLine})
	if code != 409 || errorCode(body) != codeConflict || !strings.Contains(string(body), "draw offer") {
		t.Errorf("a line while Black's draw offer stands: %d %s, want 409 conflict", code, body)
	}
	ts.do("POST", "/api/games/"+id+"/resign", black, nil)
	code, body = ts.do("POST", "/api/games/"+id+"/conditional", white, map[string]any{"moves": theLine})
	if code != 409 || errorCode(body) != codeGameOver {
		t.Errorf("a line once the game is over: %d %s, want 409 game_over", code, body)
	}
}

// An account's session sets its seat's line as a token does, and a
// premove set after it replaces it.
func TestConditionalBySession(t *testing.T) {
	ts := newAccountServer(t)
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	var seek struct{ ID string }
	ada.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "clock": map[string]int{"days": 3}}, &seek)
	var started struct{ Game string }
	bob.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	var g gameAnswer
	ada.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	white, black := ada, bob
	if g.Seats[0].Account != "ada" {
		white, black = bob, ada
	}
	path := "/api/games/" + started.Game
	white.must(200, "POST", path+"/moves", map[string]any{"move": "a1-a3", "ply": 0}, nil)
	var v lineAnswer
	white.must(200, "POST", path+"/conditional", map[string]any{"moves": theLine}, &v)
	if !slices.Equal(v.Moves, theLine) {
		t.Fatalf("set by the session: %+v", v)
	}
	black.must(200, "GET", path+"/conditional", nil, &v)
	if len(v.Moves) != 0 {
		t.Errorf("the opponent's session reads %+v", v)
	}
	white.must(200, "POST", path+"/premove", map[string]string{"move": "b1-b3"}, nil)
	white.must(200, "GET", path+"/conditional", nil, &v)
	if len(v.Moves) != 0 {
		t.Errorf("after a premove the line is %+v, want it replaced", v)
	}
}
