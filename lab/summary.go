package lab

import (
	"maps"
	"slices"

	"github.com/arbiter-games/arbiter/game"
)

// Summary is what summary.json holds: the run, its outcome and every
// metric over its games.
type Summary struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Players []string          `json:"players"`
	Run     Manifest          `json:"run"`
	Games   int               `json:"games"`
	Draws   int               `json:"draws"`
	// Wins counts the games each seat won outright, by the seat's name
	// ("White"); a first place shared in a game of three is in Shared.
	Wins   map[string]int `json:"wins"`
	Shared int            `json:"shared"`
	// Seats are each seat's outright wins as a rate, in turn order.
	Seats []SeatStats `json:"seats"`
	// FirstPlayer is the first seat's score (a win 1, a shared first place
	// its share, a draw 1/n) and its edge over a fair share.
	FirstPlayer Advantage `json:"firstPlayer"`
	// ByPlayer are each engine's results whatever its seat, when the
	// engines differ.
	ByPlayer []PlayerStats `json:"byPlayer,omitempty"`
	DrawRate Rate          `json:"drawRate"`
	// Endings counts the games by how they ended ("no moves",
	// "repetition", "ply cap", ...); DrawsBy the draws alone.
	Endings map[string]int  `json:"endings"`
	DrawsBy map[string]Rate `json:"drawsBy"`
	Plies   Distribution    `json:"plies"`
	// Branching is the legal moves per position over every game, with its
	// mean per ply bucket (Bucket.Count: the positions in it).
	Branching Curve `json:"branching"`
	// Decisions are the positions with more than one legal move, per game,
	// and their share of all positions.
	Decisions     Distribution `json:"decisions"`
	DecisionShare float64      `json:"decisionShare"`
	// PerGame are the mean counts per game of what the moves did.
	PerGame map[string]float64 `json:"perGame"`
	// Eval is the engines' mean evaluation per ply bucket (see
	// PlyStats.Eval for whose side).
	Eval Curve `json:"eval"`
	// Arc sums up the engines' view of the games that had one winner.
	Arc ArcStats `json:"arc"`
	// Signals are, for each telling event (see Signals), how often the
	// player it named won, out of the games with one winner where it
	// named somebody; a fair share would be 1/n.
	Signals map[string]Rate `json:"signals"`
}

// ArcStats sums up the arcs of the games with one winner.
type ArcStats struct {
	Games int `json:"games"`
	// Drama is the mean share of the winner's searches that saw it behind.
	Drama float64 `json:"drama"`
	// Comebacks are the games whose winner was once behind by
	// DecisiveMargin or more.
	Comebacks Rate `json:"comebacks"`
	// DecidedAt is the mean share of the game played when the winner's
	// lead became lasting: a small value means long decided endgames.
	DecidedAt Distribution01 `json:"decidedAt"`
}

// Distribution01 describes a share (0 to 1) over the games.
type Distribution01 struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
}

// SeatStats is one seat's outright wins.
type SeatStats struct {
	Seat string `json:"seat"`
	Wins Rate   `json:"wins"`
}

// Advantage is a seat's score as a rate, and its edge over a fair share
// (the score less 1/n, with the interval's ends moved alike).
type Advantage struct {
	Seat  string  `json:"seat"`
	Score Rate    `json:"score"`
	Edge  float64 `json:"edge"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// PlayerStats is one engine's results over every seat it sat in.
type PlayerStats struct {
	Name   string `json:"name"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Shared int    `json:"shared"` // draws and shared first places
	Losses int    `json:"losses"`
	Score  Rate   `json:"score"`
}

// Curve is a quantity over the game: its overall mean and its mean in
// each ply bucket.
type Curve struct {
	Mean    float64  `json:"mean"`
	Buckets []Bucket `json:"byPly"`
}

// summarize sums up the games and their plies.
func summarize(g game.Game, m Manifest, games []GameStats, plies []PlyStats) *Summary {
	n := g.Players()
	s := &Summary{Game: m.Game, Options: m.Options, Players: m.Players, Run: m, Games: len(games),
		Wins: map[string]int{}, Endings: map[string]int{}, DrawsBy: map[string]Rate{}, PerGame: map[string]float64{}}
	for p := range n {
		s.Wins[g.PlayerName(game.Player(p))] = 0
	}
	first, drawsBy := 0.0, map[string]int{}
	var lengths, decisions []int
	for _, gs := range games {
		s.Endings[gs.Reason]++
		lengths = append(lengths, gs.Plies)
		decisions = append(decisions, gs.Decisions)
		switch len(gs.Winners) {
		case 0:
			s.Draws++
			drawsBy[gs.Reason]++
			first += 1 / float64(n)
		case 1:
			s.Wins[g.PlayerName(game.Player(gs.Winners[0]))]++
		default:
			s.Shared++
		}
		if len(gs.Winners) > 0 && slices.Contains(gs.Winners, 0) {
			first += 1 / float64(len(gs.Winners))
		}
	}
	for p := range n {
		name := g.PlayerName(game.Player(p))
		s.Seats = append(s.Seats, SeatStats{Seat: name, Wins: NewRate(s.Wins[name], len(games))})
	}
	firstWins := s.Wins[g.PlayerName(0)]
	score := shareRate(first, len(games), firstWins)
	fair := 1 / float64(n)
	s.FirstPlayer = Advantage{Seat: g.PlayerName(0), Score: score, Edge: score.Rate - fair, Lo: score.Lo - fair, Hi: score.Hi - fair}
	s.DrawRate = NewRate(s.Draws, len(games))
	for _, why := range slices.Sorted(maps.Keys(drawsBy)) {
		s.DrawsBy[why] = NewRate(drawsBy[why], len(games))
	}
	s.Plies = distribution(lengths)
	s.Decisions = distribution(decisions)
	s.ByPlayer = byPlayer(games, n)
	s.perGame(games)
	s.curves(plies, s.Plies.Max)
	s.Arc = arcStats(games)
	s.Signals = signalRates(games)
	positions, total := 0, 0
	for k, gs := range games {
		positions += gs.Plies
		total += decisions[k]
	}
	if positions > 0 {
		s.DecisionShare = float64(total) / float64(positions)
	}
	return s
}

// byPlayer sums each engine's results over its seats, when the games
// hold more than one engine.
func byPlayer(games []GameStats, n int) []PlayerStats {
	index := map[string]int{}
	var stats []PlayerStats
	points := map[string]float64{}
	for _, gs := range games {
		for seat, name := range gs.Seats {
			k, ok := index[name]
			if !ok {
				k = len(stats)
				index[name] = k
				stats = append(stats, PlayerStats{Name: name})
			}
			st := &stats[k]
			st.Games++
			won := slices.Contains(gs.Winners, seat)
			switch {
			case len(gs.Winners) == 0:
				st.Shared++
				points[name] += 1 / float64(n)
			case won && len(gs.Winners) == 1:
				st.Wins++
				points[name]++
			case won:
				st.Shared++
				points[name] += 1 / float64(len(gs.Winners))
			default:
				st.Losses++
			}
		}
	}
	if len(stats) < 2 {
		return nil
	}
	slices.SortFunc(stats, func(a, b PlayerStats) int { return index[a.Name] - index[b.Name] })
	for k := range stats {
		stats[k].Score = shareRate(points[stats[k].Name], stats[k].Games, stats[k].Wins)
	}
	return stats
}

// perGame fills the mean counts per game.
func (s *Summary) perGame(games []GameStats) {
	counts := map[string]func(GameStats) int{
		"captures": func(g GameStats) int { return g.Captures }, "taken": func(g GameStats) int { return g.Taken },
		"chains": func(g GameStats) int { return g.Chains }, "leaps": func(g GameStats) int { return g.Leaps },
		"promotions": func(g GameStats) int { return g.Promotions }, "drops": func(g GameStats) int { return g.Drops },
		"sandwiches": func(g GameStats) int { return g.Sandwiches }, "takeovers": func(g GameStats) int { return g.Takeovers },
		"scoreChanges": func(g GameStats) int { return g.ScoreChanges }, "leadChanges": func(g GameStats) int { return g.LeadChanges },
	}
	for name, count := range counts {
		var v []float64
		for _, g := range games {
			v = append(v, float64(count(g)))
		}
		s.PerGame[name] = mean(v)
	}
}

// curves fills the branching factor and the evaluation over the game, in
// buckets of plies as wide as the longest game asks.
func (s *Summary) curves(plies []PlyStats, longest int) {
	w := bucketWidth(longest)
	var legal, eval []float64
	branch, ev := map[int][]float64{}, map[int][]float64{}
	for _, ps := range plies {
		b := (ps.Ply - 1) / w
		branch[b] = append(branch[b], float64(ps.Legal))
		legal = append(legal, float64(ps.Legal))
		if ps.Searched {
			ev[b] = append(ev[b], float64(ps.Eval))
			eval = append(eval, float64(ps.Eval))
		}
	}
	s.Branching = curve(branch, legal, w)
	s.Eval = curve(ev, eval, w)
}

// curve builds a curve from values per bucket of width w (bucket b holds
// plies b*w+1 to b*w+w).
func curve(byBucket map[int][]float64, all []float64, w int) Curve {
	c := Curve{Mean: mean(all)}
	for _, b := range slices.Sorted(maps.Keys(byBucket)) {
		v := byBucket[b]
		c.Buckets = append(c.Buckets, Bucket{From: b*w + 1, To: b*w + w + 1, Count: len(v), Mean: mean(v)})
	}
	return c
}

// arcStats sums up the arcs of the games with one winner.
func arcStats(games []GameStats) ArcStats {
	var st ArcStats
	var drama, decided []float64
	comebacks := 0
	for _, g := range games {
		if !g.Decided {
			continue
		}
		st.Games++
		drama = append(drama, g.Arc.Drama)
		decided = append(decided, g.Arc.DecidedAt)
		if g.Arc.Comeback {
			comebacks++
		}
	}
	st.Drama = mean(drama)
	st.Comebacks = NewRate(comebacks, st.Games)
	slices.Sort(decided)
	st.DecidedAt = Distribution01{Mean: mean(decided), Median: quantile(decided, 0.5),
		Q1: quantile(decided, 0.25), Q3: quantile(decided, 0.75)}
	return st
}

// signalRates counts, for each signal, the games with one winner where it
// named a player, and how often that player won.
func signalRates(games []GameStats) map[string]Rate {
	named, won := map[string]int{}, map[string]int{}
	for _, g := range games {
		if len(g.Winners) != 1 {
			continue
		}
		for kind, p := range g.Signals {
			named[kind]++
			if p == g.Winners[0] {
				won[kind]++
			}
		}
	}
	out := map[string]Rate{}
	for kind, n := range named {
		out[kind] = NewRate(won[kind], n)
	}
	return out
}
