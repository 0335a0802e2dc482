package ai

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// TestPlanTimeBounds: whatever the clock, from a millisecond to days, with
// or without increment and moves to go, the plan keeps its promises: Soft
// within Hard, both at least a millisecond, and Hard never into the
// Reserve when there is more than that left.
func TestPlanTimeBounds(t *testing.T) {
	const ms = time.Millisecond
	clocks := []MoverClock{
		{Left: 1 * ms}, {Left: 2 * ms, Increment: 10 * ms}, {Left: 30 * ms, Increment: 10 * ms},
		{Left: Reserve, Increment: 10 * ms}, {Left: Reserve + ms, Increment: time.Hour}, {Left: Reserve + ms/2},
		{Left: 300 * ms}, {Left: time.Second, Increment: 10 * ms}, {Left: time.Second},
		{Left: 10 * time.Second, Increment: 100 * ms}, {Left: time.Hour, Increment: 24 * time.Hour},
		{Left: 25 * 24 * time.Hour, Increment: 24 * time.Hour, MovesToGo: 1},
		{Left: time.Minute, MovesToGo: 1}, {Left: time.Minute, MovesToGo: 2}, {Left: time.Minute, MovesToGo: 1 << 30},
		{Left: 240 * ms, MovesToGo: 1},
	}
	for _, c := range clocks {
		p := PlanTime(c)
		switch {
		case p.Soft < minThink || p.Hard < minThink:
			t.Errorf("PlanTime(%+v) = %+v: want at least %s each", c, p, minThink)
		case p.Soft > p.Hard:
			t.Errorf("PlanTime(%+v) = %+v: Soft beyond Hard", c, p)
		case c.Left-Reserve >= minThink && p.Hard > c.Left-Reserve:
			t.Errorf("PlanTime(%+v) = %+v: Hard spends the reserve", c, p)
		}
	}
}

// TestPlanTimeShares: the plan is the share of the spendable time (beyond
// Reserve) that the moves to go (40 unless given) allow plus half of the
// increment (in proportion to the spendable time under refill), Hard a
// stretch of it within half of the spendable time, all of it on the last
// move before the control.
func TestPlanTimeShares(t *testing.T) {
	const ms = time.Millisecond
	second := Reserve + time.Second // a second to spend
	tests := []struct {
		name       string
		clock      MoverClock
		soft, hard time.Duration
	}{
		{"sudden death", MoverClock{Left: second}, 1000 * ms / 40, 5 * (1000 * ms / 40)},
		{"an increment", MoverClock{Left: second, Increment: 20 * ms}, 1000*ms/40 + 10*ms, 5 * (1000*ms/40 + 10*ms)},
		{"moves to go", MoverClock{Left: second, MovesToGo: 10}, 100 * ms, 500 * ms},
		{"the last move", MoverClock{Left: second, MovesToGo: 1}, 1000 * ms, 1000 * ms},
		{"Hard within half", MoverClock{Left: second, MovesToGo: 3}, 1000 * ms / 3, 500 * ms},
		{"a low clock spends less increment", MoverClock{Left: Reserve + 150*ms, Increment: 20 * ms},
			150*ms/40 + 5*ms, 5 * (150*ms/40 + 5*ms)},
		{"within the reserve", MoverClock{Left: Reserve, Increment: 20 * ms}, ms, ms},
		{"no time", MoverClock{Left: 0, Increment: 20 * ms}, ms, ms},
		{"a huge increment", MoverClock{Left: second, Increment: 24 * time.Hour}, 1000 * ms, 1000 * ms},
	}
	for _, tc := range tests {
		if got := PlanTime(tc.clock); got.Soft != tc.soft || got.Hard != tc.hard {
			t.Errorf("%s: PlanTime(%+v) = %+v, want Soft %s, Hard %s", tc.name, tc.clock, got, tc.soft, tc.hard)
		}
	}
}

// TestTimeManagerEnough: the stop decision after an iteration. A forced
// move stops at once; a best move that changed stretches the soft budget,
// a dropped score less so; a move stable over stableIterations shrinks
// it; an iteration that could not end before Hard is not started.
func TestTimeManagerEnough(t *testing.T) {
	const ms = time.Millisecond
	a, b := game.Step(0, 1), game.Step(2, 3)
	plan, late := TimePlan{Soft: 100 * ms, Hard: 1000 * ms}, TimePlan{Soft: 500 * ms, Hard: 1000 * ms}
	tests := []struct {
		name    string
		plan    TimePlan
		moves   int
		history []Info // the iterations before, all at no time
		last    Info
		elapsed time.Duration
		want    bool
	}{
		{"a forced move", plan, 1, nil, Info{Move: a}, 0, true},
		{"within Soft", plan, 5, nil, Info{Move: a}, 99 * ms, false},
		{"Soft spent", plan, 5, nil, Info{Move: a}, 100 * ms, true},
		{"the best move changed", plan, 5, []Info{{Move: a}}, Info{Move: b}, 150 * ms, false},
		{"changed, twice Soft spent", plan, 5, []Info{{Move: a}}, Info{Move: b}, 200 * ms, true},
		{"the score dropped", plan, 5, []Info{{Move: a, Score: 100}}, Info{Move: a, Score: 60}, 140 * ms, false},
		{"dropped, 1.5 Soft spent", plan, 5, []Info{{Move: a, Score: 100}}, Info{Move: a, Score: 60}, 150 * ms, true},
		{"a small drop is no drop", plan, 5, []Info{{Move: a, Score: 100}}, Info{Move: a, Score: 80}, 100 * ms, true},
		{"stable, half Soft spent", plan, 5, []Info{{Move: a}, {Move: a}, {Move: a}, {Move: a}}, Info{Move: a}, 50 * ms, true},
		{"not yet stable", plan, 5, []Info{{Move: a}, {Move: a}, {Move: a}}, Info{Move: a}, 50 * ms, false},
		{"time for the next iteration", late, 5, nil, Info{Move: a}, 399 * ms, false},
		{"no time for the next iteration", late, 5, nil, Info{Move: a}, 400 * ms, true},
	}
	for _, tc := range tests {
		tm := &timeManager{plan: tc.plan}
		for _, info := range tc.history {
			tm.enough(tc.moves, info, 0)
		}
		if got := tm.enough(tc.moves, tc.last, tc.elapsed); got != tc.want {
			t.Errorf("%s: enough after %s = %v, want %v", tc.name, tc.elapsed, got, tc.want)
		}
	}
}

// oneMovePosition plays random games of id until the player to move has a
// single legal move, and returns that position.
func oneMovePosition(t *testing.T, id string) game.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		s := newState(t, id, "")
		for !s.Result().Over() {
			moves := s.Moves(nil)
			if len(moves) == 1 {
				return s
			}
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
	t.Fatalf("%s: no position with one legal move in 1000 random games", id)
	return nil
}

// TestForcedMoveAtOnce: on a clock of an hour an engine that has one
// legal move answers it at once, ab and the strongest level alike (whose
// own depth would otherwise not let the shortcut of a depthless search
// apply).
func TestForcedMoveAtOnce(t *testing.T) {
	s := oneMovePosition(t, "pommel")
	lim := Limits{Clock: MoverClock{Left: time.Hour}}
	for _, spec := range []string{"ab", "ai:level=6"} {
		e := mustEngine(t, spec)
		start := time.Now()
		info := e.Search(context.Background(), s, lim, nil)
		// The hour's plan would be minutes: a second is "at once" even on
		// a busy machine, and the depth says no second iteration ran.
		if took := time.Since(start); took > time.Second || info.Depth > 1 {
			t.Errorf("%s: the forced move took %s to depth %d; want it at once", spec, took, info.Depth)
		}
		if info.Move != s.Moves(nil)[0] {
			t.Errorf("%s: played %s, not the one legal move", spec, info.Move.Text(s.Game().Board()))
		}
	}
}

// TestClockedSearchWithinPlan: ab on a clock stops within the plan's Hard
// limit (with room for the machine's load) and, from the start where no
// move is forced, thinks for more than a forced move's instant.
func TestClockedSearchWithinPlan(t *testing.T) {
	c := MoverClock{Left: Reserve + 300*time.Millisecond, Increment: 10 * time.Millisecond}
	plan := PlanTime(c)
	for _, spec := range []string{"ab", "ai:level=6", "mcts"} {
		info := mustEngine(t, spec).Search(context.Background(), newState(t, "pommel", ""), Limits{Clock: c}, nil)
		// Room for a busy machine: waits for a core of 0.4 s were
		// measured here at a load of 20.
		if info.Elapsed > plan.Hard+time.Second {
			t.Errorf("%s: took %s on %+v, beyond the plan's Hard %s", spec, info.Elapsed, c, plan.Hard)
		}
		if spec != "mcts" && info.Depth < 2 {
			t.Errorf("%s: stopped at depth %d on %+v (plan %+v)", spec, info.Depth, c, plan)
		}
	}
}

// TestMoveTimeCapsClock: the search's own move time caps a clock's plan.
// The bound is the plan's, not the move time's: a busy machine stretched
// the 5 ms to 368 ms (at a load of 20), while the hour's plan alone
// thinks for a minute and more, so a tenth of it tells the two apart on
// any machine.
func TestMoveTimeCapsClock(t *testing.T) {
	lim := Limits{MoveTime: 5 * time.Millisecond, Clock: MoverClock{Left: time.Hour}}
	limit := PlanTime(lim.Clock).Soft / 10
	if limit < 5*time.Second {
		t.Fatalf("an hour's plan thinks %s: too little to tell a capped search from one that is not", 10*limit)
	}
	info := mustEngine(t, "ab").Search(context.Background(), newState(t, "pommel", ""), lim, nil)
	if info.Elapsed > limit {
		t.Errorf("a 5ms move time on an hour's clock took %s, beyond a tenth of the clock's plan (%s)", info.Elapsed, limit)
	}
}

// TestMonteCarloSpendsClock: on a long clock the Monte Carlo engines
// search by the clock's plan, not their default iteration count.
func TestMonteCarloSpendsClock(t *testing.T) {
	if testing.Short() {
		t.Skip("two searches of about a second")
	}
	c := MoverClock{Left: Reserve + 40*time.Second}
	for _, tc := range []struct {
		spec       string
		defaultCap int64 // the iterations of a search given no limit
	}{{"mcts", 20_000}, {"uct", 10_000}} {
		info := mustEngine(t, tc.spec).Search(context.Background(), newState(t, "pommel", ""), Limits{Clock: c}, nil)
		if plan := PlanTime(c); info.Elapsed < plan.Soft/2 || info.Nodes == tc.defaultCap {
			t.Errorf("%s: searched %s (%d iterations) of a soft budget of %s", tc.spec, info.Elapsed, info.Nodes, plan.Soft)
		}
	}
}

// TestStoppedFirstIterationMoves: a search stopped inside its first
// iteration, before it scored any move (a clock's tiny budget on a busy
// machine, here a node limit of 1), still answers a legal move.
func TestStoppedFirstIterationMoves(t *testing.T) {
	for _, id := range []string{"pommel", "eximo", "checkers-2011"} {
		s := newState(t, id, "")
		info := mustEngine(t, "ab").Search(context.Background(), s, Limits{Nodes: 1}, nil)
		legal := false
		for _, m := range s.Moves(nil) {
			legal = legal || m == info.Move
		}
		if !legal || info.Err != nil {
			t.Errorf("%s: a search stopped at once answered %+v, not a legal move", id, info)
		}
	}
}
