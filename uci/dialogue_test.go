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

// dialogue drives Serve as a GUI does, one command at a time, through a
// pipe: each command is followed by an empty line in a write of its own,
// which Serve reads (and skips) only once it has dealt with the command,
// so that the transcript shows every answer after its command; after a go
// the dialogue waits for its bestmove.
type dialogue struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *transcript
	done chan error
	gos  int  // go commands sent
	quit bool // quit was sent: nothing reads any more
}

func newDialogue(t *testing.T) *dialogue {
	t.Helper()
	r, w := io.Pipe()
	dl := &dialogue{t: t, in: w, out: &transcript{changed: make(chan struct{}, 1)}, done: make(chan error, 1)}
	go func() {
		err := Serve(r, dl.out)
		r.CloseWithError(io.ErrClosedPipe) // unblocks a send after quit
		dl.done <- err
	}()
	return dl
}

// send sends one command and, for a go, waits for its bestmove. A command
// written "&go ..." is sent without waiting: its search runs on.
func (dl *dialogue) send(command string) {
	dl.t.Helper()
	background := strings.HasPrefix(command, "&")
	command = strings.TrimPrefix(command, "&")
	dl.out.note(command)
	// Two writes: the empty line is read only once the command is done.
	// After quit nothing reads; the closed pipe lets the writes return.
	_, err := io.WriteString(dl.in, command+"\n")
	if err == nil && command == "quit" {
		dl.quit = true
	}
	if err == nil {
		_, err = io.WriteString(dl.in, "\n")
	}
	if err != nil && !dl.quit {
		dl.t.Fatalf("%q not taken: %v", command, err)
	}
	if dl.quit {
		return
	}
	if f := strings.Fields(command); len(f) > 0 && f[0] == "go" {
		dl.gos++
		if !background {
			dl.awaitBestmoves()
		}
	}
}

// awaitBestmoves waits until every go sent has had its bestmove.
func (dl *dialogue) awaitBestmoves() {
	dl.t.Helper()
	timeout := time.After(30 * time.Second)
	for dl.out.count() < dl.gos {
		select {
		case <-dl.out.changed:
		case <-timeout:
			dl.t.Fatalf("%d go commands, %d bestmove lines after 30 s:\n%s", dl.gos, dl.out.count(), dl.text())
		}
	}
}

// end closes the input, waits for Serve to return and checks that every go
// had exactly one bestmove.
func (dl *dialogue) end() []string {
	dl.t.Helper()
	dl.in.Close()
	select {
	case err := <-dl.done:
		if err != nil {
			dl.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		dl.t.Fatalf("Serve did not return:\n%s", dl.text())
	}
	if n := dl.out.count(); n != dl.gos {
		dl.t.Errorf("%d go commands answered by %d bestmove lines:\n%s", dl.gos, n, dl.text())
	}
	return dl.out.lines
}

func (dl *dialogue) text() string {
	dl.out.mu.Lock()
	defer dl.out.mu.Unlock()
	return strings.Join(dl.out.lines, "\n")
}

// runDialogue sends the commands in order and returns the transcript.
func runDialogue(t *testing.T, commands ...string) []string {
	t.Helper()
	dl := newDialogue(t)
	for _, c := range commands {
		dl.send(c)
	}
	return dl.end()
}

var elapsed = regexp.MustCompile(`\btime [0-9]+\b`)

// maskTimes hides the elapsed times of info lines, the only part of a
// deterministic dialogue that changes from run to run.
func maskTimes(lines []string) []string {
	masked := make([]string, len(lines))
	for i, l := range lines {
		masked[i] = elapsed.ReplaceAllString(l, "time T")
	}
	return masked
}
