package hall

import "sync"

// ExtraWorkers takes up to n more AI workers, without waiting, for a
// search that holds one already and can use more (an analysis with
// several threads): only workers free now, and none while any work waits
// for one, so that a search never takes a worker from work in the queue.
// It returns how many it took and the function that gives them back.
func (h *Hall) ExtraWorkers(n int) (took int, release func()) {
	return h.queue.tryAcquire(Foreground, n)
}

// Workers is the number of AI workers: the searches that run at once.
func (h *Hall) Workers() int { return h.queue.workers }

// tryAcquire takes up to n workers for work of class c that are free now
// with no work waiting, and returns how many it took and the function
// that gives them back.
func (q *workQueue) tryAcquire(c Class, n int) (took int, release func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for took < n && len(q.waiting[Foreground])+len(q.waiting[Background]) == 0 && q.free(c) {
		q.running[c]++
		took++
	}
	var once sync.Once
	return took, func() {
		once.Do(func() {
			q.mu.Lock()
			defer q.mu.Unlock()
			q.running[c] -= took
			q.grant()
		})
	}
}
