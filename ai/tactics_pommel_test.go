package ai

import (
	"context"
	"testing"
)

// tactic is a position with exactly one winning move. The Pommel ones were
// found by searching random-game positions for a move that wins by force
// within five plies when no other move does, then checked one by one.
type tactic struct {
	name, id, fen, want string
	depth               int
}

func checkTactics(t *testing.T, tests []tactic, specs ...string) {
	t.Helper()
	for _, tc := range tests {
		for _, spec := range specs {
			t.Run(tc.name+" "+spec, func(t *testing.T) {
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
		// Black's captain has three capture chains; only the one through
		// b1 and b3 leaves White nothing that can fight back.
		{"captain's winning chain", "pommel",
			"B:Wa3,b2,c1,e1,e2,g2:Bc3,c4,d6,e6,Kf1,f5,f6,f7,g4", "f1xd2xf3xb1xb3", 5},
		// Of three white captures, the chain over b3 and b4 wins.
		{"winning chain among three captures", "pommel",
			"W:WKd7,e1,f4,g2,g4,Kg6:Ba6,b3,b4,Kd2", "e1xc2xa3xc4", 5},
		// The black soldier on e2 steps onto its last cell and becomes a
		// captain that wins the ending.
		{"promotion", "pommel", "B:Wd5:Ba6,e2,g5", "e2-e1", 5},
		// A race: of eighteen moves only g4-g5 brings a soldier to promotion
		// in time against the lone black soldier.
		{"promotion race", "pommel", "W:Wa1,a2,c1,e1,f1,f2,g2,g4:Bb6", "g4-g5", 5},
		// A hop over a friendly piece that forces the win.
		{"hop", "pommel", "W:Wa1,a2,a3,b3,b4,c2,c3,d1,f1:Bd5,e5", "c2-c4", 5},
		// A quiet captain move, among thirty, that wins.
		{"captain's quiet move", "pommel", "W:Wa1,b1,b2,d2,Kd7,e1,f1,f3,g1,g2:Bb5,c4", "d7-a5", 5},
	}, "ab")
}
