package loadtest

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The kinds of slow connection, in turn: the n-th connection is of kind
// n%3.
const (
	// trickle sends a POST's header and then its body one byte every
	// trickleEvery.
	trickle = iota
	// idle sends one GET, reads the answer and then nothing: an idle
	// keep-alive connection.
	idle
	// silent opens the connection and sends nothing at all.
	silent
	slowKinds
)

var slowKindNames = [slowKinds]string{"trickled POST body", "idle keep-alive", "silent"}

// Timing of the slow connections.
const (
	trickleEvery = 3 * time.Second      // between two bytes of a trickled body
	slowDial     = 10 * time.Second     // for a connection to open
	slowRetry    = time.Second          // least time between two opens of one connection
	slowRamp     = 2 * time.Millisecond // between two connections' first opens
	trickleSize  = 1 << 20              // the Content-Length a trickled body announces
	slowBuffer   = 512                  // a connection's read buffer
)

// SlowReport is what the slow connections saw.
type SlowReport struct {
	// Conns is the number of slow connections held at once.
	Conns int
	// From is their source address ("" for the system's choice, shared
	// with the games).
	From string
	// Kinds are the counts of each kind of connection.
	Kinds []SlowCounts
}

// SlowCounts are the counts of one kind of slow connection.
type SlowCounts struct {
	// Kind says what the connections do.
	Kind string
	// Conns is the number of them held at once.
	Conns int
	// Opened counts the connections opened; Closed those the server
	// closed, after ClosedAfter on average from their opening; Refused
	// the opens that failed; Open those still open when the games
	// stopped.
	Opened, Closed, Refused, Open int
	ClosedAfter                   time.Duration
	// Answers counts the status of the server's first answer on a
	// connection, for those it answered (0: not an HTTP status line).
	Answers map[int]int
}

// slowTally counts one kind's connections; it is safe for concurrent use.
type slowTally struct {
	conns                         int
	opened, closed, refused, open atomic.Int64
	closedFor                     atomic.Int64 // nanoseconds, summed
	openAtEnd                     int64
	mu                            sync.Mutex
	answers                       map[int]int
}

func (t *slowTally) answer(status int) {
	t.mu.Lock()
	t.answers[status]++
	t.mu.Unlock()
}

// slowRun is the slow connections under way.
type slowRun struct {
	wg    sync.WaitGroup
	kinds [slowKinds]*slowTally
	from  string
	conns int
}

// slow opens cfg.Slow connections and reopens each one the server closes
// until ctx ends, when it closes them.
func (r *run) slow(ctx context.Context) *slowRun {
	s := &slowRun{conns: r.cfg.Slow}
	if r.cfg.Slow == 0 {
		return s
	}
	for k := range s.kinds {
		s.kinds[k] = &slowTally{answers: map[int]int{}}
	}
	dialer := &net.Dialer{Timeout: slowDial}
	if src := r.sideAddr(slowAddr); src.IsValid() {
		dialer.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
		s.from = src.String()
	}
	for n := range r.cfg.Slow {
		t := s.kinds[n%slowKinds]
		t.conns++
		s.wg.Go(func() { r.slowConn(ctx, dialer, n%slowKinds, t, time.Duration(n)*slowRamp) })
	}
	return s
}

// slowConn keeps one slow connection open, reopening it each time the
// server closes it, until ctx ends.
func (r *run) slowConn(ctx context.Context, dialer *net.Dialer, kind int, t *slowTally, delay time.Duration) {
	if !sleep(ctx, delay) {
		return
	}
	for ctx.Err() == nil {
		opened := time.Now()
		conn, err := dialer.DialContext(ctx, "tcp", r.target.String())
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			t.refused.Add(1)
			sleep(ctx, slowRetry-time.Since(opened))
			continue
		}
		t.opened.Add(1)
		t.open.Add(1)
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		byServer := r.holdSlow(ctx, conn, kind, t)
		stop()
		conn.Close()
		t.open.Add(-1)
		if byServer {
			t.closed.Add(1)
			t.closedFor.Add(int64(time.Since(opened)))
		}
		sleep(ctx, slowRetry-time.Since(opened))
	}
}

// holdSlow does what the kind of connection does until the server closes
// it (true) or ctx ends (false).
func (r *run) holdSlow(ctx context.Context, conn net.Conn, kind int, t *slowTally) bool {
	host := r.target.String()
	var first string
	switch kind {
	case trickle:
		first = "POST /api/games HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: " +
			strconv.Itoa(trickleSize) + "\r\n\r\n"
	case idle:
		first = "GET /api/games HTTP/1.1\r\nHost: " + host + "\r\n\r\n"
	}
	if first != "" {
		if _, err := io.WriteString(conn, first); err != nil {
			return ctx.Err() == nil
		}
	}
	buf := make([]byte, slowBuffer)
	answered := false
	for {
		if kind == trickle {
			conn.SetReadDeadline(time.Now().Add(trickleEvery))
		}
		n, err := conn.Read(buf)
		if n > 0 && !answered {
			answered = true
			t.answer(statusOf(buf[:n]))
		}
		switch {
		case err == nil:
			continue
		case ctx.Err() != nil:
			return false
		case kind == trickle && isTimeout(err):
			// A body of spaces is never a JSON value: were it ever
			// finished, it would be refused, not create a game.
			if _, err := conn.Write([]byte{' '}); err != nil {
				return ctx.Err() == nil
			}
			continue
		}
		return true
	}
}

// statusOf reads the status of an HTTP answer's first bytes, 0 when they
// are not a status line.
func statusOf(b []byte) int {
	if len(b) < 12 || string(b[:7]) != "HTTP/1." || b[8] != ' ' {
		return 0
	}
	status, err := strconv.Atoi(string(b[9:12]))
	if err != nil {
		return 0
	}
	return status
}

func isTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// sleep waits d or until ctx ends, and reports whether ctx goes on.
func sleep(ctx context.Context, d time.Duration) bool {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return ctx.Err() == nil
}

// atEnd notes the connections open when the games stopped, before they
// are closed.
func (s *slowRun) atEnd() {
	for _, t := range s.kinds {
		if t != nil {
			t.openAtEnd = t.open.Load()
		}
	}
}

// wait waits for the connections, which close when the run's context
// ends, and reports their counts.
func (s *slowRun) wait() *SlowReport {
	if s.conns == 0 {
		return nil
	}
	s.wg.Wait()
	rep := &SlowReport{Conns: s.conns, From: s.from}
	for k, t := range s.kinds {
		c := SlowCounts{Kind: slowKindNames[k], Conns: t.conns, Opened: int(t.opened.Load()),
			Closed: int(t.closed.Load()), Refused: int(t.refused.Load()), Open: int(t.openAtEnd), Answers: t.answers}
		if c.Closed > 0 {
			c.ClosedAfter = time.Duration(t.closedFor.Load() / int64(c.Closed))
		}
		rep.Kinds = append(rep.Kinds, c)
	}
	return rep
}
