package store

import (
	"encoding/json"
	"testing"
)

// TestSeekClockSavedForm: a seek's clock as the seeks table keeps it
// (its JSON, which the wire no longer shares) reads back and is written
// again byte for byte.
func TestSeekClockSavedForm(t *testing.T) {
	for _, tc := range []struct {
		saved string
		want  SeekClock
	}{
		{`{"initial":300,"increment":3}`, SeekClock{Initial: 300, Increment: 3}},
		{`{"days":3}`, SeekClock{Days: 3}},
		{`{}`, SeekClock{}},
	} {
		var c SeekClock
		if err := json.Unmarshal([]byte(tc.saved), &c); err != nil || c != tc.want {
			t.Errorf("%s read as %+v, %v; want %+v", tc.saved, c, err, tc.want)
		}
		if again, _ := json.Marshal(c); string(again) != tc.saved {
			t.Errorf("%+v written as %s, want %s", c, again, tc.saved)
		}
	}
}
