package pairing

import (
	"cmp"
	"math"
	"slices"
)

// ArenaPlayer is a player free to play now in an arena.
type ArenaPlayer struct {
	ID     string
	Score  int      // arena points so far
	Rating float64  // rating for the game's speed
	Last   []string // the opponents of the player's last game
	// Starts and Games balance the seats: the player moved first in
	// Starts of his Games; the one who started least (for his games)
	// takes the first seat (white).
	Starts, Games int
}

// ArenaOptions are the arena's settings for one pairing.
type ArenaOptions struct {
	// Seats is the number of players a game: 2 (the zero value) or 3.
	Seats int
	// Alone says nobody else is playing or can come free soon: then
	// players who just met are paired again rather than left waiting.
	Alone bool
}

// arenaWindow is how many players, consecutive in rank, are seated
// together by the exact search; larger arenas are seated window after
// window, the left-over players carried into the next.
const arenaWindow = 14

// Arena seats the free players of an arena at once, lichess's way: ranked
// by score (then rating), each table of players close in rank and rating,
// with the cost of a pair |rank difference| × (300 + 1700 × (n − better
// rank) / n) + |rating difference| (lichess's AntmaPairing), so that rank
// matters most at the top. Players who just met (one was in the other's
// Last) never meet again at once unless opt.Alone. The most tables are
// made, then the cheapest; players left over (one when odd, or one whose
// every possible opponent was his last) wait. Each table lists its seats
// in order, the first seat (white) first.
func Arena(free []ArenaPlayer, opt ArenaOptions) ([][]string, error) {
	if opt.Seats == 0 {
		opt.Seats = 2
	}
	if opt.Seats != 2 && opt.Seats != 3 {
		return nil, invalid("arena games of %d seats", opt.Seats)
	}
	ranked, err := rankArena(free)
	if err != nil {
		return nil, err
	}
	a := &arena{players: ranked, seats: opt.Seats, alone: opt.Alone}
	tables := a.seat()
	out := make([][]string, len(tables))
	for i, t := range tables {
		out[i] = a.seatOrder(t)
	}
	return out, nil
}

// rankArena checks the players and ranks them: score, rating, id.
func rankArena(free []ArenaPlayer) ([]ArenaPlayer, error) {
	seen := map[string]bool{}
	for _, p := range free {
		if p.ID == "" || seen[p.ID] {
			return nil, invalid("arena player %q empty or twice", p.ID)
		}
		if math.IsNaN(p.Rating) || math.IsInf(p.Rating, 0) || p.Starts < 0 || p.Games < p.Starts {
			return nil, invalid("arena player %q: rating %v, %d starts of %d games", p.ID, p.Rating, p.Starts, p.Games)
		}
		seen[p.ID] = true
	}
	ranked := slices.Clone(free)
	slices.SortStableFunc(ranked, func(a, b ArenaPlayer) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return ranked, nil
}

// arena is one seating: players ranked, index = rank − 1.
type arena struct {
	players []ArenaPlayer
	seats   int
	alone   bool
}

// justMet reports whether i and j were in each other's last game.
func (a *arena) justMet(i, j int) bool {
	return slices.Contains(a.players[i].Last, a.players[j].ID) || slices.Contains(a.players[j].Last, a.players[i].ID)
}

// pairCost is lichess's cost of seating ranks i and j together.
func (a *arena) pairCost(i, j int) float64 {
	n := len(a.players)
	factor := 300 + 1700*(n-(min(i, j)+1))/n
	return float64(abs(i-j)*factor) + math.Abs(a.players[i].Rating-a.players[j].Rating)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// seat seats window after window of consecutive ranks, each exactly;
// whoever a window leaves out joins the next.
func (a *arena) seat() [][]int {
	var tables [][]int
	var carried []int
	next := 0
	for next < len(a.players) || len(carried) >= a.seats {
		window := carried
		for len(window) < arenaWindow && next < len(a.players) {
			window = append(window, next)
			next++
		}
		got, left := a.exact(window)
		tables = append(tables, got...)
		if next >= len(a.players) && len(got) == 0 {
			break
		}
		carried = left
	}
	if a.seats == 2 {
		tables = a.complete(tables)
	}
	return tables
}

// score ranks seatings: more tables, then fewer rematches, then less cost.
type score struct {
	tables, rematches int
	cost              float64
}

func (s score) better(t score) bool {
	if s.tables != t.tables {
		return s.tables > t.tables
	}
	if s.rematches != t.rematches {
		return s.rematches < t.rematches
	}
	return s.cost < t.cost
}

// exact seats the players of window (at most arenaWindow) at the best
// tables by a search over subsets: best[mask] seats the players not in
// mask, deciding always the first of them: left out, or at a table with
// one or two of the others.
func (a *arena) exact(window []int) (tables [][]int, left []int) {
	n := len(window)
	pairs := a.pairTable(window)
	full := 1<<n - 1
	best := make([]score, full+1)
	pick := make([][2]int8, full+1) // the others at the first player's table; -1: left out
	for mask := full - 1; mask >= 0; mask-- {
		i := lowestUnset(mask)
		best[mask], pick[mask] = best[mask|1<<i], [2]int8{-1, -1}
		for j := i + 1; j < n; j++ {
			if mask&(1<<j) != 0 {
				continue
			}
			if a.seats == 2 {
				a.consider(best, pick, mask, mask|1<<i|1<<j, pairs[i][j], [2]int8{int8(j), -1})
				continue
			}
			for k := j + 1; k < n; k++ {
				if mask&(1<<k) == 0 {
					s := pairs[i][j].add(pairs[i][k]).add(pairs[j][k])
					a.consider(best, pick, mask, mask|1<<i|1<<j|1<<k, s, [2]int8{int8(j), int8(k)})
				}
			}
		}
	}
	for mask := 0; mask != full; {
		i := lowestUnset(mask)
		mask |= 1 << i
		if pick[mask&^(1<<i)][0] < 0 {
			left = append(left, window[i])
			continue
		}
		t := []int{window[i]}
		for _, k := range pick[mask&^(1<<i)] {
			if k >= 0 {
				t = append(t, window[k])
				mask |= 1 << k
			}
		}
		tables = append(tables, t)
	}
	return tables, left
}

// consider takes the table s (seating the players that turn mask into
// rest) for best[mask] if it is better; a forbidden table has tables < 0.
func (a *arena) consider(best []score, pick [][2]int8, mask, rest int, s score, others [2]int8) {
	if s.tables < 0 {
		return
	}
	total := score{best[rest].tables + 1, best[rest].rematches + s.rematches, best[rest].cost + s.cost}
	if total.better(best[mask]) {
		best[mask], pick[mask] = total, others
	}
}

// pairTable scores every two players of window as one table: tables 1,
// or -1 when they just met (and the arena is not alone).
func (a *arena) pairTable(window []int) [][]score {
	t := make([][]score, len(window))
	for x, p := range window {
		t[x] = make([]score, len(window))
		for y, q := range window {
			if x == y {
				continue
			}
			t[x][y] = score{tables: 1, cost: a.pairCost(p, q)}
			if a.justMet(p, q) {
				t[x][y].rematches = 1
				if !a.alone {
					t[x][y].tables = -1
				}
			}
		}
	}
	return t
}

// add sums two pair scores into a table's; forbidden stays forbidden.
func (s score) add(t score) score {
	if s.tables < 0 || t.tables < 0 {
		return score{tables: -1}
	}
	return score{tables: 1, rematches: s.rematches + t.rematches, cost: s.cost + t.cost}
}

func lowestUnset(mask int) int {
	i := 0
	for mask&(1<<i) != 0 {
		i++
	}
	return i
}

// complete makes a two-seat seating as large as it can be: the windows
// seat players near in rank, and augmenting paths over the whole arena
// then take in whoever a window had to leave over.
func (a *arena) complete(tables [][]int) [][]int {
	n := len(a.players)
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	for _, t := range tables {
		mate[t[0]], mate[t[1]] = t[1], t[0]
	}
	allowed := func(u, v int) bool { return a.alone || !a.justMet(u, v) }
	mate = augmentMatching(n, allowed, mate)
	var out [][]int
	for u, v := range mate {
		if v > u {
			out = append(out, []int{u, v})
		}
	}
	slices.SortFunc(out, func(x, y []int) int { return cmp.Compare(x[0], y[0]) })
	return out
}

// seatOrder lists a table's ids, first seat first: the player who started
// least for his games, then the higher-ranked.
func (a *arena) seatOrder(table []int) []string {
	slices.SortStableFunc(table, func(x, y int) int {
		p, q := a.players[x], a.players[y]
		return cmp.Compare(a.seats*p.Starts-p.Games, a.seats*q.Starts-q.Games)
	})
	ids := make([]string, len(table))
	for i, t := range table {
		ids[i] = a.players[t].ID
	}
	return ids
}
