package ai

import (
	"context"
	"strings"
	"testing"

	_ "github.com/arbiter-games/arbiter/games/punt"
	"github.com/arbiter-games/arbiter/textboard"
)

// puntTactic is a Punt position with one right move. Each was checked
// move by move by deeper searches: every other move loses, or at least
// fails to win. board is the position as the program draws it.
type puntTactic struct {
	name, fen, want, board string
}

// puntMatchTactics are searched by ab at depth 6. Every drawing is the
// program's own (checked by the test); piles of two or more are drawn as
// their top colour and height, and listed bottom to top.
var puntMatchTactics = []puntTactic{
	// End the game while ahead. White leads 2-0. e6-e7 scores a third pawn
	// and freezes White's last piece: Black's pile of three on c3 moves one
	// line a move and cannot get home in its one reply, then White has no
	// move and the game ends 3-0. Any other move gives Black the two moves
	// c3-c2, c2-c1: 3-3, a draw.
	// Piles, bottom to top: c3 bbb, a7 ww.
	{name: "end the game while ahead", fen: "W:c3=bbb,e6=w,a7=ww", want: "e6-e7", board: `
    a   b   c   d   e   f   g
7  ww   .   .   .   .   .   .   7
6   .   .   .   .   w   .   .   6
5   .   .   .   .   .   .   .   5
4   .   .   .   .   .   .   .   4
3   .   .  bbb  .   .   .   .   3
2   .   .   .   .   .   .   .   2
1   .   .   .   .   .   .   .   1
    a   b   c   d   e   f   g
`},
	// Take over the scored pile. Black leads 3-1 and threatens c2-c1, which
	// blocks the way of White's pawn on b1, scores a fourth pawn and leaves
	// Black without a move: the game would end after White's next move.
	// b1-d1 lands on Black's scored pile now: White controls it and Black's
	// score drops to 0; White scores f6 later. Every other move loses.
	// Piles, bottom to top: d1 bbb.
	{name: "take over the scored pile", fen: "W:b1=w,d1=bbb,c2=b,f6=w,g7=w", want: "b1-d1", board: `
    a   b   c   d   e   f   g
7   .   .   .   .   .   .   w   7
6   .   .   .   .   .   w   .   6
5   .   .   .   .   .   .   .   5
4   .   .   .   .   .   .   .   4
3   .   .   .   .   .   .   .   3
2   .   .   b   .   .   .   .   2
1   .   w   .  bbb  .   .   .   1
    a   b   c   d   e   f   g
`},
	// Remove the attacker before scoring. c6-c7 would score three pawns, but
	// Black's pawn on a7, on its own home row, slides a7-c7 onto the frozen
	// pile and takes all four. a5-a7 lands on that pawn first (a frozen
	// White pile of two), and c6-c7 follows safely: 5 against the 3 that
	// Black's f2 pile brings home. No other move wins.
	// Piles, bottom to top: f2 bbb, c6 www.
	{name: "remove the attacker before scoring", fen: "W:f2=bbb,a5=w,c6=www,a7=b", want: "a5-a7", board: `
    a   b   c   d   e   f   g
7   b   .   .   .   .   .   .   7
6   .   .  www  .   .   .   .   6
5   w   .   .   .   .   .   .   5
4   .   .   .   .   .   .   .   4
3   .   .   .   .   .   .   .   3
2   .   .   .   .   .  bbb  .   2
1   .   .   .   .   .   .   .   1
    a   b   c   d   e   f   g
`},
	// Tempo: the slow pile first. Black will answer e2-e1 (4 points) and
	// then has no move left, so White gets this move and exactly one more.
	// The pile of three moves one line a move and needs both: 2 + 3 = 5
	// beats 4. The two single pawns, one move each, bring only 2: a 4-4
	// draw.
	// Piles, bottom to top: g1 bbb, d5 www, a7 ww.
	{name: "tempo: the slow pile first", fen: "W:g1=bbb,e2=b,a5=w,b5=w,d5=www,a7=ww", want: "d5-d6", board: `
    a   b   c   d   e   f   g
7  ww   .   .   .   .   .   .   7
6   .   .   .   .   .   .   .   6
5   w   w   .  www  .   .   .   5
4   .   .   .   .   .   .   .   4
3   .   .   .   .   .   .   .   3
2   .   .   .   .   b   .   .   2
1   .   .   .   .   .   .  bbb  1
    a   b   c   d   e   f   g
`},
	// Bury the last pile that can move. White leads 2-1, but Black's pile of
	// two on d3 gets home next move (two more points). a3-d3 lands on it:
	// Black controls nothing that can move, so the game ends at once, 2-1 to
	// White. After any other move Black scores and White can at best draw.
	// Piles, bottom to top: d3 bb, a7 ww.
	{name: "bury the last pile that can move", fen: "W:g1=b,a3=w,d3=bb,f5=w,a7=ww", want: "a3-d3", board: `
    a   b   c   d   e   f   g
7  ww   .   .   .   .   .   .   7
6   .   .   .   .   .   .   .   6
5   .   .   .   .   .   w   .   5
4   .   .   .   .   .   .   .   4
3   w   .   .  bb   .   .   .   3
2   .   .   .   .   .   .   .   2
1   .   .   .   .   .   .   b   1
    a   b   c   d   e   f   g
`},
	// Black's tempo: the slow pile first. The tempo position seen from Black
	// (ranks mirrored): White answers e6-e7 and has no move left, so Black
	// gets this move and one more, just enough for the pile of three: 5
	// against 4.
	// Piles, bottom to top: a1 bb, d3 bbb, g7 www.
	{name: "Black's tempo: the slow pile first", fen: "B:a1=bb,a3=b,b3=b,d3=bbb,e6=w,g7=www", want: "d3-d2", board: `
    a   b   c   d   e   f   g
7   .   .   .   .   .   .  www  7
6   .   .   .   .   w   .   .   6
5   .   .   .   .   .   .   .   5
4   .   .   .   .   .   .   .   4
3   b   b   .  bbb  .   .   .   3
2   .   .   .   .   .   .   .   2
1  bb   .   .   .   .   .   .   1
    a   b   c   d   e   f   g
`},
}

// puntHeksTactics are searched by ab at depth 6.
var puntHeksTactics = []puntTactic{
	// End the game while ahead. White leads 2-0. g1-i1 (two steps north-
	// east; north-west leaves the board) scores and freezes White's last
	// pawn: Black's pile on c3 cannot reach row a in one move, White then
	// has no move and wins 3-0. Any other move lets the pile get home: 3-3.
	// Piles, bottom to top: c3 bbb, i5 ww.
	{name: "end the game while ahead", fen: "W:c3=bbb,g1=w,i5=ww", want: "g1-i1", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . |ww | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | w | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . |bbb| . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Take over the scored pile. Black leads 3-1 and threatens c2-a2: the
	// pawn lands between a1 and a3, scores, and leaves Black without a move,
	// so the game ends after White's next move. a1-a3 slides along White's
	// home row onto Black's scored pile and takes it over. It is the only
	// move that does not lose (and it wins).
	// Piles, bottom to top: a3 bbb.
	{name: "take over the scored pile", fen: "W:a1=w,a3=bbb,c2=b,g1=w,i5=w", want: "a1-a3", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . | w | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | w | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | b | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | w | . |bbb| . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Score where the pile cannot be taken. The pile of three scores with
	// h2-i1 or h2-i2, but Black's pawn on i5 slides up to three cells along
	// row i: i2 is within its reach, i1 is not. h2-i2 is answered by i5-i2
	// (Black takes the pile and wins 1-0); after h2-i1 White wins 3-1.
	// Piles, bottom to top: h2 www.
	{name: "score where the pile cannot be taken", fen: "W:a1=b,h2=www,i5=b", want: "h2-i1", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . | b | 5
         / \ / \ / \ / \ / \ / \
      h | . |www| . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | b | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Tempo: the slow pile first. Black will answer b2-a1 (4 points) and
	// then has no move left, so White gets this move and exactly one more.
	// The pile of three on the left edge goes g1-h1-i1 in two moves: 2 + 3 =
	// 5 beats 4. The single pawns on f3 and g6 bring only 2: a draw.
	// Piles, bottom to top: a5 bbb, g1 www, i5 ww.
	{name: "tempo: the slow pile first", fen: "W:a5=bbb,b2=b,f3=w,g1=www,g6=w,i5=ww", want: "g1-h1", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . |ww | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g |www| . | . | . | . | w | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | w | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | b | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . |bbb| 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Bury the last pile that can move. White leads 2-1, and Black's pile of
	// two on c4 gets home next move. c1-c4 lands on it: Black has nothing
	// left that can move and the game ends at once, 2-1 to White.
	// Piles, bottom to top: c4 bb, i5 ww.
	{name: "bury the last pile that can move", fen: "W:a1=b,c1=w,c4=bb,g6=w,i5=ww", want: "c1-c4", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . |ww | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | w | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | w | . | . |bb | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | b | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Black takes over the scored pile. The take-over position seen from
	// Black (rows mirrored): White threatens g2-i2, so Black's home-row pawn
	// on i1 must land on White's scored pile on i3 at once.
	// Piles, bottom to top: i3 www.
	{name: "Black takes over the scored pile", fen: "B:a5=b,c1=b,g2=w,i1=b,i3=www", want: "i1-i3", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | b | . |www| . | . | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | w | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | b | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | b | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
}

// puntHeks3Tactics are searched by mcts with 20,000 iterations and by the
// paranoid ab at depth 4. Scores are written White-Black-Red.
// Scores are written White-Black-Red.
var puntHeks3Tactics = []puntTactic{
	// End the game while ahead. White leads with 2 against 1 and 1. Black's
	// only piece that can move is the pile of two on e7, which threatens
	// e7-e9 (3 points). d6-e7 lands on it: Black, next to move, has no move,
	// the game ends and White wins alone.
	// Piles, bottom to top: e7 bb, i3 ww.
	{name: "end the game while ahead", fen: "W:c1=r,d6=w,e7=bb,e9=b,h5=r,i3=ww", want: "d6-e7", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . |ww | . | . | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | r | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . |bb | . | b | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | w | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | r | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Stop the leader. Black has no piece that can move, so the game ends as
	// soon as White has moved. Red leads with 3. b3-b1 slides onto Red's
	// scored pile: Red drops to 0 and White wins 2-1-0. Every other move
	// leaves Red the winner.
	// Piles, bottom to top: b1 rrr, i2 ww.
	{name: "stop the leader", fen: "W:b1=rrr,b3=w,e9=b,i2=ww", want: "b3-b1", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . |ww | . | . | . | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | b | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b |rrr| . | w | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Tempo: the slow pile first. Black will score b5-b6 (4 points) and then
	// has no move left, so White gets this move and one more. The pile of
	// three goes g1-h1-i1: 2 + 3 = 5 beats 4. Scoring the single pawn on f3
	// first leaves one move, too few for the pile: 3 against 4.
	// Piles, bottom to top: a5 bbb, g1 www, i5 ww.
	{name: "tempo: the slow pile first", fen: "W:a5=bbb,b5=b,e7=r,f3=w,g1=www,i5=ww", want: "g1-h1", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . |ww | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g |www| . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | w | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | r | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | b | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . |bbb| 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Red stops the leader. White leads with 3 and has no piece that can
	// move, so the game ends when Red has moved. Red's home-row pawn slides
	// i5-i3 onto White's scored pile: White drops to 0 and Red wins 0-1-2.
	// Piles, bottom to top: c1 rr, i3 www.
	{name: "Red stops the leader", fen: "R:a5=b,c1=rr,i3=www,i5=r", want: "i5-i3", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . |www| . | r | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c |rr | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | b | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Score where the pile cannot be taken. The pile of three scores with
	// h2-i1 or h2-i2, but Red's pawn on i5 moves up to three cells west
	// along row i: i2 is within its reach, i1 is not. After h2-i2, i5-i2
	// takes the pile and White, left without a move, ends the game with Red
	// ahead; after h2-i1 White wins 3-0-1.
	// Piles, bottom to top: h2 www.
	{name: "score where the pile cannot be taken", fen: "W:c1=r,d1=b,h2=www,i5=r", want: "h2-i1", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | . | . | . | . | r | 5
         / \ / \ / \ / \ / \ / \
      h | . |www| . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . | . | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | b | . | . | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | r | . | . | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | . | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
	// Black ends the game while ahead. Black leads with 2 against 1 and 1;
	// Red's only piece that can move, the pile on c3, would score two with
	// c3-c1. d3-c3 lands on it: Red, next to move, has no move, the game
	// ends and Black wins alone.
	// Piles, bottom to top: c3 rr, e9 bb.
	{name: "Black ends the game while ahead", fen: "B:a1=r,c3=rr,d3=b,e9=bb,i1=w", want: "d3-c3", board: `
             1   2   3   4
           / \ / \ / \ / \ / \
        i | w | . | . | . | . | 5
         / \ / \ / \ / \ / \ / \
      h | . | . | . | . | . | . | 6
       / \ / \ / \ / \ / \ / \ / \
    g | . | . | . | . | . | . | . | 7
     / \ / \ / \ / \ / \ / \ / \ / \
  f | . | . | . | . | . | . | . | . | 8
   / \ / \ / \ / \ / \ / \ / \ / \ / \
e | . | . | . | . | . | . | . | . |bb | 9
   \ / \ / \ / \ / \ / \ / \ / \ / \ /
  d | . | . | b | . | . | . | . | . | 8
     \ / \ / \ / \ / \ / \ / \ / \ /
    c | . | . |rr | . | . | . | . | 7
       \ / \ / \ / \ / \ / \ / \ /
      b | . | . | . | . | . | . | 6
         \ / \ / \ / \ / \ / \ /
        a | r | . | . | . | . | 5
           \ / \ / \ / \ / \ /
             1   2   3   4
`},
}

// TestPuntTactics: the strongest engine for each Punt game finds the one
// right move at a fixed depth or iteration count.
func TestPuntTactics(t *testing.T) {
	sets := []struct {
		id, spec string
		lim      Limits
		tests    []puntTactic
	}{
		{"punt-match", "ab", Limits{Depth: 6}, puntMatchTactics},
		{"punt-heks-match", "ab", Limits{Depth: 6}, puntHeksTactics},
		{"punt-heks-match-3p", "mcts", Limits{Nodes: 20000}, puntHeks3Tactics},
		{"punt-heks-match-3p", "ab", Limits{Depth: 4}, puntHeks3Tactics},
	}
	for _, set := range sets {
		if len(set.tests) < 5 {
			t.Errorf("%s has %d tactical positions, want at least 5", set.id, len(set.tests))
		}
		for _, tc := range set.tests {
			t.Run(set.id+"/"+set.spec+"/"+tc.name, func(t *testing.T) {
				s := newState(t, set.id, tc.fen)
				if got := drawnBoard(textboard.String(s)); got != strings.Trim(tc.board, "\n") {
					t.Fatalf("%s is drawn\n%s\nnot as in the test:\n%s", tc.fen, got, tc.board)
				}
				info := mustEngine(t, set.spec).Search(context.Background(), s, set.lim, nil)
				if got := info.Move.Text(s.Game().Board()); got != tc.want {
					t.Errorf("%s: %s played %s (score %d), want %s", tc.fen, set.spec, got, info.Score, tc.want)
				}
				if s.FEN() != tc.fen {
					t.Errorf("the search changed the position to %s", s.FEN())
				}
			})
		}
	}
}

// drawnBoard is the board part of a state's drawing, without the lines
// under it, trailing blanks removed.
func drawnBoard(text string) string {
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "Stacks") || strings.HasPrefix(line, "Scores") {
			break
		}
		lines = append(lines, strings.TrimRight(line, " "))
	}
	return strings.Join(lines, "\n")
}
