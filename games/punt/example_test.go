package punt_test

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/punt"
)

// Three players take turns; a pawn that lands on a pile goes on top and
// controls it, and the Stacker view lists a pile bottom first.
func Example() {
	g, err := game.New("punt-heks-match-3p", nil)
	if err != nil {
		panic(err)
	}
	s := g.Start()
	if err := game.PlayMoves(s, []string{"b1-d1", "g2-g4", "d8-d7"}); err != nil {
		panic(err)
	}
	d1, _ := g.Board().Parse("d1")
	for _, p := range s.(game.Stacker).Stack(d1, nil) {
		fmt.Print(g.PlayerName(p.Owner), " ")
	}
	fmt.Println("on d1, controlled by", g.PlayerName(s.Owner(d1)))
	fmt.Println(g.PlayerName(s.ToMove()), "to move")
	_, err = game.ParseMove(s, "b2-a2")
	fmt.Println(err)
	// Output:
	// Black White on d1, controlled by White
	// White to move
	// illegal move "b2-a2": the piece on b2 can play b2-b1, b2-b3, b2-c2, b2-c3, b2-d2, b2-d4, b2-e2, b2-e5
}

// A position is written with its piles bottom first.
func Example_fen() {
	g, _ := game.New("punt-match", nil)
	s := g.Start()
	_ = game.PlayMoves(s, []string{"d2-d5", "d6-d5"})
	fmt.Println(s.FEN())
	// Output:
	// W:a1=w,b1=w,c1=w,d1=w,e1=w,f1=w,g1=w,a2=w,b2=w,c2=w,e2=w,f2=w,g2=w,d5=wb,a6=b,b6=b,c6=b,e6=b,f6=b,g6=b,a7=b,b7=b,c7=b,d7=b,e7=b,f7=b,g7=b
}

// The game ends when the player to move has no move, and is scored: here
// Black's only pile is frozen on Black's end-row after White's move.
func Example_scored() {
	g, _ := game.New("punt-heks-match", nil)
	s, _ := g.ParseFEN("W:a1=wb,h1=w,i3=bw")
	_ = game.PlayMoves(s, []string{"h1-i1"})
	r := s.Result()
	fmt.Println(r.Describe(g))
	fmt.Println(r.Scores[:g.Players()])
	// Output:
	// White wins: scores White 3, Black 2
	// [3 2]
}
