package hall

import (
	"context"
	"sync"
)

// Class orders the AI work waiting for a worker: a person waiting on the
// answer goes before games that only engines play.
type Class int

const (
	// Foreground is work a person waits on: the AI's turn in a game with
	// a person. (Analyses have workers of their own, package analysis.)
	Foreground Class = iota
	// Background is the turn of a game with no person in it.
	Background
)

// workQueue hands out the AI workers (one search each). Waiting work is
// served first come, first served within its class, foreground first;
// background work never holds the last worker while there is more than
// one, so that a person's turn waits at most for one search to end even
// when many engine-only games are queued. Each game has at most one turn
// queued at a time, so games are served in turn (fair per game).
type workQueue struct {
	mu      sync.Mutex
	workers int
	running [2]int
	waiting [2][]chan struct{}
}

func newWorkQueue(workers int) *workQueue { return &workQueue{workers: workers} }

// backgroundCap is how many workers background work may hold.
func (q *workQueue) backgroundCap() int { return max(1, q.workers-1) }

// free reports whether work of class c may start now. q.mu is held.
func (q *workQueue) free(c Class) bool {
	if q.running[Foreground]+q.running[Background] >= q.workers {
		return false
	}
	return c == Foreground || q.running[Background] < q.backgroundCap()
}

// acquire waits for a worker for work of class c, until ctx ends. It
// returns the function that gives the worker back.
func (q *workQueue) acquire(ctx context.Context, c Class) (release func(), err error) {
	q.mu.Lock()
	if len(q.waiting[c]) == 0 && (c == Background && len(q.waiting[Foreground]) == 0 || c == Foreground) && q.free(c) {
		q.running[c]++
		q.mu.Unlock()
		return q.releaser(c), nil
	}
	ready := make(chan struct{})
	q.waiting[c] = append(q.waiting[c], ready)
	q.mu.Unlock()
	select {
	case <-ready:
		return q.releaser(c), nil
	case <-ctx.Done():
		q.mu.Lock()
		defer q.mu.Unlock()
		select {
		case <-ready: // granted meanwhile: give it back
			q.running[c]--
			q.grant()
		default:
			q.drop(c, ready)
		}
		return nil, ctx.Err()
	}
}

func (q *workQueue) releaser(c Class) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			q.mu.Lock()
			defer q.mu.Unlock()
			q.running[c]--
			q.grant()
		})
	}
}

// grant starts the waiting work that may start now, foreground first.
// q.mu is held.
func (q *workQueue) grant() {
	for _, c := range []Class{Foreground, Background} {
		for len(q.waiting[c]) > 0 && q.free(c) {
			ready := q.waiting[c][0]
			q.waiting[c] = q.waiting[c][1:]
			q.running[c]++
			close(ready)
		}
	}
}

// drop removes a waiter that gave up. q.mu is held.
func (q *workQueue) drop(c Class, ready chan struct{}) {
	for i, w := range q.waiting[c] {
		if w == ready {
			q.waiting[c] = append(q.waiting[c][:i], q.waiting[c][i+1:]...)
			return
		}
	}
}

// load is the work waiting and running.
func (q *workQueue) load() (waiting, running int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting[0]) + len(q.waiting[1]), q.running[0] + q.running[1]
}
