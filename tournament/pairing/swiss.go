package pairing

import (
	"cmp"
	"errors"
	"slices"
)

// Pair is one game of a round.
type Pair struct {
	White, Black string
}

// Round is the pairing of one round: its games, highest board first, and
// the player who has the bye ("" when the number of players is even).
type Round struct {
	Number int
	Pairs  []Pair
	Bye    string
}

// SwissOptions are a Swiss tournament's settings for a round's pairing.
type SwissOptions struct {
	// InitialColour is the colour drawn by lot before the first round
	// (E.5): between two players without a colour history the higher
	// ranked gets it when his pairing number is odd. Zero means White.
	InitialColour Colour
	// Budget bounds the candidate pairings examined in one bracket once
	// one legal candidate has been found (zero: DefaultBudget). Past it
	// the best candidate so far is taken; see docs/tournaments.md.
	Budget int
}

// DefaultBudget is SwissOptions.Budget's default: far more than the
// brackets of tournaments of a few dozen players ever need.
const DefaultBudget = 200_000

// ErrNoPairing is returned when no pairing of the round keeps the
// absolute criteria (no rematch, no second bye, colours): the arbiter
// decides.
var ErrNoPairing = errors.New("pairing: no legal pairing of this round")

// float is a player's float in a round (A.4): a downfloat after playing a
// lower score or not playing at all, an upfloat after playing a higher one.
type float int8

const (
	noFloat float = iota
	downFloat
	upFloat
)

// entrant is a present player as the pairing sees him.
type entrant struct {
	id      string
	number  int // pairing number: place in the initial ranking list
	score   float64
	pref    preference
	colours []Colour
	hadBye  bool
	met     map[string]bool
	// floats are the floats of the last round and the one before (C.12–C.15).
	floats [2]float
}

// Swiss pairs round (1 for the first) of a Swiss tournament among the
// players that are not Absent, by the Dutch system as docs/tournaments.md
// describes. players holds every entrant, absent ones included, each with
// the games of the rounds before this one.
func Swiss(players []Player, round int, opt SwissOptions) (Round, error) {
	byID, err := checkPlayers(players, round)
	if err != nil {
		return Round{}, err
	}
	if opt.InitialColour != Black {
		opt.InitialColour = White
	}
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	present := entrants(players, byID, round)
	r := Round{Number: round}
	if len(present)%2 == 1 {
		bye := byeOf(present)
		if bye < 0 {
			return Round{}, ErrNoPairing
		}
		r.Bye = present[bye].id
		present = slices.Delete(present, bye, bye+1)
	} else if !completable(present) {
		return Round{}, ErrNoPairing
	}
	s := &swiss{budget: opt.Budget}
	pairs, err := s.pairBrackets(present)
	if err != nil {
		return Round{}, err
	}
	r.Pairs = boards(pairs, opt.InitialColour)
	return r, nil
}

// entrants builds the present players, ranked for pairing (A.2): by score,
// then by pairing number.
func entrants(players []Player, byID map[string]*Player, round int) []*entrant {
	ranking := make([]*Player, 0, len(players))
	for i := range players {
		ranking = append(ranking, &players[i])
	}
	slices.SortFunc(ranking, byRating)
	var es []*entrant
	for i, p := range ranking {
		if p.Absent {
			continue
		}
		e := &entrant{id: p.ID, number: i + 1, score: p.scoreBefore(round), colours: p.colours(),
			hadBye: p.hadBye(), met: map[string]bool{}}
		e.pref = preferenceOf(e.colours)
		for _, g := range p.History {
			if !g.Bye {
				e.met[g.Opponent] = true
			}
		}
		e.floats = [2]float{floatIn(p, round-1, byID), floatIn(p, round-2, byID)}
		es = append(es, e)
	}
	slices.SortStableFunc(es, rankOrder)
	return es
}

// rankOrder is A.2's order: score, highest first, then pairing number.
func rankOrder(a, b *entrant) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(a.number, b.number)
}

// floatIn is p's float in round t: down when p had a bye or did not
// play, down or up when p met a lower or higher score.
func floatIn(p *Player, t int, byID map[string]*Player) float {
	if t < 1 {
		return noFloat
	}
	i := slices.IndexFunc(p.History, func(g Game) bool { return g.Round == t })
	if i < 0 || p.History[i].Bye {
		return downFloat
	}
	own, theirs := p.scoreBefore(t), byID[p.History[i].Opponent].scoreBefore(t)
	switch {
	case own > theirs:
		return downFloat
	case own < theirs:
		return upFloat
	}
	return noFloat
}

// compatible reports whether a and b may meet: the absolute criteria C.1
// (no rematch) and C.3 (not the same absolute colour preference).
func compatible(a, b *entrant) bool {
	return !a.met[b.id] && !sameAbsolute(a.pref, b.pref)
}

// completable reports whether players can all be paired with each other
// keeping the absolute criteria (C.4's test).
func completable(players []*entrant) bool {
	if len(players)%2 == 1 {
		return false
	}
	mate := maxMatching(len(players), func(u, v int) bool { return compatible(players[u], players[v]) })
	return matchingSize(mate) == len(players)/2
}

// byeOf picks the bye of an odd round: the lowest-ranked player who never
// had one and without whom all the others can be paired; -1 if none.
func byeOf(present []*entrant) int {
	for i := len(present) - 1; i >= 0; i-- {
		if present[i].hadBye {
			continue
		}
		others := slices.Concat(present[:i], present[i+1:])
		if completable(others) {
			return i
		}
	}
	return -1
}

// boards colours the pairs and orders them (C.04.2): by the higher score
// of the two, then by their sum, then by the higher player's rank.
func boards(pairs [][2]*entrant, initial Colour) []Pair {
	for i, p := range pairs {
		if rankOrder(p[0], p[1]) > 0 {
			pairs[i] = [2]*entrant{p[1], p[0]}
		}
	}
	slices.SortStableFunc(pairs, func(a, b [2]*entrant) int {
		if c := cmp.Compare(b[0].score, a[0].score); c != 0 {
			return c
		}
		if c := cmp.Compare(b[0].score+b[1].score, a[0].score+a[1].score); c != 0 {
			return c
		}
		return rankOrder(a[0], b[0])
	})
	out := make([]Pair, len(pairs))
	for i, p := range pairs {
		if allocate(p[0], p[1], initial) == White {
			out[i] = Pair{White: p[0].id, Black: p[1].id}
		} else {
			out[i] = Pair{White: p[1].id, Black: p[0].id}
		}
	}
	return out
}
