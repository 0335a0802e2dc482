package uci

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// transcript collects what Serve writes, line by line, with the commands
// sent to it written in as "> command", and counts the bestmove lines.
type transcript struct {
	mu        sync.Mutex
	lines     []string
	partial   []byte
	bestmoves int
	changed   chan struct{} // signalled after every complete line
}

func (tr *transcript) Write(p []byte) (int, error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.partial = append(tr.partial, p...)
	for {
		i := bytes.IndexByte(tr.partial, '\n')
		if i < 0 {
			break
		}
		line := string(tr.partial[:i])
		tr.partial = tr.partial[i+1:]
		tr.lines = append(tr.lines, line)
		if strings.HasPrefix(line, "bestmove") {
			tr.bestmoves++
		}
		select {
		case tr.changed <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

func (tr *transcript) note(command string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, "> "+command)
}

func (tr *transcript) count() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.bestmoves
}

// session drives Serve as a GUI does, one command at a time, through a
// pipe: each command is followed by an empty line in a write of its own,
// which Serve reads (and skips) only once it has dealt with the command,
// so that the transcript shows every answer after its command; after a go
// the session waits for its bestmove.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *transcript
	done chan error
	gos  int  // go commands sent
	quit bool // quit was sent: nothing reads any more
}

func newSession(t *testing.T) *session {
	t.Helper()
	r, w := io.Pipe()
	ss := &session{t: t, in: w, out: &transcript{changed: make(chan struct{}, 1)}, done: make(chan error, 1)}
	go func() {
		err := Serve(r, ss.out)
		r.CloseWithError(io.ErrClosedPipe) // unblocks a send after quit
		ss.done <- err
	}()
	return ss
}

// send sends one command and, for a go, waits for its bestmove. A command
// written "&go ..." is sent without waiting: its search runs on.
func (ss *session) send(command string) {
	ss.t.Helper()
	background := strings.HasPrefix(command, "&")
	command = strings.TrimPrefix(command, "&")
	ss.out.note(command)
	// Two writes: the empty line is read only once the command is done.
	// After quit nothing reads; the closed pipe lets the writes return.
	_, err := io.WriteString(ss.in, command+"\n")
	if err == nil && command == "quit" {
		ss.quit = true
	}
	if err == nil {
		_, err = io.WriteString(ss.in, "\n")
	}
	if err != nil && !ss.quit {
		ss.t.Fatalf("%q not taken: %v", command, err)
	}
	if ss.quit {
		return
	}
	if f := strings.Fields(command); len(f) > 0 && f[0] == "go" {
		ss.gos++
		if !background {
			ss.awaitBestmoves()
		}
	}
}

// awaitBestmoves waits until every go sent has had its bestmove.
func (ss *session) awaitBestmoves() {
	ss.t.Helper()
	timeout := time.After(30 * time.Second)
	for ss.out.count() < ss.gos {
		select {
		case <-ss.out.changed:
		case <-timeout:
			ss.t.Fatalf("%d go commands, %d bestmove lines after 30 s:\n%s", ss.gos, ss.out.count(), ss.text())
		}
	}
}

// end closes the input, waits for Serve to return and checks that every go
// had exactly one bestmove.
func (ss *session) end() []string {
	ss.t.Helper()
	ss.in.Close()
	select {
	case err := <-ss.done:
		if err != nil {
			ss.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		ss.t.Fatalf("Serve did not return:\n%s", ss.text())
	}
	if n := ss.out.count(); n != ss.gos {
		ss.t.Errorf("%d go commands answered by %d bestmove lines:\n%s", ss.gos, n, ss.text())
	}
	return ss.out.lines
}

func (ss *session) text() string {
	ss.out.mu.Lock()
	defer ss.out.mu.Unlock()
	return strings.Join(ss.out.lines, "\n")
}

// runSession sends the commands in order and returns the transcript.
func runSession(t *testing.T, commands ...string) []string {
	t.Helper()
	ss := newSession(t)
	for _, c := range commands {
		ss.send(c)
	}
	return ss.end()
}

var elapsed = regexp.MustCompile(`\btime [0-9]+\b`)

// maskTimes hides the elapsed times of info lines, the only part of a
// deterministic session that changes from run to run.
func maskTimes(lines []string) []string {
	masked := make([]string, len(lines))
	for i, l := range lines {
		masked[i] = elapsed.ReplaceAllString(l, "time T")
	}
	return masked
}
