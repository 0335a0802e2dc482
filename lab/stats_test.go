package lab

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

func TestNewRate(t *testing.T) {
	tests := []struct {
		count, of    int
		rate, lo, hi float64
	}{
		// Wilson's interval for 5 of 10, 0 of 10, 10 of 10 and 50 of 100,
		// as statistics tables give them.
		{5, 10, 0.5, 0.2366, 0.7634},
		{0, 10, 0, 0, 0.2775},
		{10, 10, 1, 0.7225, 1},
		{50, 100, 0.5, 0.4038, 0.5962},
		{0, 0, 0, 0, 1}, // nothing to count: the whole range
	}
	for _, tt := range tests {
		r := NewRate(tt.count, tt.of)
		if !near(r.Rate, tt.rate) || !near(r.Lo, tt.lo) || !near(r.Hi, tt.hi) || r.Count != tt.count || r.Of != tt.of {
			t.Errorf("NewRate(%d, %d) = %+v, want %.4f [%.4f, %.4f]", tt.count, tt.of, r, tt.rate, tt.lo, tt.hi)
		}
	}
}

func TestDistribution(t *testing.T) {
	d := distribution([]int{7, 1, 3, 5, 9})
	if d.Mean != 5 || d.Median != 5 || d.Q1 != 3 || d.Q3 != 7 || d.Min != 1 || d.Max != 9 {
		t.Errorf("distribution = %+v, want mean 5, median 5, quartiles 3 and 7, 1 to 9", d)
	}
	// Width 1 below 40: one bucket per value from 1 to 9, empty ones too.
	if len(d.Bins) != 9 || d.Bins[0] != (Bucket{From: 1, To: 2, Count: 1}) || d.Bins[1].Count != 0 {
		t.Errorf("histogram = %+v, want 9 buckets of width 1 from 1", d.Bins)
	}
	d = distribution([]int{10, 20, 30, 400})
	// 400/10 buckets would be 40, too many: width 20, from 0 to 420.
	if d.Median != 25 || d.Q1 != 17.5 || d.Bins[0] != (Bucket{From: 0, To: 20, Count: 1}) || len(d.Bins) != 21 ||
		d.Bins[1].Count != 2 || d.Bins[20].Count != 1 {
		t.Errorf("distribution = %+v, want median 25, Q1 17.5, 21 buckets of 20 from 0", d)
	}
	if d := distribution(nil); d.Mean != 0 || d.Bins != nil {
		t.Errorf("distribution of nothing = %+v, want zeros", d)
	}
}

func TestBucketWidth(t *testing.T) {
	for _, tt := range []struct{ top, want int }{{0, 1}, {39, 1}, {40, 2}, {150, 5}, {600, 20}, {5000, 200}} {
		if got := bucketWidth(tt.top); got != tt.want {
			t.Errorf("bucketWidth(%d) = %d, want %d", tt.top, got, tt.want)
		}
	}
}

func TestRateAxisTop(t *testing.T) {
	for _, tt := range []struct {
		his  []float64
		want float64
	}{{[]float64{0.039, 0.014}, 5}, {[]float64{0.05}, 10}, {[]float64{0.2, 0.31}, 35}, {[]float64{0.39}, 40}, {[]float64{0.45}, 100}, {nil, 5}} {
		var rates []Rate
		for _, hi := range tt.his {
			rates = append(rates, Rate{Hi: hi})
		}
		if got := rateAxisTop(rates); got != tt.want {
			t.Errorf("rateAxisTop(%v) = %v, want %v", tt.his, got, tt.want)
		}
	}
}
