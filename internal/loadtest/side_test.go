package loadtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/site"
	"github.com/arbiter-games/arbiter/server"
)

// clientOf is the address a request came from.
func clientOf(r *http.Request) string {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	return host
}

func TestRunFloodCountsAnswers(t *testing.T) {
	// The flood's address may read 20 times a second (bursts of 5);
	// above that it is refused 429, as a server limiting reads would.
	limit := rate.NewLimiter(20, 5)
	// The games' own moves (a move every 50 ms a game, 20 a second) are
	// under a move limit they never reach: how fast the server answers
	// them must not decide whether they are refused.
	ts := newTestServerConfig(t, site.Config{Hall: hall.Config{AIGamePace: time.Millisecond},
		Server: server.Config{Limits: server.Limits{ReadsPerSecond: 1000, ReadBurst: 1000, MovesPerSecond: 1000, MoveBurst: 1000}}},
		nil, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if clientOf(r) == floodAddr.String() && !limit.Allow() {
					http.Error(w, `{"error":{"code":"rate_limited","message":"slow down"}}`, http.StatusTooManyRequests)
					return
				}
				h.ServeHTTP(w, r)
			})
		})
	// The flood runs for the whole duration, as fast as it is answered:
	// -short gives it a third, with half the workers.
	duration, flood := 2*time.Second, 4
	if testing.Short() {
		duration, flood = 700*time.Millisecond, 2
	}
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: 2, AIGames: 1, Moves: MaxMoves,
		Duration: duration, Think: 50 * time.Millisecond, Level: 1, Flood: flood})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Flood
	if f == nil {
		t.Fatal("no flood in the report")
	}
	if f.Workers != flood || f.From != floodAddr.String() {
		t.Errorf("flood of %d workers from %q; want %d from %s", f.Workers, f.From, flood, floodAddr)
	}
	if f.OK == 0 || f.Limited == 0 || f.Lobby == 0 || f.Game == 0 {
		t.Errorf("flood: %d ok, %d limited, %d lobby, %d game; want some of each", f.OK, f.Limited, f.Lobby, f.Game)
	}
	if f.OK+f.Limited != f.Requests() || len(f.Other) != 0 || len(f.Errors) != 0 {
		t.Errorf("flood: %d ok + %d limited of %d requests, other %v, errors %v; want every request answered 200 or 429",
			f.OK, f.Limited, f.Requests(), f.Other, f.Errors)
	}
	if len(rep.Errors) != 0 || rep.Ack.N != rep.Moves || rep.Moves == 0 {
		t.Errorf("the games: errors %v, %d acks of %d moves; want no error, every move timed", rep.Errors, rep.Ack.N, rep.Moves)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if !ts.clients[floodAddr.String()] {
		t.Errorf("the server saw %v; want the flood from %s", ts.clients, floodAddr)
	}
	var out strings.Builder
	if err := rep.Write(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("flood:        %d workers from 127.0.1.1: ", flood), "answered 200: ", "429 (rate limited): ", "summary:      the game moves' acknowledgement p99 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, out.String())
		}
	}
}

func TestRunSlowConnectionsAreReopened(t *testing.T) {
	const timeout = 300 * time.Millisecond
	ts := newTestServerWith(t, func(s *http.Server) {
		s.ReadHeaderTimeout, s.IdleTimeout = timeout, timeout
	}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if clientOf(r) == slowAddr.String() {
				// a body must come within the timeout
				http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
			}
			h.ServeHTTP(w, r)
		})
	})
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: 1, Moves: MaxMoves,
		Duration: 3 * time.Second, Think: 150 * time.Millisecond, Level: 1, Slow: 6})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Slow
	if s == nil || s.Conns != 6 || s.From != slowAddr.String() || len(s.Kinds) != 3 {
		t.Fatalf("slow %+v; want 6 connections from %s of 3 kinds", s, slowAddr)
	}
	for _, k := range s.Kinds {
		// each connection closed by the server after about 0.3s and
		// reopened after 1s (slowRetry): 2 or 3 opens each in 3s
		if k.Conns != 2 || k.Opened <= k.Conns || k.Closed == 0 || k.Refused != 0 || k.Open > k.Conns {
			t.Errorf("%s: %+v; want 2 connections reopened, some closed by the server, none refused", k.Kind, k)
		}
		if k.ClosedAfter < timeout/2 || k.ClosedAfter > 2*time.Second {
			t.Errorf("%s: closed after %s on average; the server's timeouts are %s", k.Kind, k.ClosedAfter, timeout)
		}
	}
	if idle := s.Kinds[idle]; idle.Answers[http.StatusOK] == 0 {
		t.Errorf("idle connections: answers %v; want their GET answered 200", idle.Answers)
	}
	if len(rep.Errors) != 0 || rep.Moves == 0 {
		t.Errorf("the game: %d moves, errors %v; want moves and no error", rep.Moves, rep.Errors)
	}
	var out strings.Builder
	rep.Write(&out)
	t.Log("\n" + out.String())
	for _, want := range []string{"slow:         6 connections from 127.0.1.2", "trickled POST body (2): opened ", "idle keep-alive (2): ", "silent (2): ", "closed by the server "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, out.String())
		}
	}
}

func TestRunSamplesTheServer(t *testing.T) {
	ts := newTestServer(t)
	// The test process is the server.
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: 1, Moves: MaxMoves,
		Duration: 1200 * time.Millisecond, Think: 50 * time.Millisecond, Level: 1,
		ServerPID: os.Getpid(), SampleEvery: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rep.Server); n < 4 || rep.Server[0].Label != "start" || rep.Server[n-2].Label != "end" || rep.Server[n-1].Label != "end+500ms" {
		t.Fatalf("samples %+v; want start, some while playing, end, end+500ms", rep.Server)
	}
	for _, s := range rep.Server {
		if s.Err != "" || s.RSS <= 0 || s.FDs <= 0 {
			t.Errorf("sample %+v; want memory and open files", s)
		}
	}
	var out strings.Builder
	rep.Write(&out)
	if !strings.Contains(out.String(), "server:       resident memory and open files") || !strings.Contains(out.String(), "since the start)") {
		t.Errorf("no samples in the report:\n%s", out.String())
	}
}

func TestRunRefusesAnUnreadableServerPID(t *testing.T) {
	_, err := Run(context.Background(), Config{Addr: "127.0.0.1:1", Games: 1, Moves: 1, Duration: time.Second, Level: 1, ServerPID: MaxPID})
	if err == nil || !strings.Contains(err.Error(), "server pid 4194304: cannot read its memory") {
		t.Errorf("err %v; want server pid 4194304: cannot read its memory", err)
	}
}

func TestCheckFiles(t *testing.T) {
	if err := checkFiles(1<<40, 3); err == nil || !strings.Contains(err.Error(), "needs about 1099511627776 open files (3 a game,") {
		t.Errorf("checkFiles(2^40) = %v; want a refusal", err)
	}
	if err := checkFiles(10, 2); err != nil {
		t.Errorf("checkFiles(10) = %v", err)
	}
}

func TestFilesCountAClientASeatWithAccounts(t *testing.T) {
	for _, c := range []struct {
		cfg     Config
		players int
		want    int
	}{
		// The games' moves over their sockets: one file a game, and one
		// in fifty games more for those replacing theirs.
		{Config{Games: 100, AIGames: 10}, 2, 1*100 + 2*10 + 256 + 2},
		{Config{Games: 10000}, 2, 10000 + 256 + 200},
		{Config{Games: 100, AIGames: 10, HTTPMoves: true}, 2, 2*100 + 2*10 + 256 + 2},
		{Config{Games: 100, AIGames: 10, Accounts: true}, 2, 3*100 + 2*10 + 256 + 2},
		{Config{Games: 100, Accounts: true, Flood: 5, Slow: 7}, 3, 4*100 + 5 + 7 + 256 + 2},
	} {
		if got := c.cfg.files(c.players); got != c.want {
			t.Errorf("%+v with %d players: %d files; want %d", c.cfg, c.players, got, c.want)
		}
	}
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		ack  Latencies
		want string
	}{
		{Latencies{N: 10, P50: time.Millisecond, P99: 99 * time.Millisecond, Max: time.Second}, "p99 99.0ms < 100.0ms: held (p50 1.0ms, max 1000.0ms, 10 moves)"},
		{Latencies{N: 10, P50: time.Millisecond, P99: 100 * time.Millisecond, Max: time.Second}, "p99 100.0ms >= 100.0ms: NOT held"},
		{Latencies{}, "no human game's move was acknowledged"},
	} {
		var out strings.Builder
		(&Report{Ack: c.ack}).Write(&out)
		if !strings.Contains(out.String(), "summary:      ") || !strings.Contains(out.String(), c.want) {
			t.Errorf("ack %+v: report\n%s\nwant %q", c.ack, out.String(), c.want)
		}
	}
}

func TestStatusOf(t *testing.T) {
	for in, want := range map[string]int{"HTTP/1.1 200 OK\r\n": 200, "HTTP/1.0 408 Request Timeout": 408, "HTTP/1.1 20": 0, "garbage here!": 0} {
		if got := statusOf([]byte(in)); got != want {
			t.Errorf("statusOf(%q) = %d; want %d", in, got, want)
		}
	}
}
