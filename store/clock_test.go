package store

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// TestClockStoredForm: a clock stored before its control was a
// timecontrol.Control reads back as that control and reading, and is
// written again byte for byte as it was stored.
func TestClockStoredForm(t *testing.T) {
	tests := []struct {
		stored string
		want   Clock
	}{
		{
			`{"base":300000000000,"increment":3000000000,"perMove":0,"left":[300000000000,241500000000],"turnStart":"2026-01-02T03:04:05.678Z"}`,
			Clock{
				Control:   timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second},
				Left:      []time.Duration{5 * time.Minute, 4*time.Minute + 1500*time.Millisecond},
				TurnStart: time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC),
			},
		},
		{
			`{"base":0,"increment":0,"perMove":259200000000000,"left":[259200000000000,259200000000000],"turnStart":"0001-01-01T00:00:00Z"}`,
			Clock{
				Control: timecontrol.Control{PerMove: 72 * time.Hour},
				Left:    []time.Duration{72 * time.Hour, 72 * time.Hour},
			},
		},
		{
			`{"base":1000000000,"increment":0,"perMove":0,"left":null,"turnStart":"0001-01-01T00:00:00Z"}`,
			Clock{Control: timecontrol.Control{Base: time.Second}},
		},
	}
	for _, tt := range tests {
		var got Clock
		if err := json.Unmarshal([]byte(tt.stored), &got); err != nil {
			t.Fatalf("Unmarshal(%s): %v", tt.stored, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(%s):\n got %+v\nwant %+v", tt.stored, got, tt.want)
		}
		for _, v := range []any{got, &got} {
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("Marshal(%+v): %v", v, err)
			}
			if string(again) != tt.stored {
				t.Errorf("Marshal(%T) =\n %s\nwant the stored\n %s", v, again, tt.stored)
			}
		}
	}
}
