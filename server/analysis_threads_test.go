package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// TestAnalysisThreadsRefused: New refuses analysis threads below 0,
// above ai.MaxThreads or above the analysis workers.
func TestAnalysisThreadsRefused(t *testing.T) {
	tests := []struct {
		workers, threads int
		want             string
	}{
		{2, -1, "server: analysis threads -1: want 1 to 64, or 0 for 1"},
		{2, 65, "server: analysis threads 65: want 1 to 64, or 0 for 1"},
		{2, 1 << 40, "server: analysis threads 1099511627776: want 1 to 64, or 0 for 1"},
		{2, 3, "server: analysis threads 3: at most the analysis workers (2)"},
		{1, 2, "server: analysis threads 2: at most the analysis workers (1)"},
	}
	for _, tc := range tests {
		_, err := newSite(siteConfig{Store: openTestStore(t), AnalysisWorkers: tc.workers, AnalysisThreads: tc.threads})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%d threads of %d workers: error %v, want %q", tc.threads, tc.workers, err, tc.want)
		}
	}
}

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
