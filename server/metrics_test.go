package server

import (
	"net/http/httptest"
)

// metricsText is what the metrics handler serves.
func (ts *testServer) metricsText() string {
	rec := httptest.NewRecorder()
	ts.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}
