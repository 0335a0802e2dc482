package pairing

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// record appends a round's games to the players' histories: result gives
// White's points for each pair.
func record(players []Player, r Round, result func(p Pair) float64) {
	idx := map[string]int{}
	for i, p := range players {
		idx[p.ID] = i
	}
	for _, p := range r.Pairs {
		w := result(p)
		players[idx[p.White]].History = append(players[idx[p.White]].History,
			Game{Round: r.Number, Opponent: p.Black, Colour: White, Points: w})
		players[idx[p.Black]].History = append(players[idx[p.Black]].History,
			Game{Round: r.Number, Opponent: p.White, Colour: Black, Points: 1 - w})
	}
	if r.Bye != "" {
		players[idx[r.Bye]].History = append(players[idx[r.Bye]].History, Game{Round: r.Number, Points: 1, Bye: true})
	}
}

// randomResult is a seeded game result: White wins, draws or loses.
func randomResult(rng *rand.Rand) func(Pair) float64 {
	return func(Pair) float64 { return float64(rng.IntN(3)) / 2 }
}

// newPlayers makes n players p1..pn with random distinct-ish ratings.
func newPlayers(rng *rand.Rand, n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{ID: fmt.Sprintf("p%d", i+1), Rating: float64(1000 + rng.IntN(1500))}
	}
	return ps
}

// describe prints a round for failure messages.
func describe(r Round) string {
	var b strings.Builder
	for _, p := range r.Pairs {
		fmt.Fprintf(&b, "%s-%s ", p.White, p.Black)
	}
	if r.Bye != "" {
		fmt.Fprintf(&b, "bye %s", r.Bye)
	}
	return b.String()
}
