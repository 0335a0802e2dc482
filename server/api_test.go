package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/record"
)

func TestCreateAnswersTokensAndLinksForHumanSeatsOnly(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	resp := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	if len(resp.Seats) != 1 || resp.Seats[0].Seat != 0 {
		t.Fatalf("seats %+v: want one invite, for seat 0", resp.Seats)
	}
	inv := resp.Seats[0]
	if len(inv.Token) != 22 {
		t.Errorf("token %q: want 128 bits in base64url (22 characters)", inv.Token)
	}
	if want := "/play/" + resp.ID + "?seat=0#token=" + inv.Token; inv.URL != want {
		t.Errorf("invite %q, want %q", inv.URL, want)
	}
	if resp.URL != "/games/"+resp.ID {
		t.Errorf("spectator url %q", resp.URL)
	}
}

func TestGetAnswersTheContractFields(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	resp := ts.create(map[string]any{"game": "checkers-2011", "options": map[string]string{"maxplies": "300"}, "seats": []string{"human", "human"}})
	code, body := ts.do("GET", "/api/games/"+resp.ID, "", nil)
	if code != http.StatusOK {
		t.Fatalf("GET: %d %s", code, body)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"id", "game", "options", "fen", "moves", "ply", "toMove", "legal", "result"} {
		if _, ok := raw[field]; !ok {
			t.Errorf("no %q in %s", field, body)
		}
	}
	v := ts.game(resp.ID)
	if v.Game != "checkers-2011" || v.Options["maxplies"] != "300" || v.Ply != 0 || v.ToMove != 0 ||
		len(v.Moves) != 0 || len(v.Legal) == 0 || v.Result != nil || string(raw["result"]) != "null" || v.Version != 1 {
		t.Errorf("new game: %s", body)
	}
}

func TestCreateRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, c := range []struct {
		name, body, code string
	}{
		{"not JSON", `{"game":`, codeBadRequest},
		{"unknown field", `{"game":"pommel","seats":["human","human"],"colour":"red"}`, codeBadRequest},
		{"wrong type", `{"game":"pommel","seats":"human"}`, codeBadRequest},
		{"two values", `{"game":"pommel","seats":["human","human"]} {}`, codeBadRequest},
		{"no game", `{"seats":["human","human"]}`, codeInvalid},
		{"unknown game", `{"game":"chess","seats":["human","human"]}`, codeInvalid},
		{"bad option", `{"game":"pommel","options":{"maxplies":"-3"},"seats":["human","human"]}`, codeInvalid},
		{"too few seats", `{"game":"pommel","seats":["human"]}`, codeInvalid},
		{"bad spec", `{"game":"pommel","seats":["human","ai:level=9"]}`, codeInvalid},
		{"bad clock", `{"game":"pommel","seats":["human","human"],"clock":"soon"}`, codeInvalid},
		{"clock and days", `{"game":"pommel","seats":["human","human"],"clock":"5m","days":3}`, codeInvalid},
		{"too many days", `{"game":"pommel","seats":["human","human"],"days":99}`, codeInvalid},
		{"long name", `{"game":"pommel","seats":["human","human"],"names":["` + strings.Repeat("a", 41) + `"]}`, codeInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := ts.do("POST", "/api/games", "", c.body)
			if got := errorCode(body); got != c.code || code != statusOf[c.code] {
				t.Errorf("%s: %d %s, want %d %s", c.body, code, body, statusOf[c.code], c.code)
			}
		})
	}
	if games, _ := ts.store.List(t.Context(), storeFilterAll); len(games) != 0 {
		t.Errorf("%d games stored by refused requests", len(games))
	}
}

func TestMoveRefusalsChangeNothing(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	g := ts.twoHumans()
	white, black := g.Seats[0].Token, g.Seats[1].Token
	other := ts.twoHumans()
	legal := ts.game(g.ID).Legal[0]
	before := ts.game(g.ID)
	path := "/api/games/" + g.ID + "/moves"
	for _, c := range []struct {
		name, path, token, body string
		status                  int
		code                    string
	}{
		{"no token", path, "", `{"move":"` + legal + `","ply":0}`, 401, codeUnauthorized},
		{"token of another game", path, other.Seats[0].Token, `{"move":"` + legal + `","ply":0}`, 403, codeForbidden},
		{"made-up token", path, "AAAAAAAAAAAAAAAAAAAAAA", `{"move":"` + legal + `","ply":0}`, 403, codeForbidden},
		{"no such game", "/api/games/nosuchgame/moves", white, `{"move":"` + legal + `","ply":0}`, 404, codeNotFound},
		{"not your turn", path, black, `{"move":"` + legal + `","ply":0}`, 409, codeNotYourTurn},
		{"future ply", path, white, `{"move":"` + legal + `","ply":1}`, 409, codeWrongPly},
		{"negative ply", path, white, `{"move":"` + legal + `","ply":-1}`, 422, codeInvalid},
		{"illegal move", path, white, `{"move":"a1-a9","ply":0}`, 422, codeIllegalMove},
		{"malformed move", path, white, `{"move":"hello","ply":0}`, 422, codeIllegalMove},
		{"empty move", path, white, `{"move":"","ply":0}`, 422, codeIllegalMove},
		{"no ply", path, white, `{"move":"` + legal + `"}`, 422, codeInvalid},
		{"not JSON", path, white, `move ` + legal, 400, codeBadRequest},
		{"ply as text", path, white, `{"move":"` + legal + `","ply":"0"}`, 400, codeBadRequest},
		{"over 64 KiB", path, white, `{"move":"` + strings.Repeat("a", 65<<10) + `","ply":0}`, 413, codeTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := ts.do("POST", c.path, c.token, c.body)
			if code != c.status || errorCode(body) != c.code {
				t.Errorf("%d %s, want %d %s", code, body, c.status, c.code)
			}
			var e struct{ Error apiError }
			if json.Unmarshal(body, &e) != nil || e.Error.Message == "" || strings.Contains(e.Error.Message, "\n") {
				t.Errorf("error body %s: want {\"error\":{\"code\",\"message\"}} with a one-line message", body)
			}
			if after := ts.game(g.ID); !reflect.DeepEqual(after, before) {
				t.Errorf("the refusal changed the game:\n%+v\n%+v", before, after)
			}
		})
	}
}

func TestIllegalMoveMessageSaysWhy(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	_, body := ts.do("POST", "/api/games/"+g.ID+"/moves", g.Seats[0].Token, `{"move":"a1-a9","ply":0}`)
	var e struct{ Error apiError }
	_ = json.Unmarshal(body, &e)
	if !strings.Contains(e.Error.Message, "a1-a9") {
		t.Errorf("message %q does not name the move", e.Error.Message)
	}
}

func TestMoveIsStoredThenAnsweredAndAResendAnswers200(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	white, black := g.Seats[0].Token, g.Seats[1].Token
	first := ts.game(g.ID).Legal[0]
	code, body := ts.do("POST", "/api/games/"+g.ID+"/moves", white, map[string]any{"move": first, "ply": 0})
	if code != 200 {
		t.Fatalf("move: %d %s", code, body)
	}
	var v hall.View
	_ = json.Unmarshal(body, &v)
	if v.Ply != 1 || v.ToMove != 1 || !reflect.DeepEqual(v.Moves, []string{first}) || v.Version != 2 {
		t.Errorf("answer after the move: %s", body)
	}
	stored, err := ts.store.Get(t.Context(), g.ID)
	if err != nil || len(stored.Moves) != 1 || stored.Moves[0].Text != first {
		t.Fatalf("stored: %+v %v", stored, err)
	}
	if code, _ := ts.move(g.ID, white, first, 0); code != 200 {
		t.Errorf("resend: %d, want 200", code)
	}
	if got := ts.game(g.ID); got.Ply != 1 || got.Version != 2 {
		t.Errorf("the resend changed the game: ply %d version %d", got.Ply, got.Version)
	}
	second := ts.game(g.ID).Legal[0]
	if code, _ := ts.move(g.ID, black, second, 1); code != 200 {
		t.Fatalf("black's move: %d", code)
	}
	// A different move for a ply already played, and a resend by the wrong seat, are refused.
	for _, c := range []struct {
		token, move string
		ply         int
	}{{white, second, 0}, {black, first, 0}} {
		if code, ec := ts.move(g.ID, c.token, c.move, c.ply); code != 409 || ec != codeWrongPly {
			t.Errorf("%s at ply %d: %d %s, want 409 wrong_ply", c.move, c.ply, code, ec)
		}
	}
}

// TestRacedMovesStoreExactlyOne posts n different moves for ply 0 at once.
func TestRacedMovesStoreExactlyOne(t *testing.T) {
	for _, n := range []int{2, 10} {
		ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
		g := ts.twoHumans()
		legal := ts.game(g.ID).Legal
		if len(legal) < n {
			t.Fatalf("%d legal moves, need %d different ones", len(legal), n)
		}
		codes := make([]int, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				codes[i], _ = ts.move(g.ID, g.Seats[0].Token, legal[i], 0)
			})
		}
		close(start)
		wg.Wait()
		ok := 0
		for _, c := range codes {
			switch c {
			case 200:
				ok++
			case 409:
			default:
				t.Errorf("status %d; want 200 or 409", c)
			}
		}
		stored, _ := ts.store.Get(t.Context(), g.ID)
		if ok != 1 || len(stored.Moves) != 1 {
			t.Errorf("%d moves raced: %d answered 200, %d stored; want exactly one", n, ok, len(stored.Moves))
		}
	}
}

func TestRecordReplays(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	tokens := []string{g.Seats[0].Token, g.Seats[1].Token}
	for ply := range 6 {
		v := ts.game(g.ID)
		if code, ec := ts.move(g.ID, tokens[v.ToMove], v.Legal[len(v.Legal)/2], ply); code != 200 {
			t.Fatalf("ply %d: %d %s", ply, code, ec)
		}
	}
	code, body := ts.do("GET", "/api/games/"+g.ID+"/record", "", nil)
	if code != 200 {
		t.Fatalf("record: %d %s", code, body)
	}
	recs, err := record.Read(strings.NewReader(string(body)))
	if err != nil || len(recs) != 1 {
		t.Fatalf("reading %s: %v", body, err)
	}
	s, err := recs[0].Replay(0)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, body)
	}
	if v := ts.game(g.ID); s.FEN() != v.FEN || recs[0].Get("Result") != "*" {
		t.Errorf("replayed to %s, the game is at %s; result %q", s.FEN(), v.FEN, recs[0].Get("Result"))
	}
	if code, _ := ts.do("GET", "/api/games/nosuch/record", "", nil); code != 404 {
		t.Errorf("record of no game: %d", code)
	}
}

func TestHealthz(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	if code, body := ts.do("GET", "/healthz", "", nil); code != 200 {
		t.Errorf("healthz: %d %s", code, body)
	}
}

func TestUnknownGamesAreNotKept(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, path := range []string{"/api/games/made-up", "/api/games/made-up/record", "/api/games/other/effects?ply=0"} {
		if code, body := ts.do("GET", path, "", nil); code != 404 || errorCode(body) != codeNotFound {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
	if n := ts.srv.Hall().Stats().Held; n != 0 {
		t.Errorf("%d entries held for games that do not exist", n)
	}
}
