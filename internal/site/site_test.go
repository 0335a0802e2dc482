package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/arbiter-games/arbiter/analysis"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// TestSiteServes: a site put together over a fresh store starts and
// plays: a game created through its API is the hall's.
func TestSiteServes(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := New(Config{Store: st, Hall: hall.Config{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	resp, err := http.Get(hs.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %d", resp.StatusCode)
	}
	created, err := srv.Hall().Create(context.Background(), hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(context.Background(), created.ID); err != nil {
		t.Fatalf("the hall's game %s is not in the site's store: %v", created.ID, err)
	}
}

// TestSiteRefusals: New refuses no store, and each service's refusal of
// its own configuration, such as analysis threads below 0, above
// ai.MaxThreads or above the analysis workers.
func TestSiteRefusals(t *testing.T) {
	if _, err := New(Config{}); err == nil || err.Error() != "site: no store" {
		t.Errorf("no store: %v", err)
	}
	tests := []struct {
		workers, threads int
		want             string
	}{
		{2, -1, "analysis threads -1: want 1 to 64, or 0 for 1"},
		{2, 65, "analysis threads 65: want 1 to 64, or 0 for 1"},
		{2, 1 << 40, "analysis threads 1099511627776: want 1 to 64, or 0 for 1"},
		{2, 3, "analysis threads 3: at most the analysis workers (2)"},
		{1, 2, "analysis threads 2: at most the analysis workers (1)"},
	}
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, tc := range tests {
		_, err := New(Config{Store: st, Analysis: analysis.Config{Workers: tc.workers, Threads: tc.threads}})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%d threads of %d workers: error %v, want %q", tc.threads, tc.workers, err, tc.want)
		}
	}
}
