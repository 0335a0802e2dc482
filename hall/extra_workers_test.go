package hall

import (
	"context"
	"testing"
	"time"
)

// TestExtraWorkers: extra workers come only from the free ones, never
// while work waits, and go back once.
func TestExtraWorkers(t *testing.T) {
	tests := []struct {
		name             string
		workers, holding int
		ask, want        int
	}{
		{"all free", 4, 1, 3, 3},
		{"fewer free than asked", 4, 2, 3, 2},
		{"none free", 2, 2, 1, 0},
		{"none asked", 4, 1, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := newWorkQueue(tc.workers)
			for range tc.holding {
				if _, ok := granted(q, Foreground); !ok {
					t.Fatal("no worker for the search itself")
				}
			}
			took, release := q.tryAcquire(Foreground, tc.ask)
			if took != tc.want {
				t.Errorf("took %d extra workers, want %d", took, tc.want)
			}
			release()
			release()
			if _, running := q.load(); running != tc.holding {
				t.Errorf("%d running after the release, want %d", running, tc.holding)
			}
		})
	}
}

// TestExtraWorkersLeaveWaitingWork: with work waiting for a worker, a
// search takes no extra one, even as one frees up: the waiting work gets
// it.
func TestExtraWorkersLeaveWaitingWork(t *testing.T) {
	q := newWorkQueue(2)
	hold, _ := granted(q, Foreground)
	hold2, _ := granted(q, Foreground)
	got := make(chan func(), 1)
	go func() {
		release, err := q.acquire(context.Background(), Foreground)
		if err == nil {
			got <- release
		}
	}()
	for waiting, _ := q.load(); waiting == 0; waiting, _ = q.load() {
		time.Sleep(time.Millisecond)
	}
	if took, release := q.tryAcquire(Foreground, 1); took != 0 {
		release()
		t.Fatal("took an extra worker while work waited")
	}
	hold2()
	release := <-got
	if took, _ := q.tryAcquire(Foreground, 1); took != 0 {
		t.Error("took a worker the waiting work was given")
	}
	release()
	hold()
}
