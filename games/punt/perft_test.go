package punt_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// perftTable pins move generation: the number of move sequences of each
// length from the start positions and from three positions per game with
// piles, frozen piles and piles taken over on an end-row (found in random
// games, the last of each game built by hand near the end of a game).
// Every count was checked against the independent reference generator in
// reference_test.go (TestReferencePerft repeats the first plies).
var perftTable = []struct {
	name, id, fen string
	counts        []uint64 // depth 1, 2, ...
}{
	{"start", "punt-match", "", []uint64{52, 2683, 140428, 7287159}},
	{"tall piles", "punt-match",
		"W:f1=www,b2=wbwwww,f2=wwww,d4=bb,f4=wbbb,c5=b,e5=b,b6=bbbb,g6=w,c7=b,d7=b", []uint64{13, 492, 6182, 222598}},
	{"black piles taken over by White", "punt-match",
		"B:a1=w,b1=w,f1=w,g1=w,a2=ww,f2=ww,g2=w,c3=w,e3=w,b4=b,g4=b,e5=w,a6=bb,c6=bbw,f6=bbbbw,c7=b,f7=b,g7=bb", []uint64{30, 1594, 44634, 2297015}},
	{"endgame, frozen piles on both end-rows", "punt-match",
		"W:a1=b,c1=wb,e2=wwb,d3=b,d5=bbw,g6=w,a7=w,b7=bw", []uint64{7, 77, 561, 4743, 32736}},

	{"start", "punt-heks-match", "", []uint64{64, 4096, 268930, 17609960}},
	{"black to move, mixed piles", "punt-heks-match",
		"B:a4=w,b2=w,b4=wwww,d3=wb,d6=w,e8=w,f7=b,g1=b,g4=bb,g7=b,h2=bb,h4=bb,h6=ww,i4=b", []uint64{59, 2338, 130569, 4992386}},
	{"white piles of five and two", "punt-heks-match",
		"W:a3=ww,b2=wbwww,b4=ww,d3=w,d6=b,d8=b,e3=b,e8=b,g2=bw,h4=bw,i2=bbbb", []uint64{40, 1343, 50790, 1597149}},
	{"endgame, frozen piles on rows a and i", "punt-heks-match",
		"W:a2=b,a4=wwb,b5=b,c3=b,g4=w,h5=bbw,i1=w,i3=bw", []uint64{14, 210, 2055, 24249, 190452}},

	{"start", "punt-heks-match-3p", "", []uint64{62, 3815, 232934, 14527074}},
	{"red to move, piles taken over on every end-row", "punt-heks-match-3p",
		"R:a1=w,a2=bw,b4=www,b6=w,c5=w,d4=b,d7=w,d8=r,e1=bwbw,e8=rw,e9=r,f1=b,f5=b,f7=r,f8=r,g1=br,g2=bb,g4=r,h4=bbr,h5=r,i4=r,i5=r",
		[]uint64{52, 2604, 86462, 4465878}},
	{"black to move, a pile of six", "punt-heks-match-3p",
		"B:a1=w,a2=w,a5=w,b1=w,b3=w,b4=www,c2=bb,c6=wr,c7=wr,d1=b,e2=w,e9=rr,f1=b,f2=b,f7=r,f8=r,g1=b,g6=rrrbrb,i1=bb,i2=b,i4=r",
		[]uint64{51, 2081, 90012, 4454984}},
	{"white to move, white piles on Black's end-row", "punt-heks-match-3p",
		"W:a1=w,a3=w,a4=b,b1=w,b5=wwrww,c1=w,c7=rr,d1=b,d5=b,e6=w,e7=r,e9=w,f1=b,f2=r,g2=bbb,g6=r,g7=r,h2=brbw,h5=r,i1=bbr,i5=r",
		[]uint64{50, 1461, 76246, 3679004}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftTable {
		t.Run(tc.id+" "+tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, tc.id)
			counts := tc.counts
			if i := slices.IndexFunc(counts, func(n uint64) bool { return n > 3_000_000 }); i >= 0 && testing.Short() {
				counts = counts[:i]
			}
			// Playing every leaf is slower; it checks Play at the last ply.
			gametest.CheckPerft(t, gametest.Position(t, g, tc.fen), counts, 300_000)
		})
	}
}

// TestDivideSumsToPerft: the divide counts add up to perft, for three
// players too.
func TestDivideSumsToPerft(t *testing.T) {
	s := gametest.NewGame(t, "punt-heks-match-3p").Start()
	var total uint64
	entries := game.Divide(s, 3)
	for _, e := range entries {
		total += e.Nodes
	}
	if len(entries) != 62 || total != 232934 {
		t.Errorf("divide: %d moves summing to %d, want 62 summing to 232934", len(entries), total)
	}
}
