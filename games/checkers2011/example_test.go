package checkers2011_test

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/checkers2011"
	"github.com/arbiter-games/arbiter/textboard"
)

// A position is read from its stack FEN, a capture is refused because a
// longer one exists, the longest is played by its notation, and the stacks
// are read back bottom first through game.Stacker; textboard draws the board.
func Example() {
	g, err := game.New("checkers-2011", nil)
	if err != nil {
		panic(err)
	}
	// White's king on c3 faces a black stack on d4: a white soldier under
	// a black soldier under a black king.
	s, err := g.ParseFEN("W:c3=W,d4=wbB,h8=B")
	if err != nil {
		panic(err)
	}
	fmt.Println(game.MoveTexts(s))
	fmt.Println(game.PlayMoves(s, []string{"c3xe5"}))
	if err := game.PlayMoves(s, []string{"c3xe5xc3"}); err != nil {
		panic(err)
	}
	fmt.Println(s.FEN())
	d4, _ := g.Board().Parse("d4")
	fmt.Println(s.(game.Stacker).Stack(d4, nil), s.Owner(d4))
	fmt.Print(textboard.String(s))
	// Output:
	// [c3xe5xc3]
	// move 1 "c3xe5" is illegal: the piece on c3 can play c3xe5xc3
	// B:c3=bBW,d4=w,h8=B
	// [{0 0}] 0
	//     a   b   c   d   e   f   g   h
	// 8   .   .   .   .   .   .   .   B   8
	// 7   .   .   .   .   .   .   .   .   7
	// 6   .   .   .   .   .   .   .   .   6
	// 5   .   .   .   .   .   .   .   .   5
	// 4   .   .   .   w   .   .   .   .   4
	// 3   .   .  bBW  .   .   .   .   .   3
	// 2   .   .   .   .   .   .   .   .   2
	// 1   .   .   .   .   .   .   .   .   1
	//     a   b   c   d   e   f   g   h
	// Stacks: bBW = bottom to top, W on top.
	// Black to move
}

// Perft counts the move sequences of a given length.
func Example_perft() {
	g, _ := game.New("checkers-2011", nil)
	fmt.Println(game.Perft(g.Start(), 3))
	// Output: 12892
}
