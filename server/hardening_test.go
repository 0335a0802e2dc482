package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
)

// metricsServer serves a new server's MetricsHandler.
func metricsServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = openTestStore(t)
	}
	srv, err := New(cfg)
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
	hs := metricsServer(t, Config{})
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
	const secret = "s3cret-Pa55word"
	args := os.Args
	os.Args = append(append([]string{}, args...), "--db", "postgres://arbiter:"+secret+"@db.example/arbiter")
	t.Cleanup(func() { os.Args = args })
	hs := metricsServer(t, Config{Pprof: true})
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
