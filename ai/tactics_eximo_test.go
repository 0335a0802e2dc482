package ai

import (
	"testing"

	_ "github.com/arbiter-games/arbiter/games/eximo"
)

// TestTacticsEximo: Eximo positions with one right move. Black moves up
// the board, White down; men capture forward, diagonally forward and
// sideways, and a man that reaches its far row leaves the board and is
// replaced by up to two men dropped in its owner's zone (b1-g2 for Black,
// b7-g8 for White).
func TestTacticsEximo(t *testing.T) {
	checkTactics(t, eximoTactics, "ab", "mcts")
}

var eximoTactics = []tactic{
	// The chain that takes four. Black must capture and has three
	// sequences: e3xg5 (one man, then h6xf4 and b4xb2 recapture),
	// b3xb5xd5xd7 (three men, but White's e8 takes the man on d7
	// at once) and b3xb5xd5xf7xh7, which turns right on d5 and also
	// takes g7, ending on h7 where nothing can touch it.
	//
	//	 8  .  .  .  .  w  .  .  .
	//	 7  .  .  .  .  .  .  w  .
	//	 6  .  .  .  w  w  .  .  w
	//	 5  .  .  w  .  .  .  .  .
	//	 4  .  w  .  .  .  w  .  .
	//	 3  .  b  .  .  b  .  .  .
	//	 2  .  .  .  .  .  .  .  .
	//	 1  .  b  .  .  .  .  b  .
	//	    a  b  c  d  e  f  g  h
	//	Black to move
	{"the chain that wins", "eximo", "B:Wb4,c5,d6,e6,f4,g7,h6,e8:Bb3,e3,b1,g1",
		"b3xb5xd5xf7xh7", 4},
	// The right man captures. Both e3xg3 (sideways) and g2xe4 take
	// f3, but after e3xg3 White's h3 takes g3 and then g2, landing on
	// h1, its far row: it leaves the board for two drops. After g2xe4
	// nothing is attacked.
	//
	//	 8  .  .  .  .  w  w  .  .
	//	 7  .  .  .  .  .  .  .  .
	//	 6  .  .  .  .  .  .  .  .
	//	 5  .  .  .  .  .  .  .  .
	//	 4  .  .  .  .  .  .  .  .
	//	 3  .  .  .  .  b  w  .  w
	//	 2  .  .  b  .  .  .  b  .
	//	 1  .  .  .  .  .  b  .  .
	//	    a  b  c  d  e  f  g  h
	//	Black to move
	{"the right man captures", "eximo", "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2",
		"g2xe4", 4},
	// Drops that stalemate. The only capture, d6xd8, reaches the far
	// row: the man leaves and Black drops two men on the empty cells
	// of the zone (b2 c2 f1 f2 g2). Dropped on b2 and c2 they wall in
	// White's last man: c3 has no step (b2 c2 d2 are taken) and no
	// capture (a1 c1 e1 behind them are Black's too), so White, with
	// no legal move, loses at once. Every other pair lets c3 go on.
	//
	//	 8  .  .  .  .  .  .  .  .
	//	 7  .  .  .  w  .  .  .  .
	//	 6  .  .  .  b  .  .  .  .
	//	 5  .  .  .  .  .  .  .  .
	//	 4  .  b  .  .  .  .  .  .
	//	 3  .  .  w  .  .  .  .  .
	//	 2  .  .  .  b  b  .  .  .
	//	 1  b  b  b  b  b  .  b  .
	//	    a  b  c  d  e  f  g  h
	//	Black to move
	{"drops that stalemate", "eximo", "B:Wc3,d7:Ba1,b1,c1,d1,e1,g1,d2,e2,b4,d6",
		"d6xd8@b2@c2", 2},
	// A jump over a friend that sets up a capture. g7-g5 jumps the
	// man on g6 and lands next to Black's g4, which can neither step
	// away (men never go back) nor capture (g6 stays occupied), so
	// g5xg3 follows. Stepping g6-g5 instead loses the man to
	// g4xg6xg8, which leaves for two drops; h6-g5 attacks g4 too but
	// lets Black's b6 run to the far row first.
	//
	//	 8  .  .  .  .  .  .  .  .
	//	 7  .  .  .  .  .  .  w  .
	//	 6  .  b  .  .  .  .  w  w
	//	 5  .  .  .  .  .  .  .  .
	//	 4  .  .  .  .  .  .  b  .
	//	 3  .  b  .  .  .  .  .  .
	//	 2  .  .  .  .  .  .  .  .
	//	 1  .  .  .  .  .  b  .  .
	//	    a  b  c  d  e  f  g  h
	//	White to move
	{"a jump that sets up a capture", "eximo", "W:Wg6,h6,g7:Bf1,b3,g4,b6",
		"g7-g5", 6},
	// The only move that holds. White has three moves. h4-g3 is
	// captured at once (g2xg4); h3-h2 loses in five plies (f3-g4
	// forces h4xf4, and g1-g3 leaves White without a way out); the
	// jump h4-h2 over its own man lands beside g2 and threatens
	// h2xf2, so Black has no time for the combination.
	//
	//	 8  .  .  .  .  .  .  .  .
	//	 7  .  .  .  .  .  .  .  .
	//	 6  .  .  .  .  .  .  .  .
	//	 5  .  .  .  .  .  .  .  .
	//	 4  .  .  .  .  .  .  .  w
	//	 3  .  .  .  .  .  b  .  w
	//	 2  .  .  .  .  .  .  b  .
	//	 1  .  .  .  .  .  b  b  .
	//	    a  b  c  d  e  f  g  h
	//	White to move
	{"the jump that holds", "eximo", "W:Wh3,h4:Bf1,g1,g2,f3",
		"h4-h2", 6},
	// The chain that only a deeper look finds. Black has three
	// captures. b2xd2 lets White's c5 run c5xe3xc1 through Black's camp
	// to the far row. d4xb6 takes one man and d4xb4xd6 two (c4 sideways,
	// then c5); at one or two plies the search prefers d4xb6, because
	// after the chain White's forced c2xa2 wins b2 back. At three it sees
	// the rest: d6 and d7 stand a step from the far row and leave it one
	// after the other, each time for two drops (d6-d8@c1@b2, then
	// d7-c8@b1@d1 after a2xc2).
	//
	//	 8  .  .  .  .  .  .  .  .
	//	 7  .  .  .  b  .  .  w  .
	//	 6  .  .  .  .  .  .  .  .
	//	 5  .  .  w  .  .  .  .  .
	//	 4  .  .  w  b  .  .  .  .
	//	 3  .  .  b  .  .  b  .  .
	//	 2  .  b  w  .  .  .  .  w
	//	 1  .  .  .  .  .  .  .  .
	//	    a  b  c  d  e  f  g  h
	//	Black to move
	{"the chain that only a deeper look finds", "eximo", "B:Wg7,c2,c4,h2,c5:Bc3,f3,b2,d4,d7",
		"d4xb4xd6", 4},
}
