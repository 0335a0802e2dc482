package pairing

import (
	"cmp"
	"slices"
)

// maxExchanges bounds the exchanges of one size that are generated and
// sorted at once: past it a bracket is too large for exchanges of that
// size to be tried (docs/tournaments.md).
const maxExchanges = 1 << 18

// combinations lists the k-subsets of 0..n-1 in lexicographic order.
func combinations(n, k int) [][]int {
	var out [][]int
	cur := make([]int, 0, k)
	var rec func(start int)
	rec = func(start int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i <= n-(k-len(cur)); i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out
}

// exchange moves out (positions in S1) to S2 and in (positions in S2,
// from 0) to S1.
type exchange struct {
	out, in []int
}

// exchanges yields the resident-exchanges between an S1 of n1 players and
// an S2 of n2 in the order of C.04.3 D.2, the empty exchange first, until
// yield returns false. With bracket sequence numbers (BSN) 1..n1 for S1
// and n1+1.. for S2, the better exchange has: (1) fewer players exchanged;
// (2) the smaller difference between the BSN sums moved to S1 and to S2;
// (3) the highest BSN moved from S1 to S2 where the two differ; (4) the
// lowest BSN moved from S2 to S1 where the two differ.
func exchanges(n1, n2 int, yield func(out, in []int) bool) {
	for size := 0; size <= min(n1, n2); size++ {
		outs, ins := combinations(n1, size), combinations(n2, size)
		if len(outs)*len(ins) > maxExchanges {
			return
		}
		all := make([]exchange, 0, len(outs)*len(ins))
		for _, o := range outs {
			for _, i := range ins {
				all = append(all, exchange{o, i})
			}
		}
		slices.SortStableFunc(all, func(a, b exchange) int { return compareExchanges(a, b, n1) })
		for _, e := range all {
			if !yield(e.out, e.in) {
				return
			}
		}
	}
}

// compareExchanges orders two exchanges of the same size by D.2's rules
// 2 to 4.
func compareExchanges(a, b exchange, n1 int) int {
	diff := func(e exchange) int {
		d := 0
		for _, i := range e.in {
			d += n1 + i + 1
		}
		for _, o := range e.out {
			d -= o + 1
		}
		return d
	}
	if c := cmp.Compare(diff(a), diff(b)); c != 0 {
		return c
	}
	for i := len(a.out) - 1; i >= 0; i-- { // highest first: the higher BSN is better
		if c := cmp.Compare(b.out[i], a.out[i]); c != 0 {
			return c
		}
	}
	for i := range a.in { // lowest first: the lower BSN is better
		if c := cmp.Compare(a.in[i], b.in[i]); c != 0 {
			return c
		}
	}
	return 0
}
