package server

import (
	"container/list"
	"fmt"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/netlimit"
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

// middleware resolves the client (see resolvePeer), sets the security
// headers (HSTS too for a client over TLS), turns a panic into a 500 and
// logs every request at debug level: method, path and status. Paths carry
// game ids, never tokens (tokens travel in headers and fragments), and the
// Authorization header is never logged.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r, client := s.withPeer(r)
		for _, h := range securityHeaders {
			w.Header().Set(h[0], h[1])
		}
		if client.tls {
			w.Header().Set("Strict-Transport-Security", hsts)
		}
		keepSignedInMark(w, r)
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

// clientKey names the client a request comes from, for its limits: an
// IPv4 address, or an IPv6 /64 (one host usually holds a whole /64 and
// may use any address in it), as netlimit counts connections. It is the
// client the middleware resolved (see peer): behind a trusted proxy, the
// address the proxy names; else the remote address.
func clientKey(r *http.Request) string {
	if p, ok := r.Context().Value(peerKey{}).(peer); ok {
		return p.key
	}
	return remoteKey(r.RemoteAddr)
}

// remoteKey is the client key of a RemoteAddr: its address's, or, for
// one that is not IP, the text itself (cut to 64 bytes).
func remoteKey(remote string) string {
	if k, ok := netlimit.ClientKey(addrOf(remote)); ok {
		return k
	}
	return remote[:min(len(remote), 64)]
}

// addrOf is the IP of "HOST:PORT" or of a bare address, or the zero Addr.
func addrOf(s string) netip.Addr {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr()
	}
	ip, _ := netip.ParseAddr(s)
	return ip
}

// clients keeps each client's limiters and open sockets, for at most
// Limits.Clients clients without a socket open: one more makes room by
// forgetting the one seen least recently, in constant time, whose
// limiters were the fullest anyway. A client with a socket open is never
// forgotten (its socket count must hold); those are bounded by the
// connections.
type clients struct {
	mu     sync.Mutex
	limits Limits
	now    func() time.Time
	byKey  map[string]*client
	// idle are the clients with no socket open, the most recently seen
	// first.
	idle list.List
}

type client struct {
	key                 string
	moves, reads, games *rate.Limiter
	sockets             int
	seen                time.Time
	// inIdle is the client's element of clients.idle; nil while it has
	// a socket open.
	inIdle *list.Element
}

// forgetAfter is how long a client that sends nothing keeps its limiters;
// by then they are full again anyway.
const forgetAfter = time.Hour

// forgetAtOnce bounds the clients that one request forgets for being
// unseen since forgetAfter, so that no request pays for many.
const forgetAtOnce = 4

func newClients(l Limits, now func() time.Time) *clients {
	return &clients{limits: l, now: now, byKey: map[string]*client{}}
}

// get is the client's record, made the first time; held c.mu.
func (c *clients) get(key string) *client {
	now := c.now()
	c.forgetOld(now)
	cl, ok := c.byKey[key]
	switch {
	case !ok:
		if len(c.byKey) >= c.limits.Clients {
			c.forgetLeastRecent()
		}
		cl = &client{key: key,
			moves: rate.NewLimiter(rate.Limit(c.limits.MovesPerSecond), c.limits.MoveBurst),
			reads: rate.NewLimiter(rate.Limit(c.limits.ReadsPerSecond), c.limits.ReadBurst),
			games: rate.NewLimiter(rate.Every(time.Hour/time.Duration(c.limits.GamesPerHour)), c.limits.GamesPerHour),
		}
		cl.inIdle = c.idle.PushFront(cl)
		c.byKey[key] = cl
	case cl.inIdle != nil:
		c.idle.MoveToFront(cl.inIdle)
	}
	cl.seen = now
	return cl
}

// forgetLeastRecent forgets the client without a socket seen least
// recently, if there is one.
func (c *clients) forgetLeastRecent() {
	if e := c.idle.Back(); e != nil {
		c.forget(e)
	}
}

// forgetOld forgets a few of the clients without a socket not seen since
// forgetAfter, so that a quiet server's table shrinks.
func (c *clients) forgetOld(now time.Time) {
	for range forgetAtOnce {
		e := c.idle.Back()
		if e == nil || now.Sub(e.Value.(*client).seen) <= forgetAfter {
			return
		}
		c.forget(e)
	}
}

func (c *clients) forget(e *list.Element) {
	cl := c.idle.Remove(e).(*client)
	delete(c.byKey, cl.key)
}

// size is the number of clients kept.
func (c *clients) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
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
	if cl.inIdle != nil {
		c.idle.Remove(cl.inIdle)
		cl.inIdle = nil
	}
	return true
}

func (c *clients) closeSocket(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.get(key)
	if cl.sockets == 0 {
		return
	}
	cl.sockets--
	if cl.sockets == 0 {
		cl.inIdle = c.idle.PushFront(cl)
	}
}

// quote quotes a client's text in a message: at most 80 characters of it.
func quote(s string) string { return clip.Quote(s) }
