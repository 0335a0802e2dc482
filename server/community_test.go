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

// The chat, blocks, reports and moderation through the API: every
// refusal answers its code and status, and what a block, a mute and a
// ban do reaches every command they bound.

// casualGame starts a casual correspondence game of Pommel between a and
// b from a's challenge, and gives its id.
func casualGame(t *testing.T, a, b *member) string {
	t.Helper()
	var seek struct{ ID string }
	a.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "clock": map[string]int{"days": 3}, "to": b.name}, &seek)
	var started struct{ Game string }
	b.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	return started.Game
}

// refused calls and fails unless the answer is status with code.
func (m *member) refused(status int, code, method, path string, body any) string {
	m.t.Helper()
	got, data := m.call(method, path, body)
	var e struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal(data, &e)
	if got != status || e.Error.Code != code {
		m.t.Fatalf("%s %s %s: %d %s; want %d %s", m.name, method, path, got, data, status, code)
	}
	return e.Error.Message
}

func TestChatRefusals(t *testing.T) {
	ts := newAccountServer(t)
	ann, bob, cy := ts.signUp("ann"), ts.signUp("bob"), ts.signUp("cy")
	id := casualGame(t, ann, bob)
	chat := "/api/games/" + id + "/chat"
	ann.must(201, "POST", chat, map[string]string{"room": "players", "text": "  hello\u0007 bob  "}, nil)
	var rooms struct {
		Rooms []chatRoomView `json:"rooms"`
	}
	bob.must(200, "GET", chat, nil, &rooms)
	if len(rooms.Rooms) != 1 || rooms.Rooms[0].Room != "players" || len(rooms.Rooms[0].Messages) != 1 || rooms.Rooms[0].Messages[0].Text != "hello bob" {
		t.Fatalf("Bob reads %+v, want the players' room alone with Ann's trimmed message", rooms.Rooms)
	}
	// A visitor reads the spectators' room, and may not write.
	code, data := ts.do("GET", chat, "", nil)
	if code != 200 || !strings.Contains(string(data), `"room":"spectators"`) || strings.Contains(string(data), "hello") {
		t.Fatalf("a visitor reads %d %s, want the spectators' room without the players' talk", code, data)
	}
	if code, _ := ts.do("POST", chat, "", map[string]string{"room": "spectators", "text": "hi"}); code != http.StatusUnauthorized {
		t.Errorf("a visitor's message answers %d, want 401", code)
	}
	for _, c := range []struct {
		who          *member
		room, text   string
		status       int
		code, phrase string
	}{
		{ann, "players", "", 422, "invalid", "empty"},
		{ann, "players", " \t ", 422, "invalid", "empty"},
		{ann, "players", strings.Repeat("é", 281), 422, "invalid", "281 characters"},
		{ann, "lounge", "hi", 422, "invalid", "room"},
		{ann, "spectators", "hi", 403, "forbidden", "Players do not write"},
		{cy, "players", "hi", 403, "forbidden", "Only the players"},
	} {
		msg := c.who.refused(c.status, c.code, "POST", chat, map[string]string{"room": c.room, "text": c.text})
		if !strings.Contains(msg, c.phrase) {
			t.Errorf("%q in %s: %q, want it to say %q", c.text, c.room, msg, c.phrase)
		}
	}
	cy.must(201, "POST", chat, map[string]string{"room": "spectators", "text": "nice opening"}, nil)
	cy.refused(404, "not_found", "POST", "/api/games/nope/chat", map[string]string{"room": "spectators", "text": "hi"})
	// Ten messages a minute, then 429.
	for i := range 9 {
		ann.must(201, "POST", chat, map[string]string{"room": "players", "text": "line " + string(rune('a'+i))}, nil)
	}
	ann.refused(429, "rate_limited", "POST", chat, map[string]string{"room": "players", "text": "one too many"})
}

func TestBlockBoundsChallengesSeeksAndChat(t *testing.T) {
	ts := newAccountServer(t)
	ann, bob, cy := ts.signUp("ann"), ts.signUp("bob"), ts.signUp("cy")
	id := casualGame(t, ann, bob)
	var seek struct{ ID string }
	bob.must(201, "POST", "/api/seeks", map[string]any{"game": "eximo", "clock": map[string]int{"days": 3}}, &seek)
	ann.refused(422, "invalid", "POST", "/api/blocks", map[string]string{"name": "ann"})
	ann.refused(404, "not_found", "POST", "/api/blocks", map[string]string{"name": "nobody"})
	ann.must(204, "POST", "/api/blocks", map[string]string{"name": "bob"}, nil)
	ann.must(204, "POST", "/api/blocks", map[string]string{"name": "BOB"}, nil) // again: nothing changes
	var list struct{ Blocks []blockedView }
	ann.must(200, "GET", "/api/blocks", nil, &list)
	if len(list.Blocks) != 1 || list.Blocks[0].Name != "bob" {
		t.Fatalf("Ann's blocks: %+v, want bob once", list.Blocks)
	}
	// Either way: no challenge, no seek joined, none shown, no chat.
	for _, c := range []struct {
		who  *member
		path string
		body any
	}{
		{bob, "/api/seeks", map[string]any{"game": "pommel", "to": "ann"}},
		{ann, "/api/seeks", map[string]any{"game": "pommel", "to": "bob"}},
		{ann, "/api/seeks/" + seek.ID + "/accept", nil},
		{bob, "/api/games/" + id + "/chat", map[string]string{"room": "players", "text": "hi"}},
		{ann, "/api/games/" + id + "/chat", map[string]string{"room": "players", "text": "hi"}},
	} {
		c.who.refused(403, "blocked", "POST", c.path, c.body)
	}
	for _, who := range []*member{ann, bob} {
		var seeks []seekView
		who.must(200, "GET", "/api/seeks", nil, &seeks)
		for _, s := range seeks {
			if s.By == "ann" && who == bob || s.By == "bob" && who == ann {
				t.Errorf("%s is shown %s's seek %s through a block", who.name, s.By, s.ID)
			}
		}
	}
	var cySeeks []seekView
	cy.must(200, "GET", "/api/seeks", nil, &cySeeks)
	if len(cySeeks) != 1 || cySeeks[0].ID != seek.ID {
		t.Errorf("Cy, blocking no one, sees %+v, want Bob's seek", cySeeks)
	}
	ann.must(204, "DELETE", "/api/blocks/bob", nil, nil)
	bob.must(201, "POST", "/api/games/"+id+"/chat", map[string]string{"room": "players", "text": "friends again"}, nil)
}

func TestReportsAndModeration(t *testing.T) {
	ts := newAccountServer(t)
	ann, bob, mod := ts.signUp("ann"), ts.signUp("bob"), ts.signUp("mod")
	id := casualGame(t, ann, bob)
	var m chatMessageView
	bob.must(201, "POST", "/api/games/"+id+"/chat", map[string]string{"room": "players", "text": "rude"}, &m)
	ann.refused(422, "invalid", "POST", "/api/reports", map[string]string{"account": "bob", "reason": "no"})
	ann.refused(422, "invalid", "POST", "/api/reports", map[string]string{"account": "ann", "reason": "myself, why not"})
	ann.refused(404, "not_found", "POST", "/api/reports", map[string]string{"message": "nope", "reason": "a message"})
	ann.refused(422, "invalid", "POST", "/api/reports", map[string]string{"account": "mod", "message": m.ID, "reason": "not mod's"})
	var rep struct{ ID string }
	ann.must(201, "POST", "/api/reports", map[string]string{"account": "bob", "game": id, "message": m.ID, "reason": "rude words"}, &rep)
	if code, _ := ts.do("POST", "/api/reports", "", map[string]string{"account": "bob", "reason": "anonymous"}); code != 401 {
		t.Errorf("a visitor's report answers %d, want 401", code)
	}
	// Only moderators: the role is the command line's.
	for _, path := range []string{"/api/mod/reports", "/api/mod/log"} {
		mod.refused(403, "forbidden", "GET", path, nil)
	}
	mod.refused(403, "forbidden", "POST", "/api/mod/actions", map[string]any{"account": "bob", "action": "ban", "reason": "no role"})
	grant(t, ts, "mod")
	var reports struct{ Reports []reportView }
	mod.must(200, "GET", "/api/mod/reports", nil, &reports)
	if len(reports.Reports) != 1 || reports.Reports[0].Message == nil || reports.Reports[0].Message.Text != "rude" || reports.Reports[0].Reporter != "ann" {
		t.Fatalf("the moderator reads %+v, want Ann's report with Bob's message", reports.Reports)
	}
	for _, c := range []struct {
		body   map[string]any
		phrase string
	}{
		{map[string]any{"account": "bob", "action": "smite", "reason": "what"}, "action"},
		{map[string]any{"account": "bob", "action": "mute", "reason": "too long", "minutes": 43201}, "mute for 1 to 43200"},
		{map[string]any{"account": "bob", "action": "mute", "reason": "none", "minutes": 0}, "mute for"},
		{map[string]any{"account": "bob", "action": "mute", "reason": "negative", "minutes": -5}, "mute for"},
		{map[string]any{"account": "bob", "action": "ban", "reason": ""}, "reason"},
		{map[string]any{"account": "mod", "action": "ban", "reason": "myself"}, "own account"},
		{map[string]any{"account": "bob", "action": "remove", "reason": "no message"}, "message"},
	} {
		if msg := mod.refused(422, "invalid", "POST", "/api/mod/actions", c.body); !strings.Contains(msg, c.phrase) {
			t.Errorf("%v: %q, want it to say %q", c.body, msg, c.phrase)
		}
	}
	mod.refused(404, "not_found", "POST", "/api/mod/actions", map[string]any{"account": "bob", "action": "dismiss", "reason": "gone", "report": "nope"})
	mod.refused(400, "bad_request", "POST", "/api/mod/actions", map[string]any{"account": "bob", "action": "mute", "reason": "huge", "minutes": json.Number("1e400")})

	// A mute: no chat, with the reason; play goes on.
	mod.must(204, "POST", "/api/mod/actions", map[string]any{"account": "bob", "action": "mute", "reason": "cool off", "minutes": 30}, nil)
	if msg := bob.refused(403, "muted", "POST", "/api/games/"+id+"/chat", map[string]string{"room": "players", "text": "hi"}); !strings.Contains(msg, "cool off") {
		t.Errorf("the mute's refusal %q does not give its reason", msg)
	}
	var who sessionBody
	bob.must(200, "GET", "/api/session", nil, &who)
	if who.MuteReason != "cool off" || who.MutedUntil == 0 {
		t.Errorf("Bob's session says %+v, want the mute and its reason", who)
	}
	// A ban from the report: the report closes, the sessions end, and a
	// login again is refused play with the reason.
	mod.must(204, "POST", "/api/mod/actions", map[string]any{"account": "bob", "action": "ban", "reason": "abuse", "report": rep.ID}, nil)
	mod.must(200, "GET", "/api/mod/reports", nil, &reports)
	if len(reports.Reports) != 0 {
		t.Errorf("the report is still open after the ban: %+v", reports.Reports)
	}
	bob.refused(401, "unauthorized", "GET", "/api/session", nil)
	var g gameAnswer
	ann.must(200, "GET", "/api/games/"+id, nil, &g)
	if g.Result == nil || g.Result.Reason != "resignation" || len(g.Result.Winners) != 1 || g.Seats[g.Result.Winners[0]].Account != "ann" {
		t.Errorf("the banned account's game in play ends %+v, want resigned, Ann the winner", g.Result)
	}
	bob.must(200, "POST", "/api/session", map[string]string{"name": "bob", "password": "correct-horse-bob"}, nil)
	bob.must(200, "GET", "/api/session", nil, &who)
	if who.Banned != "abuse" {
		t.Errorf("Bob's session says %+v, want the ban's reason", who)
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/games/" + id + "/chat", map[string]string{"room": "players", "text": "hi"}},
		{"POST", "/api/seeks", map[string]any{"game": "pommel"}},
		{"POST", "/api/games", map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}}},
		{"POST", "/api/games/" + id + "/resign", nil},
	} {
		if msg := bob.refused(403, "banned", c.method, c.path, c.body); !strings.Contains(msg, "abuse") {
			t.Errorf("%s %s: %q, want the ban's reason", c.method, c.path, msg)
		}
	}
	var log struct{ Log []modLogView }
	mod.must(200, "GET", "/api/mod/log?account=bob", nil, &log)
	if len(log.Log) != 2 || log.Log[0].Action != "ban" || log.Log[0].Moderator != "mod" || log.Log[1].Action != "mute" {
		t.Errorf("the audit log of Bob: %+v, want the ban then the mute, by mod", log.Log)
	}
	mod.must(200, "GET", "/api/mod/log", nil, &log)
	if last := log.Log[len(log.Log)-1]; last.Action != "grant" || last.Moderator != "(command line)" {
		t.Errorf("the log's first line is %+v, want the command line's grant", last)
	}
	// Closed: the right password no longer signs in.
	mod.must(204, "POST", "/api/mod/actions", map[string]any{"account": "ann", "action": "close", "reason": "asked to"}, nil)
	if msg := ann.refused(403, "forbidden", "POST", "/api/session", map[string]string{"name": "ann", "password": "correct-horse-ann"}); !strings.Contains(msg, "asked to") {
		t.Errorf("a closed account's login: %q, want the reason", msg)
	}
}

func TestChatOverTheSocket(t *testing.T) {
	ts := newAccountServer(t)
	ann, bob, cy := ts.signUp("ann"), ts.signUp("bob"), ts.signUp("cy")
	id := casualGame(t, ann, bob)
	dial := func(m *member) *websocket.Conn {
		header := http.Header{}
		if m != nil {
			for _, c := range m.c.Jar.Cookies(mustParse(ts.http.URL)) {
				header.Add("Cookie", c.String())
			}
		}
		conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPHeader: header})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.CloseNow() })
		readEvent(t, conn, "game") // the hello
		return conn
	}
	annWS, bobWS, cyWS, visitorWS := dial(ann), dial(bob), dial(cy), dial(nil)
	send := func(c *websocket.Conn, v any) {
		data, _ := json.Marshal(v)
		if err := c.Write(context.Background(), websocket.MessageText, data); err != nil {
			t.Fatal(err)
		}
	}
	send(annWS, map[string]string{"type": "chat", "room": "players", "text": "over the socket", "id": "c1"})
	if ev := readEvent(t, annWS, "ack", "chat"); ev.Type == "chat" {
		readEvent(t, annWS, "ack")
	}
	if ev := readEvent(t, bobWS, "chat"); ev.Chat == nil || ev.Chat.Text != "over the socket" || ev.Chat.By != "ann" {
		t.Fatalf("Bob's socket got %+v, want Ann's message", ev)
	}
	send(cyWS, map[string]string{"type": "chat", "room": "spectators", "text": "from the stands"})
	if ev := readEvent(t, visitorWS, "chat"); ev.Chat == nil || ev.Chat.Text != "from the stands" {
		t.Fatalf("the visitor's socket got %+v, want Cy's message", ev)
	}
	// The players hear nothing of the spectators' room while they play:
	// Ann's next event is her own next message, not Cy's.
	send(annWS, map[string]string{"type": "chat", "room": "players", "text": "second"})
	if ev := readEvent(t, annWS, "chat"); ev.Chat == nil || ev.Chat.Text != "second" {
		t.Errorf("Ann's socket got %+v, want her own second message (no spectators' talk)", ev)
	}
	send(visitorWS, map[string]string{"type": "chat", "room": "spectators", "text": "anonymous", "id": "v1"})
	if ev := readEvent(t, visitorWS, "error"); ev.Status != 401 || ev.ID != "v1" {
		t.Errorf("a visitor's chat over the socket: %+v, want a 401 refusal with its id", ev)
	}
}

// TestChatAcrossServers: a message written on one server reaches the
// sockets of another sharing the store, once.
func TestChatAcrossServers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var servers [2]*testServer
	params := cheapHash
	for i := range servers {
		st, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		servers[i] = newTestServer(t, siteConfig{Store: st, PasswordHash: &params})
	}
	ada, bob := servers[0].signUp("ada"), servers[1].signUp("bob")
	id := casualGame(t, ada, bob)
	header := http.Header{}
	for _, c := range ada.c.Jar.Cookies(mustParse(servers[0].http.URL)) {
		header.Add("Cookie", c.String())
	}
	conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(servers[0].http.URL, "http")+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	readEvent(t, conn, "game")
	bob.must(201, "POST", "/api/games/"+id+"/chat", map[string]string{"room": "players", "text": "from the other server"}, nil)
	if ev := readEvent(t, conn, "chat"); ev.Chat == nil || ev.Chat.Text != "from the other server" || ev.Chat.By != "bob" {
		t.Fatalf("Ada's socket got %+v, want Bob's message from the other server", ev)
	}
	ada.must(201, "POST", "/api/games/"+id+"/chat", map[string]string{"room": "players", "text": "and back"}, nil)
	// Her own message comes once: from this server, not again from the
	// store.
	if ev := readEvent(t, conn, "chat"); ev.Chat == nil || ev.Chat.Text != "and back" {
		t.Fatalf("Ada's socket got %+v, want her own message", ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			break // nothing more within the window's reads: once
		}
		if strings.Contains(string(data), `"type":"chat"`) {
			t.Fatalf("a message came twice: %s", data)
		}
	}
}

// readEvent reads the socket's events until one of the types wanted,
// within 10 s.
func readEvent(t *testing.T, c *websocket.Conn, types ...string) event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for %v: %v", types, err)
		}
		var ev struct {
			event
			Chat  *chatMessageView `json:"chat"`
			Error *apiError        `json:"error"`
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			t.Fatal(err)
		}
		for _, want := range types {
			if ev.Type == want {
				out := ev.event
				out.Chat, out.Error = ev.Chat, ev.Error
				return out
			}
		}
	}
}
