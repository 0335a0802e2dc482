package pommel_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// perftTable pins move generation: the number of move sequences of each
// length, from the start positions and from middle-game positions with
// captains and long capture chains (found in random games). The counts of
// the first plies were checked against the independent reference generator
// in reference_test.go and a separate implementation written from RULINGS.
var perftTable = []struct {
	name, id, opt, fen string
	counts             []uint64 // depth 1, 2, ...
}{
	{"start", "pommel", "", "", []uint64{30, 900, 27892, 831752}},
	{"start hop=any", "pommel", "hop=any", "", []uint64{30, 900, 27892, 831756}},
	{"start", "pommel-76", "", "", []uint64{54, 2916, 157356}},
	{"start hop=any", "pommel-76", "hop=any", "", []uint64{54, 2916, 157356}},
	{"captains on both sides, chains of two", "pommel", "",
		"W:Wa2,b1,b2,c1,Kc5,d2,f1,f2,f3,g1:Bd5,d7,Ke1,e5,g5,g6", []uint64{2, 4, 46, 362}},
	{"white captain among black soldiers", "pommel", "",
		"W:Wb1,d1,f1,Kf7:Ba5,a6,c6,d7,e6,g5,Kg6", []uint64{1, 15, 149, 1341}},
	{"black to move, captains in the corners", "pommel", "",
		"B:Wa1,b1,b2,c1,d2,d3,e1,f2,f3,Kg4:Bb4,e6,f6,Kg1", []uint64{3, 75, 940, 10214}},
	{"chains of three jumps", "pommel", "",
		"W:Wa1,a2,b1,Kb7,c1,c2,g3:Ba5,a6,b6,c6,d6,e5,Kf3,f6,f7,g6", []uint64{5, 67, 610, 9223}},
	{"three captains each", "pommel", "",
		"W:WKa1,Kg1,Kd4,b3:BKa6,Kg6,Kd7,c3,e3,f5", []uint64{4, 13, 69, 232}},
	{"two white captains", "pommel-76", "",
		"W:WKa8,b3,c1,c2,c3,Kc8,d2,d3,e2,f3,h2,h4,i2,i3,i5:Bc4,d5,h9,i7", []uint64{1, 5, 179, 825}},
	{"crowded, captains both sides", "pommel-76", "",
		"B:Wa2,c2,d1,d3,Kd6,e4,f1,f2,g1,g2,h1,h2,h3,i1:Ba7,a8,Kb5,b7,c6,c7,c8,d7,d8,d9,e7,e8,f9,g8,h9", []uint64{3, 35, 1044, 29094}},
	{"a captain chain of seven jumps", "pommel-76", "",
		"W:Wa2,Ka8,b2,b3,b4,c1,c3,c4,d1,d2,Kd5,e1,e3,f2,f3,g1,g2,h1,h2,h3,i1,i3:Bb6,b8,c6,c7,e6,e7,e8,f9,g6,g7,g8,h7,h8,i6,i7",
		[]uint64{3, 5, 7, 76}},
	{"a lone black captain", "pommel-76", "",
		"B:Wc1,c2,d7,e2,g3,h6,i2,i3,Ki6:BKa1", []uint64{2, 29, 235, 2590}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftTable {
		t.Run(tc.id+" "+tc.name, func(t *testing.T) {
			var opts []string
			if tc.opt != "" {
				opts = append(opts, tc.opt)
			}
			g := gametest.NewGame(t, tc.id, opts...)
			gametest.CheckPerft(t, gametest.Position(t, g, tc.fen), tc.counts, 0)
		})
	}
}

// TestDivideSumsToPerft: the divide counts add up to perft.
func TestDivideSumsToPerft(t *testing.T) {
	s := gametest.NewGame(t, "pommel").Start()
	var total uint64
	for _, e := range game.Divide(s, 3) {
		total += e.Nodes
	}
	if total != 27892 {
		t.Errorf("divide sums to %d, want 27892", total)
	}
}
