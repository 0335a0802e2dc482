package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// Client runs an external engine that speaks the protocol and makes it an
// ai.Engine. It is not safe for concurrent use; make one per game.
type Client struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	game  string // the newgame line last sent
	// games are the game ids the engine said it plays in its handshake
	// (info string games ...); nil when it named none.
	games []string
}

// handshakeTimeout bounds how long an engine may take to answer uci and
// isready.
const handshakeTimeout = 10 * time.Second

// Start starts the engine program and completes the handshake.
func Start(name, path string, args ...string) (*Client, error) {
	cmd := exec.Command(path, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", name, err)
	}
	c := &Client{name: name, cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	if err := c.handshake(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Client) handshake() error {
	c.send("uci")
	if _, err := c.await("uciok", handshakeTimeout, func(line string) {
		if ids, ok := strings.CutPrefix(line, "info string games "); ok {
			c.games = strings.Fields(ids)
		}
	}); err != nil {
		return err
	}
	c.send("isready")
	_, err := c.await("readyok", handshakeTimeout, nil)
	return err
}

// Games are the game ids the engine plays, as its handshake named them
// (nil when it named none: an engine of the protocol need not).
func (c *Client) Games() []string { return c.games }

// SetOption sets one of the engine's options and waits until the engine
// is ready again; the engine's complaint about it ("info string error:
// ...") is the error.
func (c *Client) SetOption(name, value string) error {
	c.send("setoption name %s value %s", name, value)
	c.send("isready")
	var complaint string
	_, err := c.await("readyok", handshakeTimeout, func(line string) {
		if reason, ok := strings.CutPrefix(line, "info string error: "); ok {
			complaint = reason
		}
	})
	switch {
	case err != nil:
		return err
	case complaint != "":
		return fmt.Errorf("engine %s: option %s: %s", c.name, name, complaint)
	}
	return nil
}

func (c *Client) send(format string, args ...any) {
	fmt.Fprintf(c.in, format+"\n", args...)
}

// await reads lines until one starts with word, passing the others to
// seen, and fails after timeout (0: no timeout) or when the engine exits.
func (c *Client) await(word string, timeout time.Duration, seen func(string)) (string, error) {
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("engine %s exited before it said %s", c.name, word)
			}
			if f := strings.Fields(line); len(f) > 0 && f[0] == word {
				return line, nil
			}
			if seen != nil {
				seen(line)
			}
		case <-expire:
			return "", fmt.Errorf("engine %s did not say %s within %s", c.name, word, timeout)
		}
	}
}

// Name is the name the client was started with.
func (c *Client) Name() string { return c.name }

// Search sends the position as a FEN and the limits, and reads info lines
// until bestmove. An engine that answers an illegal move or fails sets
// Info.Err.
func (c *Client) Search(ctx context.Context, s game.State, lim ai.Limits, report func(ai.Info)) ai.Info {
	start := time.Now()
	g := s.Game()
	newgame := strings.TrimSpace("newgame " + g.ID() + " " + g.Options().String())
	if newgame != c.game {
		c.send("%s", newgame)
		c.game = newgame
	}
	c.send("position fen %s", s.FEN())
	c.send("go %s", strings.Join(goLimits(lim, g, s.ToMove()), " "))
	var last ai.Info
	var complaint string // the engine's last "info string error: ..."
	timeout := answerTimeout(lim)
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case <-ctx.Done():
			c.send("stop")
		case <-stopped:
		}
	}()
	line, err := c.await("bestmove", timeout, func(l string) {
		if reason, ok := strings.CutPrefix(l, "info string error: "); ok {
			complaint = reason
			return
		}
		if i, ok := parseInfo(l, s); ok {
			last = i
			if report != nil {
				report(i)
			}
		}
	})
	last.Elapsed = time.Since(start)
	if err != nil {
		last.Err = err
		return last
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[1] == NoMove {
		last.Err = fmt.Errorf("engine %s: %q names no move", c.name, line)
		if complaint != "" {
			last.Err = fmt.Errorf("engine %s found no move: %s", c.name, complaint)
		}
		return last
	}
	m, err := game.ParseMove(s, f[1])
	if err != nil {
		last.Err = fmt.Errorf("engine %s: %w", c.name, err)
		return last
	}
	last.Move = m
	return last
}

// answerTimeout is how long an engine may take to answer bestmove: twice
// its time and 5 s more, its time being the move time or, on a clock, all
// it has left; 0 (no timeout) for an engine given neither.
func answerTimeout(lim ai.Limits) time.Duration {
	t := lim.MoveTime
	if lim.Clock.On() && (t == 0 || lim.Clock.Left < t) {
		t = lim.Clock.Left
	}
	if t == 0 {
		return 0
	}
	return 2*t + 5*time.Second
}

// parseInfo reads "info depth D score S nodes N time T pv M..."; an
// "info string" line is a message, not a search report.
func parseInfo(line string, s game.State) (ai.Info, bool) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "info" || f[1] == "string" {
		return ai.Info{}, false
	}
	var i ai.Info
	for k := 1; k+1 < len(f); k++ {
		switch f[k] {
		case "depth":
			i.Depth, _ = strconv.Atoi(f[k+1])
		case "score":
			i.Score, _ = strconv.Atoi(f[k+1])
		case "nodes":
			i.Nodes, _ = strconv.ParseInt(f[k+1], 10, 64)
		case "pv":
			if m, err := game.ParseMove(s, f[k+1]); err == nil {
				i.PV = []game.Move{m}
			}
			return i, true
		}
	}
	return i, true
}

// Close asks the engine to quit and waits for it, killing it if it does
// not go within a second.
func (c *Client) Close() error {
	c.send("quit")
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Second):
		c.cmd.Process.Kill()
		return <-done
	}
}
