package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as the arbiter command when asked, so
// that the crash test can run "arbiter serve" as a real process and kill
// it.
func TestMain(m *testing.M) {
	if os.Getenv("ARBITER_TEST_MAIN") == "1" {
		os.Exit(Execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestServeRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", "8080"}, "--addr \"8080\": want HOST:PORT"},
		{[]string{"--addr", "localhost:99999"}, "port from 0 to 65535"},
		{[]string{"--addr", "localhost:http"}, "--addr"},
		{[]string{"--log-format", "xml"}, "--log-format \"xml\": want text or json"},
		{[]string{"--log-level", "loud"}, "--log-level \"loud\": want debug, info, warn or error"},
		{[]string{"--data", "x", "--db", "postgres://u@h/db"}, "--data and --db: give one"},
		{[]string{"--data", ""}, "--data needs a folder"},
		{[]string{"--db", "mysql://x"}, "--db: want a PostgreSQL URL"},
		{[]string{"--origin", "a[b"}, "--origin \"a[b\": want a host"},
		{[]string{"--origin", "https://x.org/"}, "--origin"},
		{[]string{"--ai-workers", "-1"}, "--ai-workers -1: want"},
		{[]string{"--analysis-threads", "0"}, "--analysis-threads 0: want a whole number from 1 to 64"},
		{[]string{"--analysis-threads", "-1"}, "--analysis-threads -1: want"},
		{[]string{"--analysis-threads", "65"}, "--analysis-threads 65: want"},
		{[]string{"--analysis-threads", "two"}, `--analysis-threads "two": want`},
		{[]string{"--analysis-threads", "99999999999999999999999"}, "--analysis-threads"},
		{[]string{"--analysis-threads", "3", "--analysis-workers", "2"}, "--analysis-threads 3: at most the analysis workers (2, --analysis-workers)"},
		{[]string{"--analysis-workers", "-3"}, "--analysis-workers -3: want"},
		{[]string{"--ai-movetime", "0s"}, "--ai-movetime 0s: want"},
		{[]string{"--grace", "1h"}, "--grace 1h0m0s: want"},
		{[]string{"--smtp", "smtp://mail.example.org"}, "--smtp needs --public-url"},
		{[]string{"--public-url", "http://games.example.org"}, `--public-url "http://games.example.org": want https://HOST`},
		{[]string{"--public-url", "https://games.example.org/?x=1"}, "--public-url"},
		{[]string{"--smtp", "http://mail.example.org", "--public-url", "https://games.example.org", "--mail-from", "a@example.org"}, `--smtp: scheme "http"`},
		{[]string{"--smtp", "smtp://mail.example.org", "--public-url", "https://games.example.org"}, "--smtp: the mails need a sender (--mail-from)"},
		{[]string{"--smtp", "smtp://mail.example.org", "--public-url", "https://games.example.org", "--mail-from", "nobody"}, `--smtp: sender "nobody"`},
		{[]string{"--smtp", "smtp://u:hunter2@mail.example.org:x", "--public-url", "https://games.example.org", "--mail-from", "a@example.org"}, "--smtp: want smtp://"},
		{[]string{"--mail-from", "a@example.org"}, "--mail-from needs --smtp"},
		{[]string{"extra"}, "unknown command"},
	} {
		var out, errOut bytes.Buffer
		code := Execute(append([]string{"serve"}, c.args...), strings.NewReader(""), &out, &errOut)
		line := strings.TrimSpace(errOut.String())
		if code == 0 || !strings.Contains(line, c.want) || strings.Count(line, "\n") > 0 && !strings.Contains(c.want, "unknown") {
			t.Errorf("serve %v: exit %d, %q; want an error with %q", c.args, code, line, c.want)
		}
		if strings.Contains(line, "hunter2") {
			t.Errorf("serve %v: the refusal quotes the SMTP password: %q", c.args, line)
		}
	}
}

// serveProc is a running "arbiter serve" subprocess.
type serveProc struct {
	cmd  *exec.Cmd
	base string
	logs *bytes.Buffer
}

func startServe(t *testing.T, dir string, extra ...string) *serveProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--log-format", "json"}, extra...)...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &bytes.Buffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %s", logs)
	}
	addr := listensOn(t, lines.Text())
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return &serveProc{cmd: cmd, base: "http://" + addr, logs: logs}
}

// listensOn reads the address from serve's first line, "serving on
// http://HOST:PORT/ (data in DIR)".
func listensOn(t *testing.T, line string) string {
	t.Helper()
	var url string
	if _, err := fmt.Sscanf(line, "serving on http://%s", &url); err != nil || !strings.HasSuffix(url, "/") {
		t.Fatalf("first line %q, want serving on http://HOST:PORT/", line)
	}
	return strings.TrimSuffix(url, "/")
}

// TestServeFirstLineSaysWhereItListens: the first line serve prints, its
// output and its log read together as a terminal shows them, says where
// it listens, before the log of the games resumed. At the default level a
// request is not logged; with --log-level debug it is.
func TestServeFirstLineSaysWhereItListens(t *testing.T) {
	for _, level := range []string{"info", "debug"} {
		t.Run(level, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--log-level", level)
			cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
			cmd.Stdout, cmd.Stderr = w, w
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close() // the process holds its own copy: the pipe ends when it exits
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			lines := bufio.NewScanner(r)
			if !lines.Scan() {
				t.Fatal("serve printed nothing")
			}
			p := &serveProc{cmd: cmd, base: "http://" + listensOn(t, lines.Text())}
			if code, _, err := p.get("/healthz"); code != http.StatusOK {
				t.Fatalf("healthz: %d %v", code, err)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			var rest []string
			for lines.Scan() {
				rest = append(rest, lines.Text())
			}
			log := strings.Join(rest, "\n")
			if !strings.Contains(log, "msg=resumed") {
				t.Errorf("no games resumed after the first line:\n%s", log)
			}
			requests := strings.Count(log, "msg=request")
			if level == "info" && requests != 0 || level == "debug" && !strings.Contains(log, "msg=request method=GET path=/healthz status=200") {
				t.Errorf("at level %s, %d requests logged:\n%s", level, requests, log)
			}
		})
	}
}

func (p *serveProc) post(path, token string, body any) (int, map[string]any, error) {
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", p.base+path, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return p.answer(http.DefaultClient.Do(req))
}

func (p *serveProc) get(path string) (int, map[string]any, error) {
	return p.answer(http.Get(p.base + path))
}

func (p *serveProc) answer(resp *http.Response, err error) (int, map[string]any, error) {
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var v map[string]any
	err = json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v, err
}

// acked is a move the server acknowledged.
type acked struct {
	game string
	ply  int
	move string
}

// TestServeKeepsEveryAcknowledgedMoveThroughSIGKILL plays games at once
// against a serve process, kills it with SIGKILL in the middle, restarts
// it on the same data folder and looks for every move it acknowledged.
func TestServeKeepsEveryAcknowledgedMoveThroughSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("a subprocess under load for seconds")
	}
	dir := t.TempDir()
	p := startServe(t, dir)
	const games = 8
	var mu sync.Mutex
	var acks []acked
	var wg sync.WaitGroup
	ctx, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	for range games {
		code, g, err := p.post("/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
		if err != nil || code != 201 {
			t.Fatalf("create: %d %v", code, err)
		}
		id := g["id"].(string)
		var tokens []string
		for _, s := range g["seats"].([]any) {
			tokens = append(tokens, s.(map[string]any)["token"].(string))
		}
		wg.Go(func() {
			for ctx.Err() == nil {
				code, v, err := p.get("/api/games/" + id)
				if err != nil || code != 200 || v["result"] != nil {
					return
				}
				legal := v["legal"].([]any)
				ply := int(v["ply"].(float64))
				move := legal[ply%len(legal)].(string)
				code, _, err = p.post("/api/games/"+id+"/moves", tokens[int(v["toMove"].(float64))], map[string]any{"move": move, "ply": ply})
				if err == nil && code == 200 {
					mu.Lock()
					acks = append(acks, acked{id, ply, move})
					mu.Unlock()
				}
			}
		})
	}
	time.Sleep(time.Second)
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	_ = p.cmd.Wait()
	if len(acks) < games {
		t.Fatalf("only %d moves acknowledged before the kill", len(acks))
	}
	q := startServe(t, dir)
	for _, a := range acks {
		code, v, err := q.get("/api/games/" + a.game)
		if err != nil || code != 200 {
			t.Fatalf("after the restart, game %s: %d %v", a.game, code, err)
		}
		moves := v["moves"].([]any)
		if a.ply >= len(moves) || moves[a.ply].(string) != a.move {
			t.Fatalf("game %s lost its acknowledged move %s at ply %d: %v", a.game, a.move, a.ply, moves)
		}
	}
	t.Logf("%d acknowledged moves all there after SIGKILL", len(acks))
}

// TestServeShutsDownOnSIGTERM stops a serve process with SIGTERM: it exits
// 0 after closing the store, and says so in its log.
func TestServeShutsDownOnSIGTERM(t *testing.T) {
	p := startServe(t, t.TempDir())
	if code, _, err := p.get("/healthz"); code != 200 {
		t.Fatalf("healthz: %d %v", code, err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.logs)
	}
	if !strings.Contains(p.logs.String(), `"msg":"stopped"`) {
		t.Errorf("log %s", p.logs)
	}
}
