package analysis

import (
	"context"
	"sync"
)

// pool hands out the analysis workers, first come first served, with a
// bounded number waiting.
type pool struct {
	mu         sync.Mutex
	workers    int
	maxWaiting int
	running    int
	waiting    []chan struct{}
}

func newPool(workers, maxWaiting int) *pool {
	return &pool{workers: workers, maxWaiting: maxWaiting}
}

// acquire waits for a worker until ctx ends or closed is closed, and
// returns the function that gives it back.
func (p *pool) acquire(ctx context.Context, closed <-chan struct{}) (func(), error) {
	p.mu.Lock()
	if len(p.waiting) == 0 && p.running < p.workers {
		p.running++
		p.mu.Unlock()
		return p.releaser(1), nil
	}
	if len(p.waiting) >= p.maxWaiting {
		p.mu.Unlock()
		return nil, errorf(Busy, 0, "every analysis worker is busy and %d searches wait; try again in a moment", p.maxWaiting)
	}
	ready := make(chan struct{})
	p.waiting = append(p.waiting, ready)
	p.mu.Unlock()
	select {
	case <-ready:
		return p.releaser(1), nil
	case <-ctx.Done():
	case <-closed:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-ready: // granted meanwhile: give it back
		p.running--
		p.grant()
	default:
		p.drop(ready)
	}
	select {
	case <-closed:
		return nil, errorf(ShuttingDown, 0, "the server is shutting down; try again in a moment")
	default:
	}
	return nil, errorf(Busy, 0, "every analysis worker is busy; try again in a moment")
}

// tryAcquire takes up to n workers free now with nobody waiting.
func (p *pool) tryAcquire(n int) (took int, release func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for took < n && len(p.waiting) == 0 && p.running < p.workers {
		p.running++
		took++
	}
	return took, p.releaser(took)
}

func (p *pool) releaser(n int) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.running -= n
			p.grant()
		})
	}
}

// grant starts the waiting searches that may start now. p.mu is held.
func (p *pool) grant() {
	for len(p.waiting) > 0 && p.running < p.workers {
		ready := p.waiting[0]
		p.waiting = p.waiting[1:]
		p.running++
		close(ready)
	}
}

// drop removes a waiter that gave up. p.mu is held.
func (p *pool) drop(ready chan struct{}) {
	for i, w := range p.waiting {
		if w == ready {
			p.waiting = append(p.waiting[:i], p.waiting[i+1:]...)
			return
		}
	}
}

func (p *pool) load() (waiting, running int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.waiting), p.running
}
