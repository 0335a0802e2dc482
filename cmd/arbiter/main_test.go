package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary act as the arbiter command when asked, so
// that tests can run "arbiter engine" as a real subprocess.
func TestMain(m *testing.M) {
	if os.Getenv("ARBITER_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func arbiterCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	return cmd
}

// engineProc is a running "arbiter engine" with line-wise input and output.
type engineProc struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
	cmd   *exec.Cmd
}

func startEngine(t *testing.T) *engineProc {
	cmd := arbiterCmd("engine")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &engineProc{t: t, in: in, lines: make(chan string, 100), cmd: cmd}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

func (p *engineProc) send(format string, args ...any) { fmt.Fprintf(p.in, format+"\n", args...) }

// expect reads lines until one starts with prefix and returns it.
func (p *engineProc) expect(prefix string) string {
	p.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("engine exited while waiting for %q", prefix)
			}
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-timeout:
			p.t.Fatalf("no %q within 30s", prefix)
		}
	}
}

// TestEngineProtocolWholeGame drives "arbiter engine" as a subprocess
// through a whole game of Pommel, the engine playing both sides.
func TestEngineProtocolWholeGame(t *testing.T) {
	p := startEngine(t)
	p.send("uci")
	p.expect("id name arbiter")
	p.expect("uciok")
	p.send("setoption name Player value ab")
	p.send("isready")
	p.expect("readyok")
	p.send("newgame pommel hop=friendly")
	p.send("position startpos moves a1-a3 xx")
	if line := p.expect("info string error"); !strings.Contains(line, `move 2 "xx" is illegal`) {
		t.Errorf("bad move answered %q", line)
	}
	var moves []string
	for ply := 0; ply < 400; ply++ {
		p.send("position startpos moves %s", strings.Join(moves, " "))
		p.send("go depth 2")
		line := p.expect("bestmove")
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("bestmove line %q", line)
		}
		moves = append(moves, f[1])
		// Ask whether the game is over: a finished game refuses to search.
		p.send("position startpos moves %s", strings.Join(moves, " "))
		p.send("go depth 1")
		line = p.expectEither("bestmove", "info string error: the game is over")
		if strings.HasPrefix(line, "info string error") {
			break
		}
	}
	out, err := arbiterCmd(append([]string{"moves", "pommel"}, moves...)...).Output()
	if err != nil {
		t.Fatalf("the engine's game is not legal: %v", err)
	}
	if len(moves) >= 400 || len(out) != 0 {
		t.Errorf("the game did not end after %d moves", len(moves))
	}
	p.send("quit")
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("engine exit: %v", err)
	}
}

func (p *engineProc) expectEither(a, b string) string {
	p.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.t.Fatal("engine exited")
			}
			if strings.HasPrefix(line, a) || strings.HasPrefix(line, b) {
				return line
			}
		case <-timeout:
			p.t.Fatalf("neither %q nor %q within 30s", a, b)
		}
	}
}

// TestMatchAgainstExternalEngine: match measures an external engine that
// speaks the protocol (here arbiter itself).
func TestMatchAgainstExternalEngine(t *testing.T) {
	out, err := arbiterCmd("match", "pommel", "--player", "ext=cmd:"+os.Args[0]+" engine", "--player", "rnd=random",
		"--games", "2", "--depth", "1", "--quiet").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ext ") || !strings.Contains(string(out), "rnd ") {
		t.Errorf("match output:\n%s", out)
	}
}
