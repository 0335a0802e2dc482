package server

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"
)

// stackWorkers run the deep work of the sockets (a move played through
// the hall and the rules, a game's event encoded) on a few goroutines of
// their own, so that each socket's two goroutines, which spend their
// lives waiting on the connection, keep small stacks. A Go stack grows to
// the deepest call it made and shrinks only slowly: a move (the rules'
// move generation keeps its buffers on the stack) and a game's JSON grew
// every socket goroutine to 16-32 KiB, 342 MB for the 20,000 goroutines
// of 10,000 games; here it is paid once a worker.
//
// A worker is started when none is free, up to max, and ends after idle
// with nothing to do, so a server nobody plays on holds none and a test
// that never closes its server leaks none. The caller waits for its job:
// the hand-over puts the worker next on the caller's own processor, so it
// costs two switches, not a wait in the run queue.
type stackWorkers struct {
	jobs  chan *stackJob // unbuffered: a job goes to a worker that is free now
	slots chan struct{}  // one for each running worker, up to max
	idle  time.Duration
	log   *slog.Logger
}

// stackJob is one job and its outcome.
type stackJob struct {
	run      func()
	done     chan struct{}
	panicked error
}

// Bounds of the workers: at most maxStackWorkers run at once (a move waits
// for its commit on one, so this many moves can be in the store's queue
// together), each ending after stackWorkerIdle with nothing to do.
const (
	maxStackWorkers = 512
	stackWorkerIdle = 10 * time.Second
)

func newStackWorkers(max int, idle time.Duration, log *slog.Logger) *stackWorkers {
	return &stackWorkers{jobs: make(chan *stackJob), slots: make(chan struct{}, max), idle: idle, log: log}
}

// do runs f on a worker and waits for it. A panic in f is recovered and
// logged there, and returned as the error, so that one game's failure
// never stops the process nor the socket's goroutines.
func (w *stackWorkers) do(f func()) error {
	j := &stackJob{run: f, done: make(chan struct{})}
	select {
	case w.jobs <- j: // a free worker took it
	default:
		select {
		case w.slots <- struct{}{}:
			go w.work(j)
		case w.jobs <- j: // every worker is busy: wait for the first free one
		}
	}
	<-j.done
	return j.panicked
}

// work runs j, then the jobs handed to it, until it has been idle for
// w.idle.
func (w *stackWorkers) work(j *stackJob) {
	defer func() { <-w.slots }()
	timer := time.NewTimer(w.idle)
	defer timer.Stop()
	for {
		w.run(j)
		timer.Reset(w.idle)
		select {
		case j = <-w.jobs:
		case <-timer.C:
			return
		}
	}
}

// run runs one job, recovering its panic.
func (w *stackWorkers) run(j *stackJob) {
	defer close(j.done)
	defer func() {
		if r := recover(); r != nil {
			j.panicked = fmt.Errorf("panic: %v", r)
			w.log.Error("a socket's command panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
	}()
	j.run()
}
