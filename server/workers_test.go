package server

import (
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The stack workers run each job before do returns, never more than
// their bound at once, turn a panic into an error, and end when idle.
func TestStackWorkers(t *testing.T) {
	w := newStackWorkers(3, 50*time.Millisecond, slog.New(slog.DiscardHandler))
	ran := false
	if err := w.do(func() { ran = true }); err != nil || !ran {
		t.Fatalf("do = %v, ran %v", err, ran)
	}
	err := w.do(func() { panic("the rules broke") })
	if err == nil || !strings.Contains(err.Error(), "the rules broke") {
		t.Errorf("a panicking job: %v, want its panic as the error", err)
	}
	var running, most atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			w.do(func() {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				<-release
				running.Add(-1)
			})
		})
	}
	waitFor(t, 10*time.Second, "three busy workers", func() bool { return running.Load() == 3 })
	close(release)
	wg.Wait()
	if most.Load() != 3 {
		t.Errorf("%d jobs ran at once, want the bound of 3", most.Load())
	}
	waitFor(t, 10*time.Second, "idle workers to end", func() bool { return len(w.slots) == 0 })
}
