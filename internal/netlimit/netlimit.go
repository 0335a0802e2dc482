// Package netlimit caps the connections a server holds open, per client
// address and overall, so that one client cannot use up the process's
// file descriptors (an audit saw one address open 19,995 connections
// until accept failed with "too many open files").
//
// Listen wraps a net.Listener. Every accepted connection is counted
// against its client address (an IPv4 address, or the /64 prefix of an
// IPv6 address, since one IPv6 host usually holds a whole /64) and
// against the total, until the connection is closed. A connection that
// would go over either cap is answered with a minimal 503 response and
// closed at once, and Accept goes on to the next one: the caller never
// sees an error for it. Temporary accept errors (such as EMFILE) are
// retried inside Accept after a pause that doubles from 5 ms to 1 s, as
// net/http does, so the accept loop never spins.
//
// FDLimit reports RLIMIT_NOFILE and DefaultConfig derives the caps
// from it.
package netlimit

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Config sets the caps. A cap of zero or less means no cap.
type Config struct {
	// PerAddr is the most connections one client address may hold
	// open: an IPv4 address, or an IPv6 /64 prefix. Connections whose
	// remote address is not IP (a Unix socket) count only toward Total.
	PerAddr int
	// Total is the most connections the listener holds open at once.
	Total int
	// Exempt are addresses not capped per address, only by Total: the
	// reverse proxies a server trusts, which bring the connections of
	// many clients. IPv4 prefixes match IPv4-mapped IPv6 addresses too.
	Exempt []netip.Prefix
	// Log, if not nil, gets a warning for each temporary accept error
	// retried (the errors Accept does not return). Refusals are not
	// logged, since a flood of them would flood the log too; see
	// Listener.Refused.
	Log *slog.Logger
}

// Defaults used by DefaultConfig.
const (
	// DefaultPerAddr is the default cap per client address. A browser
	// opens at most 6 HTTP/1.1 connections to a host plus a websocket
	// per open game tab, and several people may share one address
	// behind NAT, so 64 leaves room for normal use while a single
	// address holds well under 1% of the total a server of 20,000 open
	// files allows (17,936).
	DefaultPerAddr = 64
	// DefaultTotal is Total when the descriptor limit is unknown.
	DefaultTotal = 10000
	// MaxTotal is the most DefaultConfig allows overall, however high
	// the descriptor limit (RLIM_INFINITY included): far above what a
	// server holds, it only keeps the count a sane int.
	MaxTotal = 1_000_000
	// Reserve is the number of descriptors DefaultConfig keeps back
	// from connections for the store, the log, served files and the
	// runtime.
	Reserve = 64
	// MinTotal is the least Total DefaultConfig returns, even when the
	// descriptor limit is tiny.
	MinTotal = 16
)

// DefaultConfig returns the caps for a process whose soft RLIMIT_NOFILE
// is fdSoft (see FDLimit): PerAddr = DefaultPerAddr (64) and
// Total = 90% of fdSoft - Reserve, at least MinTotal (16) and at most
// MaxTotal. The 10% kept back covers descriptors held for a moment by
// refused connections, outgoing connections and files opened while
// serving; with one connection a game (moves on the game's websocket),
// a limit of 20,000 holds 17,936 connections, 10,000 games and room to
// spare. An fdSoft of 0 means unknown, and Total is then DefaultTotal.
func DefaultConfig(fdSoft uint64) Config {
	total := uint64(DefaultTotal)
	if fdSoft > 0 {
		avail := fdSoft - fdSoft/10 // 90%, without overflow near RLIM_INFINITY
		switch {
		case avail < Reserve+MinTotal:
			total = MinTotal
		default:
			total = min(avail-Reserve, MaxTotal)
		}
	}
	return Config{PerAddr: DefaultPerAddr, Total: int(total)}
}

// refusal is written to a connection refused for being over a cap, so a
// browser shows why instead of a bare reset.
const refusal = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Connection: close\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\n" +
	"Retry-After: 5\r\n" +
	"Content-Length: 21\r\n" + // len(refusalBody)
	"\r\n" + refusalBody

const refusalBody = "too many connections\n"

// refuseWriteTimeout bounds the refusal write. The socket is new and its
// send buffer empty, so the write does not block in practice; the
// deadline only guards the accept loop against the impossible.
const refuseWriteTimeout = 20 * time.Millisecond

// Backoff bounds for temporary accept errors, as in net/http.
const (
	minBackoff = 5 * time.Millisecond
	maxBackoff = time.Second
)

// Listener is a net.Listener that caps open connections per client
// address and overall. Its methods are safe for concurrent use.
type Listener struct {
	ln  net.Listener
	cfg Config

	mu     sync.Mutex
	open   int                // connections accepted and not yet closed
	byAddr map[netip.Addr]int // the same, per key (see key); no zero counts

	refused   atomic.Uint64
	acceptErr atomic.Uint64

	done      chan struct{} // closed by Close, to end a backoff pause
	closeOnce sync.Once
}

// Listen returns a Listener that accepts from ln under the caps of cfg.
// The Listener owns ln: closing it closes ln.
func Listen(ln net.Listener, cfg Config) *Listener {
	return &Listener{ln: ln, cfg: cfg, byAddr: make(map[netip.Addr]int), done: make(chan struct{})}
}

// Accept returns the next connection within the caps. Connections over
// a cap are refused (see Refused) without returning. Temporary errors
// from the wrapped listener are retried after a pause (5 ms doubling to
// 1 s, reset by a success), so Accept returns an error only when the
// wrapped listener fails for good, for instance on Close.
//
// The net.Conn returned counts against the caps until its Close is
// called (once or many times); it still works with http.Server,
// including Hijack, since the hijacker gets and closes this same Conn.
func (l *Listener) Accept() (net.Conn, error) {
	var delay time.Duration
	for {
		c, err := l.ln.Accept()
		if err != nil {
			if !temporary(err) {
				return nil, err
			}
			l.acceptErr.Add(1)
			if delay == 0 {
				delay = minBackoff
			} else {
				delay = min(2*delay, maxBackoff)
			}
			if l.cfg.Log != nil {
				l.cfg.Log.Warn("netlimit: accept error, retrying", "err", err, "delay", delay)
			}
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-l.done:
				t.Stop()
				return nil, net.ErrClosed
			}
			continue
		}
		delay = 0
		ip := remoteIP(c.RemoteAddr())
		k, ok := AddrKey(ip)
		if ok && l.cfg.exempt(ip) {
			ok = false // a proxy: its clients are many
		}
		if !l.admit(k, ok) {
			l.refused.Add(1)
			refuse(c)
			continue
		}
		return &Conn{Conn: c, l: l, key: k, keyed: ok}, nil
	}
}

// temporary reports whether err is worth retrying, by the same test as
// net/http's Server.Serve: EMFILE, ENFILE, ECONNABORTED, timeouts and
// the like.
func temporary(err error) bool {
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	var ne interface{ Temporary() bool }
	return errors.As(err, &ne) && ne.Temporary()
}

// refuse writes the 503 response to c, best effort, and closes it. If the
// client already sent its request, closing with it unread makes the
// kernel send a reset, and the client may see that instead of the
// response; it is refused either way. Refusing takes no goroutine and
// keeps no descriptor past the return, which matters most when the
// process is short of them.
func refuse(c net.Conn) {
	if c.SetWriteDeadline(time.Now().Add(refuseWriteTimeout)) == nil {
		io.WriteString(c, refusal)
	}
	c.Close()
}

// key returns the address a connection counts against, and false when
// the remote address is not IP.
func key(a net.Addr) (netip.Addr, bool) { return AddrKey(remoteIP(a)) }

// remoteIP is a's IP, or the zero Addr when a is not IP.
func remoteIP(a net.Addr) netip.Addr {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.AddrPort().Addr()
	case *net.UDPAddr:
		return a.AddrPort().Addr()
	case nil:
		return netip.Addr{}
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr()
}

// exempt reports whether ip is one of cfg.Exempt's.
func (cfg Config) exempt(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range cfg.Exempt {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ipv6Prefix is the prefix length an IPv6 client is known by: one host
// usually holds a whole /64 and may use any address in it.
const ipv6Prefix = 64

// AddrKey maps an IP to the address it counts against: IPv4 (also
// IPv4-mapped IPv6) as is, IPv6 by its /64 prefix, without zone. It
// reports false for the zero Addr.
func AddrKey(ip netip.Addr) (netip.Addr, bool) {
	if !ip.IsValid() {
		return netip.Addr{}, false
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, err := ip.Prefix(ipv6Prefix)
		if err != nil {
			return netip.Addr{}, false
		}
		ip = p.Addr()
	}
	return ip, true
}

// ClientKey is AddrKey written as text, for the limits a server keeps
// per client: "192.0.2.7" for IPv4, "2001:db8:1:2::/64" for IPv6 (any
// address of that /64). It reports false for the zero Addr.
func ClientKey(ip netip.Addr) (string, bool) {
	k, ok := AddrKey(ip)
	switch {
	case !ok:
		return "", false
	case k.Is6():
		return netip.PrefixFrom(k, ipv6Prefix).String(), true
	}
	return k.String(), true
}

// admit counts a new connection from k (if keyed) unless that would go
// over a cap, and reports whether it did.
func (l *Listener) admit(k netip.Addr, keyed bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cfg.Total > 0 && l.open >= l.cfg.Total {
		return false
	}
	if keyed {
		if l.cfg.PerAddr > 0 && l.byAddr[k] >= l.cfg.PerAddr {
			return false
		}
		l.byAddr[k]++
	}
	l.open++
	return true
}

// release undoes admit for a closed connection.
func (l *Listener) release(k netip.Addr, keyed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if keyed {
		if n := l.byAddr[k] - 1; n > 0 {
			l.byAddr[k] = n
		} else {
			delete(l.byAddr, k)
		}
	}
}

// Close closes the wrapped listener, which ends Accept, including one
// pausing after an error. Connections already accepted stay open and
// counted until closed.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.ln.Close()
}

// Addr returns the wrapped listener's address.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Config returns the caps the listener was made with.
func (l *Listener) Config() Config { return l.cfg }

// Open returns the number of connections accepted and not yet closed.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// OpenFrom returns the number of open connections counted against ip's
// address: ip itself for IPv4, its /64 prefix for IPv6.
func (l *Listener) OpenFrom(ip netip.Addr) int {
	k, ok := AddrKey(ip)
	if !ok {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byAddr[k]
}

// Addrs returns the number of client addresses with a connection open.
func (l *Listener) Addrs() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byAddr)
}

// Refused returns the number of connections closed at accept for being
// over a cap, since Listen.
func (l *Listener) Refused() uint64 { return l.refused.Load() }

// AcceptErrors returns the number of temporary accept errors retried,
// since Listen.
func (l *Listener) AcceptErrors() uint64 { return l.acceptErr.Load() }

// Conn is a connection accepted by a Listener. It counts against the
// listener's caps until the first call to Close.
type Conn struct {
	net.Conn
	l     *Listener
	key   netip.Addr
	keyed bool
	once  sync.Once
}

// Close closes the connection and, the first time, frees its place in
// the counts, after the wrapped Close so the count never runs below the
// descriptors held. Every call goes to the wrapped Close, so a second
// call returns its error as an unwrapped net.Conn would.
func (c *Conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.key, c.keyed) })
	return err
}

// ReadFrom lets io.Copy into the connection (net/http's response
// writer) use the wrapped connection's ReadFrom, which is sendfile or
// splice for TCP.
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// WriteTo lets io.Copy from the connection use the wrapped connection's
// WriteTo (splice for TCP).
func (c *Conn) WriteTo(w io.Writer) (int64, error) {
	if wt, ok := c.Conn.(io.WriterTo); ok {
		return wt.WriteTo(w)
	}
	return io.Copy(w, struct{ io.Reader }{c.Conn})
}

// CloseWrite shuts down the writing side, if the wrapped connection can
// (net/http uses it to close gracefully). It does not free the count.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}

// CloseRead shuts down the reading side, if the wrapped connection can.
// It does not free the count.
func (c *Conn) CloseRead() error {
	if cr, ok := c.Conn.(interface{ CloseRead() error }); ok {
		return cr.CloseRead()
	}
	return errors.ErrUnsupported
}

// NetConn returns the wrapped connection, for settings such as TCP
// keepalive. Closing it directly would not free the count: close the
// Conn instead.
func (c *Conn) NetConn() net.Conn { return c.Conn }
