package ai

import (
	"context"
	"testing"
)

// tactic is a position with exactly one winning move within the depth the
// test searches. The Pommel ones were found by searching random-game
// positions for a move that wins by force within five plies when no other
// move does, then checked one by one. Some have slower wins too (checked
// at depth 7): there the test asks for the quickest, as a player would.
type tactic struct {
	name, id, fen, want string
	depth               int
}

// checkTactics searches every position with each engine of specs: ab to
// the tactic's depth, the others to 50,000 nodes. Under -short, the
// engines other than ab (a second or so a position) search the first
// position only; ab, which takes a fraction of that, searches them all.
func checkTactics(t *testing.T, tests []tactic, specs ...string) {
	t.Helper()
	for i, tc := range tests {
		for _, spec := range specs {
			t.Run(tc.name+" "+spec, func(t *testing.T) {
				if testing.Short() && spec != "ab" && i > 0 {
					t.Skip("-short: " + spec + " searches the first position only")
				}
				s := newState(t, tc.id, tc.fen)
				lim := Limits{Depth: tc.depth}
				if spec != "ab" {
					lim = Limits{Nodes: 50000}
				}
				info := mustEngine(t, spec).Search(context.Background(), s, lim, nil)
				if got := info.Move.Text(s.Game().Board()); got != tc.want {
					t.Errorf("%s: %s played %s (score %d), want %s", tc.fen, spec, got, info.Score, tc.want)
				}
			})
		}
	}
}

func TestPommelTactics(t *testing.T) {
	checkTactics(t, []tactic{
		// Black's captain has three capture chains; the one through b1 and
		// b3 wins quickest (f1xd2xb1xb3 also wins, more slowly).
		{"captain's winning chain", "pommel",
			"B:Wa3,b2,c1,e1,e2,g2:Bc3,c4,d6,e6,Kf1,f5,f6,f7,g4", "f1xd2xf3xb1xb3", 5},
		// Of three white captures, the chain over b3 and b4 wins.
		{"winning chain among three captures", "pommel",
			"W:WKd7,e1,f4,g2,g4,Kg6:Ba6,b3,b4,Kd2", "e1xc2xa3xc4", 5},
		// The black soldier on e2 steps onto its last cell and becomes a
		// captain that wins the ending quickest (e2-d2 and e2-f2 win later).
		{"promotion", "pommel", "B:Wd5:Ba6,e2,g5", "e2-e1", 5},
		// A race: of eighteen moves only g4-g5 wins within five plies, by
		// the quickest promotion against the lone black soldier (every
		// move wins in the end).
		{"promotion race", "pommel", "W:Wa1,a2,c1,e1,f1,f2,g2,g4:Bb6", "g4-g5", 5},
		// A hop over a friendly piece that forces the win.
		{"hop", "pommel", "W:Wa1,a2,a3,b3,b4,c2,c3,d1,f1:Bd5,e5", "c2-c4", 5},
		// A quiet captain move, among thirty, that wins within five plies
		// (most of the others win later).
		{"captain's quiet move", "pommel", "W:Wa1,b1,b2,d2,Kd7,e1,f1,f3,g1,g2:Bb5,c4", "d7-a5", 5},
		// Of three captures, only the captain's leap over f5 and f6 wins;
		// taking the soldier on f2 instead (f4xf1 or g1xe2) does not.
		{"leap", "pommel", "W:Wb3,b4,Kf4,g1:Bf2,f5,f6", "f4xf7", 5},

		// The 76-cell board, positions found and checked in the same way.
		// Black's captain takes all three soldiers and White's lone captain
		// is lost; d6xh4xc1 does not win and d6xd1 even loses.
		{"76: captain's winning chain", "pommel-76", "B:WKd2,g4,g5,h5:BKd6", "d6xh4xh6xf5", 5},
		// Black's captain runs down column i and leaps i3 and i2; the two
		// soldier captures (c7xe6, d8xd6) win nothing within seven plies.
		{"76: leap", "pommel-76", "B:Wd7,g6,i2,i3:Bb8,c7,c8,d8,g8,h8,Ki6,i7,i8", "i6xi1", 5},
		// A race of two soldiers: after b3-b2 both promote and White's
		// captain must move first into view of Black's; b3-a2 and b3-c2 lose.
		{"76: promotion race", "pommel-76", "B:Wb8:Bb3", "b3-b2", 5},
		// f2 hops over g2, giving two soldiers to the forced leap i3xf2;
		// the captures that follow let a7 promote and win. One move of 20.
		{"76: hop", "pommel-76", "W:Wa7,c6,d6,e2,f2,g1,g2:Bh5,i3,i6", "f2-h3", 5},
		// The captain lines up with e2 and gives up h5: after the forced
		// a1xi5, e7xe1 wins. No other of the fourteen moves does.
		{"76: captain's quiet move", "pommel-76", "W:WKc8,f7,h3,h5:BKa1,e2", "c8-e7", 5},
	}, "ab")
}
