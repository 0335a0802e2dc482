package lab

import (
	"slices"
	"testing"
)

// TestRoundTicks: the labelled ticks of an axis are round numbers, with
// as few digits as their step needs.
func TestRoundTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		whole  bool
		want   []string
	}{
		{0, 100, false, []string{"0", "20", "40", "60", "80", "100"}},
		{0, 75, false, []string{"0", "10", "20", "30", "40", "50", "60", "70"}},
		{0, 15, false, []string{"0", "2", "4", "6", "8", "10", "12", "14"}},
		{-730, 410, false, []string{"-600", "-400", "-200", "0", "200", "400"}},
		{0, 1, false, []string{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{0.3, 0.9, false, []string{"0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}},
		{0, 1, true, []string{"0", "1"}},
		{0, 3, true, []string{"0", "1", "2", "3"}},
		{1, 171, true, []string{"50", "100", "150"}},
		{0, 2000, true, []string{"0", "500", "1000", "1500", "2000"}},
		{5, 5, false, []string{"5"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tick := range (roundTicks{whole: tt.whole}).Ticks(tt.lo, tt.hi) {
			if tick.Value < tt.lo-1e-9 || tick.Value > tt.hi+1e-9 {
				t.Errorf("%v to %v: a tick at %v, outside the axis", tt.lo, tt.hi, tick.Value)
			}
			if tick.Label != "" {
				got = append(got, tick.Label)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v to %v (whole %v): labels %q, want %q", tt.lo, tt.hi, tt.whole, got, tt.want)
		}
	}
}
