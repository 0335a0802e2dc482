package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// The bot API's tests (docs/server.md, "Bots"): tokens, the upgrade and
// its refusals, the two kinds of token on one header, the event and game
// streams, moves and their refusals, challenges accepted and declined,
// and the bounds.

// newToken makes an API token of m's and answers its secret.
func (m *member) newToken(description string) string {
	m.t.Helper()
	var made tokenView
	m.must(201, "POST", "/api/account/tokens", map[string]string{"description": description}, &made)
	if !strings.HasPrefix(made.Token, "arb_") || made.ID == "" || made.Description != description {
		m.t.Fatalf("the token made: %+v", made)
	}
	return made.Token
}

// newBot signs name up, makes a token, turns the account into a bot with
// it, and answers the token.
func (ts *testServer) newBot(name string) string {
	ts.t.Helper()
	token := ts.signUp(name).newToken("engine")
	if code, body := ts.do("POST", "/api/bot/account/upgrade", token, nil); code != 200 {
		ts.t.Fatalf("upgrading %s: %d %s", name, code, body)
	}
	return token
}

// lineStream reads an NDJSON stream a line at a time.
type lineStream struct {
	t     *testing.T
	lines chan string
	resp  *http.Response
}

// openStream opens GET path with the bearer token and fails unless it
// answers 200; the stream is closed when the test ends.
func openStream(t *testing.T, base, path, token string) *lineStream {
	t.Helper()
	ls, code, body := tryStream(t, base, path, token)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	return ls
}

// tryStream opens GET path; a refusal answers its status and body, and
// no stream.
func tryStream(t *testing.T, base, path, token string) (*lineStream, int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = bufio.NewReader(resp.Body).WriteTo(&b)
		return nil, resp.StatusCode, b.String()
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("GET %s: Content-Type %q, want application/x-ndjson", path, ct)
	}
	ls := &lineStream{t: t, lines: make(chan string, 256), resp: resp}
	go func() {
		defer close(ls.lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			ls.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return ls, resp.StatusCode, ""
}

// next reads lines, the empty keep-alives skipped, until one of type
// typ, which it decodes into v; it fails after 20 s or at the stream's
// end.
func (ls *lineStream) next(typ string, v any) {
	ls.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-ls.lines:
			if !ok {
				ls.t.Fatalf("the stream ended before a %s line", typ)
			}
			if line == "" {
				continue
			}
			var head struct{ Type string }
			if err := json.Unmarshal([]byte(line), &head); err != nil {
				ls.t.Fatalf("a line that is no JSON object: %q", line)
			}
			if head.Type == typ {
				if err := json.Unmarshal([]byte(line), v); err != nil {
					ls.t.Fatal(err)
				}
				return
			}
		case <-timeout:
			ls.t.Fatalf("no %s line within 20 s", typ)
		}
	}
}

// ended waits for the stream's end, failing after 20 s.
func (ls *lineStream) ended() {
	ls.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case _, ok := <-ls.lines:
			if !ok {
				return
			}
		case <-timeout:
			ls.t.Fatal("the stream did not end within 20 s")
		}
	}
}

// TestAPITokens: a token is shown once and listed without its secret;
// it names its account on the API; it is revoked by its own account
// only; descriptions and the count are bounded.
func TestAPITokens(t *testing.T) {
	ts := newAccountServer(t)
	ann, bob := ts.signUp("ann"), ts.signUp("bob")
	token := ann.newToken("my engine")
	var list struct{ Tokens []tokenView }
	ann.must(200, "GET", "/api/account/tokens", nil, &list)
	if len(list.Tokens) != 1 || list.Tokens[0].Token != "" || list.Tokens[0].Description != "my engine" {
		t.Fatalf("the tokens listed: %+v; want one, without its secret", list)
	}
	id := list.Tokens[0].ID
	code, body := ts.do("GET", "/api/bot/account", token, nil)
	var me botAccountView
	if json.Unmarshal(body, &me); code != 200 || me.Name != "ann" || me.Bot {
		t.Fatalf("GET /api/bot/account with ann's token: %d %s", code, body)
	}
	code, body = ts.do("GET", "/api/account/tokens", token, nil)
	if code != 200 || !strings.Contains(string(body), id) {
		t.Fatalf("the tokens listed by the token: %d %s", code, body)
	}
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		want                      int
	}{
		{"no token nor cookie", "GET", "/api/account/tokens", "", nil, 401},
		{"a seat's token", "GET", "/api/account/tokens", "c2VhdHRva2VuMTIzNDU2Nw", nil, 401},
		{"a malformed API token", "GET", "/api/account/tokens", "arb_" + strings.Repeat("!", 43), nil, 401},
		{"an unknown API token", "GET", "/api/account/tokens", "arb_" + strings.Repeat("A", 43), nil, 401},
		{"a description over 60 characters", "POST", "/api/account/tokens", token, map[string]string{"description": strings.Repeat("x", 61)}, 422},
		{"a description with a control character", "POST", "/api/account/tokens", token, map[string]string{"description": "a\x07b"}, 422},
		{"an unknown field", "POST", "/api/account/tokens", token, map[string]string{"scope": "all"}, 400},
	} {
		if code, body := ts.do(c.method, c.path, c.token, c.body); code != c.want {
			t.Errorf("%s: %d %s; want %d", c.name, code, body, c.want)
		}
	}
	if code, _ := bob.call("DELETE", "/api/account/tokens/"+id, nil); code != 404 {
		t.Errorf("bob revokes ann's token: %d; want 404", code)
	}
	for range 19 {
		ann.newToken("more")
	}
	if code, body := ann.call("POST", "/api/account/tokens", map[string]string{}); code != 429 {
		t.Errorf("a 21st token: %d %s; want 429", code, body)
	}
	ann.must(204, "DELETE", "/api/account/tokens/"+id, nil, nil)
	if code, _ := ts.do("GET", "/api/bot/account", token, nil); code != 401 {
		t.Errorf("a revoked token: %d; want 401", code)
	}
	if code, _ := ann.call("DELETE", "/api/account/tokens/"+id, nil); code != 404 {
		t.Errorf("revoking twice: %d; want 404", code)
	}
}

// TestBearerKinds: one header carries a seat's token or an API token,
// and each plays what it names: a seat token its anonymous seat, an API
// token its account's seat; a bad API token is refused, not tried as a
// seat's.
func TestBearerKinds(t *testing.T) {
	ts := newAccountServer(t)
	anon := ts.twoHumans()
	if code, errCode := ts.move(anon.ID, anon.Seats[0].Token, ts.game(anon.ID).Legal[0], 0); code != 200 {
		t.Fatalf("a seat token's move: %d %s", code, errCode)
	}
	ann, bob := ts.signUp("ann"), ts.signUp("bob")
	id, _ := ratedGameOngoing(t, ann, bob)
	token := ann.newToken("script")
	g := ts.game(id)
	mover := g.Seats[g.ToMove].Account
	if mover != "ann" {
		bob.must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": g.Legal[0], "ply": 0}, nil)
		g = ts.game(id)
	}
	if code, errCode := ts.move(id, token, g.Legal[0], g.Ply); code != 200 {
		t.Fatalf("ann's move by her API token: %d %s", code, errCode)
	}
	for name, bad := range map[string]string{"unknown": "arb_" + strings.Repeat("B", 43), "malformed": "arb_" + strings.Repeat("*", 43)} {
		if code, errCode := ts.move(id, bad, "a1-a2", 0); code != 401 || errCode != "unauthorized" {
			t.Errorf("a move by an %s API token: %d %s; want 401 unauthorized", name, code, errCode)
		}
	}
	if code, errCode := ts.move(anon.ID, token, "a1-a2", 1); code != 403 {
		t.Errorf("ann's API token on an anonymous game: %d %s; want 403", code, errCode)
	}
}

// ratedGameOngoing starts a rated correspondence game between a and b
// from a's seek, and answers its id and its ply.
func ratedGameOngoing(t *testing.T, a, b *member) (string, int) {
	t.Helper()
	var seek struct{ ID string }
	a.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "rated": true, "clock": map[string]int{"days": 3}}, &seek)
	var started struct{ Game string }
	b.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	return started.Game, 0
}

// TestUpgrade: an account with no game turns into a bot by its token or
// its cookie, once; its sessions end, it signs in no more, its profile
// says bot (an AI level's says level); an account that played stays a
// person; the bot API is a bot's only.
func TestUpgrade(t *testing.T) {
	ts := newAccountServer(t)
	ann, bob, cy, dee := ts.signUp("ann"), ts.signUp("bob"), ts.signUp("cy"), ts.signUp("dee")
	token := ann.newToken("engine")
	if code, body := ts.do("GET", "/api/bot/stream/event", token, nil); code != 403 || !strings.Contains(string(body), "not a bot") {
		t.Errorf("a person's token on the bot API: %d %s; want 403", code, body)
	}
	if code, body := ts.do("POST", "/api/bot/account/upgrade", token, nil); code != 200 {
		t.Fatalf("upgrading ann: %d %s", code, body)
	}
	if code, _ := ann.call("GET", "/api/session", nil); code != 401 {
		t.Errorf("ann's session after the upgrade: %d; want 401", code)
	}
	code, body := ann.call("POST", "/api/session", map[string]string{"name": "ann", "password": "correct-horse-ann"})
	if code != 403 || !strings.Contains(string(body), "bot") {
		t.Errorf("the bot signs in: %d %s; want 403", code, body)
	}
	if code, _ := ann.call("POST", "/api/session", map[string]string{"name": "ann", "password": "wrong-password"}); code != 401 {
		t.Errorf("the bot signs in with a wrong password: %d; want 401 as anyone", code)
	}
	if code, body := ts.do("POST", "/api/bot/account/upgrade", token, nil); code != 409 {
		t.Errorf("upgrading twice: %d %s; want 409", code, body)
	}
	// An account that played a game, even one it resigned, stays a person.
	ratedGame(t, bob, cy, "pommel")
	if code, body := bob.call("POST", "/api/bot/account/upgrade", nil); code != 409 || !strings.Contains(string(body), "played") {
		t.Errorf("upgrading an account that played: %d %s; want 409", code, body)
	}
	// By the cookie: the cookie ends with the session.
	dee.must(200, "POST", "/api/bot/account/upgrade", nil, nil)
	if code, _ := dee.call("GET", "/api/account/tokens", nil); code != 401 {
		t.Errorf("dee's cookie after her upgrade: %d; want 401", code)
	}
	var user userView
	bob.must(200, "GET", "/api/users/ann", nil, &user)
	if !user.Bot || user.Level {
		t.Errorf("the bot's profile: %+v; want bot, not level", user)
	}
	bob.must(200, "GET", "/api/users/ai-level-1", nil, &user)
	if user.Bot || !user.Level {
		t.Errorf("an AI level's profile: %+v; want level, not bot", user)
	}
	for _, c := range []struct {
		name, path, token string
		cookie            *member
		want              int
	}{
		{"no token", "/api/bot/stream/event", "", nil, 401},
		{"a cookie alone", "/api/bot/stream/event", "", bob, 401},
		{"a revoked token", "/api/bot/account", "arb_" + strings.Repeat("C", 43), nil, 401},
	} {
		var code int
		if c.cookie != nil {
			code, _ = c.cookie.call("GET", c.path, nil)
		} else {
			code, _ = ts.do("GET", c.path, c.token, nil)
		}
		if code != c.want {
			t.Errorf("%s: %d; want %d", c.name, code, c.want)
		}
	}
	// A bot, which signs in nowhere, exports its games and deletes its
	// account with its token (and its password).
	if code, body := ts.doWith("GET", "/api/account/export", token, nil, nil); code != 200 {
		t.Errorf("the bot's export: %d %s", code, body)
	}
	if code, _ := ts.do("DELETE", "/api/account", token, map[string]string{"password": "wrong-password"}); code != 401 {
		t.Errorf("the bot's deletion with a wrong password: %d; want 401", code)
	}
	if code, body := ts.do("DELETE", "/api/account", token, map[string]string{"password": "correct-horse-ann"}); code != 204 {
		t.Fatalf("the bot's deletion: %d %s", code, body)
	}
	if code, _ := ts.do("GET", "/api/bot/account", token, nil); code != 401 {
		t.Errorf("a deleted bot's token: %d; want 401", code)
	}
}

// TestBotPlaysAGame: the bot's event stream tells it of a challenge, it
// accepts, the stream tells of the game; the game's stream gives it
// whole, then each change; the bot's moves, refused and played; the
// person resigns: the last state, the stream's end, the game's finish,
// and both ratings changed.
func TestBotPlaysAGame(t *testing.T) {
	ts := newAccountServer(t)
	bot := ts.newBot("zed")
	ann, bob := ts.signUp("ann"), ts.signUp("bob")
	events := openStream(t, ts.http.URL, "/api/bot/stream/event", bot)
	var seek struct{ ID string }
	ann.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "rated": true, "clock": map[string]int{"days": 2}, "to": "zed"}, &seek)
	var challenge botEventLine
	events.next("challenge", &challenge)
	if c := challenge.Challenge; c == nil || c.ID != seek.ID || c.By != "ann" || !c.Rated || c.Game != "pommel" || c.To == nil || *c.To != "zed" || !c.ToBot {
		t.Fatalf("the challenge line: %+v", challenge.Challenge)
	}
	lobby := lobbySocket(t, ts, ann)
	code, body := ts.do("POST", "/api/challenge/"+seek.ID+"/accept", bot, nil)
	var started struct{ Game string }
	if json.Unmarshal(body, &started); code != 201 || started.Game == "" {
		t.Fatalf("the bot accepts: %d %s", code, body)
	}
	waitStarted(t, lobby, started.Game)
	// The challenge is gone before the game is told of (the seek is
	// taken, then its game made), or in the same read, the gone first.
	var gone botEventLine
	events.next("challengeGone", &gone)
	if gone.Challenge == nil || gone.Challenge.ID != seek.ID {
		t.Fatalf("the challengeGone line: %+v", gone.Challenge)
	}
	var start botEventLine
	events.next("gameStart", &start)
	if start.Game == nil || start.Game.ID != started.Game || start.Game.Game != "pommel" {
		t.Fatalf("the gameStart line: %+v", start.Game)
	}

	id := started.Game
	if code, _ := ts.do("GET", "/api/bot/game/stream/"+id, bob.newToken("x"), nil); code != 403 {
		t.Errorf("a person's token on the game stream: %d; want 403", code)
	}
	other := ts.newBot("kit")
	if _, code, body := tryStream(t, ts.http.URL, "/api/bot/game/stream/"+id, other); code != 403 {
		t.Errorf("another bot's stream of the game: %d %s; want 403", code, body)
	}
	if _, code, _ := tryStream(t, ts.http.URL, "/api/bot/game/stream/nosuchgame", bot); code != 404 {
		t.Errorf("the stream of no game: %d; want 404", code)
	}
	stream := openStream(t, ts.http.URL, "/api/bot/game/stream/"+id, bot)
	var full botGameFull
	stream.next("gameFull", &full)
	if full.Game.You == nil || full.Game.Seats[*full.Game.You].Account != "zed" || !full.Game.Seats[*full.Game.You].Bot ||
		!full.Game.Rated || full.State.Status != "started" || full.State.Ply != 0 || len(full.State.Legal) == 0 || full.Game.Clock == nil {
		t.Fatalf("gameFull: %+v", full)
	}
	you := *full.Game.You
	if full.Game.Seats[1-you].Bot {
		t.Errorf("ann's seat is marked a bot's: %+v", full.Game.Seats)
	}
	state := full.State
	if state.ToMove != you {
		if code, body := ts.do("POST", "/api/bot/game/"+id+"/move/"+state.Legal[0], bot, nil); code != 409 || errorCode(body) != "not_your_turn" {
			t.Errorf("the bot moves out of turn: %d %s; want 409 not_your_turn", code, body)
		}
		ann.must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": state.Legal[0], "ply": 0}, nil)
		stream.next("gameState", &state)
		if state.Ply != 1 || state.ToMove != you || len(state.Moves) != 1 {
			t.Fatalf("the state after ann's move: %+v", state)
		}
	}
	for _, c := range []struct {
		name, path string
		want       int
		code       string
	}{
		{"a move that is no move", "/move/zz9-yy8", 422, "illegal_move"},
		{"a move of 201 bytes", "/move/" + strings.Repeat("a", 201), 422, "invalid"},
		{"a ply that is no number", "/move/" + state.Legal[0] + "?ply=two", 422, "invalid"},
		{"a negative ply", "/move/" + state.Legal[0] + "?ply=-1", 422, "invalid"},
		{"a ply not reached", "/move/" + state.Legal[0] + fmt.Sprintf("?ply=%d", state.Ply+5), 409, "wrong_ply"},
		{"a draw answer that is neither", "/draw/maybe", 422, "invalid"},
	} {
		code, body := ts.do("POST", "/api/bot/game/"+id+c.path, bot, nil)
		if code != c.want || errorCode(body) != c.code {
			t.Errorf("%s: %d %s; want %d %s", c.name, code, body, c.want, c.code)
		}
	}
	if code, body := ts.do("POST", "/api/bot/game/"+id+"/move/"+state.Legal[0], other, nil); code != 403 {
		t.Errorf("another bot moves in the game: %d %s; want 403", code, body)
	}
	if code, body := ts.do("POST", "/api/bot/game/nosuchgame/resign", bot, nil); code != 404 {
		t.Errorf("resigning no game: %d %s; want 404", code, body)
	}
	code, body = ts.do("POST", fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", id, state.Legal[0], state.Ply), bot, nil)
	var after botGameState
	if json.Unmarshal(body, &after); code != 200 || after.Ply != state.Ply+1 || after.Moves[state.Ply] != state.Legal[0] {
		t.Fatalf("the bot's move: %d %s", code, body)
	}
	if code, body := ts.do("POST", fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", id, state.Legal[0], state.Ply), bot, nil); code != 200 {
		t.Errorf("the same move sent again for its ply: %d %s; want 200 (a resend)", code, body)
	}
	stream.next("gameState", &state)
	if state.Ply != after.Ply || state.ToMove == you {
		t.Fatalf("the stream after the bot's move: %+v", state)
	}
	ann.must(200, "POST", "/api/games/"+id+"/resign", nil, nil)
	stream.next("gameState", &state)
	if state.Status != "ended" || state.Result == nil || len(state.Result.Winners) != 1 || state.Result.Winners[0] != you {
		t.Fatalf("the last state: %+v", state)
	}
	stream.ended()
	var finish botEventLine
	events.next("gameFinish", &finish)
	if finish.Game == nil || finish.Game.ID != id || finish.Game.Result == nil || finish.Game.Result.Reason != "resignation" {
		t.Fatalf("the gameFinish line: %+v", finish.Game)
	}
	var g gameAnswer
	ann.must(200, "GET", "/api/games/"+id, nil, &g)
	if len(g.Ratings) != 2 {
		t.Fatalf("the rated game's rating changes: %+v", g.Ratings)
	}
	for _, rc := range g.Ratings {
		if won := rc.Seat == you; won != (rc.After > rc.Before) {
			t.Errorf("seat %d (the bot's: %v): %v → %v", rc.Seat, rc.Seat == you, rc.Before, rc.After)
		}
	}
	if code, _ := ts.do("POST", "/api/bot/game/"+id+"/resign", bot, nil); code != 409 {
		t.Errorf("resigning a game over: %d; want 409", code)
	}
	var board []rankedView
	ann.must(200, "GET", "/api/leaderboard/pommel", nil, &board)
	if len(board) != 2 || board[0].Name != "zed" || !board[0].Bot || board[1].Bot {
		t.Errorf("the leaderboard: %+v; want the bot first, marked, and ann", board)
	}
	var games []playedGame
	ann.must(200, "GET", "/api/users/ann/games", nil, &games)
	if len(games) != 1 || len(games[0].OpponentBots) != 1 || !games[0].OpponentBots[0] {
		t.Errorf("ann's games: %+v; want the bot marked", games)
	}
}

// waitStarted reads the lobby socket until it says game started.
func waitStarted(t *testing.T, conn *websocket.Conn, game string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for the start of %s: %v", game, err)
		}
		var m lobbyMessage
		if json.Unmarshal(data, &m) == nil && m.Type == "started" && m.Game == game {
			return
		}
	}
}

// TestBotDeclines: a bot declines a challenge; its sender's lobby socket
// is sent the seeks without it; a decline of another's, or twice, is
// 404; the bot seeks nothing and accepts no open seek.
func TestBotDeclines(t *testing.T) {
	ts := newAccountServer(t)
	bot := ts.newBot("zed")
	ann, bob := ts.signUp("ann"), ts.signUp("bob")
	lobby := lobbySocket(t, ts, ann)
	var toBot, toBob, open struct{ ID string }
	ann.must(201, "POST", "/api/seeks", map[string]any{"game": "eximo", "to": "zed"}, &toBot)
	ann.must(201, "POST", "/api/seeks", map[string]any{"game": "eximo", "to": "bob"}, &toBob)
	ann.must(201, "POST", "/api/seeks", map[string]any{"game": "eximo"}, &open)
	waitSeeks(t, lobby, func(seeks []seekView) bool { return len(seeks) == 3 })
	if code, _ := ts.do("POST", "/api/challenge/"+toBob.ID+"/decline", bot, nil); code != 404 {
		t.Errorf("the bot declines a challenge to bob: %d; want 404", code)
	}
	if code, _ := ts.do("POST", "/api/challenge/"+open.ID+"/accept", bot, nil); code != 404 {
		t.Errorf("the bot accepts an open seek: %d; want 404", code)
	}
	code, body := ts.do("POST", "/api/seeks", bot, map[string]any{"game": "eximo"})
	if code != 403 || !strings.Contains(string(body), "bot posts no seeks") {
		t.Errorf("the bot seeks: %d %s; want 403", code, body)
	}
	if code, _ := ts.do("POST", "/api/seeks", bot, map[string]any{"game": "eximo", "to": "ann"}); code != 403 {
		t.Errorf("the bot challenges ann: %d; want 403", code)
	}
	if code, _ := ann.call("POST", "/api/challenge/"+toBot.ID+"/decline", nil); code != 404 {
		t.Errorf("ann declines her own challenge: %d; want 404", code)
	}
	if code, body := ts.do("POST", "/api/challenge/"+toBot.ID+"/decline", bot, nil); code != 204 {
		t.Fatalf("the bot declines: %d %s", code, body)
	}
	waitSeeks(t, lobby, func(seeks []seekView) bool {
		for _, s := range seeks {
			if s.ID == toBot.ID {
				return false
			}
		}
		return len(seeks) == 2
	})
	if code, _ := ts.do("POST", "/api/challenge/"+toBot.ID+"/decline", bot, nil); code != 404 {
		t.Errorf("declining twice: %d; want 404", code)
	}
	if code, body := bob.call("POST", "/api/challenge/"+toBob.ID+"/accept", nil); code != 201 {
		t.Errorf("bob accepts his challenge at the challenge endpoint: %d %s", code, body)
	}
}

// waitSeeks reads the lobby socket until its seeks satisfy ok.
func waitSeeks(t *testing.T, conn *websocket.Conn, ok func([]seekView) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for the seeks: %v", err)
		}
		var m lobbyMessage
		if json.Unmarshal(data, &m) == nil && m.Type == "seeks" && ok(m.Seeks) {
			return
		}
	}
}

// TestBotLimits: a bot plays at most 8 games at once (the ninth
// challenge accepted is 429, and stays open); an account holds at most
// Limits.BotStreams streams, the server Limits.Streams.
func TestBotLimits(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, Limits: Limits{BotStreams: 2, Streams: 3, GamesPerHour: 1000}})
	bot, other := ts.newBot("zed"), ts.newBot("kit")
	people := []*member{ts.signUp("ann"), ts.signUp("bob")}
	for i := range 9 {
		var seek struct{ ID string }
		people[i%2].must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "to": "zed"}, &seek)
		code, body := ts.do("POST", "/api/challenge/"+seek.ID+"/accept", bot, nil)
		switch {
		case i < 8 && code != 201:
			t.Fatalf("challenge %d: %d %s", i+1, code, body)
		case i == 8 && (code != 429 || !strings.Contains(string(body), "8 games at once")):
			t.Fatalf("the ninth challenge: %d %s; want 429", code, body)
		}
	}
	openStream(t, ts.http.URL, "/api/bot/stream/event", bot)
	openStream(t, ts.http.URL, "/api/bot/stream/event", bot)
	if _, code, body := tryStream(t, ts.http.URL, "/api/bot/stream/event", bot); code != 429 || !strings.Contains(string(body), "this account") {
		t.Errorf("a third stream of one bot: %d %s; want 429", code, body)
	}
	openStream(t, ts.http.URL, "/api/bot/stream/event", other)
	if _, code, body := tryStream(t, ts.http.URL, "/api/bot/stream/event", other); code != 429 || !strings.Contains(string(body), "this server") {
		t.Errorf("a fourth stream on the server: %d %s; want 429", code, body)
	}
}

// TestBotStreamOutlivesTimeouts: a stream lives past the connection's
// read and write timeouts, an empty line every keep-alive, and ends when
// the server stops.
func TestBotStreamOutlivesTimeouts(t *testing.T) {
	params := cheapHash
	srv, addr := served(t, siteConfig{PasswordHash: &params, Accounts: roomyAccountLimits,
		Timeouts: Timeouts{Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, KeepAlive: 50 * time.Millisecond}})
	base := "http://" + addr
	bot := botAt(t, base, "deepthought")
	events := openStream(t, base, "/api/bot/stream/event", bot)
	deadline := time.After(20 * time.Second)
	start, keepAlives := time.Now(), 0
	for keepAlives < 20 || time.Since(start) < time.Second {
		select {
		case line, ok := <-events.lines:
			if !ok {
				t.Fatalf("the stream ended after %s and %d keep-alives", time.Since(start), keepAlives)
			}
			if line == "" {
				keepAlives++
			}
		case <-deadline:
			t.Fatalf("%d keep-alives in 20 s", keepAlives)
		}
	}
	srv.Close()
	events.ended()
}

// botAt makes a bot named name on the server at base, through the API,
// and answers its token.
func botAt(t *testing.T, base, name string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	post := func(path, token, body string, v any) {
		t.Helper()
		req, err := http.NewRequest("POST", base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, data)
		}
		if v != nil {
			if err := json.Unmarshal(data, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	post("/api/accounts", "", fmt.Sprintf(`{"name": %q, "password": "a-long-bot-password"}`, name), nil)
	var made tokenView
	post("/api/account/tokens", "", `{"description": "engine"}`, &made)
	post("/api/bot/account/upgrade", made.Token, "", nil)
	return made.Token
}
