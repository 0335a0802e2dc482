package pairing

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func win(plies int) ArenaGame       { return ArenaGame{Players: 2, Place: 1, Shared: 1, Plies: plies} }
func draw(plies int) ArenaGame      { return ArenaGame{Players: 2, Place: 1, Shared: 2, Plies: plies} }
func loss(plies int) ArenaGame      { return ArenaGame{Players: 2, Place: 2, Shared: 1, Plies: plies} }
func berserk(g ArenaGame) ArenaGame { g.Berserk = true; return g }

func TestScoreArena(t *testing.T) {
	place := func(place, shared int) ArenaGame {
		return ArenaGame{Players: 3, Place: place, Shared: shared, Plies: 60}
	}
	for _, tc := range []struct {
		name    string
		games   []ArenaGame
		streaks bool
		want    []int
		fire    bool
	}{
		{"win draw loss", []ArenaGame{win(40), draw(40), loss(40)}, true, []int{2, 1, 0}, false},
		{"two wins light the fire", []ArenaGame{win(40), win(40)}, true, []int{2, 2}, true},
		{"a win on fire counts double", []ArenaGame{win(40), win(40), win(40), win(40)}, true, []int{2, 2, 4, 4}, true},
		{"a draw on fire counts double and ends the streak", []ArenaGame{win(40), win(40), draw(40), win(40)}, true, []int{2, 2, 2, 2}, false},
		{"a loss ends the streak", []ArenaGame{win(40), win(40), loss(40), win(40), win(40)}, true, []int{2, 2, 0, 2, 2}, true},
		{"lichess's example: two wins and a draw make 6", []ArenaGame{win(40), win(40), draw(40)}, true, []int{2, 2, 2}, false},
		{"no streaks", []ArenaGame{win(40), win(40), win(40), draw(40)}, false, []int{2, 2, 2, 1}, false},
		{"berserk win: one more", []ArenaGame{berserk(win(14))}, true, []int{3}, false},
		{"berserk win too quick: none more", []ArenaGame{berserk(win(13))}, true, []int{2}, false},
		{"berserk on fire: 4 and 1", []ArenaGame{win(40), win(40), berserk(win(40))}, true, []int{2, 2, 5}, true},
		{"berserk draw: nothing more", []ArenaGame{berserk(draw(40))}, true, []int{1}, false},
		{"quick draw: nothing", []ArenaGame{draw(19), draw(20)}, true, []int{0, 0}, false},
		{"quick draw on fire: nothing, streak over", []ArenaGame{win(40), win(40), draw(10), win(40)}, true, []int{2, 2, 0, 2}, false},
		{"a second draw running: nothing", []ArenaGame{draw(40), draw(40)}, true, []int{1, 0}, false},
		{"losses do not end the draw streak", []ArenaGame{draw(40), loss(40), draw(40)}, true, []int{1, 0, 0}, false},
		{"a win ends the draw streak", []ArenaGame{draw(40), win(40), draw(40)}, true, []int{1, 2, 1}, false},
		{"a long second draw scores", []ArenaGame{draw(40), draw(60)}, true, []int{1, 1}, false},
		{"three players: 2, 1, 0", []ArenaGame{place(1, 1), place(2, 1), place(3, 1)}, true, []int{2, 1, 0}, false},
		{"three players, shared places rounded down", []ArenaGame{place(1, 2), place(2, 2), place(1, 3)}, true, []int{1, 0, 1}, false},
		{"three players on fire: second place doubled", []ArenaGame{place(1, 1), place(1, 1), place(2, 1)}, true, []int{2, 2, 2}, false},
		{"three players: berserk needs 7 moves each", []ArenaGame{
			berserk(ArenaGame{Players: 3, Place: 1, Shared: 1, Plies: 20}),
			berserk(ArenaGame{Players: 3, Place: 1, Shared: 1, Plies: 21})}, true, []int{2, 3}, true},
		{"Players zero counts as two", []ArenaGame{{Place: 1, Shared: 2, Plies: 30}}, true, []int{1}, false},
	} {
		s, err := ScoreArena(tc.games, tc.streaks)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		total := 0
		for _, p := range tc.want {
			total += p
		}
		if !slices.Equal(s.Points, tc.want) || s.Total != total || s.OnFire != tc.fire {
			t.Errorf("%s: got %+v, want %v (total %d) fire %v", tc.name, s, tc.want, total, tc.fire)
		}
	}
}

func TestScoreArenaRefusals(t *testing.T) {
	for _, g := range []ArenaGame{
		{Players: 4, Place: 1, Shared: 1},
		{Players: 2, Place: 0, Shared: 1},
		{Players: 2, Place: 2, Shared: 2},
		{Players: 3, Place: 1, Shared: 0},
		{Players: 2, Place: 1, Shared: 1, Plies: -1},
	} {
		if _, err := ScoreArena([]ArenaGame{g}, true); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: got %v", g, err)
		}
	}
}

func TestBerserkClock(t *testing.T) {
	m, s := time.Minute, time.Second
	for _, tc := range []struct {
		limit, inc, wantLimit, wantInc time.Duration
		ok                             bool
	}{
		{3 * m, 0, 90 * s, 0, true},
		{3 * m, 2 * s, 90 * s, 0, true},
		{1 * m, 2 * s, 1 * m, 0, true}, // under 40 increments: 1+2 becomes 1+0
		{80 * s, 2 * s, 40 * s, 0, true},
		{0, 2 * s, 0, 2 * s, false}, // no limit, no berserk
	} {
		l, i, ok := BerserkClock(tc.limit, tc.inc)
		if l != tc.wantLimit || i != tc.wantInc || ok != tc.ok {
			t.Errorf("%v+%v: got %v+%v %v", tc.limit, tc.inc, l, i, ok)
		}
	}
}

func TestArenaSmall(t *testing.T) {
	two := []ArenaPlayer{{ID: "a", Last: []string{"b"}}, {ID: "b", Last: []string{"a"}}}
	if got, _ := Arena(two, ArenaOptions{}); len(got) != 0 {
		t.Errorf("two who just met wait for others: %v", got)
	}
	if got, _ := Arena(two, ArenaOptions{Alone: true}); len(got) != 1 {
		t.Errorf("alone, they play again: %v", got)
	}
	// a just played b; c is free: a and b both prefer c but only one gets
	// it; the other waits... unless a fourth comes.
	got, _ := Arena([]ArenaPlayer{{ID: "a", Score: 9, Last: []string{"b"}}, {ID: "b", Score: 8}, {ID: "c", Score: 7}, {ID: "d", Score: 0}}, ArenaOptions{})
	if fmt.Sprint(got) != "[[a c] [b d]]" {
		t.Errorf("a-b just met, so a-c and b-d: %v", got)
	}
	// seats: the player who had white less often (for his games) is white
	got, _ = Arena([]ArenaPlayer{{ID: "x", Score: 5, Starts: 3, Games: 4}, {ID: "y", Score: 4, Starts: 1, Games: 3}}, ArenaOptions{})
	if fmt.Sprint(got) != "[[y x]]" {
		t.Errorf("y started less: %v", got)
	}
	got, _ = Arena([]ArenaPlayer{{ID: "p"}, {ID: "q"}, {ID: "r"}, {ID: "s"}}, ArenaOptions{Seats: 3})
	if len(got) != 1 || len(got[0]) != 3 {
		t.Errorf("four players, triples: one table, one waits: %v", got)
	}
	for _, bad := range [][]ArenaPlayer{{{ID: ""}}, {{ID: "a"}, {ID: "a"}}, {{ID: "a", Rating: math.NaN()}}, {{ID: "a", Starts: 2, Games: 1}}} {
		if _, err := Arena(bad, ArenaOptions{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if _, err := Arena(nil, ArenaOptions{Seats: 4}); !errors.Is(err, ErrInvalid) {
		t.Errorf("four seats: %v", err)
	}
}

// randomArena makes n free players with random scores and ratings, each
// with a random last game among the others (or none).
func randomArena(rng *rand.Rand, n, seats int) []ArenaPlayer {
	ps := make([]ArenaPlayer, n)
	for i := range ps {
		ps[i] = ArenaPlayer{ID: fmt.Sprintf("p%d", i), Score: rng.IntN(12), Rating: float64(1200 + rng.IntN(800))}
		ps[i].Games = rng.IntN(6)
		ps[i].Starts = rng.IntN(ps[i].Games + 1)
	}
	for i := range ps {
		if rng.IntN(4) == 0 {
			continue
		}
		for range seats - 1 {
			ps[i].Last = append(ps[i].Last, ps[rng.IntN(n)].ID)
		}
	}
	return ps
}

// TestArenaProperties: over random arenas, no one sits twice, no table
// holds two players who just met, and (small arenas, against a brute
// force over every seating) the number of tables is the largest possible
// and the cost the smallest.
func TestArenaProperties(t *testing.T) {
	cases := 600
	if testing.Short() {
		cases = 60
	}
	for c := range cases {
		rng := rand.New(rand.NewPCG(uint64(c), 11))
		seats := 2 + rng.IntN(2)
		n := rng.IntN(11)
		if c%5 == 0 {
			n = 15 + rng.IntN(60)
		}
		free := randomArena(rng, n, seats)
		alone := rng.IntN(5) == 0
		tables, err := Arena(free, ArenaOptions{Seats: seats, Alone: alone})
		if err != nil {
			t.Fatal(err)
		}
		a := &arena{seats: seats, alone: alone}
		a.players, _ = rankArena(free)
		rank := map[string]int{}
		for i, p := range a.players {
			rank[p.ID] = i
		}
		seen := map[string]bool{}
		got := score{}
		for _, tb := range tables {
			if len(tb) != seats {
				t.Fatalf("case %d: table %v", c, tb)
			}
			for x, id := range tb {
				if seen[id] {
					t.Fatalf("case %d: %s seated twice", c, id)
				}
				seen[id] = true
				for _, other := range tb[x+1:] {
					if a.justMet(rank[id], rank[other]) {
						if !alone {
							t.Fatalf("case %d: %s and %s just met", c, id, other)
						}
						got.rematches++
					}
					got.cost += a.pairCost(rank[id], rank[other])
				}
			}
			got.tables++
		}
		if seats == 2 && !alone {
			mate := maxMatching(n, func(u, v int) bool { return !a.justMet(u, v) })
			if got.tables != matchingSize(mate) {
				t.Fatalf("case %d (n=%d): %d tables, %d possible", c, n, got.tables, matchingSize(mate))
			}
		}
		if n <= 10 {
			best := bruteArena(a, allIndices(n))
			if best.tables != got.tables || best.rematches != got.rematches || math.Abs(best.cost-got.cost) > 1e-9 {
				t.Fatalf("case %d (n=%d seats=%d alone=%v): got %+v, brute force %+v", c, n, seats, alone, got, best)
			}
		}
	}
}

func allIndices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// bruteArena tries every seating of left: the first player waits or sits
// with any others.
func bruteArena(a *arena, left []int) score {
	if len(left) < a.seats {
		return score{}
	}
	rest := left[1:]
	best := bruteArena(a, rest)
	try := func(table []int) {
		s, ok := a.tableScore(allIndices(len(a.players)), table...)
		if !ok {
			return
		}
		others := slices.DeleteFunc(slices.Clone(rest), func(x int) bool { return slices.Contains(table, x) })
		sub := bruteArena(a, others)
		total := score{s.tables + sub.tables, s.rematches + sub.rematches, s.cost + sub.cost}
		if total.better(best) {
			best = total
		}
	}
	for j, x := range rest {
		if a.seats == 2 {
			try([]int{left[0], x})
			continue
		}
		for _, y := range rest[j+1:] {
			try([]int{left[0], x, y})
		}
	}
	return best
}

// tableScore (the brute force's) weighs a table of window positions; ok is false for a
// rematch unless the arena is alone.
func (a *arena) tableScore(window []int, at ...int) (score, bool) {
	s := score{tables: 1}
	for x := range at {
		for y := x + 1; y < len(at); y++ {
			p, q := window[at[x]], window[at[y]]
			if a.justMet(p, q) {
				if !a.alone {
					return score{}, false
				}
				s.rematches++
			}
			s.cost += a.pairCost(p, q)
		}
	}
	return s, true
}
