package checkers2011_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// perftTable pins move generation: the number of move sequences of each
// length from the start and from five hand-picked positions. Every count
// up to depth 3 is checked against the independent reference generator in
// reference_test.go by TestPerftAgainstReference.
var perftTable = []struct {
	name, fen string
	counts    []uint64 // depth 1, 2, ...
	slow      int      // depths from this one (1-based) run only without -short
}{
	{"start", "", []uint64{22, 484, 12892, 343396, 10043928}, 5},
	// White's king on d2 can step to d1 and sandwich c1 b1 a1 round the
	// corner up to a3, closed by a4; then Black's king on e7 can step to
	// f8 and take g8 h8 round the corner and h7, closed by h6.
	{"sandwiches round two corners", "W:c1=B,b1=B,a1=B,a2=b,a3=bB,a4=w,d2=W,g2=w,f3=bw,e7=B,g8=W,h8=W,h7=w,h6=b,c6=bbww,d5=Wb,b5=b",
		[]uint64{28, 63, 1293, 15900, 308312}, 0},
	// Lines along the a and h files and ranks 1 and 8, mixed stacks and
	// kings on both sides.
	{"lines along the edges", "B:b1=w,c1=W,e1=B,f1=w,a2=w,a3=W,a4=b,a5=b,a6=w,h2=w,h3=w,h4=bb,h5=wB,h6=w,h7=b,c8=B,d8=W,f8=b,g7=bbwB,c3=w,d4=wwbW,e5=bB",
		[]uint64{34, 59, 964, 4774, 84245}, 0},
	// From a random game: tall stacks on d8 and e5, Black to move.
	{"a middle game with tall stacks", "B:a1=w,b1=w,f1=w,h1=w,a2=w,c2=w,e2=w,h2=w,c3=W,f3=w,h4=w,a5=w,e5=bbbb,h5=bw,d6=bw,f6=b,g7=b,h7=b,b8=b,d8=bbbW,f8=bbW,h8=b",
		[]uint64{20, 137, 2449, 60437, 983729}, 5},
	// The king on c3 must take four pieces off d4 and d6 in one sequence,
	// going back and forth over d4: the only longest capture.
	{"a king's back-and-forth chain", "W:c3=W,d4=bbB,f4=wbw,d6=bwb,f6=b,b6=bb,h6=B,c7=b,e7=wB,a1=w,e1=w,g1=w,b2=w",
		[]uint64{1, 1, 22, 610, 12614}, 0},
	// Kings commanding tall stacks with prisoners of both colours; the
	// only longest capture is e3xg5xg7.
	{"kings on tall mixed stacks", "W:b1=w,d1=W,f1=w,c2=bw,e3=wbbW,a4=w,d4=bwB,f4=b,h4=wwb,c5=Bbw,e6=bbwwB,g6=b,b7=b,d8=wB",
		[]uint64{1, 1, 29, 807, 19040}, 0},
}

func TestPerft(t *testing.T) {
	g := newGame(t)
	for _, tc := range perftTable {
		t.Run(tc.name, func(t *testing.T) {
			counts := tc.counts
			if tc.slow > 0 && testing.Short() {
				counts = counts[:min(tc.slow-1, len(counts))]
			}
			// Playing every leaf as well is worth it only while cheap.
			gametest.CheckPerft(t, gametest.Position(t, g, tc.fen), counts, 500_000)
		})
	}
}

// TestPerftAgainstReference counts the first three plies of every table
// position with the reference generator.
func TestPerftAgainstReference(t *testing.T) {
	for _, tc := range perftTable {
		fen := tc.fen
		if fen == "" {
			fen = startFEN
		}
		ref, err := refParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for depth := 1; depth <= 3; depth++ {
			if got := refPerft(ref, depth); got != tc.counts[depth-1] {
				t.Errorf("%s: reference perft(%d) = %d, table says %d", tc.name, depth, got, tc.counts[depth-1])
			}
		}
	}
}

// TestDivideSumsToPerft: the divide counts add up to perft.
func TestDivideSumsToPerft(t *testing.T) {
	s := newGame(t).Start()
	var total uint64
	for _, e := range game.Divide(s, 3) {
		total += e.Nodes
	}
	if total != 12892 {
		t.Errorf("divide sums to %d, want 12892", total)
	}
}
