package tournament

import (
	"cmp"
	"slices"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/tournament/pairing"
)

// Standing is a player's line in a tournament's table.
type Standing struct {
	Rank    int
	Account string
	Name    string
	Rating  float64
	Score   float64
	// Tiebreaks are a Swiss's or round-robin's Buchholz and
	// Sonneborn-Berger; none for an arena.
	Tiebreaks []float64
	// Points are an arena player's points game by game; Fire says its
	// next win counts double.
	Points []int
	Fire   bool
	// Games counts the games played (a bye included).
	Games                      int
	Withdrawn, Paused, Berserk bool
}

// standings ranks st's players: a Swiss or round-robin by score,
// Buchholz and Sonneborn-Berger (pairing.Standings), an arena by points
// (pairing.ScoreArena) then rating.
func standings(st *state) []Standing {
	var joined []store.TournamentPlayer
	for _, p := range st.players {
		if p.Joined {
			joined = append(joined, p)
		}
	}
	out := make([]Standing, len(joined))
	byID := map[string]*Standing{}
	for i, p := range joined {
		out[i] = Standing{Account: p.Account, Name: p.Name, Rating: p.Rating, Withdrawn: p.Withdrawn, Paused: p.Paused, Berserk: p.Berserk}
		byID[p.Account] = &out[i]
	}
	for _, g := range st.games {
		for _, a := range g.Seats {
			if sd := byID[a]; sd != nil && g.Ended {
				sd.Games++
			}
		}
	}
	if st.t.Kind == Arena {
		return arenaStandings(st, out)
	}
	ranked, err := pairing.Standings(swissPlayers(st), max(st.t.Round, 1))
	if err != nil {
		return rankByScore(out)
	}
	sorted := make([]Standing, 0, len(ranked))
	for _, r := range ranked {
		if sd := byID[r.ID]; sd != nil {
			sd.Rank, sd.Score, sd.Tiebreaks = r.Rank, r.Score, []float64{r.Buchholz, r.SonnebornBerger}
			sorted = append(sorted, *sd)
		}
	}
	return sorted
}

// swissPlayers are st's players with their rounds, as the Swiss pairing
// and the standings take them: withdrawn players absent.
func swissPlayers(st *state) []pairing.Player {
	var players []pairing.Player
	index := map[string]int{}
	for _, p := range st.players {
		if p.Joined {
			index[p.Account] = len(players)
			players = append(players, pairing.Player{ID: p.Account, Rating: p.Rating, Absent: p.Withdrawn})
		}
	}
	for _, g := range st.games {
		if !g.Ended {
			continue
		}
		if len(g.Seats) == 1 {
			if i, ok := index[g.Seats[0]]; ok {
				players[i].History = append(players[i].History, pairing.Game{Round: g.Round, Bye: true, Points: 1})
			}
			continue
		}
		for seat, a := range g.Seats {
			i, ok := index[a]
			_, ok2 := index[g.Seats[1-seat]]
			if !ok || !ok2 {
				continue
			}
			players[i].History = append(players[i].History, pairing.Game{Round: g.Round, Opponent: g.Seats[1-seat],
				Colour: []pairing.Colour{pairing.White, pairing.Black}[seat], Points: swissPoints(g.Places, seat)})
		}
	}
	return players
}

// swissPoints is what seat scored in a two-player game: 1 alone first,
// ½ sharing first, else (a loss, an aborted game) 0.
func swissPoints(places []int, seat int) float64 {
	if len(places) != 2 || places[seat] != 1 {
		return 0
	}
	if places[1-seat] == 1 {
		return 0.5
	}
	return 1
}

// arenaStandings scores each player's games in the order they ended.
func arenaStandings(st *state, out []Standing) []Standing {
	games := slices.Clone(st.games)
	slices.SortStableFunc(games, func(a, b store.TournamentGame) int {
		return cmp.Or(a.Finished.Compare(b.Finished), cmp.Compare(a.Round, b.Round), cmp.Compare(a.Board, b.Board))
	})
	sheets := map[string][]pairing.ArenaGame{}
	for _, g := range games {
		if !g.Ended || len(g.Places) != len(g.Seats) {
			continue
		}
		for seat, a := range g.Seats {
			shared := 0
			for _, p := range g.Places {
				if p == g.Places[seat] {
					shared++
				}
			}
			sheets[a] = append(sheets[a], pairing.ArenaGame{Players: len(g.Seats), Place: g.Places[seat], Shared: shared,
				Plies: g.Plies, Berserk: seat < len(g.Berserk) && g.Berserk[seat]})
		}
	}
	for i := range out {
		sheet, err := pairing.ScoreArena(sheets[out[i].Account], true)
		if err != nil {
			continue
		}
		out[i].Score, out[i].Points, out[i].Fire = float64(sheet.Total), sheet.Points, sheet.OnFire
	}
	return rankByScore(out)
}

// rankByScore orders by score, then rating, then account, and numbers
// the ranks.
func rankByScore(out []Standing) []Standing {
	slices.SortStableFunc(out, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Account, b.Account))
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}
