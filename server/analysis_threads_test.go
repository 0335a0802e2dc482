package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// TestAnalysisBestWithThreads: a search of two threads answers a legal
// move leading its line.
func TestAnalysisBestWithThreads(t *testing.T) {
	ts := newTestServer(t, siteConfig{AnalysisWorkers: 2, AnalysisThreads: 2})
	pos := ts.analysis("pommel", url.Values{"moves": {"a1-a3"}})
	code, body := ts.do("POST", "/api/analysis/pommel/best", "", map[string]any{"moves": []string{"a1-a3"}, "movetime": 200})
	var v bestView
	if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
		t.Fatalf("best: %d %s", code, body)
	}
	if !slices.Contains(pos.Legal, v.Move) || len(v.Line) == 0 || v.Line[0] != v.Move || v.Depth < 1 {
		t.Errorf("best %+v: want a legal move of %v leading its line", v, pos.Legal)
	}
}
