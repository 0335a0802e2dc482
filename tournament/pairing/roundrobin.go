package pairing

// RoundRobin gives every round of an all-play-all among ids by FIDE's
// Berger tables (Handbook C.05, Annex 1): ids[0] has pairing number 1.
// For an odd number of players a dummy takes number n+1 and whoever meets
// it has the round's bye. Each round lists the dummy's (or the last
// number's) game first, as the tables do.
func RoundRobin(ids []string) ([]Round, error) {
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			return nil, invalid("round-robin entrant %q empty or twice", id)
		}
		seen[id] = true
	}
	if len(ids) < 2 {
		return nil, invalid("a round-robin needs two players, not %d", len(ids))
	}
	n := len(ids) + len(ids)%2
	name := func(number int) string {
		if number > len(ids) {
			return ""
		}
		return ids[number-1]
	}
	rounds := make([]Round, n-1)
	for r := 1; r < n; r++ {
		rd := Round{Number: r}
		for _, g := range bergerRound(n, r) {
			w, b := name(g[0]), name(g[1])
			switch {
			case w == "":
				rd.Bye = b
			case b == "":
				rd.Bye = w
			default:
				rd.Pairs = append(rd.Pairs, Pair{White: w, Black: b})
			}
		}
		rounds[r-1] = rd
	}
	return rounds, nil
}

// bergerRound is round r of the Berger table for n players (n even), as
// pairs of pairing numbers, white first. Number n meets the player o with
// 2o ≡ r+1 (mod n−1), with white in even rounds; on the other boards o+k
// (white) meets o−k, numbers taken mod n−1 in 1..n−1.
func bergerRound(n, r int) [][2]int {
	m := n - 1
	wrap := func(x int) int { return ((x-1)%m+m)%m + 1 }
	o := wrap((r + 1) / 2)
	if r%2 == 0 {
		o = wrap((r + n) / 2)
	}
	games := make([][2]int, 0, n/2)
	if r%2 == 1 {
		games = append(games, [2]int{o, n})
	} else {
		games = append(games, [2]int{n, o})
	}
	for k := 1; k < n/2; k++ {
		games = append(games, [2]int{wrap(o + k), wrap(o - k)})
	}
	return games
}
