package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// metricsServer serves a new server's MetricsHandler.
func metricsServer(t *testing.T, cfg siteConfig) *httptest.Server {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = openTestStore(t)
	}
	srv, err := newSite(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.MetricsHandler())
	t.Cleanup(hs.Close)
	return hs
}

// get fetches url and returns the status and the body.
func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestProfilesAreOffByDefault: the metrics' address serves no profiles
// unless the operator asks for them (serve --pprof).
func TestProfilesAreOffByDefault(t *testing.T) {
	hs := metricsServer(t, siteConfig{})
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/goroutine?debug=2", "/debug/pprof/symbol"} {
		if code, _ := get(t, hs.Client(), hs.URL+path); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, code)
		}
	}
	if code, _ := get(t, hs.Client(), hs.URL+"/metrics"); code != http.StatusOK {
		t.Errorf("GET /metrics: %d", code)
	}
}

// TestProfilesNeverShowTheCommandLine: with the profiles on, nothing the
// metrics' address serves holds the command line, whose --db URL may
// hold the database's password (/debug/pprof/cmdline printed it).
func TestProfilesNeverShowTheCommandLine(t *testing.T) {
	t.Parallel()
	const secret = "s3cret-Pa55word"
	args := os.Args
	os.Args = append(append([]string{}, args...), "--db", "postgres://arbiter:"+secret+"@db.example/arbiter")
	t.Cleanup(func() { os.Args = args })
	hs := metricsServer(t, siteConfig{Pprof: true})
	code, index := get(t, hs.Client(), hs.URL+"/debug/pprof/")
	if code != http.StatusOK {
		t.Fatalf("GET /debug/pprof/ with the profiles on: %d", code)
	}
	paths := []string{"/metrics", "/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/cmdline?debug=1", "/debug/pprof/symbol"}
	for _, m := range regexp.MustCompile(`href=['"]?([a-z_]+)`).FindAllStringSubmatch(index, -1) {
		switch m[1] {
		case "profile", "trace": // 30 s and 1 s of sampling, no text
		default:
			paths = append(paths, "/debug/pprof/"+m[1]+"?debug=1", "/debug/pprof/"+m[1]+"?debug=2")
		}
	}
	for _, path := range paths {
		if _, body := get(t, hs.Client(), hs.URL+path); strings.Contains(body, secret) {
			t.Errorf("GET %s shows the password", path)
		}
	}
}

// checkCounter is the test store, counting its health checks.
type checkCounter struct {
	store.Store
	checks atomic.Int64
}

func (c *checkCounter) Check(ctx context.Context) error {
	c.checks.Add(1)
	return c.Store.Check(ctx)
}

// testClock is a clock the test moves.
type testClock struct{ now atomic.Pointer[time.Time] }

func newTestClock() *testClock {
	c := &testClock{}
	c.set(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return c
}

func (c *testClock) Now() time.Time          { return *c.now.Load() }
func (c *testClock) set(t time.Time)         { c.now.Store(&t) }
func (c *testClock) advance(d time.Duration) { c.set(c.Now().Add(d)) }

// TestHealthChecksAFloodOnce: a flood of GET /healthz costs the store one
// check (a write) a second, not one a request (3,715 writes a second from
// one address before).
func TestHealthChecksAFloodOnce(t *testing.T) {
	st := &checkCounter{Store: openTestStore(t)}
	clock := newTestClock()
	ts := newTestServer(t, siteConfig{Store: st, Now: clock.Now})
	flood := func(n int) {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for range n / 8 {
					if code, body := ts.do("GET", "/healthz", "", nil); code != http.StatusOK {
						t.Errorf("healthz: %d %s", code, body)
					}
				}
			})
		}
		wg.Wait()
	}
	before := st.checks.Load()
	flood(200)
	if n := st.checks.Load() - before; n != 1 {
		t.Errorf("200 health checks within a second checked the store %d times, want 1", n)
	}
	clock.advance(time.Second)
	flood(40)
	if n := st.checks.Load() - before; n != 2 {
		t.Errorf("a second later: %d store checks in all, want 2", n)
	}
	clock.advance(-time.Hour) // a clock set back checks again
	flood(8)
	if n := st.checks.Load() - before; n != 3 {
		t.Errorf("after the clock went back: %d store checks in all, want 3", n)
	}
}
