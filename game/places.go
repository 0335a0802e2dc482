package game

// Places are the places of a finished game's players, in seat order,
// for players seats: 1 is first, and a player's place is one more than
// the number of players placed above them, so players placed equal share
// a place and the next place is skipped (1, 1, 3). The winners come
// first; below them the others rank by their scores, higher first (in a
// game that does not score every score is 0, so they share the place
// after the winners). A draw places everyone first. Every caller that
// ranks a result (ratings, match shares, the lab's measures) asks this,
// so that no two of them place a result differently.
func (r Result) Places(players int) []int {
	places := make([]int, players)
	if r.Winners == 0 {
		for p := range places {
			places[p] = 1 // a draw, whatever the scores say
		}
		return places
	}
	for p := range places {
		places[p] = 1
		for q := range players {
			if r.above(Player(q), Player(p)) {
				places[p]++
			}
		}
	}
	return places
}

// above reports whether player a placed above player b: a won and b did
// not, or neither won and a scored more.
func (r Result) above(a, b Player) bool {
	aWon, bWon := r.Winners.Has(a), r.Winners.Has(b)
	if aWon != bWon {
		return aWon
	}
	return !aWon && r.Scores[a] > r.Scores[b]
}
