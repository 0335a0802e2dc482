package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

func TestPagesServeTheClient(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	id := ts.twoHumans().ID
	for _, tc := range []struct{ path, want string }{
		{"/", `data-page="home"`},
		{"/games/" + id, `data-page="game"`},
		{"/play/" + id + "?seat=1", `data-page="game"`},
	} {
		resp, err := http.Get(ts.http.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, _ = body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(body.String(), tc.want) || !strings.Contains(body.String(), `src="`+hashedAsset(t, "app.js")+`"`) {
			t.Errorf("GET %s: %d, want the page with %s and the bundle", tc.path, resp.StatusCode, tc.want)
		}
		if strings.Contains(body.String(), "<script>") || strings.Contains(body.String(), "style=") {
			t.Errorf("GET %s: inline script or style, which the CSP forbids", tc.path)
		}
	}
	for _, tc := range []struct {
		path        string
		status      int
		contentType string
	}{
		{"/assets/app.js", 200, "text/javascript"},
		{"/assets/app.css", 200, "text/css"},
		{"/assets/nosuch.js", 404, ""},
	} {
		resp, err := http.Get(ts.http.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.contentType) {
			t.Errorf("GET %s: %d %q, want %d %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, tc.contentType)
		}
		if resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no CSP", tc.path)
		}
	}
}

func TestCatalog(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	code, body := ts.do("GET", "/api/catalog", "", nil)
	var got []catalogGame
	if err := json.Unmarshal(body, &got); err != nil || code != 200 {
		t.Fatalf("GET /api/catalog: %d %s", code, body)
	}
	if len(got) != len(game.All()) {
		t.Fatalf("%d games in the catalog, want %d", len(got), len(game.All()))
	}
	for _, c := range got {
		d, ok := game.Lookup(c.ID)
		if !ok {
			t.Fatalf("catalog lists unknown game %q", c.ID)
		}
		if c.Board != ts.srv.boardOf(t, c.ID) || c.Players != d.Players || len(c.Seats) != d.Players || c.Summary != d.Summary {
			t.Errorf("%s: catalog %+v does not match its descriptor", c.ID, c)
		}
		if len(c.Options) != len(d.AllOptions()) || !strings.Contains(string(body), `"key":"maxplies"`) {
			t.Errorf("%s: options %+v, want every option, maxplies included", c.ID, c.Options)
		}
	}
}

func TestPosition(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	resp := ts.create(map[string]any{"game": "checkers-2011", "seats": []string{"human", "human"}})
	for ply, m := range []string{"a2-a3", "a7-a6", "a1-a2", "a6-a5", "a2-b3", "a5-a4", "a3xa5"} {
		if code, msg := ts.move(resp.ID, resp.Seats[ply%2].Token, m, ply); code != 200 {
			t.Fatalf("move %s: %d %s", m, code, msg)
		}
	}
	read := func(query string) positionView {
		t.Helper()
		code, body := ts.do("GET", "/api/games/"+resp.ID+"/position"+query, "", nil)
		var v positionView
		if err := json.Unmarshal(body, &v); err != nil || code != 200 {
			t.Fatalf("position%s: %d %s", query, code, body)
		}
		return v
	}
	now := read("")
	if now.Board != "square8x8" || now.Ply != 7 || now.ToMove != 1 || now.Stacks["a5"] != "bw" || now.Stacks["a3"] != "" || len(now.Stacks) != 31 {
		t.Errorf("after a3xa5: %+v, want a5 a stack bw (Black's prisoner under White), a3 empty, 31 stacks, Black to move", now)
	}
	start := read("?ply=0")
	if start.Ply != 0 || start.ToMove != 0 || start.Stacks["a1"] != "w" || start.Stacks["h8"] != "b" || len(start.Stacks) != 32 {
		t.Errorf("start: %+v, want 32 single pieces, White to move", start)
	}
	for _, tc := range []struct{ path, code string }{
		{"/api/games/" + resp.ID + "/position?ply=x", "invalid"},
		{"/api/games/" + resp.ID + "/position?ply=8", "invalid"},
		{"/api/games/" + resp.ID + "/position?ply=-1", "invalid"},
		{"/api/games/nosuchgame00/position", "not_found"},
	} {
		if _, body := ts.do("GET", tc.path, "", nil); errorCode(body) != tc.code {
			t.Errorf("GET %s: %s, want %s", tc.path, body, tc.code)
		}
	}
}

func TestPositionScores(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	resp := ts.create(map[string]any{"game": "punt-heks-match-3p", "seats": []string{"human", "human", "human"}})
	code, body := ts.do("GET", "/api/games/"+resp.ID+"/position", "", nil)
	var v positionView
	if err := json.Unmarshal(body, &v); err != nil || code != 200 {
		t.Fatalf("position: %d %s", code, body)
	}
	if len(v.Scores) != 3 || !strings.Contains(strings.Join(mapValues(v.Stacks), ""), "r") {
		t.Errorf("three-player Punt: %+v, want 3 scores and Red's pieces as r", v)
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
