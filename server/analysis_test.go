package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// analysis reads GET /api/analysis/{id} and fails unless it answers 200.
func (ts *testServer) analysis(id string, q url.Values) analysisView {
	ts.t.Helper()
	code, body := ts.do("GET", "/api/analysis/"+id+"?"+q.Encode(), "", nil)
	if code != http.StatusOK {
		ts.t.Fatalf("GET analysis %s %v: %d %s", id, q, code, body)
	}
	var v analysisView
	if err := json.Unmarshal(body, &v); err != nil {
		ts.t.Fatal(err)
	}
	return v
}

// refusal is an error answer's message.
func refusal(t *testing.T, body []byte) apiError {
	t.Helper()
	var e struct {
		Error apiError `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("not an error answer: %s", body)
	}
	return e.Error
}

// TestAnalysisPositions: every game's start, the same position reached
// by moves or by its FEN, and the end of a game.
func TestAnalysisPositions(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	for _, d := range game.All() {
		rules, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		start := ts.analysis(d.ID, nil)
		if !slices.Equal(start.Legal, game.MoveTexts(rules.Start())) || start.FEN != rules.Start().FEN() || start.ToMove != 0 {
			t.Errorf("%s start: %+v", d.ID, start)
		}
		want, _ := position(rules.Start(), 0)
		if len(start.Stacks) != len(want.Stacks) || start.Board != want.Board {
			t.Errorf("%s start stacks %v, want %v", d.ID, start.Stacks, want.Stacks)
		}
		moves := []string{start.Legal[0]}
		after := ts.analysis(d.ID, url.Values{"moves": {strings.Join(moves, " ")}})
		fromFEN := ts.analysis(d.ID, url.Values{"fen": {after.FEN}})
		if after.FEN == start.FEN || !slices.Equal(after.Legal, fromFEN.Legal) || after.ToMove != fromFEN.ToMove || after.ToMove != 1 {
			t.Errorf("%s: after %v %+v, from its FEN %+v", d.ID, moves, after, fromFEN)
		}
	}
	// A game cut short by its ply cap is over, with its result.
	over := ts.analysis("pommel", url.Values{"options": {"maxplies=2"}, "moves": {"a1-a3,a5-a4"}})
	if over.Result == nil || len(over.Legal) != 0 || over.Ended == "" {
		t.Errorf("pommel at its ply cap: %+v, want a result and no legal move", over)
	}
}

func TestAnalysisRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	rules, _ := game.New("pommel", nil)
	_, fenErr := rules.ParseFEN("W:Wzz9")
	if fenErr == nil {
		t.Fatal("the parser takes W:Wzz9")
	}
	for _, tc := range []struct {
		name, path  string
		status      int
		code, match string
	}{
		{"bad FEN", "/api/analysis/pommel?fen=" + url.QueryEscape("W:Wzz9"), 422, codeInvalid, fenErr.Error()},
		{"illegal move", "/api/analysis/pommel?moves=a1-a3+a1-a8", 422, codeIllegalMove, `move 2 "a1-a8" is illegal`},
		{"bad option", "/api/analysis/pommel?options=hop=sideways", 422, codeInvalid, "hop"},
		{"malformed option", "/api/analysis/pommel?options=hop", 422, codeInvalid, "options:"},
		{"unknown game", "/api/analysis/chess", 404, codeNotFound, "want one of checkers-2011"},
	} {
		code, body := ts.do("GET", tc.path, "", nil)
		e := refusal(t, body)
		if code != tc.status || e.Code != tc.code || !strings.Contains(e.Message, tc.match) {
			t.Errorf("%s: %d %+v, want %d %s with %q", tc.name, code, e, tc.status, tc.code, tc.match)
		}
	}
}

func TestAnalysisBestRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
		match  string
	}{
		{"movetime too long", map[string]any{"movetime": 5001}, 422, codeInvalid, "want 100 to 5000 milliseconds"},
		{"movetime too short", map[string]any{"movetime": 99}, 422, codeInvalid, "want 100 to 5000 milliseconds"},
		{"negative movetime", map[string]any{"movetime": -1}, 422, codeInvalid, "movetime -1"},
		{"bad FEN", map[string]any{"fen": "nonsense"}, 422, codeInvalid, ""},
		{"illegal move", map[string]any{"moves": []string{"a1-a8"}}, 422, codeIllegalMove, `"a1-a8"`},
		{"game over", map[string]any{"options": map[string]string{"maxplies": "2"}, "moves": []string{"a1-a3", "a5-a4"}}, 409, codeGameOver, "no move to search"},
		{"unknown field", map[string]any{"depth": 3}, 400, codeBadRequest, "depth"},
		{"not JSON", "movetime=100", 400, codeBadRequest, ""},
	} {
		code, body := ts.do("POST", "/api/analysis/pommel/best", "", tc.body)
		e := refusal(t, body)
		if code != tc.status || e.Code != tc.code || !strings.Contains(e.Message, tc.match) {
			t.Errorf("%s: %d %+v, want %d %s with %q", tc.name, code, e, tc.status, tc.code, tc.match)
		}
	}
}

// TestAnalysisBest: the engine answers a legal move of the position, its
// line starting with it, within its time.
func TestAnalysisBest(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	moves := []string{"a1-a3"}
	pos := ts.analysis("pommel", url.Values{"moves": {"a1-a3"}})
	start := time.Now()
	code, body := ts.do("POST", "/api/analysis/pommel/best", "", map[string]any{"moves": moves, "movetime": 200})
	var v bestView
	if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
		t.Fatalf("best: %d %s", code, body)
	}
	if !slices.Contains(pos.Legal, v.Move) || len(v.Line) == 0 || v.Line[0] != v.Move || v.Depth < 1 || v.ScoreText == "" {
		t.Errorf("best %+v: want a legal move of %v leading its line", v, pos.Legal)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a 200 ms search took %s", took)
	}
}

// TestAnalysisOneSearchPerClient: a client's second search while its
// first runs is refused, and allowed again once the first answered.
func TestAnalysisOneSearchPerClient(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	done := make(chan int)
	go func() {
		code, _ := ts.do("POST", "/api/analysis/eximo/best", "", map[string]any{"movetime": 500})
		done <- code
	}()
	waitFor(t, 5*time.Second, "the first search", func() bool {
		_, running := ts.srv.analysis.Load()
		return running == 1
	})
	code, body := ts.do("POST", "/api/analysis/eximo/best", "", map[string]any{"movetime": 100})
	if e := refusal(t, body); code != http.StatusTooManyRequests || e.Code != codeRateLimited {
		t.Errorf("a second search at once: %d %s, want 429", code, body)
	}
	if first := <-done; first != http.StatusOK {
		t.Fatalf("the first search: %d", first)
	}
	if code, body := ts.do("POST", "/api/analysis/eximo/best", "", map[string]any{"movetime": 100}); code != http.StatusOK {
		t.Errorf("a search after the first: %d %s", code, body)
	}
}

func TestAnalysisPageServed(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	code, body := ts.do("GET", "/analysis/pommel?moves=a1-a3", "", nil)
	if code != http.StatusOK || !strings.Contains(string(body), `data-page="analysis"`) || !strings.Contains(string(body), `src="`+hashedAsset(t, "app.js")+`"`) {
		t.Errorf("GET /analysis/pommel: %d %s", code, body)
	}
}

// sseEvent is one Server-Sent Event: its name and its data.
type sseEvent struct {
	name string
	data []byte
}

// streamSearch posts body to /stream and reads its events to the end;
// a refusal returns its status and body instead.
func (ts *testServer) streamSearch(id string, body any) (int, []byte, []sseEvent) {
	ts.t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		ts.t.Fatal(err)
	}
	resp, err := ts.http.Client().Post(ts.http.URL+"/api/analysis/"+id+"/stream", "application/json", bytes.NewReader(data))
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		refused, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, refused, nil
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		ts.t.Errorf("the stream's Content-Type is %q", ct)
	}
	var events []sseEvent
	var cur sseEvent
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		line := lines.Text()
		switch {
		case line == "":
			events = append(events, cur)
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = []byte(strings.TrimPrefix(line, "data: "))
		default:
			ts.t.Errorf("a line that is not of an event: %q", line)
		}
	}
	if err := lines.Err(); err != nil {
		ts.t.Fatal(err)
	}
	return http.StatusOK, nil, events
}

// TestAnalysisStream: the stream reports each completed depth, deeper
// each time, then ends with the best move, which leads its line and is
// legal; the events are the bestView of /best.
func TestAnalysisStream(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	pos := ts.analysis("pommel", url.Values{"moves": {"a1-a3"}})
	code, body, events := ts.streamSearch("pommel", map[string]any{"moves": []string{"a1-a3"}, "movetime": 300})
	if code != http.StatusOK {
		t.Fatalf("stream: %d %s", code, body)
	}
	if len(events) < 3 {
		t.Fatalf("%d events, want at least two depths and the answer: %+v", len(events), events)
	}
	depth := 0
	for _, ev := range events[:len(events)-1] {
		var v bestView
		if err := json.Unmarshal(ev.data, &v); err != nil || ev.name != "info" {
			t.Fatalf("event %q %s: want an info event", ev.name, ev.data)
		}
		if v.Depth <= depth || len(v.Line) == 0 || v.Line[0] != v.Move || !slices.Contains(pos.Legal, v.Move) {
			t.Errorf("info %+v after depth %d: want a deeper search leading with a legal move", v, depth)
		}
		depth = v.Depth
	}
	last := events[len(events)-1]
	var best bestView
	if err := json.Unmarshal(last.data, &best); err != nil || last.name != "best" {
		t.Fatalf("last event %q %s: want the best move", last.name, last.data)
	}
	if best.Depth != depth || !slices.Contains(pos.Legal, best.Move) || best.Line[0] != best.Move || best.ScoreText == "" {
		t.Errorf("best %+v after depth %d", best, depth)
	}
}

// TestAnalysisStreamRefusals: the stream refuses what /best refuses, with
// the same JSON errors and before any event.
func TestAnalysisStreamRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, tc := range []struct {
		name   string
		game   string
		body   any
		status int
		code   string
		match  string
	}{
		{"movetime too long", "pommel", map[string]any{"movetime": 5001}, 422, codeInvalid, "want 100 to 5000 milliseconds"},
		{"bad FEN", "pommel", map[string]any{"fen": "nonsense"}, 422, codeInvalid, "bad FEN"},
		{"illegal move", "pommel", map[string]any{"moves": []string{"a1-a8"}}, 422, codeIllegalMove, `"a1-a8"`},
		{"game over", "pommel", map[string]any{"options": map[string]string{"maxplies": "2"}, "moves": []string{"a1-a3", "a5-a4"}}, 409, codeGameOver, "no move to search"},
		{"unknown field", "pommel", map[string]any{"depth": 3}, 400, codeBadRequest, "depth"},
		{"unknown game", "chess", map[string]any{}, 404, codeNotFound, "unknown game"},
	} {
		code, body, events := ts.streamSearch(tc.game, tc.body)
		if events != nil {
			t.Errorf("%s: a stream of %d events, want a refusal", tc.name, len(events))
			continue
		}
		e := refusal(t, body)
		if code != tc.status || e.Code != tc.code || !strings.Contains(e.Message, tc.match) {
			t.Errorf("%s: %d %+v, want %d %s with %q", tc.name, code, e, tc.status, tc.code, tc.match)
		}
	}
}

// TestAnalysisStreamOneSearch: a stream counts as the client's one
// search: /best and a second stream are refused while it runs, and a
// stream closed by its client (the page's Stop) frees the client at once.
func TestAnalysisStreamOneSearch(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	req, err := http.NewRequestWithContext(ctx, "POST", ts.http.URL+"/api/analysis/eximo/stream", strings.NewReader(`{"movetime": 5000}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.http.Client().Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	first, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || first != "event: info\n" {
		t.Fatalf("the stream's first line %q, %v", first, err)
	}
	if code, body := ts.do("POST", "/api/analysis/eximo/best", "", map[string]any{"movetime": 100}); code != http.StatusTooManyRequests {
		t.Errorf("/best while a stream runs: %d %s, want 429", code, body)
	}
	if code, body, _ := ts.streamSearch("eximo", map[string]any{"movetime": 100}); code != http.StatusTooManyRequests {
		t.Errorf("a second stream: %d %s, want 429", code, body)
	}
	began := time.Now()
	stop()
	waitFor(t, 2*time.Second, "the stopped search to end", func() bool {
		_, running := ts.srv.analysis.Load()
		return running == 0
	})
	if took := time.Since(began); took > time.Second {
		t.Errorf("a stopped search ended after %s", took)
	}
	if code, body := ts.do("POST", "/api/analysis/eximo/best", "", map[string]any{"movetime": 100}); code != http.StatusOK {
		t.Errorf("a search after the stop: %d %s", code, body)
	}
}
