package pairing

import (
	"cmp"
	"slices"
)

// swiss pairs the brackets of one round.
type swiss struct {
	budget int
}

// pairBrackets pairs the score groups from the top down (A.9): each
// bracket is the group's residents with the players who floated down to
// it (MDPs); its unpaired players float on to the next.
func (s *swiss) pairBrackets(present []*entrant) ([][2]*entrant, error) {
	groups := scoreGroups(present)
	var pairs [][2]*entrant
	var mdps []*entrant
	for i, g := range groups {
		b := &bracket{mdps: mdps, res: g, rest: slices.Concat(groups[i+1:]...), last: i == len(groups)-1, budget: s.budget}
		got, ok := b.pair()
		if !ok {
			return nil, ErrNoPairing
		}
		pairs = append(pairs, got.pairs...)
		mdps = got.down
	}
	if len(mdps) > 0 {
		return nil, ErrNoPairing
	}
	return pairs, nil
}

// scoreGroups splits players ranked by A.2 into runs of equal score.
func scoreGroups(players []*entrant) [][]*entrant {
	var groups [][]*entrant
	for i, p := range players {
		if i == 0 || p.score != players[i-1].score {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], p)
	}
	return groups
}

// cost is how far a candidate misses the quality criteria after C.5 and
// C.6, in their priority: C.10 players without their colour preference,
// C.11 without their strong preference, C.12 and C.13 players with the
// same downfloat and upfloat as in the last round, C.14 and C.15 as two
// rounds before.
type cost [6]int

func (c cost) less(d cost) bool { return slices.Compare(c[:], d[:]) < 0 }

// candidate is a bracket's pairing and its downfloaters.
type candidate struct {
	pairs [][2]*entrant
	down  []*entrant
}

// bracket is one pairing bracket and the search for its best candidate.
type bracket struct {
	mdps, res []*entrant // moved-down players and residents, each in A.2 order
	rest      []*entrant // the players of the lower score groups
	last      bool       // the last bracket: everyone must be paired
	budget    int

	k        int // pairs wanted
	lb       cost
	nodes    int
	done     bool
	pairs    [][2]*entrant
	cur      cost
	best     *candidate
	bestCost cost
}

// pair finds the bracket's pairing: the most pairs (C.5) that leave a
// completable round (C.4), then the smallest score differences (C.6:
// as many MDPs paired as possible, the highest first), then the lowest
// cost, then the first candidate in the Dutch order of transpositions and
// exchanges.
func (b *bracket) pair() (candidate, bool) {
	n := len(b.mdps) + len(b.res)
	minK := 0
	if b.last {
		minK = n / 2
	}
	for k := b.maxPairs(); k >= minK; k-- {
		b.k, b.nodes, b.done, b.best = k, 0, false, nil
		b.lb = b.lowerBound(n - 2*k)
		if c, ok := b.pairWith(); ok {
			return c, true
		}
	}
	return candidate{}, false
}

// maxPairs is the largest number of pairs the bracket's players could
// make keeping the absolute criteria: MDPs meet residents, or each other
// only in the last bracket.
func (b *bracket) maxPairs() int {
	all := slices.Concat(b.mdps, b.res)
	m := len(b.mdps)
	mate := maxMatching(len(all), func(u, v int) bool {
		return (b.last || u >= m || v >= m) && compatible(all[u], all[v])
	})
	return matchingSize(mate)
}

// lowerBound is a cost no candidate with unpaired players can beat: of
// the players wanting one colour at most k get it, and the unpaired
// absorb at most unpaired of the others.
func (b *bracket) lowerBound(unpaired int) cost {
	var want, wantStrong [3]int
	for _, p := range slices.Concat(b.mdps, b.res) {
		want[p.pref.colour]++
		if p.pref.strength >= strong {
			wantStrong[p.pref.colour]++
		}
	}
	over := func(n [3]int) int { return max(0, n[White]-unpaired-b.k, n[Black]-unpaired-b.k) }
	return cost{over(want), over(wantStrong)}
}

// pairWith searches the candidates of b.k pairs: by the number of MDPs
// paired, most first, then by the MDPs' scores (the subsets' PSD).
func (b *bracket) pairWith() (candidate, bool) {
	m0, r := len(b.mdps), len(b.res)
	for m := min(b.k, m0, r); m >= 0; m-- {
		if !b.fits(m) {
			continue
		}
		subsets := combinations(m0, m)
		psds := make(map[int][]float64, len(subsets))
		for i, s := range subsets {
			psds[i] = b.psd(s)
		}
		order := make([]int, len(subsets))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(x, y int) int { return slices.Compare(psds[x], psds[y]) })
		var bestPSD []float64
		for _, i := range order {
			if b.best != nil && slices.Compare(psds[i], bestPSD) > 0 || b.done {
				break
			}
			had := b.best
			b.searchSubset(subsets[i])
			if b.best != had {
				bestPSD = psds[i]
			}
		}
		if b.best != nil {
			return *b.best, true
		}
	}
	return candidate{}, false
}

// fits reports whether m MDPs paired leave residents for the remaining
// pairs (and, in the last bracket, nobody over).
func (b *bracket) fits(m int) bool {
	rem := len(b.res) - m
	if b.last {
		return rem%2 == 0 && (len(b.mdps)-m)%2 == 0
	}
	return rem >= 2*(b.k-m)
}

// psd is A.8's pairing score difference of pairing the MDPs of subset
// (and b.k-m pairs among residents): each pair scores its difference, each
// downfloater its score less one point under the residents' score; sorted
// highest first, so that comparing two lists compares the largest
// differences first.
func (b *bracket) psd(subset []int) []float64 {
	r := b.res[0].score
	var sd []float64
	in := make([]bool, len(b.mdps))
	for _, i := range subset {
		in[i] = true
	}
	for i, p := range b.mdps {
		if in[i] {
			sd = append(sd, p.score-r)
		} else {
			sd = append(sd, p.score-r+1)
		}
	}
	m := len(subset)
	for range b.k - m {
		sd = append(sd, 0)
	}
	if !b.last {
		for range len(b.res) - m - 2*(b.k-m) {
			sd = append(sd, 1)
		}
	}
	slices.SortFunc(sd, func(x, y float64) int { return cmp.Compare(y, x) })
	return sd
}

// stop reports whether the search is over: the lower bound was met, or
// the budget is spent (ten times over when nothing legal was found yet).
func (b *bracket) stop() bool {
	b.nodes++
	if b.nodes > b.budget && b.best != nil || b.nodes > 10*b.budget {
		b.done = true
	}
	return b.done
}

// push adds a pair to the candidate being built, with its cost, and
// reports whether the candidate can still beat the best one.
func (b *bracket) push(hi, lo *entrant) bool {
	b.pairs = append(b.pairs, [2]*entrant{hi, lo})
	missed, missedStrong := clash(hi.pref, lo.pref)
	b.cur[0] += bit(missed)
	b.cur[1] += bit(missedStrong)
	if hi.score != lo.score {
		b.cur[3] += bit(lo.floats[0] == upFloat)
		b.cur[5] += bit(lo.floats[1] == upFloat)
	}
	return b.best == nil || b.cur.less(b.bestCost)
}

// pop undoes the last push.
func (b *bracket) pop() {
	p := b.pairs[len(b.pairs)-1]
	b.pairs = b.pairs[:len(b.pairs)-1]
	missed, missedStrong := clash(p[0].pref, p[1].pref)
	b.cur[0] -= bit(missed)
	b.cur[1] -= bit(missedStrong)
	if p[0].score != p[1].score {
		b.cur[3] -= bit(p[1].floats[0] == upFloat)
		b.cur[5] -= bit(p[1].floats[1] == upFloat)
	}
}

func bit(ok bool) int {
	if ok {
		return 1
	}
	return 0
}

// searchSubset pairs the MDPs of subset (S1) with residents (S2) in the
// order of D.1's transpositions, each MDP-pairing followed by its
// remainder.
func (b *bracket) searchSubset(subset []int) {
	s1 := make([]*entrant, len(subset))
	in := make([]bool, len(b.mdps))
	for i, j := range subset {
		s1[i], in[j] = b.mdps[j], true
	}
	var limbo []*entrant
	for i, p := range b.mdps {
		if !in[i] {
			limbo = append(limbo, p)
		}
	}
	used := make([]bool, len(b.res))
	b.mdpPairing(s1, limbo, used, 0)
}

func (b *bracket) mdpPairing(s1, limbo []*entrant, used []bool, i int) {
	if b.stop() {
		return
	}
	if i == len(s1) {
		var rem []*entrant
		for j, p := range b.res {
			if !used[j] {
				rem = append(rem, p)
			}
		}
		b.remainder(rem, limbo)
		return
	}
	for j, r := range b.res {
		if used[j] || !compatible(s1[i], r) {
			continue
		}
		used[j] = true
		if b.push(s1[i], r) {
			b.mdpPairing(s1, limbo, used, i+1)
		}
		b.pop()
		used[j] = false
		if b.done {
			return
		}
	}
}

// remainder pairs the residents left after the MDP-pairing as a
// homogeneous bracket: its original S1 is its top q players, S2 the
// others; exchanges between them in D.2's order, and for each the
// transpositions of S2 in D.1's order.
func (b *bracket) remainder(rem, limbo []*entrant) {
	q := b.k - len(b.pairs)
	if b.last {
		q = len(rem) / 2
	}
	if q < 0 || len(rem) < 2*q {
		return
	}
	exchanges(q, len(rem)-q, func(out, in []int) bool {
		s1, s2 := exchanged(rem, q, out, in)
		b.transpose(s1, s2, make([]bool, len(s2)), 0, limbo)
		return !b.done
	})
}

// exchanged applies an exchange to rem's original S1 (its first q) and
// S2: out are S1's positions moved to S2, in S2's positions (counted from
// q) moved to S1; both keep the A.2 order.
func exchanged(rem []*entrant, q int, out, in []int) (s1, s2 []*entrant) {
	moved := make([]bool, len(rem))
	for _, i := range out {
		moved[i] = true
	}
	for _, i := range in {
		moved[q+i] = true
	}
	for i, p := range rem {
		if (i < q) != moved[i] {
			s1 = append(s1, p)
		} else {
			s2 = append(s2, p)
		}
	}
	return s1, s2
}

func (b *bracket) transpose(s1, s2 []*entrant, used []bool, i int, limbo []*entrant) {
	if b.stop() {
		return
	}
	if i == len(s1) {
		var left []*entrant
		for j, p := range s2 {
			if !used[j] {
				left = append(left, p)
			}
		}
		if b.last {
			b.pairLimbo(limbo, left)
			return
		}
		b.leaf(slices.Concat(limbo, left), left)
		return
	}
	for j, p := range s2 {
		if used[j] || !compatible(s1[i], p) {
			continue
		}
		used[j] = true
		if b.push(s1[i], p) {
			b.transpose(s1, s2, used, i+1, limbo)
		}
		b.pop()
		used[j] = false
		if b.done {
			return
		}
	}
}

// pairLimbo pairs, in the last bracket only, the MDPs no resident took
// with each other, so that the round is complete.
func (b *bracket) pairLimbo(limbo, left []*entrant) {
	if len(left) > 0 {
		return
	}
	if len(limbo) == 0 {
		b.leaf(nil, nil)
		return
	}
	for j := 1; j < len(limbo); j++ {
		if !compatible(limbo[0], limbo[j]) {
			continue
		}
		if b.push(limbo[0], limbo[j]) {
			b.pairLimbo(slices.Concat(limbo[1:j], limbo[j+1:]), nil)
		}
		b.pop()
		if b.done {
			return
		}
	}
}

// leaf weighs a complete candidate: floaters are its downfloaters, fresh the
// residents among them (whose downfloat is new this bracket). It keeps
// the candidate when it beats the best and leaves the round completable.
func (b *bracket) leaf(floaters, fresh []*entrant) {
	c := b.cur
	for _, p := range fresh {
		c[2] += bit(p.floats[0] == downFloat)
		c[4] += bit(p.floats[1] == downFloat)
	}
	if b.best != nil && !c.less(b.bestCost) {
		return
	}
	if !b.last && !completable(slices.Concat(floaters, b.rest)) {
		return
	}
	b.best = &candidate{pairs: slices.Clone(b.pairs), down: slices.Clone(floaters)}
	b.bestCost = c
	if c == b.lb {
		b.done = true
	}
}
