package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestAnalysisLinesRefusals: "lines" is an integer from 1 to 5; anything
// else is refused as invalid, quoting at most 80 characters of it.
func TestAnalysisLinesRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	long := strings.Repeat("9", 200)
	for _, tc := range []struct {
		name  string
		lines any
		match string
	}{
		{"zero", 0, "lines \"0\": want an integer from 1 to 5"},
		{"six", 6, "lines \"6\""},
		{"negative", -2, "lines \"-2\""},
		{"a fraction", 2.5, "lines \"2.5\""},
		{"a string", "3", `lines "\"3\""`},
		{"a list", []int{3}, `lines "[3]"`},
		{"a long number", json.Number(long), `lines "` + long[:80] + `"…`},
	} {
		for _, path := range []string{"best", "stream"} {
			code, body := ts.do("POST", "/api/analysis/pommel/"+path, "", map[string]any{"lines": tc.lines, "movetime": 100})
			e := refusal(t, body)
			if code != http.StatusUnprocessableEntity || e.Code != codeInvalid || !strings.Contains(e.Message, tc.match) || len(e.Message) > 160 {
				t.Errorf("%s to /%s: %d %+v, want 422 invalid with %q", tc.name, path, code, e, tc.match)
			}
		}
	}
}

// TestAnalysisLines: asked for three lines, the engine lists three
// different legal moves, best first, each leading its line, the first
// being the answer's move, score and line; not asked, it lists its one.
func TestAnalysisLines(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	pos := ts.analysis("pommel", url.Values{"moves": {"a1-a3"}})
	for _, asked := range []int{0, 1, 3, 5} {
		req := map[string]any{"moves": []string{"a1-a3"}, "movetime": 100}
		want := 1
		if asked > 0 {
			req["lines"], want = asked, asked
		}
		code, body := ts.do("POST", "/api/analysis/pommel/best", "", req)
		var v bestView
		if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
			t.Fatalf("lines %d: %d %s", asked, code, body)
		}
		checkLines(t, v, pos.Legal, want)
	}
}

// TestAnalysisStreamLines: each depth the stream reports lists the lines
// asked for.
func TestAnalysisStreamLines(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	pos := ts.analysis("eximo", nil)
	code, body, events := ts.streamSearch("eximo", map[string]any{"movetime": 300, "lines": 2})
	if code != http.StatusOK || len(events) < 2 {
		t.Fatalf("stream: %d %s, %d events", code, body, len(events))
	}
	for _, ev := range events {
		var v bestView
		if err := json.Unmarshal(ev.data, &v); err != nil {
			t.Fatalf("event %q %s", ev.name, ev.data)
		}
		checkLines(t, v, pos.Legal, 2)
	}
}

// checkLines checks an answer's lines: n of them, different legal moves,
// best first, each leading its line, the first the answer itself.
func checkLines(t *testing.T, v bestView, legal []string, n int) {
	t.Helper()
	if len(v.Lines) != n {
		t.Fatalf("%d lines, want %d: %+v", len(v.Lines), n, v)
	}
	first := v.Lines[0]
	if first.Move != v.Move || first.Score != v.Score || first.ScoreText != v.ScoreText || !slices.Equal(first.Line, v.Line) {
		t.Errorf("the first line %+v is not the answer %+v", first, v)
	}
	seen := map[string]bool{}
	for i, l := range v.Lines {
		if !slices.Contains(legal, l.Move) || seen[l.Move] || len(l.Line) == 0 || l.Line[0] != l.Move || l.ScoreText == "" {
			t.Errorf("line %d %+v: want a legal move of its own leading its line", i, l)
		}
		if i > 0 && l.Score > v.Lines[i-1].Score {
			t.Errorf("line %d scores %d, above line %d's %d", i, l.Score, i-1, v.Lines[i-1].Score)
		}
		seen[l.Move] = true
	}
}
