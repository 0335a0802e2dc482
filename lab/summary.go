package lab

import (
	"maps"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// Summary is what summary.json holds: the run, its outcome and every
// metric over its games.
type Summary struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Players []string          `json:"players"`
	// Label names the run in a comparison (lab --label).
	Label string   `json:"label,omitempty"`
	Run   Manifest `json:"run"`
	// Games counts the games played; Distinct those that differ in their
	// moves (see distinctGames), the n of every rate and interval.
	Games    int `json:"games"`
	Distinct int `json:"distinct"`
	Draws    int `json:"draws"`
	// Wins counts the games each seat won outright, by the seat's name
	// ("White"); a first place shared in a game of three is in Shared.
	Wins   map[string]int `json:"wins"`
	Shared int            `json:"shared"`
	// Seats are each seat's outright wins as a rate, in turn order.
	Seats []SeatStats `json:"seats"`
	// FirstPlayer is the score of the seat that moved first (option
	// first, or the FEN's player to move; a win 1, a shared first place
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
	// Measures are Ludii's metrics and Browne's criteria (see Measures).
	Measures Measures `json:"measures"`
	// Engines are the engine signatures each seat name played the games
	// with (more than one for a name only in a run made with --mix; see
	// MixWarning), and the builds that played them.
	Engines []EngineUse `json:"engines"`
}

// ArcStats sums up the arcs of the games with one winner.
type ArcStats struct {
	Games int `json:"games"`
	// Drama is the mean share of the winner's searches that saw it behind
	// by more than LeadDeadZone.
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

// summarize sums up the games and their plies. The tallies (Games,
// Draws, Wins, Shared, Endings) count every game played; every rate,
// interval, mean and distribution counts each distinct game once (see
// distinctGames), so that a game played again, move for move, adds no
// evidence.
func summarize(g game.Game, m Manifest, all []GameStats, allPlies []PlyStats) *Summary {
	n := g.Players()
	games, plies := distinctGames(all, allPlies)
	s := &Summary{Game: m.Game, Options: m.Options, Players: m.Players, Label: m.Label, Run: m, Games: len(all),
		Distinct: len(games), Wins: map[string]int{}, Endings: map[string]int{}, DrawsBy: map[string]Rate{},
		PerGame: map[string]float64{}}
	first := firstMover(g, m.From)
	played := countOutcomes(all, n, first)
	for p := range n {
		s.Wins[g.PlayerName(game.Player(p))] = played.wins[p]
	}
	s.Draws, s.Shared, s.Endings = played.draws, played.shared, played.endings
	s.rates(g, countOutcomes(games, n, first), len(games), first)
	var lengths, decisions []int
	for _, gs := range games {
		lengths = append(lengths, gs.Plies)
		decisions = append(decisions, gs.Decisions)
	}
	s.Plies = distribution(lengths)
	s.Decisions = distribution(decisions)
	s.ByPlayer = byPlayer(distinctSeatings(all), n)
	s.perGame(games)
	s.curves(plies, s.Plies.Max)
	s.Arc = arcStats(games)
	s.Signals = signalRates(games)
	s.measure(g, games, plies)
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

// firstMover is the seat that moves first in every game of a run: the
// one to move in the position the games start from, from (a FEN) or the
// start, where the option first chose it. It is the first seat when from
// does not parse (the run refuses such a FEN before a game is played).
func firstMover(g game.Game, from string) game.Player {
	if from == "" {
		return g.Start().ToMove()
	}
	s, err := g.ParseFEN(from)
	if err != nil {
		return 0
	}
	return s.ToMove()
}

// outcomes are the results of some games: outright wins per seat, draws
// (by how they ended), shared first places, how every game ended, and
// the first player's points (a win 1, a shared first place its share, a
// draw 1/n).
type outcomes struct {
	wins           []int
	draws, shared  int
	drawsBy        map[string]int
	endings        map[string]int
	firstSeatScore float64
}

// countOutcomes counts the results of games of n seats in which first
// moved first.
func countOutcomes(games []GameStats, n int, first game.Player) outcomes {
	o := outcomes{wins: make([]int, n), drawsBy: map[string]int{}, endings: map[string]int{}}
	for _, gs := range games {
		o.endings[gs.Reason]++
		switch len(gs.Winners) {
		case 0:
			o.draws++
			o.drawsBy[gs.Reason]++
			o.firstSeatScore += 1 / float64(n)
		case 1:
			o.wins[gs.Winners[0]]++
		default:
			o.shared++
		}
		if len(gs.Winners) > 0 && slices.Contains(gs.Winners, int(first)) {
			o.firstSeatScore += 1 / float64(len(gs.Winners))
		}
	}
	return o
}

// rates fills the seats' win rates, the first player's score and edge
// and the draw rates from the outcomes o of of games, in which first
// moved first.
func (s *Summary) rates(g game.Game, o outcomes, of int, first game.Player) {
	for p := range g.Players() {
		s.Seats = append(s.Seats, SeatStats{Seat: g.PlayerName(game.Player(p)), Wins: NewRate(o.wins[p], of)})
	}
	score := shareRate(o.firstSeatScore, of, o.wins[first])
	fair := 1 / float64(g.Players())
	s.FirstPlayer = Advantage{Seat: g.PlayerName(first), Score: score, Edge: score.Rate - fair, Lo: score.Lo - fair, Hi: score.Hi - fair}
	s.DrawRate = NewRate(o.draws, of)
	for _, why := range slices.Sorted(maps.Keys(o.drawsBy)) {
		s.DrawsBy[why] = NewRate(o.drawsBy[why], of)
	}
}

// distinctGames keeps the first of every set of identical games, and
// their plies. Two games of a run are identical when they made the same
// moves, opening included: they start from the same position (the run's),
// so the same moves give the same positions and the same result. Which
// engine sat where does not count: the seats' results are the same.
func distinctGames(games []GameStats, plies []PlyStats) ([]GameStats, []PlyStats) {
	seen := map[string]bool{}
	kept := map[int]bool{}
	var out []GameStats
	for _, gs := range games {
		key := gs.key()
		if seen[key] {
			continue
		}
		seen[key] = true
		kept[gs.Index] = true
		out = append(out, gs)
	}
	var keptPlies []PlyStats
	for _, ps := range plies {
		if kept[ps.Game] {
			keptPlies = append(keptPlies, ps)
		}
	}
	return out, keptPlies
}

// distinctSeatings keeps the first of every set of games with the same
// moves and the same engine in each seat: an engine's results count a
// game once for each seat it played it from.
func distinctSeatings(games []GameStats) []GameStats {
	seen := map[string]bool{}
	var out []GameStats
	for _, gs := range games {
		key := strings.Join(gs.Seats, "\x00") + "\x01" + gs.key()
		if !seen[key] {
			seen[key] = true
			out = append(out, gs)
		}
	}
	return out
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
