package pairing

import (
	"fmt"
	"testing"
)

// TestStandingsHandComputed: the six-player worked example played to its
// end (round 3: A beats B, F-D drawn, E beats C), tie-breaks computed by
// hand in the comments.
func TestStandingsHandComputed(t *testing.T) {
	g := func(r int, opp string, c Colour, pts float64) Game {
		return Game{Round: r, Opponent: opp, Colour: c, Points: pts}
	}
	ps := []Player{
		{ID: "A", Rating: 2400, History: []Game{g(1, "D", W, 1), g(2, "F", B, 1), g(3, "B", W, 1)}},
		{ID: "B", Rating: 2300, History: []Game{g(1, "E", B, .5), g(2, "C", W, .5), g(3, "A", B, 0)}},
		{ID: "C", Rating: 2200, History: []Game{g(1, "F", W, 0), g(2, "B", B, .5), g(3, "E", W, 0)}},
		{ID: "D", Rating: 2100, History: []Game{g(1, "A", B, 0), g(2, "E", W, 1), g(3, "F", B, .5)}},
		{ID: "E", Rating: 2000, History: []Game{g(1, "B", W, .5), g(2, "D", B, 0), g(3, "C", B, 1)}},
		{ID: "F", Rating: 1900, History: []Game{g(1, "C", B, 1), g(2, "A", W, 0), g(3, "D", W, .5)}},
	}
	got, err := Standings(ps, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []Standing{
		{1, "A", 3, 4, 4},      // opponents D 1½ + F 1½ + B 1; all three beaten
		{2, "D", 1.5, 6, 2.25}, // A 3 + E 1½ + F 1½; beat E (1½), drew F (¾)
		{3, "F", 1.5, 5, 1.25}, // C ½ + A 3 + D 1½; beat C (½), drew D (¾)
		{4, "E", 1.5, 3, 1},    // B 1 + D 1½ + C ½; drew B (½), beat C (½)
		{5, "B", 1, 5, 1},      // E 1½ + C ½ + A 3; drew E (¾) and C (¼)
		{6, "C", 0.5, 4, 0.5},  // F 1½ + B 1 + E 1½; drew B (½)
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("place %d: got %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

// TestStandingsVirtualOpponent: byes and a missed round count against
// the virtual opponent.
func TestStandingsVirtualOpponent(t *testing.T) {
	g := func(r int, opp string, c Colour, pts float64) Game {
		return Game{Round: r, Opponent: opp, Colour: c, Points: pts}
	}
	bye := func(r int) Game { return Game{Round: r, Bye: true, Points: 1} }
	ps := []Player{ // the seven-player example after two rounds
		{ID: "P1", Rating: 7, History: []Game{g(1, "P4", W, .5), g(2, "P7", B, 1)}},
		{ID: "P2", Rating: 6, History: []Game{g(1, "P5", B, .5), g(2, "P3", W, 1)}},
		{ID: "P3", Rating: 5, History: []Game{g(1, "P6", W, .5), g(2, "P2", B, 0)}},
		{ID: "P4", Rating: 4, History: []Game{g(1, "P1", B, .5), g(2, "P5", W, 0)}},
		{ID: "P5", Rating: 3, History: []Game{g(1, "P2", W, .5), g(2, "P4", B, 1)}},
		{ID: "P6", Rating: 2, History: []Game{g(1, "P3", B, .5), bye(2)}},
		{ID: "P7", Rating: 1, History: []Game{bye(1), g(2, "P1", W, 0)}},
		{ID: "X", Rating: 0}, // entered, never played: two rounds missed
	}
	got, err := Standings(ps, 2)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Standing{}
	for _, s := range got {
		by[s.ID] = s
	}
	for _, tc := range []struct {
		id     string
		bh, sb float64
	}{
		// Round 1's bye: a virtual opponent with 0 before, 0 in round 1
		// (P7 had the point), ½ in round 2: ½. Then P1 with 1½.
		{"P7", 0.5 + 1.5, 1 * 0.5},
		// P3 (½), then round 2's bye: ½ before, 0 in it, nothing after: ½.
		{"P6", 0.5 + 0.5, 0.5*0.5 + 1*0.5},
		{"P1", 0.5 + 1, 0.5*0.5 + 1*1},
		// Missed rounds score 0: the virtual opponent wins them. Round 1:
		// 0 + 1 + ½ = 1½; round 2: 0 + 1 = 1.
		{"X", 1.5 + 1, 0},
	} {
		if s := by[tc.id]; s.Buchholz != tc.bh || s.SonnebornBerger != tc.sb {
			t.Errorf("%s: got Buchholz %v SB %v, want %v %v", tc.id, s.Buchholz, s.SonnebornBerger, tc.bh, tc.sb)
		}
	}
	// 1½: P2 and P5 (Buchholz 2, SB 1¼ both: rating decides), P1 (1½),
	// P6 (1); then P7; P3 and P4 tie on everything; X.
	var order []string
	for _, s := range got {
		order = append(order, s.ID)
	}
	if fmt.Sprint(order) != "[P2 P5 P1 P6 P7 P3 P4 X]" {
		t.Errorf("order: %v", order)
	}
}
