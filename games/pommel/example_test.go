package pommel_test

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// A game is built by id with options, moves are played by their notation,
// and an illegal move says why.
func Example() {
	g, err := game.New("pommel", map[string]string{"hop": "friendly"})
	if err != nil {
		panic(err)
	}
	s := g.Start()
	if err := game.PlayMoves(s, []string{"a1-a3", "a6-a4"}); err != nil {
		panic(err)
	}
	fmt.Println(game.MoveTexts(s))
	fmt.Println(s.FEN())
	_, err = game.ParseMove(s, "b1-b3")
	fmt.Println(err)
	// Output:
	// [a3xa6]
	// W:Wa2,a3,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba4,a5,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6
	// illegal move "b1-b3": capture is compulsory; the captures are a3xa6
}

// Perft counts the move sequences of a given length.
func Example_perft() {
	g, _ := game.New("pommel-76", nil)
	fmt.Println(game.Perft(g.Start(), 2))
	// Output: 2916
}
