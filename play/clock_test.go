package play

import (
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// TestEngineClock: an engine is given its time left as the clock reads
// now, its increment, and at least a millisecond when its flag is about to
// fall, so that it answers at once rather than searching without a clock.
func TestEngineClock(t *testing.T) {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		tc      timecontrol.Control
		left    time.Duration
		elapsed time.Duration
		want    ai.MoverClock
	}{
		{"Fischer", timecontrol.Control{Base: time.Minute, Increment: time.Second}, time.Minute, 10 * time.Second,
			ai.MoverClock{Left: 50 * time.Second, Increment: time.Second}},
		{"the flag about to fall", timecontrol.Control{Base: time.Minute}, time.Second, time.Second, ai.MoverClock{Left: time.Millisecond}},
		{"past the flag", timecontrol.Control{Base: time.Minute}, time.Second, time.Minute, ai.MoverClock{Left: time.Millisecond}},
		{"correspondence", timecontrol.Control{PerMove: timecontrol.Day}, timecontrol.Day, time.Hour, ai.MoverClock{Left: 23 * time.Hour}},
	}
	for _, tc := range tests {
		c := &clock{tc: tc.tc, at: ClockState{Left: []time.Duration{tc.left, tc.left}, TurnStart: start}}
		if got := c.engineClock(0, start.Add(tc.elapsed)); got != tc.want {
			t.Errorf("%s: engineClock = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
