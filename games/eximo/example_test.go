package eximo_test

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/eximo"
)

// A game is built by id, moves are played by their notation, and an
// illegal move says why. Black's man walks from c3 to c5, into White's
// reach: White must capture, diagonally by b6xd4 or forward by c6xc4,
// which must go on over b3 to a2.
func Example() {
	g, err := game.New("eximo", nil)
	if err != nil {
		panic(err)
	}
	s := g.Start()
	if err := game.PlayMoves(s, []string{"c3-c4", "f6-f5", "c4-c5"}); err != nil {
		panic(err)
	}
	fmt.Println(game.MoveTexts(s))
	_, err = game.ParseMove(s, "g6-g5")
	fmt.Println(err)
	// Output:
	// [b6xd4 c6xc4xa2]
	// illegal move "g6-g5": capture is compulsory; the captures are b6xd4, c6xc4xa2
}

// A man that reaches the far row leaves the board, and its owner drops
// new men on empty squares of the drop zone as part of the same move.
// Here b1 and c1 are the only empty squares of Black's zone.
func Example_drops() {
	g, _ := game.New("eximo", nil)
	s, err := g.ParseFEN("B:Wa5:Bd1,e1,f1,g1,b2,c2,d2,e2,f2,g2,d7")
	if err != nil {
		panic(err)
	}
	for _, m := range game.MoveTexts(s) {
		if strings.HasPrefix(m, "d7") {
			fmt.Println(m)
		}
	}
	if err := game.PlayMoves(s, []string{"d7-d8@b1@c1"}); err != nil {
		panic(err)
	}
	fmt.Println(s.FEN())
	// Output:
	// d7-c8@b1@c1
	// d7-d8@b1@c1
	// d7-e8@b1@c1
	// W:Wa5:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2
}

// Perft counts the move sequences of a given length.
func Example_perft() {
	g, _ := game.New("eximo", nil)
	fmt.Println(game.Perft(g.Start(), 3))
	// Output: 60284
}
