package cli

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/lab"
	"github.com/arbiter-games/arbiter/store/postgres/pgtest"
)

// proc is an arbiter command running as a process of its own (the test
// binary, which TestMain turns into arbiter), its stderr gathered.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	errs strings.Builder
	line chan string // each line of stderr, as it comes
	done chan error
}

func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(os.Args[0], args...), line: make(chan string, 1000), done: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	p.cmd.Stdout = io.Discard
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			p.mu.Lock()
			p.errs.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.line <- sc.Text():
			default:
			}
		}
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-p.done; p.done <- nil })
	return p
}

// stderr is what the process has said so far.
func (p *proc) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errs.String()
}

// await waits for a line of stderr matching re and gives its submatches.
func (p *proc) await(t *testing.T, re *regexp.Regexp, within time.Duration) []string {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case l := <-p.line:
			if m := re.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-deadline:
			t.Fatalf("%v: no line like %s; stderr:\n%s", p.cmd.Args, re, p.stderr())
		}
	}
}

// queuedRunArgs is the run the acceptance tests play: games long enough
// (depth 5) that a worker is killed in the middle of one.
func queuedRunArgs(out string) []string {
	return []string{"lab", "pommel", "--player", "ab", "--player", "random", "--depth", "5", "--games", "4",
		"--opening", "2", "--seed", "7", "--out", out, "-q"}
}

// killedWorkerRun is the acceptance test of a queued run: a coordinator,
// a worker SIGKILLed in the middle of a game, another that plays on (and
// plays the lost game once River offers it again), and a result equal to
// the run played in one process.
func killedWorkerRun(t *testing.T, queueURL string) {
	want := filepath.Join(t.TempDir(), "one")
	if code := Execute(queuedRunArgs(want), nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("the one-process run failed: %d", code)
	}
	got := filepath.Join(t.TempDir(), "queued")
	coord := startProc(t, append(queuedRunArgs(got), "--queue", queueURL)...)
	coord.await(t, regexp.MustCompile(`^queued 4 games of run `), time.Minute)

	// The first worker alone, so that it leads River's maintenance; it is
	// killed as soon as it starts a game.
	work := []string{"lab", "work", "--queue", queueURL, "--rescue-after", "15s"}
	doomed := startProc(t, work...)
	lost := doomed.await(t, regexp.MustCompile(`^game ([0-9]+) of (\w+): playing`), time.Minute)
	if err := doomed.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-doomed.done
	doomed.done <- nil
	if strings.Contains(doomed.stderr(), "game "+lost[1]+" of "+lost[2]+": done") {
		t.Skipf("the worker finished game %s before the kill reached it: nothing was lost", lost[1])
	}
	start := time.Now()
	survivor := startProc(t, append(work, "--concurrency", "2")...)
	select {
	case err := <-coord.done:
		coord.done <- err
		if err != nil {
			t.Fatalf("the coordinator: %v\n%s", err, coord.stderr())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the coordinator did not finish; survivor:\n%s", survivor.stderr())
	}
	t.Logf("the run ended %s after the kill", time.Since(start).Round(time.Second))
	if !strings.Contains(survivor.stderr(), "game "+lost[1]+" of "+lost[2]+": done") {
		t.Errorf("the survivor did not play game %s, lost with the killed worker:\n%s", lost[1], survivor.stderr())
	}
	sameRunOutputs(t, want, got)

	// SIGTERM stops a worker, cleanly and at once.
	if err := survivor.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-survivor.done:
		survivor.done <- err
		if err != nil {
			t.Errorf("the worker stopped by SIGTERM: %v\n%s", err, survivor.stderr())
		}
	case <-time.After(20 * time.Second):
		t.Errorf("the worker did not stop on SIGTERM")
	}
}

// sameRunOutputs fails unless two run folders hold the same summary.json
// and games.pdn, move times aside.
func sameRunOutputs(t *testing.T, want, got string) {
	t.Helper()
	times := regexp.MustCompile(`[0-9]+\.[0-9]{2}s\}`)
	for _, name := range []string{lab.SummaryFile, lab.RecordFile} {
		a, errA := os.ReadFile(filepath.Join(want, name))
		b, errB := os.ReadFile(filepath.Join(got, name))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", name, errA, errB)
		}
		if x, y := times.ReplaceAllString(string(a), "s}"), times.ReplaceAllString(string(b), "s}"); x != y {
			t.Errorf("%s differs from the one-process run's:\n%.1500s\nqueued:\n%.1500s", name, x, y)
		}
	}
}

func TestQueuedRunSurvivesAKilledWorkerOnSQLite(t *testing.T) {
	t.Parallel() // mostly waiting for the killed leader's lease to end
	if testing.Short() {
		t.Skip("-short: runs three arbiter processes and waits for River's rescuer")
	}
	killedWorkerRun(t, filepath.Join(t.TempDir(), "queue.db"))
}

func TestQueuedRunSurvivesAKilledWorkerOnPostgres(t *testing.T) {
	t.Parallel() // mostly waiting for the killed leader's lease to end
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL, runs three arbiter processes and waits for River's rescuer")
	}
	srv, err := pgtest.Start()
	if pgtest.Skip(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	killedWorkerRun(t, srv.NewDatabase(t))
}

func TestLabQueueRefuses(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	db := filepath.Join(dir, "queue.db")
	labArgs := func(extra ...string) []string {
		return append([]string{"lab", "pommel", "--player", "ab", "--depth", "1", "--games", "2", "--out", out}, extra...)
	}
	work := func(extra ...string) []string { return append([]string{"lab", "work"}, extra...) }
	for _, c := range []struct {
		args []string
		want string
	}{
		{labArgs("--queue", db, "--shard", "0/2"), `--queue and --shard 0/2: give one`},
		{labArgs("--queue", ""), "--queue is empty"},
		{labArgs("--queue", db, "--concurrency", "4"), "--concurrency with --queue: the workers play the games"},
		{labArgs("--queue", "mysql://root:pw@db/lab"), `--queue "mysql://root:xxxxx@db/lab": want a postgres:// URL or an SQLite file's path`},
		{labArgs("--queue", strings.Repeat("q", 3000)), "longer than 2048 bytes"},
		{labArgs("--queue", dir), "is a folder"},
		{labArgs("--queue", "postgres://nobody@127.0.0.1:1/lab"), "cannot reach the queue's database"},
		{[]string{"lab", "pommel", "--player", "cmd:/bin/true", "--depth", "1", "--out", out, "--queue", db},
			"--player cmd:/bin/true: a queued run cannot start programs on its workers"},
		{work(), "--queue is missing"},
		{work("extra", "--queue", db), "usage: arbiter lab work"},
		{work("--queue", filepath.Join(dir, "typo.db")), "no such file: start the run first"},
		{work("--queue", "http://example.org/"), "want a postgres:// URL"},
		{work("--queue", db, "--concurrency", "0"), "--concurrency 0: want 1 to 1024"},
		{work("--queue", db, "--concurrency", "-1"), "--concurrency -1: want 1 to 1024"},
		{work("--queue", db, "--concurrency", "5000"), "--concurrency 5000: want 1 to 1024"},
		{work("--queue", db, "--concurrency", "many"), `--concurrency "many": want 1 to 1024`},
		{work("--queue", db, "--rescue-after", "0s"), "--rescue-after 0s: want 1s to 168h0m0s"},
		{work("--queue", db, "--rescue-after", "-5m"), "--rescue-after -5m0s: want"},
		{work("--queue", db, "--rescue-after", "9999h"), "--rescue-after 9999h0m0s: want"},
		{work("--queue", db, "--rescue-after", "NaN"), `--rescue-after "NaN": want a duration from 1s to 168h0m0s`},
		{work("--queue", db, "--rescue-after", "10"), `--rescue-after "10": want a duration`},
	} {
		r := run(t, "", c.args...)
		if r.code == 0 || !strings.Contains(r.errOut, c.want) || strings.Contains(r.errOut, ":pw@") || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want one line with %q", c.args, r.code, r.errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Error("lab work made the queue file it was given by mistake")
	}
}
