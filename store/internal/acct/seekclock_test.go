package acct

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// TestSeekClockColumn: a seek's clock column written when a seek held a
// store.SeekClock reads back as its control and is written again byte
// for byte.
func TestSeekClockColumn(t *testing.T) {
	tests := []struct {
		stored string
		want   timecontrol.Control
	}{
		{`{"initial":180,"increment":2}`, timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second}},
		{`{"initial":60}`, timecontrol.Control{Base: time.Minute}},
		{`{"days":3}`, timecontrol.Control{PerMove: 3 * timecontrol.Day}},
	}
	for _, tt := range tests {
		var stored seekClock
		if err := json.Unmarshal([]byte(tt.stored), &stored); err != nil {
			t.Fatal(err)
		}
		tc := stored.control()
		if tc != tt.want {
			t.Errorf("stored %s read as %v, want %v", tt.stored, tc, tt.want)
		}
		again, err := seekClockText(&tc)
		if err != nil || again == nil || *again != tt.stored {
			t.Errorf("control %v written as %v, %v; want the stored %s", tc, again, err, tt.stored)
		}
	}
	if text, err := seekClockText(nil); text != nil || err != nil {
		t.Errorf("no control written as %v, %v; want NULL", text, err)
	}
}

// TestSeekClockColumnRefusesFractions: a control the column cannot keep
// exactly is refused, not rounded.
func TestSeekClockColumnRefusesFractions(t *testing.T) {
	for _, tc := range []timecontrol.Control{
		{Base: 1500 * time.Millisecond},
		{Base: time.Minute, Increment: 100 * time.Millisecond},
		{PerMove: 36 * time.Hour},
	} {
		if text, err := seekClockText(&tc); err == nil {
			t.Errorf("control %v written as %s; want it refused", tc, *text)
		}
	}
}
