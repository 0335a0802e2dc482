package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/site"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// testServer is a started arbiter server on SQLite in a temporary folder,
// listening on 127.0.0.1. It records the client addresses it saw.
type testServer struct {
	addr string
	srv  *server.Server

	mu      sync.Mutex
	clients map[string]bool
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	return newTestServerWith(t, nil, nil)
}

// newTestServerWith is newTestServer whose HTTP server is first set up by
// configure and whose handler is wrapped by wrap (either may be nil).
func newTestServerWith(t *testing.T, configure func(*http.Server), wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	return newTestServerConfig(t, site.Config{Hall: hall.Config{AIGamePace: time.Millisecond},
		Server: server.Config{Limits: server.Limits{ReadsPerSecond: 1000, ReadBurst: 1000}}}, configure, wrap)
}

// cheapHash makes the test servers' password hashes take microseconds.
func cheapHash() *account.Params {
	return &account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// newTestServerConfig is newTestServerWith with the server's config cfg,
// to which it adds the store and cheap password hashing.
func newTestServerConfig(t *testing.T, cfg site.Config, configure func(*http.Server), wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.Accounts.Params = st, cheapHash()
	srv, err := site.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := &testServer{srv: srv, clients: map[string]bool{}}
	h := srv.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		ts.mu.Lock()
		ts.clients[host] = true
		ts.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	if configure != nil {
		configure(hs.Config)
	}
	hs.Start()
	ts.addr = hs.Listener.Addr().String()
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		st.Close()
	})
	return ts
}

// getMoves reads a game's stored moves through the API.
func getMoves(t *testing.T, addr, id string) []string {
	t.Helper()
	c := newClient(netip.MustParseAddrPort(addr), netip.Addr{})
	defer c.close()
	v, err := c.get(context.Background(), id)
	if err != nil {
		t.Fatalf("GET %s: %v", id, err)
	}
	return v.Moves
}

func checkLatencies(t *testing.T, name string, l Latencies, n int) {
	t.Helper()
	if l.N != n {
		t.Errorf("%s: %d samples, want one per move (%d)", name, l.N, n)
	}
	if l.P50 < 0 || l.P50 > l.P90 || l.P90 > l.P99 || l.P99 > l.Max || l.Max <= 0 {
		t.Errorf("%s: %+v; want 0 <= p50 <= p90 <= p99 <= max, max above 0", name, l)
	}
}

// TestRunPlaysEveryGameAndStoresEveryMove plays a few games both ways:
// over each game's socket (the default) and as POSTs beside it.
func TestRunPlaysEveryGameAndStoresEveryMove(t *testing.T) {
	for _, httpMoves := range []bool{false, true} {
		t.Run(fmt.Sprintf("http-moves=%v", httpMoves), func(t *testing.T) { playEveryGame(t, httpMoves) })
	}
}

func playEveryGame(t *testing.T, httpMoves bool) {
	var posts atomic.Int64
	ts := newTestServerWith(t, nil, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/moves") {
				posts.Add(1)
			}
			h.ServeHTTP(w, r)
		})
	})
	const games, moves = 4, 6
	start := time.Now()
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: games, Moves: moves, HTTPMoves: httpMoves,
		Duration: time.Minute, Think: 20 * time.Millisecond, Level: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the run took %s; it should stop once every game played its %d moves", took, moves)
	}
	if len(rep.Errors) != 0 {
		t.Errorf("errors: %v", rep.Errors)
	}
	if rep.Held != games || rep.Finished != games || rep.Failed != 0 || rep.AIHeld != 0 {
		t.Errorf("held %d, finished %d, failed %d, AI %d; want %d, %d, 0, 0", rep.Held, rep.Finished, rep.Failed, rep.AIHeld, games, games)
	}
	if rep.Moves != games*moves {
		t.Errorf("%d moves; want %d", rep.Moves, games*moves)
	}
	wantPosts := 0
	if httpMoves {
		wantPosts = rep.Moves
	}
	if rep.OverSocket == httpMoves || posts.Load() != int64(wantPosts) {
		t.Errorf("over the socket %v, %d moves POSTed; want %v and %d", rep.OverSocket, posts.Load(), !httpMoves, wantPosts)
	}
	checkLatencies(t, "acknowledgement", rep.Ack, rep.Moves)
	checkLatencies(t, "broadcast", rep.Broadcast, rep.Moves)
	ts.mu.Lock()
	clients := len(ts.clients)
	ts.mu.Unlock()
	if !rep.OwnAddresses || clients != games+1 {
		t.Errorf("own addresses %v, the server saw %d clients; want one per game and the probe's (%d)", rep.OwnAddresses, clients, games+1)
	}
	played := 0
	for _, g := range rep.Games {
		played += len(g.Moves)
		if stored := getMoves(t, ts.addr, g.ID); !slices.Equal(stored, g.Moves) {
			t.Errorf("game %s: stored %v; acknowledged %v", g.ID, stored, g.Moves)
		}
	}
	if played != rep.Moves {
		t.Errorf("the games hold %d moves; the report counts %d", played, rep.Moves)
	}
}

func TestRunReplacesEndedGames(t *testing.T) {
	ts := newTestServer(t)
	// With moves 10, each game is created with maxplies=10: it ends
	// (drawn) after its tenth move at the latest. The AI games play, and
	// are replaced, for the whole duration: -short gives them a third. On
	// a machine busy with other work no game may end in that time; the
	// run is then made again, twice as long each time, up to 24 s.
	duration := 3 * time.Second
	if testing.Short() {
		duration = time.Second
	}
	var rep *Report
	for {
		var err error
		rep, err = Run(context.Background(), Config{Addr: ts.addr, Games: 1, AIGames: 2, Moves: 10,
			Duration: duration, Level: 1})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Replaced > 0 || duration >= 24*time.Second {
			break
		}
		duration *= 2
	}
	if rep.AIHeld != 2 || rep.AIMoves == 0 || rep.AIMovesPerSecond() <= 0 {
		t.Errorf("AI held %d, AI moves %d (%.1f/s); want 2 and some", rep.AIHeld, rep.AIMoves, rep.AIMovesPerSecond())
	}
	if rep.Replaced == 0 {
		t.Errorf("no game replaced; AI games of 10 plies at level 1 end within %s", duration)
	}
	if rep.Elapsed < duration || rep.Elapsed > duration+20*time.Second {
		t.Errorf("elapsed %s; AI games play until the duration (%s) is up", rep.Elapsed, duration)
	}
	if len(rep.Errors) != 0 {
		t.Errorf("errors: %v", rep.Errors)
	}
	aiGames := 0
	for _, g := range rep.Games {
		if g.AI {
			aiGames++
			if n := len(getMoves(t, ts.addr, g.ID)); n > 10 {
				t.Errorf("AI game %s has %d moves; maxplies is 10", g.ID, n)
			}
		}
	}
	if aiGames != rep.AIHeld+rep.Replaced {
		t.Errorf("%d AI games listed; want %d held + %d replaced", aiGames, rep.AIHeld, rep.Replaced)
	}
}

func TestRunStopsAtTheDuration(t *testing.T) {
	ts := newTestServer(t)
	start := time.Now()
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: 2, Moves: MaxMoves,
		Duration: time.Second, Think: 100 * time.Millisecond, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the run took %s; the duration is 1s", took)
	}
	if rep.Moves == 0 || rep.Moves >= 2*MaxMoves || rep.Finished != 0 {
		t.Errorf("%d moves, %d finished; want some moves, no game finished", rep.Moves, rep.Finished)
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	rep, err := Run(ctx, Config{Addr: ts.addr, Games: 2, Moves: MaxMoves,
		Duration: MaxDuration, Think: 50 * time.Millisecond, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Elapsed > 10*time.Second {
		t.Errorf("elapsed %s after a cancel at 0.5s", rep.Elapsed)
	}
	for _, g := range rep.Games {
		if stored := getMoves(t, ts.addr, g.ID); !slices.Equal(stored, g.Moves) {
			t.Errorf("game %s: stored %v; acknowledged %v", g.ID, stored, g.Moves)
		}
	}
}

func TestRunCountsRefusals(t *testing.T) {
	ts := newTestServer(t)
	// No pause between moves: a game's client goes over the server's 10
	// moves a second (bursts of 20) and is refused 429, counted by status.
	// Under -short a pause of about 2 ms, still far over the limit, keeps
	// the client from retrying as fast as the CPU lets it while refused
	// (a third of the CPU time for the same count).
	var think time.Duration
	if testing.Short() {
		think = 2 * time.Millisecond
	}
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: 1, Moves: 60, Think: think,
		Duration: 20 * time.Second, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Errors["move: 429 rate_limited"]; c == nil || c.N == 0 || !strings.Contains(c.First, "slow down") {
		t.Errorf("errors %v; want move: 429 rate_limited counted", rep.Errors)
	}
	if rep.Moves != 60 {
		t.Errorf("%d moves; a refused move is sent again after a resync, so all 60 are played", rep.Moves)
	}
}

func TestRunRefusesNoServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = Run(context.Background(), Config{Addr: addr, Games: 1, Moves: 1, Duration: time.Second, Level: 1})
	if err == nil || !strings.Contains(err.Error(), "no arbiter server answers on "+addr) {
		t.Errorf("err %v; want no arbiter server answers on %s", err, addr)
	}
}

func TestConfigRefusals(t *testing.T) {
	ok := Config{Addr: "127.0.0.1:1", Games: 1, Moves: 1, Duration: time.Second, Level: 1}
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Games = MaxGames + 1 }, "games 20001: want 0 to 20000"},
		{func(c *Config) { c.Games = -1 }, "games -1: want 0 to 20000"},
		{func(c *Config) { c.Games, c.AIGames = 0, 0 }, "no games"},
		{func(c *Config) { c.Games, c.AIGames, c.Accounts = 0, 1, true }, "accounts play the human games, and there are none; want games above 0"},
		{func(c *Config) { c.AIGames = MaxAIGames + 1 }, "AI games 1001: want 0 to 1000"},
		{func(c *Config) { c.Moves = 0 }, "moves 0: want 1 to 1000"},
		{func(c *Config) { c.Moves = MaxMoves + 1 }, "moves 1001: want 1 to 1000"},
		{func(c *Config) { c.Level = 7 }, "level 7: want 1 to 6"},
		{func(c *Config) { c.Duration = 0 }, "duration 0s: want above 0, up to 2h0m0s"},
		{func(c *Config) { c.Duration = MaxDuration + time.Second }, "duration 2h0m1s"},
		{func(c *Config) { c.Flood = -1 }, "flood -1: want 0 to 1000"},
		{func(c *Config) { c.Flood = MaxFlood + 1 }, "flood 1001: want 0 to 1000"},
		{func(c *Config) { c.Slow = -1 }, "slow connections -1: want 0 to 5000"},
		{func(c *Config) { c.Slow = MaxSlow + 1 }, "slow connections 5001: want 0 to 5000"},
		{func(c *Config) { c.ServerPID = -1 }, "server pid -1: want 0 to 4194304"},
		{func(c *Config) { c.ServerPID = MaxPID + 1 }, "server pid 4194305: want 0 to 4194304"},
		{func(c *Config) { c.SampleEvery = -time.Second }, "sample every -1s"},
		{func(c *Config) { c.Think = -time.Second }, "think -1s: want 0 up to 1m0s"},
		{func(c *Config) { c.Game = "chess" }, `unknown game "chess"; want one of`},
		{func(c *Config) { c.Addr = "10.0.0.1:8080" }, "10.0.0.1: not a loopback address"},
	} {
		cfg := ok
		c.change(&cfg)
		_, err := Run(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: err %v; want one line with %q", cfg, err, c.want)
		}
	}
}

// fakeResolver answers from a table, as a name server would.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	texts, ok := f[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	var ips []netip.Addr
	for _, t := range texts {
		ips = append(ips, netip.MustParseAddr(t))
	}
	return ips, nil
}

func TestTargetAcceptsOnlyLoopback(t *testing.T) {
	names := fakeResolver{
		"localhost":   {"::1", "127.0.0.1"},
		"example.com": {"93.184.215.14"},
		"mixed.test":  {"127.0.0.1", "10.1.2.3"},
		"v6only.test": {"::1"},
		"nothing":     {},
		"mapped.test": {"::ffff:127.0.0.1"},
	}
	for _, c := range []struct {
		addr, want, err string
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", ""},
		{"127.9.9.9:80", "127.9.9.9:80", ""},
		{"[::1]:8080", "[::1]:8080", ""},
		{"localhost:8080", "127.0.0.1:8080", ""},
		{"v6only.test:8080", "[::1]:8080", ""},
		{"mapped.test:8080", "127.0.0.1:8080", ""},
		{"10.0.0.1:8080", "", "10.0.0.1: not a loopback address; loadtest only runs against this machine (127.0.0.0/8 or ::1)"},
		{"0.0.0.0:8080", "", "0.0.0.0: not a loopback address"},
		{"[::]:8080", "", ":: not a loopback address"},
		{"example.com:80", "", "host example.com resolves to 93.184.215.14: not a loopback address"},
		{"mixed.test:80", "", "host mixed.test resolves to 10.1.2.3: not a loopback address"},
		{"nowhere.test:80", "", `host "nowhere.test": cannot resolve it`},
		{"nothing:80", "", `host "nothing" has no address`},
		{":8080", "", "no host; want a loopback host"},
		{"127.0.0.1", "", "want HOST:PORT on this machine"},
		{"127.0.0.1:0", "", "want a port from 1 to 65535"},
		{"127.0.0.1:70000", "", "want a port from 1 to 65535"},
		{"127.0.0.1:http", "", "want a port from 1 to 65535"},
	} {
		got, err := Target(context.Background(), c.addr, names)
		switch {
		case c.err == "" && (err != nil || got.String() != c.want):
			t.Errorf("Target(%q) = %v, %v; want %s", c.addr, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Target(%q) = %v, %v; want an error with %q", c.addr, got, err, c.err)
		}
	}
}

func TestTargetWithTheSystemResolver(t *testing.T) {
	got, err := Target(context.Background(), "localhost:8080", nil)
	if err != nil || !got.Addr().IsLoopback() {
		t.Errorf("localhost: %v, %v; want a loopback address", got, err)
	}
	if _, err := Target(context.Background(), "10.0.0.1:8080", nil); err == nil {
		t.Error("10.0.0.1 accepted")
	}
}

func TestSummarize(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := summarize(ds)
	want := Latencies{N: 100, P50: 50 * time.Millisecond, P90: 90 * time.Millisecond, P99: 99 * time.Millisecond, Max: 100 * time.Millisecond}
	if got != want {
		t.Errorf("summarize(1..100ms) = %+v; want %+v", got, want)
	}
	if got := summarize(nil); got != (Latencies{}) {
		t.Errorf("summarize(nil) = %+v; want zero", got)
	}
	if got := summarize([]time.Duration{3}); got.P50 != 3 || got.P99 != 3 || got.Max != 3 {
		t.Errorf("summarize([3]) = %+v; want 3 everywhere", got)
	}
}

func TestClientAddrsDiffer(t *testing.T) {
	seen := map[netip.Addr]bool{}
	for n := range 100_000 {
		a := clientAddr(n)
		if !a.IsLoopback() || seen[a] {
			t.Fatalf("clientAddr(%d) = %s: not loopback or used twice", n, a)
		}
		seen[a] = true
	}
}
