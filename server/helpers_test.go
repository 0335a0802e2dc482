package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/community"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/puzzles"
	"github.com/arbiter-games/arbiter/reviews"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/postgres"
	"github.com/arbiter-games/arbiter/store/sqlite"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/arbiter-games/arbiter/watch"
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

func newTestServer(t *testing.T, cfg siteConfig) *testServer {
	t.Helper()
	return newTestServerBehind(t, cfg, nil)
}

// newTestServerBehind starts a test server whose handler is wrapped by
// wrap (when not nil): a network that delays or reorders responses.
func newTestServerBehind(t *testing.T, cfg siteConfig, wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = openTestStore(t)
	}
	if cfg.Limits.ReadsPerSecond == 0 {
		// The tests poll games every few milliseconds.
		cfg.Limits.ReadsPerSecond, cfg.Limits.ReadBurst = 1000, 1000
	}
	if cfg.Accounts == (accounts.Limits{}) {
		// The tests sign up and log in many accounts from one address.
		cfg.Accounts = roomyAccountLimits
	}
	srv, err := newSite(cfg)
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

// siteConfig is a whole site for a test, in one flat struct: the store,
// the hall's settings, the account and analysis services (or their
// settings), and the server's own. newSite puts it together as
// internal/site does for arbiter serve (which a test here cannot import:
// it imports this package).
type siteConfig struct {
	Store  store.Store
	Logger *slog.Logger
	Now    func() time.Time
	// The hall's: see hall.Config.
	Workers      int
	AIMoveTime   time.Duration
	AIMemory     int64
	AllowAIGames bool
	AIGamePlies  int
	AIGamePace   time.Duration
	AbortAfter   time.Duration
	IdleAfter    time.Duration
	Engines      hall.EngineMaker
	// Analysis, when not nil, is the analysis service; else one is made
	// with AnalysisWorkers and AnalysisThreads.
	Analysis                         *analysis.Service
	AnalysisWorkers, AnalysisThreads int
	// AccountService, when not nil, is the account service; else one is
	// made with PasswordHash and Accounts.
	AccountService *accounts.Service
	PasswordHash   *account.Params
	Accounts       accounts.Limits
	// Reviews, when not nil, is the reviews service.
	Reviews *reviews.Service
	// Puzzles, when not nil, is the puzzle service; else one is made
	// over the shipped sets.
	Puzzles *puzzles.Service
	// Community, when not nil, is the chat and moderation service; else
	// one is made with CommunityLimits.
	Community       *community.Service
	CommunityLimits community.Limits
	// TournamentTick is the tournaments' tick (0: tournament.Tick).
	TournamentTick time.Duration
	// WatchFresh is how long the top game is kept (0: watch.DefaultFresh).
	WatchFresh time.Duration
	// Notify, when not nil, is the notification service's
	// configuration, wired as internal/site does (nil: none); Notified,
	// when not nil, is given the service made.
	Notify   *notify.Config
	Notified func(*notify.Service)
	// The server's: see Config.
	Origins             []string
	Limits              Limits
	Timeouts            Timeouts
	ConnsPerAddr, Conns int
	TrustedProxies      []netip.Prefix
	TLS                 *tls.Config
	Pprof               bool
}

// newSite makes cfg's services over cfg.Store, then the server over them.
func newSite(cfg siteConfig) (*Server, error) {
	an := cfg.Analysis
	if an == nil {
		var err error
		an, err = analysis.New(analysis.Config{Workers: cfg.AnalysisWorkers, Threads: cfg.AnalysisThreads,
			Logger: cfg.Logger, Now: cfg.Now})
		if err != nil {
			return nil, err
		}
	}
	var nt *notify.Service
	hc := hall.Config{Store: cfg.Store, Logger: cfg.Logger, Now: cfg.Now, Workers: cfg.Workers,
		AIMoveTime: cfg.AIMoveTime, AIMemory: cfg.AIMemory, AllowAIGames: cfg.AllowAIGames,
		AIGamePlies: cfg.AIGamePlies, AIGamePace: cfg.AIGamePace, AbortAfter: cfg.AbortAfter, IdleAfter: cfg.IdleAfter,
		Engines: cfg.Engines, EngineOptions: an.EngineOptions}
	if cfg.Notify != nil {
		hc.Committed = func(ctx context.Context, c hall.Committed) { nt.GameCommitted(ctx, c) }
	}
	h, err := hall.New(hc)
	if err != nil {
		return nil, err
	}
	lc := lobby.Config{Store: cfg.Store, Hall: h, Logger: cfg.Logger, Now: cfg.Now}
	if cfg.Notify != nil {
		nc := *cfg.Notify
		nc.Store, nc.Games, nc.Now, nc.Logger = cfg.Store, h, cfg.Now, cfg.Logger
		if nt, err = notify.New(context.Background(), nc); err != nil {
			return nil, err
		}
		lc.Posted, lc.Started = nt.SeekPosted, nt.SeekStarted
		if cfg.Notified != nil {
			cfg.Notified(nt)
		}
	}
	accts := cfg.AccountService
	if accts == nil {
		accts, err = accounts.New(accounts.Config{Store: cfg.Store, Params: cfg.PasswordHash, Limits: cfg.Accounts,
			Now: cfg.Now, Logger: cfg.Logger})
		if err != nil {
			return nil, err
		}
	}
	pz := cfg.Puzzles
	if pz == nil {
		if pz, err = puzzles.New(puzzles.Config{Store: cfg.Store, Now: cfg.Now}); err != nil {
			return nil, err
		}
	}
	com := cfg.Community
	if com == nil {
		if com, err = community.New(community.Config{Store: cfg.Store, Limits: cfg.CommunityLimits, Now: cfg.Now, Logger: cfg.Logger}); err != nil {
			return nil, err
		}
	}
	tours := tournament.New(tournament.Config{Store: cfg.Store, Hall: h, Logger: cfg.Logger, Now: cfg.Now, Tick: cfg.TournamentTick})
	return New(Config{Watch: watch.New(watch.Config{Store: cfg.Store, Fresh: cfg.WatchFresh}), Tournaments: tours, Puzzles: pz, Community: com, Notify: nt, Hall: h, Lobby: lobby.New(lc),
		Accounts: accts, Analysis: an, Reviews: cfg.Reviews, Logger: cfg.Logger, Now: cfg.Now, Origins: cfg.Origins, Limits: cfg.Limits,
		Timeouts: cfg.Timeouts, ConnsPerAddr: cfg.ConnsPerAddr, Conns: cfg.Conns, TrustedProxies: cfg.TrustedProxies,
		TLS: cfg.TLS, Pprof: cfg.Pprof})
}
