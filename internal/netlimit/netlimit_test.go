package netlimit

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// serve starts a Listener on 127.0.0.1 whose accepted connections are
// held open until the test ends or the client closes them (the server
// side reads until EOF, then closes).
func serve(t *testing.T, cfg Config) *Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Listen(ln, cfg)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
		if n := l.Open(); n != 0 {
			t.Errorf("after closing everything, Open() = %d, want 0", n)
		}
	})
	return l
}

// dial connects to l from the local address from (port chosen by the
// system).
func dial(t *testing.T, l *Listener, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// refused reports whether the server closed c at once: it reads the
// 503 (or a reset) then EOF, rather than timing out. It waits longer
// when a refusal is expected, so a slow machine does not pass for an
// open connection.
func refused(t *testing.T, c net.Conn, expect bool) bool {
	t.Helper()
	wait := 300 * time.Millisecond
	if expect {
		wait = 5 * time.Second
	}
	c.SetReadDeadline(time.Now().Add(wait))
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		if len(b) > 0 {
			t.Fatalf("open connection got %q", b)
		}
		return false
	}
	if len(b) > 0 && string(b) != refusal {
		t.Fatalf("refused connection got %q, want the 503", b)
	}
	return true
}

// waitFor polls cond until it holds or a few seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var (
	ip1 = netip.MustParseAddr("127.0.0.1")
	ip2 = netip.MustParseAddr("127.0.0.2")
)

func TestPerAddr(t *testing.T) {
	l := serve(t, Config{PerAddr: 3, Total: 100})
	var held []net.Conn
	for range 3 {
		held = append(held, dial(t, l, "127.0.0.1"))
	}
	waitFor(t, "3 open from 127.0.0.1", func() bool { return l.OpenFrom(ip1) == 3 })
	for i := range 2 {
		c := dial(t, l, "127.0.0.1")
		if !refused(t, c, true) {
			t.Fatalf("connection %d over PerAddr from 127.0.0.1 was kept", 4+i)
		}
	}
	if got := l.Refused(); got != 2 {
		t.Errorf("Refused() = %d, want 2", got)
	}
	// Another address still gets in, up to its own cap.
	for range 3 {
		if c := dial(t, l, "127.0.0.2"); refused(t, c, false) {
			t.Fatal("connection from 127.0.0.2 refused while under its cap")
		}
	}
	waitFor(t, "3 open from 127.0.0.2", func() bool { return l.OpenFrom(ip2) == 3 })
	if got, want := l.Open(), 6; got != want {
		t.Errorf("Open() = %d, want %d", got, want)
	}
	if got := l.Addrs(); got != 2 {
		t.Errorf("Addrs() = %d, want 2", got)
	}
	// Closing one frees a slot for that address.
	held[0].Close()
	waitFor(t, "a slot freed", func() bool { return l.OpenFrom(ip1) == 2 })
	if c := dial(t, l, "127.0.0.1"); refused(t, c, false) {
		t.Fatal("connection refused after a slot was freed")
	}
	if got := l.Refused(); got != 2 {
		t.Errorf("Refused() = %d, want still 2", got)
	}
}

func TestTotal(t *testing.T) {
	l := serve(t, Config{PerAddr: 10, Total: 4})
	var held []net.Conn
	for _, from := range []string{"127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.3"} {
		held = append(held, dial(t, l, from))
	}
	waitFor(t, "4 open", func() bool { return l.Open() == 4 })
	for _, from := range []string{"127.0.0.1", "127.0.0.4"} {
		if c := dial(t, l, from); !refused(t, c, true) {
			t.Fatalf("connection from %s over Total was kept", from)
		}
	}
	if got := l.Open(); got != 4 {
		t.Errorf("Open() = %d, want 4", got)
	}
	for _, c := range held[:2] {
		c.Close()
	}
	waitFor(t, "2 slots freed", func() bool { return l.Open() == 2 })
	if got := l.OpenFrom(ip1); got != 0 {
		t.Errorf("OpenFrom(127.0.0.1) = %d after closing both, want 0", got)
	}
	if got := l.Addrs(); got != 2 {
		t.Errorf("Addrs() = %d, want 2 (no entries left at zero)", got)
	}
	for _, from := range []string{"127.0.0.4", "127.0.0.5"} {
		if c := dial(t, l, from); refused(t, c, false) {
			t.Fatalf("connection from %s refused after slots were freed", from)
		}
	}
	waitFor(t, "4 open again", func() bool { return l.Open() == 4 })
	if got := l.Refused(); got != 2 {
		t.Errorf("Refused() = %d, want 2", got)
	}
}

func TestDoubleClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Listen(ln, Config{PerAddr: 2, Total: 2})
	defer l.Close()
	type res struct {
		c   net.Conn
		err error
	}
	accepted := make(chan res, 2)
	go func() {
		for range 2 {
			c, err := l.Accept()
			accepted <- res{c, err}
		}
	}()
	c1, c2 := dial(t, l, "127.0.0.1"), dial(t, l, "127.0.0.1")
	_, _ = c1, c2
	a := <-accepted
	b := <-accepted
	if a.err != nil || b.err != nil {
		t.Fatal(a.err, b.err)
	}
	if got := l.Open(); got != 2 {
		t.Fatalf("Open() = %d, want 2", got)
	}
	if err := a.c.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := a.c.Close(); err == nil {
		t.Error("second Close returned nil, want the wrapped conn's error")
	}
	// Close from several goroutines at once, too.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { b.c.Close() })
	}
	wg.Wait()
	if got := l.Open(); got != 0 {
		t.Fatalf("Open() = %d after closing both (one of them many times), want 0", got)
	}
	if got := l.OpenFrom(ip1); got != 0 {
		t.Fatalf("OpenFrom = %d, want 0", got)
	}
}

func TestHTTPServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Listen(ln, Config{PerAddr: 4, Total: 8})
	var states sync.Map // net.Conn -> last http.ConnState
	var hijackedClosed atomic.Bool
	srv := &http.Server{
		ReadHeaderTimeout: 5 * time.Second,
		ConnState: func(c net.Conn, s http.ConnState) {
			if _, ok := c.(*Conn); !ok {
				t.Errorf("ConnState got a %T, want *netlimit.Conn", c)
			}
			states.Store(c, s)
		},
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/hijack" {
				io.WriteString(w, "hello "+r.URL.Path)
				return
			}
			// What a websocket library does: hijack, talk, close the
			// same net.Conn.
			c, brw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			if _, ok := c.(*Conn); !ok {
				t.Errorf("Hijack gave a %T, want *netlimit.Conn", c)
			}
			brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
			brw.Flush()
			line, _ := brw.ReadString('\n')
			io.WriteString(c, "echo "+line)
			buf := make([]byte, 1)
			c.Read(buf) // until the client closes
			c.Close()
			hijackedClosed.Store(true)
		}),
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	defer func() {
		srv.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
		waitFor(t, "all closed after srv.Close", func() bool { return l.Open() == 0 })
	}()
	url := "http://" + l.Addr().String()

	// Keep-alive requests over a few connections, under the cap.
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 3}, Timeout: 5 * time.Second}
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			p := "/" + strconv.Itoa(i)
			resp, err := client.Get(url + p)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || string(b) != "hello "+p {
				t.Errorf("GET %s: %d %q", p, resp.StatusCode, b)
			}
		})
	}
	wg.Wait()
	// A connection the client gave up is counted until the server reads
	// its end, a moment later on a busy machine.
	waitFor(t, "at most 3 keep-alive connections open", func() bool { got := l.Open(); return got >= 1 && got <= 3 })
	if got := l.Refused(); got != 0 {
		t.Errorf("Refused() = %d under the cap", got)
	}
	client.CloseIdleConnections()
	// http.Server closes the conn, then reports StateClosed.
	allClosed := func() bool {
		n, closed := 0, 0
		states.Range(func(_, v any) bool {
			n++
			if v == http.StateClosed {
				closed++
			}
			return true
		})
		return n > 0 && closed == n
	}
	waitFor(t, "idle connections closed", func() bool { return l.Open() == 0 && allClosed() })

	// A hijacked connection counts until the handler closes it.
	c := dial(t, l, "127.0.0.1")
	io.WriteString(c, "GET /hijack HTTP/1.1\r\nHost: x\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 101 {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	io.WriteString(c, "ping\n")
	line, err := br.ReadString('\n')
	if err != nil || line != "echo ping\n" {
		t.Fatalf("hijacked echo: %q %v", line, err)
	}
	if got := l.Open(); got != 1 {
		t.Errorf("Open() = %d with a hijacked connection open, want 1", got)
	}
	c.Close()
	waitFor(t, "hijacked connection closed", func() bool { return hijackedClosed.Load() && l.Open() == 0 })

	// Over the cap, an HTTP client gets the 503.
	var held []net.Conn
	for range 4 {
		held = append(held, dial(t, l, "127.0.0.1"))
	}
	waitFor(t, "4 open", func() bool { return l.Open() == 4 })
	c = dial(t, l, "127.0.0.1")
	c.SetDeadline(time.Now().Add(5 * time.Second))
	resp, err = http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the refusal: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 503 || string(b) != refusalBody || !resp.Close {
		t.Errorf("refusal: %d %q close=%v", resp.StatusCode, b, resp.Close)
	}
	for _, c := range held {
		c.Close()
	}
}

// tempErr is a temporary accept error, like the net package's for EMFILE.
var tempErr = &net.OpError{Op: "accept", Net: "tcp", Err: syscall.EMFILE}

// failing is a net.Listener whose Accept always fails with tempErr,
// counting calls.
type failing struct {
	calls  atomic.Int64
	closed chan struct{}
	once   sync.Once
}

func (f *failing) Accept() (net.Conn, error) {
	select {
	case <-f.closed:
		return nil, net.ErrClosed
	default:
	}
	f.calls.Add(1)
	return nil, tempErr
}

func (f *failing) Close() error {
	f.once.Do(func() { close(f.closed) })
	return nil
}

func (f *failing) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

func TestAcceptBackoff(t *testing.T) {
	if !temporary(tempErr) {
		t.Fatal("EMFILE not taken as temporary")
	}
	f := &failing{closed: make(chan struct{})}
	l := Listen(f, Config{PerAddr: 1, Total: 1})
	errc := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := l.Accept()
		errc <- err
	}()
	// Pauses of 5, 10, 20, 40, 80, 160, 320 ms sum to 635 ms: in 700 ms
	// Accept is tried 8 times (9 with slow timers), not thousands.
	time.Sleep(700 * time.Millisecond)
	calls := f.calls.Load()
	if calls < 4 || calls > 9 {
		t.Errorf("Accept tried %d times in 700 ms, want about 8", calls)
	}
	select {
	case err := <-errc:
		t.Fatalf("Accept returned %v on a temporary error", err)
	default:
	}
	// Close ends a pause at once (the current one is 640 ms).
	l.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(300 * time.Millisecond):
		t.Fatal("Accept still pausing 300 ms after Close")
	}
	if got := l.AcceptErrors(); got != uint64(f.calls.Load()) {
		t.Errorf("AcceptErrors() = %d, want %d", got, f.calls.Load())
	}
	t.Logf("%d calls in %v", calls, time.Since(start))
}

func TestAddrKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::"},
		{"fe80::1%eth0", "fe80::"},
	} {
		k, ok := AddrKey(netip.MustParseAddr(tc.in))
		if !ok || k.String() != tc.want {
			t.Errorf("AddrKey(%s) = %v %v, want %s", tc.in, k, ok, tc.want)
		}
	}
	if _, ok := key(&net.UnixAddr{Name: "/tmp/s", Net: "unix"}); ok {
		t.Error("a Unix address got a per-address key")
	}
	if k, ok := key(&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 80}); !ok || k.String() != "2001:db8::" {
		t.Errorf("key(TCPAddr) = %v %v", k, ok)
	}
}

func TestRefusalLength(t *testing.T) {
	head, body, _ := strings.Cut(refusal, "\r\n\r\n")
	if body != refusalBody || !strings.Contains(head+"\r\n", "\r\nContent-Length: "+strconv.Itoa(len(refusalBody))+"\r\n") {
		t.Errorf("Content-Length does not match the body in %q", refusal)
	}
}

func TestDefaultConfig(t *testing.T) {
	for _, tc := range []struct {
		soft  uint64
		total int
	}{
		{0, 10000},
		{64, 16},
		{100, 26},      // 90 - 64
		{88, 16},       // 80 - 64: the least
		{1024, 858},    // 1024 - 102 - 64
		{20000, 17936}, // this machine's: 10,000 one-connection games fit
		{1 << 40, MaxTotal},
		{^uint64(0), MaxTotal},
	} {
		c := DefaultConfig(tc.soft)
		if c.PerAddr != 64 || c.Total != tc.total {
			t.Errorf("DefaultConfig(%d) = %+v, want PerAddr 64, Total %d", tc.soft, c, tc.total)
		}
	}
}
