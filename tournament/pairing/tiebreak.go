package pairing

import (
	"cmp"
	"slices"
)

// Standing is a player's place in a Swiss tournament's table.
type Standing struct {
	Rank            int // 1 for the first
	ID              string
	Score           float64
	Buchholz        float64
	SonnebornBerger float64
}

// Standings ranks the players after rounds rounds: by score, then
// Buchholz (the sum of the opponents' scores), then Sonneborn-Berger (the
// sum of the scores of the opponents beaten and half those drawn), then
// the initial ranking (rating). A round without an opponent — the bye or
// a round missed — counts against FIDE's virtual opponent (C.02, 2012):
// one with the player's score before that round, the opposite result in
// it, and draws after it.
func Standings(players []Player, rounds int) ([]Standing, error) {
	byID, err := checkPlayers(players, rounds+1)
	if err != nil {
		return nil, err
	}
	order := make([]*Player, 0, len(players))
	for i := range players {
		order = append(order, &players[i])
	}
	slices.SortFunc(order, byRating)
	out := make([]Standing, len(order))
	for i, p := range order {
		out[i] = standing(p, byID, rounds)
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Buchholz, a.Buchholz); c != 0 {
			return c
		}
		return cmp.Compare(b.SonnebornBerger, a.SonnebornBerger)
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// standing sums p's tie-breaks over rounds 1..rounds.
func standing(p *Player, byID map[string]*Player, rounds int) Standing {
	s := Standing{ID: p.ID, Score: p.Score()}
	for r := 1; r <= rounds; r++ {
		opp, points := opponentScore(p, r, byID, rounds)
		s.Buchholz += opp
		s.SonnebornBerger += points * opp
	}
	return s
}

// opponentScore is the final score of p's opponent in round r, or the
// virtual opponent's when p had none, and p's points in that round.
func opponentScore(p *Player, r int, byID map[string]*Player, rounds int) (opp, points float64) {
	i := slices.IndexFunc(p.History, func(g Game) bool { return g.Round == r })
	if i >= 0 && !p.History[i].Bye {
		return byID[p.History[i].Opponent].Score(), p.History[i].Points
	}
	if i >= 0 {
		points = p.History[i].Points
	}
	return virtualOpponent(p.scoreBefore(r), points, r, rounds), points
}

// virtualOpponent is the score of the virtual opponent of a player who
// had before scored before round r, scored points in it without an
// opponent, in a tournament of rounds rounds so far.
func virtualOpponent(before, points float64, r, rounds int) float64 {
	return before + (1 - points) + 0.5*float64(rounds-r)
}
