package lab

import (
	"math"
	"slices"
)

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959964

// Rate is a share of games with its 95% interval (Wilson's score
// interval, which stays inside 0..1 and means something at 0 and 1, where
// a margin around the estimate would not).
type Rate struct {
	Count int     `json:"count"`
	Of    int     `json:"of"`
	Rate  float64 `json:"rate"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// NewRate is count out of of, with its interval; with nothing to count
// the rate is 0 and the interval the whole range.
func NewRate(count, of int) Rate {
	return shareRate(float64(count), of, count)
}

// shareRate is the rate of a share (points rather than a count: a draw
// counts a fraction) of of games.
func shareRate(points float64, of, count int) Rate {
	if of <= 0 {
		return Rate{Count: count, Hi: 1}
	}
	p := points / float64(of)
	lo, hi := wilson(p, float64(of))
	return Rate{Count: count, Of: of, Rate: p, Lo: lo, Hi: hi}
}

// wilson returns Wilson's score interval for a share p of n trials.
func wilson(p, n float64) (lo, hi float64) {
	z2 := z95 * z95
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := z95 * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / (1 + z2/n)
	lo, hi = max(centre-half, 0), min(centre+half, 1)
	if p == 0 {
		lo = 0
	}
	if p == 1 {
		hi = 1
	}
	return lo, hi
}

// Distribution describes a whole-number quantity over the games.
type Distribution struct {
	Mean   float64  `json:"mean"`
	Median float64  `json:"median"`
	Q1     float64  `json:"q1"`
	Q3     float64  `json:"q3"`
	Min    int      `json:"min"`
	Max    int      `json:"max"`
	Bins   []Bucket `json:"histogram"`
}

// Bucket is a range of whole numbers [From, To) with how many values fell
// in it (Count) and, where the bucket averages something, their mean.
type Bucket struct {
	From  int     `json:"from"`
	To    int     `json:"to"`
	Count int     `json:"count"`
	Mean  float64 `json:"mean,omitempty"`
}

// maxBuckets bounds a histogram's or a curve's buckets, so that a plot
// stays readable whatever the games' lengths.
const maxBuckets = 40

// bucketWidth is the smallest round width that cuts 0..top into at most
// maxBuckets buckets.
func bucketWidth(top int) int {
	for _, w := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500} {
		if top/w < maxBuckets {
			return w
		}
	}
	return 1000
}

// distribution describes values; every field is 0 when there are none.
func distribution(values []int) Distribution {
	if len(values) == 0 {
		return Distribution{}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	sum := 0
	for _, x := range v {
		sum += x
	}
	d := Distribution{Mean: float64(sum) / float64(len(v)), Median: quantile(v, 0.5),
		Q1: quantile(v, 0.25), Q3: quantile(v, 0.75), Min: v[0], Max: v[len(v)-1]}
	w := bucketWidth(d.Max)
	first := d.Min / w
	for from := first * w; from <= d.Max; from += w {
		d.Bins = append(d.Bins, Bucket{From: from, To: from + w})
	}
	for _, x := range v {
		d.Bins[x/w-first].Count++
	}
	return d
}

// quantile of sorted values, interpolating between the two nearest ranks
// (the definition most statistics packages use by default).
func quantile[T int | float64](sorted []T, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return float64(sorted[len(sorted)-1])
	}
	frac := pos - float64(i)
	return float64(sorted[i]) + frac*float64(sorted[i+1]-sorted[i])
}

// mean is the mean of values, 0 for none.
func mean(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range values {
		sum += x
	}
	return sum / float64(len(values))
}
