package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestClientsInOneIPv6Slash64ShareLimits: an IPv6 host holds a whole /64
// and may send from any address in it, so every address of a /64 draws
// on one budget (reads, games), while another /64 has its own.
func TestClientsInOneIPv6Slash64ShareLimits(t *testing.T) {
	clock := newTestClock() // stands still: no budget refills
	ts := newTestServerBehind(t, siteConfig{Now: clock.Now, Limits: Limits{ReadsPerSecond: 1, ReadBurst: 3, GamesPerHour: 2}},
		func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				r.RemoteAddr = r.Header.Get("X-Test-Remote") // the address the request comes from
				next.ServeHTTP(w, r)
			})
		})
	from := func(remote string) http.Header {
		return http.Header{"X-Test-Remote": {remote}, "Content-Type": {"application/json"}}
	}
	game := map[string]any{"game": "pommel", "seats": []string{"human", "human"}}
	for _, c := range []struct {
		method, path, remote string
		want                 int
	}{
		{"GET", "/api/games", "[2001:db8:1:2::1]:40000", http.StatusOK},
		{"GET", "/api/games", "[2001:db8:1:2::1]:40001", http.StatusOK},
		{"GET", "/api/games", "[2001:db8:1:2:ffff:ffff:ffff:ffff]:40000", http.StatusOK},
		{"GET", "/api/games", "[2001:db8:1:2::abcd]:40000", http.StatusTooManyRequests},
		{"GET", "/api/games", "[2001:db8:1:3::1]:40000", http.StatusOK},
		{"POST", "/api/games", "[2001:db8:1:2::1]:40000", http.StatusCreated},
		{"POST", "/api/games", "[2001:db8:1:2::2]:40000", http.StatusCreated},
		{"POST", "/api/games", "[2001:db8:1:2::3]:40000", http.StatusTooManyRequests},
		{"POST", "/api/games", "[2001:db8:1:3::3]:40000", http.StatusCreated},
		{"GET", "/api/games", "192.0.2.1:40000", http.StatusOK},
		{"GET", "/api/games", "192.0.2.2:40000", http.StatusOK},
	} {
		var body any
		if c.method == "POST" {
			body = game
		}
		if code, got := ts.doWith(c.method, c.path, "", from(c.remote), body); code != c.want {
			t.Errorf("%s %s from %s: %d %.100s, want %d", c.method, c.path, c.remote, code, got, c.want)
		}
	}
	rec := httptest.NewRecorder()
	ts.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if want := "\narbiter_clients_tracked 4\n"; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("/metrics lacks %q (two /64s, two IPv4 addresses)", want)
	}
}

// keys are the clients c keeps, sorted.
func (c *clients) keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ks []string
	for k := range c.byKey {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestClientTableIsBounded: at its cap the table forgets the client seen
// least recently that has no socket open, one for each new client, and
// stays at the cap; a client with a socket open is kept however old; a
// client unseen for an hour is forgotten as new requests come.
func TestClientTableIsBounded(t *testing.T) {
	clock := newTestClock()
	c := newClients(Limits{Clients: 3}.withDefaults(), clock.Now)
	step := func(f func(string) bool, key string) {
		clock.advance(time.Second)
		f(key)
	}
	step(c.allowRead, "a")
	step(c.allowRead, "b")
	step(c.allowMove, "c")
	step(c.allowGame, "a") // a is seen again
	step(c.openSocket, "b")
	for _, s := range []struct {
		key  string
		want []string
	}{
		{"d", []string{"a", "b", "d"}}, // c is the least recent
		{"e", []string{"b", "d", "e"}}, // then a; b, older, has a socket
		{"f", []string{"b", "e", "f"}},
	} {
		step(c.allowRead, s.key)
		if got := c.keys(); !slices.Equal(got, s.want) {
			t.Errorf("after %s: %v, want %v", s.key, got, s.want)
		}
	}
	c.closeSocket("b") // b is seen now, with no socket
	step(c.allowRead, "g")
	if got, want := c.keys(), []string{"b", "f", "g"}; !slices.Equal(got, want) {
		t.Errorf("after b's socket closed and g came: %v, want %v", got, want)
	}
	// A client with a socket open stays past an hour unseen; the others go.
	c.openSocket("f")
	clock.advance(2 * time.Hour)
	c.allowRead("h")
	if got, want := c.keys(), []string{"f", "h"}; !slices.Equal(got, want) {
		t.Errorf("two hours later: %v, want %v", got, want)
	}
}

// TestClientTableStaysAtItsCap: many more clients than the cap leave the
// table at the cap.
func TestClientTableStaysAtItsCap(t *testing.T) {
	clock := newTestClock()
	c := newClients(Limits{Clients: 1000}.withDefaults(), clock.Now)
	c.openSocket("held")
	for i := range 20_000 {
		c.allowRead(fmt.Sprint("client-", i))
	}
	if n := c.size(); n != 1000 {
		t.Errorf("%d clients kept, want the cap, 1000", n)
	}
	if !slices.Contains(c.keys(), "held") {
		t.Error("the client with a socket open was forgotten")
	}
}

// BenchmarkClientChurn is one request from a new client each time, past
// the table's cap: constant time (the sweep it replaced went through the
// whole table, so that 60,000 sources made a trivial request's p50 151 ms).
func BenchmarkClientChurn(b *testing.B) {
	c := newClients(DefaultLimits, time.Now)
	for i := range 60_000 {
		c.allowRead(fmt.Sprint("warm-", i))
	}
	b.ResetTimer()
	for i := range b.N {
		c.allowRead(fmt.Sprint("client-", i))
	}
}
