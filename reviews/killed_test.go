package reviews

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/riverdb"
)

// workerEnv, set, makes the test binary a review worker on the queue it
// names (TestReviewWorkerProcess), whose computation holds every review
// until the process is killed: the worker TestReviewKilledWorker kills
// mid-job.
const workerEnv = "ARBITER_REVIEWS_TEST_WORKER"

// TestReviewWorkerProcess is the worker process of TestReviewKilledWorker;
// it does nothing in a plain test run.
func TestReviewWorkerProcess(t *testing.T) {
	spec := os.Getenv(workerEnv)
	if spec == "" {
		t.Skip("a worker process only")
	}
	var target riverdb.Target
	if err := json.Unmarshal([]byte(spec), &target); err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	hold := func(ctx context.Context, in Input) (Result, error) {
		<-ctx.Done() // until killed: SIGKILL gives no chance to give the job back
		return Result{}, ctx.Err()
	}
	if err := Work(ctx, target, WorkConfig{Compute: hold, Workers: 1, RescueAfter: 10 * time.Minute, Poll: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
}

// TestReviewKilledWorker: a review whose worker, a separate process, is
// SIGKILLed while it runs the job is done by another worker once River's
// rescuer gives the job back, and it is the review one process makes
// (package review's, at a small node budget).
func TestReviewKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits for River's rescuer (about a minute)")
	}
	for name, target := range queues(t) {
		t.Run(name, func(t *testing.T) {
			// Most of a run is waiting for the dead leader's lease to
			// end (15 s): the two queues wait together.
			t.Parallel()
			q := target(t)
			g := finished(t, "killed", 30)
			ctx := context.Background()
			asker := open(t, Config{Queue: q, Nodes: 700})
			if _, _, err := asker.Request(ctx, g, Requester{Addr: "10.1.1.1"}); err != nil {
				t.Fatal(err)
			}

			spec, _ := json.Marshal(q)
			cmd := exec.Command(os.Args[0], "-test.run=^TestReviewWorkerProcess$", "-test.v")
			cmd.Env = append(os.Environ(), workerEnv+"="+string(spec))
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
			if r := waitState(t, asker, "killed", Running); r.State != Running {
				t.Fatalf("the worker process never ran the job:\n%s", out.String())
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if err := <-exited; err == nil {
				t.Fatalf("the worker was not killed:\n%s", out.String())
			}
			exited <- nil // for the cleanup's receive

			// The second worker: rescues the job (its rescue time is short,
			// so that the test does not wait long) and does it.
			workCtx, stopWork := context.WithCancel(ctx)
			worked := make(chan error, 1)
			go func() {
				worked <- Work(workCtx, q, WorkConfig{Compute: Engine(nil), Workers: 1, RescueAfter: 2 * time.Second, Poll: 50 * time.Millisecond})
			}()
			t.Cleanup(func() { stopWork(); <-worked })
			done := waitState(t, asker, "killed", Done, Failed)
			if done.State != Done {
				t.Fatalf("the rescued review: %s %q", done.State, done.Error)
			}

			// The same game reviewed in one process, on a queue of its own.
			one := open(t, Config{Queue: riverdb.Target{Address: t.TempDir() + "/one.db"}, Nodes: 700, Workers: 1, Compute: Engine(nil)})
			if _, _, err := one.Request(ctx, g, Requester{}); err != nil {
				t.Fatal(err)
			}
			alone := waitState(t, one, "killed", Done, Failed)
			if alone.State != Done || !reflect.DeepEqual(done.Result, alone.Result) {
				t.Fatalf("rescued %+v\none process %s %+v", done.Result, alone.State, alone.Result)
			}
			var attempts int
			if err := asker.db.SQL.QueryRow(`SELECT max(attempt) FROM river_job WHERE kind = 'review'`).Scan(&attempts); err != nil || attempts < 2 {
				t.Fatalf("the job was attempted %d times (%v): it was not rescued", attempts, err)
			}
		})
	}
}
