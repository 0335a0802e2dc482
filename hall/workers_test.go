package hall

import (
	"context"
	"testing"
	"time"
)

// granted reports whether acquire returns within a moment.
func granted(q *workQueue, c Class) (func(), bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	release, err := q.acquire(ctx, c)
	return release, err == nil
}

func TestBackgroundWorkNeverHoldsTheLastWorker(t *testing.T) {
	q := newWorkQueue(3)
	for i := range 2 {
		if _, ok := granted(q, Background); !ok {
			t.Fatalf("background work %d waits with free workers", i)
		}
	}
	if _, ok := granted(q, Background); ok {
		t.Fatal("background work took the last of three workers")
	}
	release, ok := granted(q, Foreground)
	if !ok {
		t.Fatal("a person's turn waits while a worker is free")
	}
	release()
	release() // a second release gives nothing back twice
	if waiting, running := q.load(); waiting != 0 || running != 2 {
		t.Errorf("%d waiting, %d running after the releases; want 0 and 2", waiting, running)
	}
}

func TestForegroundWorkGoesFirst(t *testing.T) {
	q := newWorkQueue(1)
	hold, _ := granted(q, Foreground)
	order := make(chan Class, 2)
	start := func(c Class) {
		go func() {
			release, err := q.acquire(context.Background(), c)
			if err == nil {
				order <- c
				release()
			}
		}()
	}
	start(Background)
	time.Sleep(20 * time.Millisecond) // the background work queues first
	start(Foreground)
	time.Sleep(20 * time.Millisecond)
	hold()
	if first, second := <-order, <-order; first != Foreground || second != Background {
		t.Errorf("served %v then %v; want the foreground work first", first, second)
	}
}

func TestAGivenUpWaitLeavesTheQueue(t *testing.T) {
	q := newWorkQueue(1)
	hold, _ := granted(q, Foreground)
	if _, ok := granted(q, Foreground); ok {
		t.Fatal("two at once on one worker")
	}
	if waiting, _ := q.load(); waiting != 0 {
		t.Errorf("%d waiting after the wait was given up", waiting)
	}
	hold()
	if _, ok := granted(q, Background); !ok {
		t.Error("the worker was not given back")
	}
}
