package board_test

import (
	"fmt"

	"github.com/arbiter-games/arbiter/board"
)

// The 8x8 board seen from the second player's side: a1 is at the top
// right, one unit square centred half a unit in from each edge.
func ExampleBoard_Geometry() {
	g, err := board.NewSquare(8, 8).Geometry(180)
	if err != nil {
		fmt.Println(err)
		return
	}
	a1 := g.Cells[0]
	fmt.Println(a1.Name, a1.Center, a1.Outline)
	fmt.Println(g.Bounds)
	fmt.Println(g.Labels[0].Text, g.Labels[0].At)
	// Output:
	// a1 {3.5 -3.5} [{4 -3} {3 -3} {3 -4} {4 -4}]
	// {-4 -4 4 4}
	// 1 {4.5 -3.5}
}
