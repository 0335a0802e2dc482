package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestAPIMovers: a game set up with the second seat to move shows, in
// GET's movers, the seat that made each move, and its record gives the
// first move to that seat ("1...").
func TestAPIMovers(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	const fen = "B:Wa2,a3,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"
	c := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "fen": fen})
	for ply, m := range []struct {
		seat int
		move string
	}{{1, "a5-a4"}, {0, "a3xa5"}} {
		if code, msg := ts.move(c.ID, c.Seats[m.seat].Token, m.move, ply); code != http.StatusOK {
			t.Fatalf("move %s: %d %s", m.move, code, msg)
		}
	}
	code, body := ts.do("GET", "/api/games/"+c.ID, "", nil)
	var v struct {
		Movers []int `json:"movers"`
	}
	if err := json.Unmarshal(body, &v); code != http.StatusOK || err != nil {
		t.Fatalf("GET: %d %v %s", code, err, body)
	}
	if !slices.Equal(v.Movers, []int{1, 0}) {
		t.Errorf("movers %v, want [1,0]: %s", v.Movers, body)
	}
	_, record := ts.do("GET", "/api/games/"+c.ID+"/record", "", nil)
	if !strings.Contains(string(record), "\n1... a5-a4 2. a3xa5 *") {
		t.Errorf("the record numbers the moves otherwise:\n%s", record)
	}
}

// TestLogRequestsAtDebugLevel: a request is logged at debug level only,
// so that the log at the default level is not one line per file a browser
// fetches; at debug level it is one line, with its path and status.
func TestLogRequestsAtDebugLevel(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs bytes.Buffer
		ts := newTestServer(t, siteConfig{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: level}))})
		before := logs.Len() // what the start logs
		if code, body := ts.do("GET", "/api/games/nosuchgame", "", nil); code != http.StatusNotFound {
			t.Fatalf("GET: %d %s", code, body)
		}
		written := logs.String()[before:]
		lines := strings.Count(written, "msg=request")
		switch {
		case level == slog.LevelInfo && written != "":
			t.Errorf("at info level a request logged %q", written)
		case level == slog.LevelDebug && (lines != 1 || !strings.Contains(written, `path=/api/games/nosuchgame status=404`)):
			t.Errorf("at debug level a request logged %q, want one request line", written)
		}
	}
}
