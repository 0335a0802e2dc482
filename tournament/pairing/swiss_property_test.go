package pairing

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSwissProperties plays many random tournaments (2–40 players, 1–9
// rounds, random results with draws, withdrawals and players who miss a
// round) and checks every round against the absolute rules: everybody
// present paired once or the one bye, no rematch, colours never three in
// a row nor a difference beyond ±2, one bye at most each, the bye to the
// lowest-ranked player who can have it.
func TestSwissProperties(t *testing.T) {
	tournaments := 400
	if testing.Short() {
		tournaments = 30
	}
	for seed := range tournaments {
		rng := rand.New(rand.NewPCG(uint64(seed), 39))
		playTournament(t, rng, 2+rng.IntN(39), 1+rng.IntN(9), false)
	}
}

// TestSwissBracketsOptimal plays small random tournaments and checks each
// bracket of each round against a brute-force search over every legal
// pairing of the players left: no pairing of those players makes more
// pairs in the bracket (C.5), a smaller score difference (C.6: MDPs paired,
// the highest first), or, with those equal, fewer missed colour
// preferences and repeated floats (C.10–C.15). So a round never floats
// more players, or further, than the rules need.
func TestSwissBracketsOptimal(t *testing.T) {
	tournaments := 300
	if testing.Short() {
		tournaments = 25
	}
	for seed := range tournaments {
		rng := rand.New(rand.NewPCG(uint64(seed), 4))
		playTournament(t, rng, 2+rng.IntN(9), 1+rng.IntN(9), true)
	}
}

func playTournament(t *testing.T, rng *rand.Rand, n, rounds int, brute bool) {
	t.Helper()
	ps := newPlayers(rng, n)
	for r := 1; r <= rounds; r++ {
		absences(rng, ps)
		opt := SwissOptions{InitialColour: Colour(1 + rng.IntN(2))}
		rd, err := Swiss(ps, r, opt)
		present := presentIDs(ps)
		if errors.Is(err, ErrNoPairing) {
			if len(present) <= 10 && legalRoundExists(ps, r) {
				t.Fatalf("n=%d round %d: ErrNoPairing but a legal pairing exists", n, r)
			}
			return
		}
		if err != nil {
			t.Fatalf("n=%d round %d: %v", n, r, err)
		}
		checkRound(t, ps, rd)
		if brute {
			checkBrackets(t, ps, rd)
		}
		record(ps, rd, randomResult(rng))
		checkColours(t, ps)
	}
}

// absences withdraws a player now and then for good, and lets others miss
// one round.
func absences(rng *rand.Rand, ps []Player) {
	for i := range ps {
		switch {
		case ps[i].Rating < 0: // withdrawn for good
		case rng.IntN(40) == 0:
			ps[i].Absent, ps[i].Rating = true, -ps[i].Rating-1
		case rng.IntN(15) == 0:
			ps[i].Absent = true
		default:
			ps[i].Absent = false
		}
	}
}

func presentIDs(ps []Player) []string {
	var ids []string
	for _, p := range ps {
		if !p.Absent {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

func checkRound(t *testing.T, ps []Player, rd Round) {
	t.Helper()
	byID := map[string]*Player{}
	for i := range ps {
		byID[ps[i].ID] = &ps[i]
	}
	seen := map[string]int{}
	for _, p := range rd.Pairs {
		seen[p.White]++
		seen[p.Black]++
		if byID[p.White].played(p.Black) {
			t.Fatalf("round %d: rematch %s-%s", rd.Number, p.White, p.Black)
		}
	}
	if rd.Bye != "" {
		seen[rd.Bye]++
		if byID[rd.Bye].hadBye() {
			t.Fatalf("round %d: second bye for %s", rd.Number, rd.Bye)
		}
	}
	present := presentIDs(ps)
	for _, id := range present {
		if seen[id] != 1 {
			t.Fatalf("round %d: %s appears %d times in %s", rd.Number, id, seen[id], describe(rd))
		}
	}
	if len(seen) != len(present) {
		t.Fatalf("round %d: an absent player is paired: %s", rd.Number, describe(rd))
	}
	if (rd.Bye != "") != (len(present)%2 == 1) {
		t.Fatalf("round %d: bye %q with %d players", rd.Number, rd.Bye, len(present))
	}
	if rd.Bye != "" && len(present) <= 12 {
		checkBye(t, ps, rd)
	}
}

// checkBye: nobody ranked below the bye could have had it.
func checkBye(t *testing.T, ps []Player, rd Round) {
	t.Helper()
	ranked := rankedPresent(ps, rd.Number)
	at := slices.IndexFunc(ranked, func(p *Player) bool { return p.ID == rd.Bye })
	for _, p := range ranked[at+1:] {
		if p.hadBye() {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(ranked), func(q *Player) bool { return q == p })
		if anyPerfect(others, rd.Number) {
			t.Fatalf("round %d: bye to %s but %s, ranked lower, could have it", rd.Number, rd.Bye, p.ID)
		}
	}
}

// rankedPresent ranks the present players by score, then rating order.
func rankedPresent(ps []Player, round int) []*Player {
	var out []*Player
	for i := range ps {
		if !ps[i].Absent {
			out = append(out, &ps[i])
		}
	}
	slices.SortFunc(out, func(a, b *Player) int {
		if c := cmp.Compare(b.scoreBefore(round), a.scoreBefore(round)); c != 0 {
			return c
		}
		return byRating(a, b)
	})
	return out
}

// checkColours: after every round, every player's colours keep C.04.1's
// absolute rules.
func checkColours(t *testing.T, ps []Player) {
	t.Helper()
	for _, p := range ps {
		cs := p.colours()
		if cd := colourDifference(cs); cd > 2 || cd < -2 {
			t.Fatalf("%s: colour difference %d after %v", p.ID, cd, cs)
		}
		for i := 2; i < len(cs); i++ {
			if cs[i] == cs[i-1] && cs[i] == cs[i-2] {
				t.Fatalf("%s: three %v in a row in %v", p.ID, cs[i], cs)
			}
		}
	}
}

// mayMeet is the test's own reading of the absolute rules, from their
// effect: a and b have not met, and some colours for them keep both
// within a difference of ±2 and free of three same colours running.
func mayMeet(a, b *Player) bool {
	if a.played(b.ID) {
		return false
	}
	ok := func(cs []Colour, c Colour) bool {
		cs = append(slices.Clone(cs), c)
		n := len(cs)
		cd := colourDifference(cs)
		return cd <= 2 && cd >= -2 && !(n >= 3 && cs[n-1] == cs[n-2] && cs[n-2] == cs[n-3])
	}
	ca, cb := a.colours(), b.colours()
	return ok(ca, White) && ok(cb, Black) || ok(ca, Black) && ok(cb, White)
}

// matchings yields every perfect matching of players by mayMeet.
func matchings(players []*Player, yield func(pairs [][2]*Player)) {
	var pairs [][2]*Player
	var rec func(left []*Player)
	rec = func(left []*Player) {
		if len(left) == 0 {
			yield(pairs)
			return
		}
		for j := 1; j < len(left); j++ {
			if mayMeet(left[0], left[j]) {
				pairs = append(pairs, [2]*Player{left[0], left[j]})
				rec(slices.Concat(left[1:j], left[j+1:]))
				pairs = pairs[:len(pairs)-1]
			}
		}
	}
	if len(players)%2 == 0 {
		rec(players)
	}
}

func anyPerfect(players []*Player, round int) bool {
	found := false
	matchings(players, func([][2]*Player) { found = true })
	return found
}

// legalRoundExists: some bye (to a player without one) and some pairing
// of the others keep the absolute rules.
func legalRoundExists(ps []Player, round int) bool {
	ranked := rankedPresent(ps, round)
	if len(ranked)%2 == 0 {
		return anyPerfect(ranked, round)
	}
	for _, p := range ranked {
		others := slices.DeleteFunc(slices.Clone(ranked), func(q *Player) bool { return q == p })
		if !p.hadBye() && anyPerfect(others, round) {
			return true
		}
	}
	return false
}

// bracketScore is what the brute force compares for one bracket: pairs
// made (more is better), the PSD (smaller), then the cost (smaller).
type bracketScore struct {
	pairs int
	psd   []float64
	cost  cost
}

func (a bracketScore) compare(b bracketScore) int {
	if c := cmp.Compare(b.pairs, a.pairs); c != 0 {
		return c
	}
	if c := slices.Compare(a.psd, b.psd); c != 0 {
		return c
	}
	return slices.Compare(a.cost[:], b.cost[:])
}

// checkBrackets rebuilds the round's brackets from its pairs, top down,
// and compares each with every legal pairing of the players left.
func checkBrackets(t *testing.T, ps []Player, rd Round) {
	t.Helper()
	byID := map[string]*Player{}
	for i := range ps {
		byID[ps[i].ID] = &ps[i]
	}
	ranked := slices.DeleteFunc(rankedPresent(ps, rd.Number), func(p *Player) bool { return p.ID == rd.Bye })
	partner := map[string]string{}
	for _, p := range rd.Pairs {
		partner[p.White], partner[p.Black] = p.Black, p.White
	}
	var carried []*Player
	for start := 0; start < len(ranked); {
		end := start
		for end < len(ranked) && ranked[end].scoreBefore(rd.Number) == ranked[start].scoreBefore(rd.Number) {
			end++
		}
		bracket := slices.Concat(carried, ranked[start:end])
		left := slices.Concat(carried, ranked[start:])
		last := end == len(ranked)
		score := func(pairOf func(*Player) *Player) (bracketScore, []*Player) {
			return scoreBracket(bracket, len(carried), last, pairOf, byID, rd.Number)
		}
		got, next := score(func(p *Player) *Player { return byID[partner[p.ID]] })
		var best *bracketScore
		matchings(left, func(pairs [][2]*Player) {
			m := map[*Player]*Player{}
			for _, pr := range pairs {
				m[pr[0]], m[pr[1]] = pr[1], pr[0]
			}
			s, _ := score(func(p *Player) *Player { return m[p] })
			if best == nil || s.compare(*best) < 0 {
				best = &s
			}
		})
		if best == nil || got.compare(*best) != 0 {
			t.Fatalf("round %d, bracket at %s: got %+v, brute force finds %+v; round %s",
				rd.Number, ranked[start].ID, got, best, describe(rd))
		}
		carried, start = next, end
	}
}

// scoreBracket weighs a bracket's part of a pairing: the pairs among its
// players (two MDPs count only in the last bracket), its downfloaters.
func scoreBracket(bracket []*Player, mdps int, last bool, pairOf func(*Player) *Player,
	byID map[string]*Player, round int) (bracketScore, []*Player) {
	in := map[*Player]int{}
	for i, p := range bracket {
		in[p] = i + 1
	}
	r := bracket[len(bracket)-1].scoreBefore(round)
	var s bracketScore
	var down []*Player
	for i, p := range bracket {
		q := pairOf(p)
		j := in[q] - 1
		paired := j >= 0 && (last || i >= mdps || j >= mdps)
		if !paired {
			down = append(down, p)
			s.psd = append(s.psd, p.scoreBefore(round)-r+1)
			if i >= mdps {
				s.cost[2] += bit(floatIn(p, round-1, byID) == downFloat)
				s.cost[4] += bit(floatIn(p, round-2, byID) == downFloat)
			}
			continue
		}
		if j < i {
			continue
		}
		s.pairs++
		hi, lo := p.scoreBefore(round), q.scoreBefore(round)
		s.psd = append(s.psd, hi-lo)
		missed, strongly := clash(preferenceOf(p.colours()), preferenceOf(q.colours()))
		s.cost[0] += bit(missed)
		s.cost[1] += bit(strongly)
		if hi != lo {
			s.cost[3] += bit(floatIn(q, round-1, byID) == upFloat)
			s.cost[5] += bit(floatIn(q, round-2, byID) == upFloat)
		}
	}
	slices.SortFunc(s.psd, func(x, y float64) int { return cmp.Compare(y, x) })
	return s, down
}
