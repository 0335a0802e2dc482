package server

import (
	"net/http/httptest"
	"strings"
)

// liveGauge reads arbiter_games_live from /metrics.
func (ts *testServer) liveGauge() string {
	ts.t.Helper()
	for line := range strings.Lines(ts.metricsText()) {
		if v, ok := strings.CutPrefix(line, "arbiter_games_live "); ok {
			return strings.TrimSpace(v)
		}
	}
	ts.t.Fatal("no arbiter_games_live in /metrics")
	return ""
}

// metricsText is what the metrics handler serves.
func (ts *testServer) metricsText() string {
	rec := httptest.NewRecorder()
	ts.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}
