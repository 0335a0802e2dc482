package server

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// securityHeaders go on every answer: no inline script or style, no
// framing, no sniffing, no referrer (an invite link's path names a game).
var securityHeaders = [][2]string{
	{"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
}

// recorder keeps the status an answer was given, for the log.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

// Unwrap lets websocket.Accept reach the connection to hijack.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// middleware sets the security headers, turns a panic into a 500 and logs
// every request at debug level: method, path and status. Paths carry game
// ids, never tokens (tokens travel in headers and fragments), and the
// Authorization header is never logged.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		for _, h := range securityHeaders {
			w.Header().Set(h[0], h[1])
		}
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
				writeError(rec, fail(codeInternal, "the server failed on this request"))
			}
			if rec.status == http.StatusTooManyRequests {
				// A flood must not flood the log too: refusals are
				// counted (arbiter_requests_limited_total).
				s.metrics.limited.Inc()
			}
			// Every request is logged at debug level: at the default
			// level the log holds what needs the operator (the start,
			// failures, games that need attention), not each file a
			// browser fetches.
			s.log.DebugContext(r.Context(), "request", "method", r.Method, "path", clip.Bare(r.URL.Path), "status", rec.status,
				"ms", time.Since(start).Milliseconds(), "client", clientKey(r))
		}()
		next.ServeHTTP(rec, r)
	})
}

// clientKey names the client a request comes from, for its limits: the
// remote address without the port. Behind a proxy every client is the
// proxy; docs/server.md says so.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// clients keeps each client's limiters and open sockets.
type clients struct {
	mu     sync.Mutex
	limits Limits
	now    func() time.Time
	byKey  map[string]*client
}

type client struct {
	moves, reads, games *rate.Limiter
	sockets             int
	seen                time.Time
}

// forgetAfter is how long a client that sends nothing keeps its limiters;
// by then they are full again anyway.
const forgetAfter = time.Hour

func newClients(l Limits, now func() time.Time) *clients {
	return &clients{limits: l, now: now, byKey: map[string]*client{}}
}

// get is the client's record, made the first time; held c.mu.
func (c *clients) get(key string) *client {
	now := c.now()
	cl, ok := c.byKey[key]
	if !ok {
		if len(c.byKey) > 10000 {
			c.sweep(now)
		}
		cl = &client{
			moves: rate.NewLimiter(rate.Limit(c.limits.MovesPerSecond), c.limits.MoveBurst),
			reads: rate.NewLimiter(rate.Limit(c.limits.ReadsPerSecond), c.limits.ReadBurst),
			games: rate.NewLimiter(rate.Every(time.Hour/time.Duration(c.limits.GamesPerHour)), c.limits.GamesPerHour),
		}
		c.byKey[key] = cl
	}
	cl.seen = now
	return cl
}

// sweep forgets the clients not seen for a while, so that the table stays
// bounded by the clients of the last hour.
func (c *clients) sweep(now time.Time) {
	for key, cl := range c.byKey {
		if cl.sockets == 0 && now.Sub(cl.seen) > forgetAfter {
			delete(c.byKey, key)
		}
	}
}

func (c *clients) allowMove(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key).moves.AllowN(c.now(), 1)
}

func (c *clients) allowRead(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key).reads.AllowN(c.now(), 1)
}

func (c *clients) allowGame(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key).games.AllowN(c.now(), 1)
}

func (c *clients) openSocket(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.get(key)
	if cl.sockets >= c.limits.Sockets {
		return false
	}
	cl.sockets++
	return true
}

func (c *clients) closeSocket(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.get(key).sockets--
}

// quote quotes a client's text in a message: at most 80 characters of it.
func quote(s string) string { return clip.Quote(s) }
