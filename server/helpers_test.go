package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"github.com/arbiter-games/arbiter/hall"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/postgres"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// testServer is a started server over a fresh store, behind httptest.
type testServer struct {
	t     *testing.T
	srv   *Server
	http  *httptest.Server
	store store.Store
}

// openTestStore is the store the tests run against: SQLite, or a fresh
// PostgreSQL database when ARBITER_TEST_STORE=postgres (.ci/run runs the
// package both ways).
func openTestStore(t *testing.T) store.Store {
	t.Helper()
	if os.Getenv("ARBITER_TEST_STORE") == "postgres" {
		st, err := postgres.Open(context.Background(), newDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newTestServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	return newTestServerBehind(t, cfg, nil)
}

// newTestServerBehind starts a test server whose handler is wrapped by
// wrap (when not nil): a network that delays or reorders responses.
func newTestServerBehind(t *testing.T, cfg Config, wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = openTestStore(t)
	}
	if cfg.Limits.ReadsPerSecond == 0 {
		// The tests poll games every few milliseconds.
		cfg.Limits.ReadsPerSecond, cfg.Limits.ReadBurst = 1000, 1000
	}
	if cfg.Accounts == (AccountLimits{}) {
		// The tests sign up and log in many accounts from one address.
		cfg.Accounts = roomyAccountLimits
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	handler := srv.Handler()
	if wrap != nil {
		handler = wrap(handler)
	}
	ts := &testServer{t: t, srv: srv, http: httptest.NewServer(handler), store: cfg.Store}
	t.Cleanup(func() {
		srv.Close()
		ts.http.Close()
		cfg.Store.Close()
	})
	return ts
}

// do sends a request, with a body as JSON, and returns the status and
// the body.
func (ts *testServer) do(method, path, token string, body any) (int, []byte) {
	ts.t.Helper()
	return ts.doWith(method, path, token, http.Header{"Content-Type": {"application/json"}}, body)
}

// doWith sends a request with the headers given.
func (ts *testServer) doWith(method, path, token string, headers http.Header, body any) (int, []byte) {
	ts.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			ts.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, ts.http.URL+path, rd)
	if err != nil {
		ts.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		if body != nil || k != "Content-Type" {
			req.Header[k] = v
		}
	}
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return resp.StatusCode, data
}

// create makes a game and fails the test unless it answers 201.
func (ts *testServer) create(req map[string]any) hall.Created {
	ts.t.Helper()
	code, body := ts.do("POST", "/api/games", "", req)
	if code != http.StatusCreated {
		ts.t.Fatalf("create %v: %d %s", req, code, body)
	}
	var resp hall.Created
	if err := json.Unmarshal(body, &resp); err != nil {
		ts.t.Fatal(err)
	}
	return resp
}

// game reads a game and fails the test unless it answers 200.
func (ts *testServer) game(id string) hall.View {
	ts.t.Helper()
	code, body := ts.do("GET", "/api/games/"+id, "", nil)
	if code != http.StatusOK {
		ts.t.Fatalf("GET %s: %d %s", id, code, body)
	}
	var v hall.View
	if err := json.Unmarshal(body, &v); err != nil {
		ts.t.Fatal(err)
	}
	return v
}

// move posts a move and returns the status and the error code, if any.
func (ts *testServer) move(id, token, move string, ply int) (int, string) {
	ts.t.Helper()
	code, body := ts.do("POST", "/api/games/"+id+"/moves", token, map[string]any{"move": move, "ply": ply})
	return code, errorCode(body)
}

func errorCode(body []byte) string {
	var e struct {
		Error *apiError `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

// waitFor polls until ok holds, failing after limit.
func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// twoHumans makes a Pommel game for two people.
func (ts *testServer) twoHumans() hall.Created {
	return ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
}

var storeFilterAll = store.Filter{Limit: 1 << 20}

// boardOf is the board id a game is played on.
func (s *Server) boardOf(t *testing.T, id string) string {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g.Board().ID()
}

// hashToken is what the store keeps of a seat's token.
func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}
