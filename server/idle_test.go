package server

import (
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// fakeNow is a server's time that the test moves by hand.
type fakeNow struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeNow) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeNow) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

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
