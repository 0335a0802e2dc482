package minimize

import (
	"math"
	"testing"
)

// TestGolden finds the least of functions with one minimum, inside the
// interval and at its edges, to within what the steps allow, and calls
// f once a step and twice to start.
func TestGolden(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
		f      func(float64) float64
		want   float64
	}{
		{"parabola", -10, 10, func(x float64) float64 { return (x - 3) * (x - 3) }, 3},
		{"abs", -1, 1, func(x float64) float64 { return math.Abs(x + 0.25) }, -0.25},
		{"at the low edge", 2, 5, func(x float64) float64 { return x }, 2},
		{"at the high edge", 2, 5, func(x float64) float64 { return -x }, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			got := Golden(tt.lo, tt.hi, 40, func(x float64) float64 { calls++; return tt.f(x) })
			if math.Abs(got-tt.want) > 1e-6*(tt.hi-tt.lo) {
				t.Errorf("Golden = %v, want %v", got, tt.want)
			}
			if calls != 42 {
				t.Errorf("%d calls of f, want 42", calls)
			}
		})
	}
}
