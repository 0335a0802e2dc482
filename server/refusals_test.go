package server

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/notify/notifytest"
)

// The fields a request body of some endpoint has, and the query
// parameters some endpoint reads: each is sent to every endpoint.
var (
	bodyFields = []string{"game", "seats", "names", "clock", "days", "fen", "options", "rated", "move", "ply",
		"action", "seat", "name", "password", "old", "new", "cell", "stack", "toMove", "clear", "moves", "movetime",
		"lines", "to", "token", "id", "ceremony", "games", "address", "endpoint", "keys", "prefs"}
	queryParams = []string{"ceremony", "game", "move", "name", "ply", "turn", "before", "limit", "fen", "moves",
		"options", "lines", "movetime", "token"}
)

// TestEveryRefusalIsShort: 60 KB of text in any field of any endpoint's
// body, in any query parameter, in a path segment or a header is refused
// in under 1 KB that quotes at most 80 characters of it (a long clock, the
// editor's cell and stack, and /api/boards/...?turn= each echoed all
// 60 KB).
func TestEveryRefusalIsShort(t *testing.T) {
	t.Parallel()
	// Thousands of requests, each with the long text: -short sends 4 KB
	// (four times a refusal's bound, 50 times what may be quoted), which
	// any echo still shows, and a sixth of the JSON to read.
	size := 60_000
	if testing.Short() {
		size = 4_000
	}
	params := cheapHash
	many := 1_000_000
	ts := newTestServer(t, siteConfig{PasswordHash: &params, Limits: Limits{MovesPerSecond: float64(many), MoveBurst: many,
		GamesPerHour: many, ReadsPerSecond: float64(many), ReadBurst: many}, Notify: notifyConfig(t, notifytest.NewMailbox(t))})
	const x = "x"
	huge := strings.Repeat(x, size)
	leak := strings.Repeat(x, 81)
	g := ts.twoHumans()
	open := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "open"}})
	m := ts.signUp("ada")
	// A refusal of the API is under 1 KB; a page (the HTML of a 404) or an
	// answer that is not a refusal may be longer. None quotes more than 80
	// characters.
	check := func(what string, code int, body []byte) {
		t.Helper()
		refusal := code >= 400 && !bytes.HasPrefix(body, []byte("<!doctype html>"))
		if refusal && len(body) >= 1024 || bytes.Contains(body, []byte(leak)) {
			t.Errorf("%s: %d, a refusal of %d bytes: %.300s", what, code, len(body), body)
		}
	}
	send := func(method, path string, headers http.Header, body []byte) (int, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, ts.http.URL+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		maps.Copy(req.Header, headers)
		resp, err := m.c.Do(req) // signed in, so the account's endpoints read their bodies too
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, data
	}
	jsonHeaders := func(token string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}}
		if token != "" {
			h.Set("Authorization", "Bearer "+token)
		}
		return h
	}
	// Each POST endpoint, with a body that gets past the first checks.
	posts := []struct {
		path, token string
		base        map[string]any
	}{
		{"/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}}},
		{"/api/games/" + g.ID + "/moves", g.Seats[0].Token, map[string]any{"move": "a1-a2", "ply": 0}},
		{"/api/games/" + g.ID + "/resign", g.Seats[0].Token, map[string]any{}},
		{"/api/games/" + g.ID + "/draw", g.Seats[0].Token, map[string]any{"action": "offer"}},
		{"/api/games/" + open.ID + "/join", "", map[string]any{"seat": 1, "name": "Bob"}},
		{"/api/accounts", "", map[string]any{"name": "bob", "password": "correct-horse-bob"}},
		{"/api/session", "", map[string]any{"name": "ada", "password": "correct-horse-ada"}},
		{"/api/account/password", "", map[string]any{"old": "correct-horse-ada", "new": "another-horse-ada"}},
		{"/api/account/claim", "", map[string]any{"token": g.Seats[1].Token}},
		{"/api/analysis/pommel/best", "", map[string]any{"movetime": 100}},
		{"/api/analysis/pommel/stream", "", map[string]any{"movetime": 100}},
		{"/api/analysis/pommel/edit", "", map[string]any{"cell": "a1"}},
		{"/api/seeks", "", map[string]any{"game": "pommel", "clock": map[string]any{"initial": 300, "increment": 2}}},
		{"/api/seeks/none/accept", "", map[string]any{}},
		{"/api/account/passkeys/begin", "", map[string]any{}},
		{"/api/account/passkeys/finish", "", map[string]any{}},
		{"/api/session/passkey/begin", "", map[string]any{}},
		{"/api/session/passkey/finish", "", map[string]any{}},
		{"/api/account/push", "", map[string]any{"endpoint": "https://push.example.org/x", "keys": map[string]string{"p256dh": validKey, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}},
		{"/api/email/verify", "", map[string]any{"token": "x"}},
		{"/api/password/forgot", "", map[string]any{"name": "ada"}},
		{"/api/password/reset", "", map[string]any{"token": "x", "password": "a brand new password"}},
	}
	shapes := []func() any{
		func() any { return huge },
		func() any { return []string{huge} },
		func() any { return []string{"human", "ab:" + huge} },
		func() any { return map[string]string{"hop": huge} },
		func() any { return map[string]string{huge: "1"} },
		func() any { return map[string]any{"initial": huge} },
	}
	for _, p := range posts {
		for _, field := range bodyFields {
			for _, shape := range shapes {
				body := maps.Clone(p.base)
				body[field] = shape()
				data, err := json.Marshal(body)
				if err != nil {
					t.Fatal(err)
				}
				code, got := send("POST", p.path, jsonHeaders(p.token), data)
				check("POST "+p.path+" "+field, code, got)
			}
		}
		// A field name of 60 KB, a body that is not JSON, a huge content type.
		code, got := send("POST", p.path, jsonHeaders(p.token), []byte(`{"`+huge+`":1}`))
		check("POST "+p.path+" a long field name", code, got)
		code, got = send("POST", p.path, jsonHeaders(p.token), []byte(huge))
		check("POST "+p.path+" not JSON", code, got)
		code, got = send("POST", p.path, http.Header{"Content-Type": {huge}}, []byte("{}"))
		check("POST "+p.path+" a long Content-Type", code, got)
		code, got = send("POST", p.path, jsonHeaders(huge), []byte("{}"))
		check("POST "+p.path+" a long token", code, got)
	}
	// The PUT endpoints, each field long.
	for _, p := range []struct {
		path string
		base map[string]any
	}{
		{"/api/account/notifications", map[string]any{"prefs": map[string]any{"turn": map[string]bool{"push": true}}}},
		{"/api/account/email", map[string]any{"address": "ada@example.org"}},
	} {
		for _, field := range bodyFields {
			for _, shape := range shapes {
				body := maps.Clone(p.base)
				body[field] = shape()
				data, _ := json.Marshal(body)
				code, got := send("PUT", p.path, jsonHeaders(""), data)
				check("PUT "+p.path+" "+field, code, got)
			}
		}
	}
	code, got := send("POST", "/unsubscribe?"+url.Values{"token": {huge}}.Encode(), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
		[]byte("List-Unsubscribe=One-Click"))
	check("POST /unsubscribe a long token", code, got)
	code, got = send("POST", "/unsubscribe", http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, []byte("List-Unsubscribe="+huge))
	check("POST /unsubscribe a long body", code, got)
	// Each GET and DELETE endpoint, with each query parameter long, and
	// with a long path segment.
	for _, path := range []string{
		"/api/games", "/api/games/" + g.ID, "/api/games/" + g.ID + "/record", "/api/games/" + g.ID + "/effects",
		"/api/games/" + g.ID + "/position", "/api/boards/" + ts.srv.boardOf(t, "pommel"), "/api/analysis/pommel",
		"/api/users/ada", "/api/users/ada/games", "/api/users/ada/history", "/api/leaderboard/pommel",
		"/api/session", "/api/account/export", "/api/account/turn", "/api/account/games", "/api/account/passkeys",
		"/api/learn", "/api/learn/pommel", "/api/learn/pommel/1", "/api/seeks", "/api/catalog",
		"/analysis/pommel", "/play/" + g.ID, "/games/" + g.ID, "/rules/pommel", "/learn/pommel",
		"/api/account/notifications", "/forgot", "/reset-password", "/verify-email", "/unsubscribe",
	} {
		for _, param := range queryParams {
			code, got := send("GET", path+"?"+url.Values{param: {huge}}.Encode(), nil, nil)
			check("GET "+path+"?"+param, code, got)
		}
	}
	for _, path := range []string{"/api/games/%s", "/api/games/%s/record", "/api/games/%s/position", "/api/boards/%s",
		"/api/analysis/%s", "/api/users/%s", "/api/users/%s/games", "/api/leaderboard/%s", "/api/learn/%s",
		"/api/learn/pommel/%s", "/api/nothing/%s", "/rules/%s", "/analysis/%s", "/play/%s", "/%s"} {
		p := strings.Replace(path, "%s", huge, 1)
		for _, method := range []string{"GET", "POST", "DELETE"} {
			code, got := send(method, p, jsonHeaders(""), []byte("{}"))
			check(method+" "+path, code, got)
		}
	}
	for _, path := range []string{"/api/seeks/" + huge, "/api/account/passkeys/" + huge, "/api/account/push/" + huge, "/api/account/email",
		"/api/session", "/api/account/sessions"} {
		code, got := send("DELETE", path, nil, nil)
		check("DELETE "+path[:min(len(path), 40)], code, got)
	}
}

// TestRefusalMessagesAreCut: however long a refusal's message, what the
// client gets is cut at maxMessage bytes on a rune boundary, still JSON,
// still UTF-8.
func TestRefusalMessagesAreCut(t *testing.T) {
	for _, msg := range []string{"short", strings.Repeat("é", 30_000), strings.Repeat("a", maxMessage-1) + "日本"} {
		rec := httptest.NewRecorder()
		writeError(rec, fail(codeInvalid, "%s", msg))
		var got struct{ Error apiError }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatalf("%.20s…: %v", msg, err)
		}
		m := got.Error.Message
		if len(m) > maxMessage || !utf8.ValidString(m) || got.Error.Code != codeInvalid ||
			len(msg) <= maxMessage && m != msg || len(msg) > maxMessage && !strings.HasSuffix(m, "…") {
			t.Errorf("%.20s… (%d bytes): sent as %d bytes %.40q…", msg, len(msg), len(m), m)
		}
	}
}
