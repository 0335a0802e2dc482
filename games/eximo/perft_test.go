package eximo_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// perftTable pins move generation: the number of move sequences of each
// length from the start and from hand-picked positions. Every count to
// depth 3 is checked against the independent reference generator in
// reference_test.go (TestReferencePerft); the deeper ones were checked
// against it once (the deepest count of every row, and perft 5 of the
// start: TestReferencePerftDeep, 25 minutes on a loaded 2-core machine).
var perftTable = []struct {
	name, fen string
	counts    []uint64 // depth 1, 2, ...
}{
	{"start", "", []uint64{40, 1600, 60284, 2093190}},
	// Black's h7 steps or jumps to the far row with ten squares of its
	// zone empty: 45 drop pairs per path (h7-g8@b1@c1 ...), and White
	// answers the same way.
	{"drops pending: a far-row move with ten empty drop squares",
		"B:Wc5,f5,a6,e6,f6,g6,c7,e7,f7,g7,b8,c8,d8,f8,g8:Bd1,a3,f3,h4,h7",
		[]uint64{65, 2340, 37733, 1055247}},
	// White must capture; d5xd3xd1 reaches row 1 mid-chain and drops.
	{"white capture chains cut short on row 1, with drops",
		"W:Wd5,b6,c6,d6,e6,g6,a7,b7,c7,d8:Bc1,d1,e1,f1,a2,c2,d2,e2,f2,h2,c3,b4,d4",
		[]uint64{37, 1046, 28949, 780654}},
	{"crowded middle game, sideways and diagonal capture chains",
		"B:Wa5,e5,a6,c6,d6,g6,h6,f7,g7,b8,d8,e8,f8:Bc1,d1,e1,f1,g1,b2,f2,g2,a3,b3,c3,e3,g3,a4,e4,f4",
		[]uint64{6, 156, 4476, 91234}},
	// a7xc7 would need c7 empty: Black's only move is the capture
	// c6xc8 onto the far row, with one drop on g2.
	{"a forced capture onto the far row with a single drop",
		"B:Wd7,d8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,a3,b3,f3,a4,c6,a7",
		[]uint64{1, 3, 120, 360, 14228}},
	{"both drop zones full, nothing in between",
		"B:Wb7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2",
		[]uint64{36, 1296, 44784, 1547536}},
	{"a sparse ending: every far-row move drops a pair",
		"B:Wb3,b4:Bg4,h4,f6,h7", []uint64{140, 3246, 100528, 2137674}},
}

func TestPerft(t *testing.T) {
	g := newGame(t)
	for _, tc := range perftTable {
		t.Run(tc.name, func(t *testing.T) {
			gametest.CheckPerft(t, gametest.Position(t, g, tc.fen), tc.counts, 0)
		})
	}
}

// perft5Start is perft 5 from the start, checked against the reference
// generator once (it takes it minutes).
const perft5Start = 68411012

// TestPerft5Start counts depth 5 from the start with bulk counting at the
// leaves (about half a second); -short skips it. BenchmarkPerft5Start
// checks the same number.
func TestPerft5Start(t *testing.T) {
	if testing.Short() {
		t.Skip("perft 5 from the start is slow; BenchmarkPerft5Start checks it too")
	}
	if got := game.PerftBulk(newGame(t).Start(), 5); got != perft5Start {
		t.Errorf("perft(5) = %d, want %d", got, perft5Start)
	}
}

// TestDivideSumsToPerft: the divide counts add up to perft.
func TestDivideSumsToPerft(t *testing.T) {
	s := newGame(t).Start()
	var total uint64
	for _, e := range game.Divide(s, 3) {
		total += e.Nodes
	}
	if total != 60284 {
		t.Errorf("divide sums to %d, want 60284", total)
	}
}
