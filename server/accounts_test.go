package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/store/sqlite"
	"github.com/coder/websocket"
)

func mustParse(raw string) *url.URL {
	u, _ := url.Parse(raw)
	return u
}

// cheapHash keeps the tests' password hashing to a millisecond; the
// contract test of internal/cli hashes at full cost.
var cheapHash = account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// newAccountServer is a test server with cheap password hashing.
func newAccountServer(t *testing.T) *testServer {
	t.Helper()
	params := cheapHash
	return newTestServer(t, siteConfig{PasswordHash: &params})
}

// member is a signed-up person with their own cookies.
type member struct {
	t    *testing.T
	ts   *testServer
	name string
	c    *http.Client
	// base is the server's URL as this member reaches it ("" for the
	// test server's own).
	base string
}

func (ts *testServer) signUp(name string) *member {
	ts.t.Helper()
	return ts.signUpAt("", name)
}

// signUpAt signs up by the server's URL base (a host name in place of
// the test server's address).
func (ts *testServer) signUpAt(base, name string) *member {
	ts.t.Helper()
	jar, _ := cookiejar.New(nil)
	m := &member{t: ts.t, ts: ts, name: name, c: &http.Client{Jar: jar}, base: base}
	if code, body := m.call("POST", "/api/accounts", map[string]string{"name": name, "password": "correct-horse-" + name}); code != 201 {
		ts.t.Fatalf("sign up %s: %d %s", name, code, body)
	}
	return m
}

func (m *member) call(method, path string, body any) (int, []byte) {
	m.t.Helper()
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	base := m.base
	if base == "" {
		base = m.ts.http.URL
	}
	req, err := http.NewRequest(method, base+path, strings.NewReader(string(data)))
	if err != nil {
		m.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := m.c.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out strings.Builder
	_, _ = io.Copy(&out, resp.Body)
	return resp.StatusCode, []byte(out.String())
}

// must calls and fails unless the status is want; it decodes the answer
// into v when v is not nil.
func (m *member) must(want int, method, path string, body, v any) {
	m.t.Helper()
	code, data := m.call(method, path, body)
	if code != want {
		m.t.Fatalf("%s %s %s: %d %s; want %d", m.name, method, path, code, data, want)
	}
	if v != nil {
		if err := json.Unmarshal(data, v); err != nil {
			m.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

// rated plays a rated seek between a and b to its end: the seat to move
// resigns at once; it answers the game's id and the winner's name.
func ratedGame(t *testing.T, a, b *member, game string) (id, winner string) {
	t.Helper()
	var seek struct{ ID string }
	a.must(201, "POST", "/api/seeks", map[string]any{"game": game, "rated": true, "clock": map[string]int{"days": 3}}, &seek)
	var started struct{ Game string }
	b.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	var g gameAnswer
	a.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	loser := a
	if g.Seats[g.ToMove].Account == b.name {
		loser = b
	}
	loser.must(200, "POST", "/api/games/"+started.Game+"/resign", nil, nil)
	if loser == a {
		return started.Game, b.name
	}
	return started.Game, a.name
}

func TestAccountLifecycle(t *testing.T) {
	ts := newAccountServer(t)
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	id, winner := ratedGame(t, ada, bob, "pommel")

	var g gameAnswer
	ada.must(200, "GET", "/api/games/"+id, nil, &g)
	if len(g.Ratings) != 2 || g.You == nil || g.Seats[*g.You].Account != "ada" {
		t.Fatalf("the rated game's end: you %v, ratings %+v", g.You, g.Ratings)
	}
	for _, c := range g.Ratings {
		won := g.Seats[c.Seat].Account == winner
		if c.Before != 1500 || won != (c.After > 1500) {
			t.Fatalf("rating change of seat %d (winner %s): %+v", c.Seat, winner, c)
		}
	}
	var games []playedGame
	bob.must(200, "GET", "/api/users/ada/games?game=pommel", nil, &games)
	if len(games) != 1 || games[0].ID != id || games[0].Opponents[0] != "bob" || games[0].Before == nil || !games[0].Rated {
		t.Fatalf("ada's games: %+v", games)
	}
	if want := map[bool]string{true: "win", false: "loss"}[winner == "ada"]; games[0].Result != want {
		t.Fatalf("ada's result %s, want %s", games[0].Result, want)
	}
	var history []historyPoint
	bob.must(200, "GET", "/api/users/ada/history?game=pommel", nil, &history)
	if len(history) != 1 || history[0].GameID != id {
		t.Fatalf("ada's history: %+v", history)
	}
	var board []rankedView
	bob.must(200, "GET", "/api/leaderboard/pommel", nil, &board)
	if len(board) != 2 || board[0].Name != winner || board[0].Rank != 1 || !board[0].Provisional {
		t.Fatalf("leaderboard: %+v", board)
	}
	for _, path := range []string{"/api/leaderboard/chess", "/api/users/ada/games?game=chess", "/api/users/ada/games?limit=0",
		"/api/users/ada/games?before=yesterday", "/api/users/ada/history?game="} {
		if code, body := bob.call("GET", path, nil); code != 404 && code != 422 {
			t.Errorf("GET %s: %d %s; want a refusal", path, code, body)
		}
	}

	// The export holds the game's record.
	code, export := ada.call("GET", "/api/account/export", nil)
	if code != 200 || !strings.Contains(string(export), `[Black "`) || !strings.Contains(string(export), "ada") {
		t.Fatalf("export: %d %s", code, export)
	}

	// A password change ends the other sessions and keeps this one.
	laptop := &member{t: t, ts: ts, name: "ada", c: &http.Client{Jar: mustJar()}}
	laptop.must(200, "POST", "/api/session", map[string]string{"name": "ADA", "password": "correct-horse-ada"}, nil)
	code, body := ada.call("POST", "/api/account/password", map[string]string{"old": "wrong-one-here", "new": "a-new-long-secret-7"})
	if code != 401 || errorCode(body) != codeBadLogin {
		t.Fatalf("a password change with a wrong old one: %d %s", code, body)
	}
	code, body = ada.call("POST", "/api/account/password", map[string]string{"old": "correct-horse-ada", "new": "password123"})
	if code != 422 {
		t.Fatalf("a common new password: %d %s", code, body)
	}
	ada.must(204, "POST", "/api/account/password", map[string]string{"old": "correct-horse-ada", "new": "a-new-long-secret-7"}, nil)
	ada.must(200, "GET", "/api/session", nil, nil)
	laptop.must(401, "GET", "/api/session", nil, nil)
	laptop.must(401, "POST", "/api/session", map[string]string{"name": "ada", "password": "correct-horse-ada"}, nil)
	laptop.must(200, "POST", "/api/session", map[string]string{"name": "ada", "password": "a-new-long-secret-7"}, nil)

	// Log out everywhere ends both.
	ada.must(204, "DELETE", "/api/account/sessions", nil, nil)
	ada.must(401, "GET", "/api/session", nil, nil)
	laptop.must(401, "GET", "/api/session", nil, nil)

	// Delete the account: the games stay, the name shows "deleted".
	laptop.must(200, "POST", "/api/session", map[string]string{"name": "ada", "password": "a-new-long-secret-7"}, nil)
	code, body = laptop.call("DELETE", "/api/account", map[string]string{"password": "wrong-password-x"})
	if code != 401 {
		t.Fatalf("deleting with a wrong password: %d %s", code, body)
	}
	laptop.must(204, "DELETE", "/api/account", map[string]string{"password": "a-new-long-secret-7"}, nil)
	bob.must(404, "GET", "/api/users/ada", nil, nil)
	var after gameAnswer
	bob.must(200, "GET", "/api/games/"+id, nil, &after)
	if after.Result == nil || after.Seats[0].Name != "deleted" && after.Seats[1].Name != "deleted" {
		t.Fatalf("the game after its player was deleted: %+v", after.Seats)
	}
	bob.must(200, "GET", "/api/leaderboard/pommel", nil, &board)
	if len(board) != 1 || board[0].Name != "bob" {
		t.Fatalf("leaderboard after a deletion: %+v", board)
	}
	again := &member{t: t, ts: ts, name: "x", c: &http.Client{Jar: mustJar()}}
	code, body = again.call("POST", "/api/accounts", map[string]string{"name": "Ada", "password": "correct-horse-again"})
	if code != 409 || errorCode(body) != codeNameTaken {
		t.Fatalf("taking a deleted account's name: %d %s", code, body)
	}
}

func mustJar() *cookiejar.Jar {
	jar, _ := cookiejar.New(nil)
	return jar
}

func TestClaimAnonymousGames(t *testing.T) {
	ts := newAccountServer(t)
	anon := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	hot := ts.twoHumans()
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	var answer claimAnswer
	ada.must(200, "POST", "/api/account/claim", map[string]any{"games": []map[string]string{
		{"id": anon.ID, "token": anon.Seats[0].Token},
		{"id": hot.ID, "token": hot.Seats[0].Token},
		{"id": hot.ID, "token": hot.Seats[1].Token},
		{"id": "nosuchgame", "token": "x"},
	}}, &answer)
	if len(answer.Claimed) != 2 || len(answer.Refused) != 2 {
		t.Fatalf("claims: %+v", answer)
	}
	var mine []playedGame
	ada.must(200, "GET", "/api/account/games", nil, &mine)
	if len(mine) != 2 {
		t.Fatalf("ada's games after the claim: %+v", mine)
	}
	// The claimed seat is played by the cookie too; the token still works.
	var g gameAnswer
	ada.must(200, "GET", "/api/games/"+anon.ID, nil, &g)
	if g.You == nil || *g.You != 0 || g.Seats[0].Account != "ada" || g.Seats[1].Account != "ai-level-1" {
		t.Fatalf("the claimed game: you %v seats %+v", g.You, g.Seats)
	}
	bob.must(200, "POST", "/api/account/claim", map[string]any{"games": []map[string]string{{"id": anon.ID, "token": anon.Seats[0].Token}}}, &answer)
	if len(answer.Refused) != 1 || answer.Refused[0].Error.Code != codeConflict {
		t.Fatalf("claiming another's seat: %+v", answer)
	}
	code, export := ada.call("GET", "/api/account/export", nil)
	recs, err := record.Read(strings.NewReader(string(export)))
	if code != 200 || err != nil || len(recs) != 2 {
		t.Fatalf("the export of two games: %d, %d records, %v:\n%s", code, len(recs), err, export)
	}
	var turns []turnView
	ada.must(200, "GET", "/api/account/turn", nil, &turns)
	if len(turns) != 2 {
		t.Fatalf("ada's turn list: %+v", turns)
	}
	(&member{t: t, ts: ts, c: &http.Client{}}).must(401, "GET", "/api/account/turn", nil, nil)
}

func TestSeeksRefusals(t *testing.T) {
	ts := newAccountServer(t)
	ada, bob, cy := ts.signUp("ada"), ts.signUp("bob"), ts.signUp("cy")
	for _, c := range []struct {
		body map[string]any
		want int
	}{
		{map[string]any{"game": "chess"}, 422},
		{map[string]any{"game": "pommel", "rated": true}, 422},
		{map[string]any{"game": "pommel", "clock": map[string]int{"initial": 0}}, 422},
		{map[string]any{"game": "pommel", "clock": map[string]int{"initial": 60, "increment": -1}}, 422},
		{map[string]any{"game": "pommel", "clock": map[string]int{"days": 99}}, 422},
		{map[string]any{"game": "pommel", "clock": map[string]int{"days": 1, "initial": 60}}, 422},
		{map[string]any{"game": "pommel", "options": map[string]string{"maxplies": "-5"}}, 422},
		{map[string]any{"game": "pommel", "to": "nobody"}, 422},
		{map[string]any{"game": "pommel", "to": "ada"}, 422},
		{map[string]any{"game": "pommel", "to": "ai-level-3"}, 422},
		{map[string]any{"game": "pommel", "extra": 1}, 400},
	} {
		if code, body := ada.call("POST", "/api/seeks", c.body); code != c.want {
			t.Errorf("seek %v: %d %s; want %d", c.body, code, body, c.want)
		}
	}
	for range lobby.MaxSeeksPerAccount {
		ada.must(201, "POST", "/api/seeks", map[string]any{"game": "eximo"}, nil)
	}
	if code, _ := ada.call("POST", "/api/seeks", map[string]any{"game": "eximo"}); code != 429 {
		t.Fatalf("a seek over the limit: %d", code)
	}
	var challenge struct{ ID string }
	cy.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "to": "bob"}, &challenge)
	if code, body := ada.call("POST", "/api/seeks/"+challenge.ID+"/accept", nil); code != 403 {
		t.Fatalf("accepting a challenge to another: %d %s", code, body)
	}
	bob.must(404, "DELETE", "/api/seeks/"+challenge.ID, nil, nil) // not bob's to withdraw
	cy.must(204, "DELETE", "/api/seeks/"+challenge.ID, nil, nil)
}

func TestThreePlayerSeekAndLobbySocket(t *testing.T) {
	ts := newAccountServer(t)
	ada, bob, cy := ts.signUp("ada"), ts.signUp("bob"), ts.signUp("cy")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	header := http.Header{}
	for _, c := range ada.c.Jar.Cookies(mustParse(ts.http.URL)) {
		header.Add("Cookie", c.String())
	}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/api/lobby/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	next := func(want string) lobbyMessage {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatalf("waiting for %s: %v", want, err)
			}
			var m lobbyMessage
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m.Type == want {
				return m
			}
		}
	}
	if first := next("seeks"); len(first.Seeks) != 0 {
		t.Fatalf("first lobby message: %+v", first)
	}
	var seek struct{ ID string }
	ada.must(201, "POST", "/api/seeks", map[string]any{"game": "punt-heks-match-3p", "rated": true, "clock": map[string]int{"initial": 300, "increment": 3}}, &seek)
	if m := next("seeks"); len(m.Seeks) != 1 || m.Seeks[0].Seats != 3 || m.Seeks[0].By != "ada" {
		t.Fatalf("the lobby after a seek: %+v", m)
	}
	var waiting struct{ Joined []string }
	bob.must(202, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &waiting)
	if m := next("seeks"); len(m.Seeks) != 1 || len(m.Seeks[0].Joined) != 1 || m.Seeks[0].Joined[0] != "bob" {
		t.Fatalf("the lobby after one joined: %+v", m)
	}
	bob.must(409, "POST", "/api/seeks/"+seek.ID+"/accept", nil, nil)
	var started struct{ Game string }
	cy.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	if m := next("started"); m.Game != started.Game || m.Seek != seek.ID {
		t.Fatalf("the seeker's started message: %+v, want game %s", m, started.Game)
	}
	var g gameAnswer
	cy.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	if len(g.Seats) != 3 || !g.Rated || g.Clock == nil {
		t.Fatalf("the 3-player game: %+v", g)
	}
	// One resigns: the other two share the win (Punt's rule). Each pair
	// is rated by placing: the two winners beat the resigner and draw
	// each other.
	order := map[string]*member{"ada": ada, "bob": bob, "cy": cy}
	order[g.Seats[g.ToMove].Account].must(200, "POST", "/api/games/"+started.Game+"/resign", nil, nil)
	cy.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	if g.Result == nil || len(g.Result.Winners) != 2 || len(g.Ratings) != 3 {
		t.Fatalf("the 3-player game's end: %+v %+v", g.Result, g.Ratings)
	}
	for _, c := range g.Ratings {
		if won := slices.Contains(g.Result.Winners, c.Seat); won != (c.After > c.Before) {
			t.Fatalf("3-player rating change of seat %d (winners %v): %+v", c.Seat, g.Result.Winners, c)
		}
	}
}

// TestAbortedRatedGameRatesNothing: a rated game nobody started in time
// is aborted and changes no rating.
func TestAbortedRatedGameRatesNothing(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, AbortAfter: 300 * time.Millisecond})
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	var seek struct{ ID string }
	ada.must(201, "POST", "/api/seeks", map[string]any{"game": "eximo", "rated": true, "clock": map[string]int{"initial": 60, "increment": 1}}, &seek)
	var started struct{ Game string }
	bob.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	waitFor(t, 10*time.Second, "the abort", func() bool { return ts.game(started.Game).Result != nil })
	var g gameAnswer
	ada.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	if g.Result.Reason != "aborted" || g.Rated || len(g.Ratings) != 0 {
		t.Fatalf("the aborted game: %+v rated %v ratings %+v", g.Result, g.Rated, g.Ratings)
	}
	var u userView
	ada.must(200, "GET", "/api/users/ada", nil, &u)
	if len(u.Ratings) != 0 {
		t.Fatalf("ratings after an aborted game: %+v", u.Ratings)
	}
	var games []playedGame
	ada.must(200, "GET", "/api/users/bob/games", nil, &games)
	if len(games) != 1 || games[0].Result != "aborted" {
		t.Fatalf("bob's games: %+v", games)
	}
}

// TestLobbyAcrossServers: the seeker waits on one server's lobby
// socket; the game of their seek is started by another server sharing
// the database; the seeker hears of it within a tick.
func TestLobbyAcrossServers(t *testing.T) {
	dir := t.TempDir()
	stores := make([]*sqlite.Store, 2)
	for i := range stores {
		st, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		stores[i] = st
	}
	params := cheapHash
	a := newTestServer(t, siteConfig{Store: stores[0], PasswordHash: &params})
	b := newTestServer(t, siteConfig{Store: stores[1], PasswordHash: &params})
	ada, bob := a.signUp("ada"), b.signUp("bob")
	conn := lobbySocket(t, a, ada)
	var seek struct{ ID string }
	ada.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "clock": map[string]int{"days": 1}}, &seek)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Ada sees her seek listed; then Bob, on the other server, takes it.
	for listed := false; !listed; {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for the seek to be listed: %v", err)
		}
		var m lobbyMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		listed = m.Type == "seeks" && len(m.Seeks) == 1
	}
	var started struct{ Game string }
	bob.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for the start on the other server: %v", err)
		}
		var m lobbyMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "started" {
			if m.Game != started.Game {
				t.Fatalf("started %+v, want game %s", m, started.Game)
			}
			return
		}
	}
}

// lobbySocket opens the lobby's socket with m's cookies.
func lobbySocket(t *testing.T, ts *testServer, m *member) *websocket.Conn {
	t.Helper()
	header := http.Header{}
	for _, c := range m.c.Jar.Cookies(mustParse(ts.http.URL)) {
		header.Add("Cookie", c.String())
	}
	conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/api/lobby/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}
