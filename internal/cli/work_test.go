package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReviewFlagsRefused: arbiter work and serve's review flags refuse
// what cannot work before anything opens, in one line naming the flag.
func TestReviewFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothing.db")
	long := strings.Repeat("q", 5000)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"work"}, "--queue is missing"},
		{[]string{"work", "--queue", ""}, "--queue is empty"},
		{[]string{"work", "--queue", "mysql://x/y"}, "want a postgres:// URL"},
		{[]string{"work", "--queue", long}, "longer than 2048 bytes"},
		{[]string{"work", "--queue", missing}, "no such file: give the queue file of a site"},
		{[]string{"work", "--queue", dir}, "is a folder"},
		{[]string{"work", "--queue", missing, "--workers", "0"}, "--workers 0"},
		{[]string{"work", "--queue", missing, "--workers", "-3"}, "--workers -3"},
		{[]string{"work", "--queue", missing, "--workers", "100000"}, "--workers 100000"},
		{[]string{"work", "--queue", missing, "--workers", "many"}, "--workers"},
		{[]string{"work", "--queue", missing, "--tables", filepath.Join(dir, "none")}, "--tables"},
		{[]string{"serve", "--addr", "nowhere", "--review-workers", "-1"}, "--review-workers -1"},
		{[]string{"serve", "--addr", "nowhere", "--review-workers", "257"}, "--review-workers 257"},
		{[]string{"serve", "--addr", "nowhere", "--review-nodes", "-1"}, "--review-nodes -1"},
		{[]string{"serve", "--addr", "nowhere", "--review-nodes", "99999999999"}, "--review-nodes 99999999999"},
		{[]string{"serve", "--addr", "nowhere", "--review-pending", "-2"}, "--review-pending -2"},
		{[]string{"serve", "--addr", "nowhere", "--review-per-hour", "2000000"}, "--review-per-hour 2000000"},
		{[]string{"serve", "--addr", "nowhere", "--review-queue", "x"}, "--review-queue"},
		{[]string{"serve", "--addr", "nowhere", "--review-rescue-after", "1ms"}, "--review-rescue-after"},
	} {
		r := run(t, "", c.args...)
		line := strings.TrimSpace(r.errOut)
		if r.code == 0 || !strings.Contains(line, c.want) || strings.Contains(line, "\n") || strings.Contains(line, strings.Repeat("q", 81)) {
			t.Errorf("arbiter %.100s: exit %d, %.300q; want one line with %q", strings.Join(c.args, " "), r.code, line, c.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a worker made the queue file it was given: %v", err)
	}
}

// TestServeReviewsWithArbiterWork: a site with no review workers of its
// own queues a finished game's review in DIR/queue.db (0600), an arbiter
// work process on that file does it, and the site answers it done.
func TestServeReviewsWithArbiterWork(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs two arbiter processes")
	}
	dir := t.TempDir()
	p := startServe(t, dir, "--review-workers", "0", "--review-nodes", "2000")
	code, g, err := p.post("/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	if err != nil || code != 201 {
		t.Fatalf("create: %d %v", code, err)
	}
	id := g["id"].(string)
	var tokens []string
	for _, s := range g["seats"].([]any) {
		tokens = append(tokens, s.(map[string]any)["token"].(string))
	}
	for ply := range 4 {
		_, v, err := p.get("/api/games/" + id)
		if err != nil {
			t.Fatal(err)
		}
		move := v["legal"].([]any)[0].(string)
		if code, _, err := p.post("/api/games/"+id+"/moves", tokens[int(v["toMove"].(float64))], map[string]any{"move": move, "ply": ply}); err != nil || code != 200 {
			t.Fatalf("move %d: %d %v", ply, code, err)
		}
	}
	if code, _, err := p.post("/api/games/"+id+"/resign", tokens[0], nil); err != nil || code != 200 {
		t.Fatalf("resign: %d %v", code, err)
	}
	if code, v, err := p.post("/api/games/"+id+"/review", "", nil); err != nil || code != 202 || v["state"] != "queued" {
		t.Fatalf("POST review: %d %v %v", code, v, err)
	}
	queue := filepath.Join(dir, "queue.db")
	if info, err := os.Stat(queue); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the queue file: %v %v, want mode 0600", info, err)
	}

	work := exec.Command(os.Args[0], "work", "--queue", queue)
	work.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	var logs bytes.Buffer
	work.Stdout, work.Stderr = &logs, &logs
	if err := work.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- work.Wait() }()
	defer func() {
		_ = work.Process.Kill()
		<-exited
	}()
	deadline := time.Now().Add(3 * time.Minute)
	var v map[string]any
	for {
		_, v, err = p.get("/api/games/" + id + "/review")
		if err != nil {
			t.Fatal(err)
		}
		if v["state"] == "done" || v["state"] == "failed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond) // polling the condition
	}
	if v["state"] != "done" || len(v["moves"].([]any)) != 4 || v["nodes"].(float64) != 2000 {
		t.Fatalf("the review: %v\nworker:\n%s", v, logs.String())
	}
	if err := work.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Fatalf("arbiter work after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("arbiter work did not stop on SIGTERM:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "working the review queue") {
		t.Errorf("the worker's log: %s", logs.String())
	}
}
