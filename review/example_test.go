package review_test

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/review"
)

// White takes the wrong soldier: the captain's leap f4xf7 wins at once.
func ExampleGame() {
	g, _ := game.New("pommel", nil)
	start, _ := g.ParseFEN("W:Wb3,b4,Kf4,g1:Bf2,f5,f6")
	m, _ := game.ParseMove(start, "g1xe2")
	res, err := review.Game(context.Background(), g, start, []game.Move{m}, review.Config{Nodes: 5000})
	if err != nil {
		fmt.Println(err)
		return
	}
	mv := res.Moves[0]
	fmt.Printf("ply %d, %s: %s (the position was %s, best %s)\n", mv.Ply, mv.Move, mv.Mark, mv.ScoreText, mv.Best)
	fmt.Printf("White's accuracy %.0f, %d blunder\n", res.Seats[0].Accuracy, res.Seats[0].Blunders)
	// Output:
	// ply 0, g1xe2: blunder (the position was win7, best f4xf7)
	// White's accuracy 7, 1 blunder
}
