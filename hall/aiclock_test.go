package hall

import (
	"testing"
	"time"
)

// TestAIClockHeldWhileItsTurnWaits: an AI seat whose turn waits for a
// worker (the test holds the only one) is not charged for the wait: its
// flag does not fall though the wait is longer than its whole clock, its
// clock stands still, and once a worker is free it moves with the time it
// had when its turn began. On a hall that charged the wait the AI lost on
// time (the defect of issue 35: level 6 flagged at ply 3 of a 15s+0 game
// while analyses held the workers).
func TestAIClockHeldWhileItsTurnWaits(t *testing.T) {
	ft := &fakeNow{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newTestHall(t, Config{Now: ft.Now, Workers: 1})
	c := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "ai:level=1"}, Clock: "15s+0s"})
	release, err := h.queue.acquire(t.Context(), Foreground)
	if err != nil {
		t.Fatal(err)
	}
	playFirst(t, h, c, 0)
	waitFor(t, 10*time.Second, "the AI's turn to wait for the worker", func() bool {
		waiting, _ := h.queue.load()
		return waiting == 1
	})
	before := get(t, h, c.ID).Clock.LeftMs[1]
	ft.advance(time.Minute) // four times the AI's clock
	// The flag's timer runs on the real clock: give a wrongly armed one
	// time to fire.
	time.Sleep(50 * time.Millisecond)
	v := get(t, h, c.ID)
	if v.Result != nil {
		t.Fatalf("the AI lost while its turn waited for a worker: %+v", v.Result)
	}
	if held := v.Clock.LeftMs[1]; held != before {
		t.Errorf("the AI's clock ran while its turn waited: %d ms, then %d ms", before, held)
	}
	release()
	waitFor(t, 30*time.Second, "the AI's reply", func() bool { return get(t, h, c.ID).Ply == 2 })
	v = get(t, h, c.ID)
	if v.Result != nil || v.Clock.LeftMs[1] != before {
		t.Errorf("after its move the AI has %d ms (result %+v), want the %d ms it had when its turn began", v.Clock.LeftMs[1], v.Result, before)
	}
}
