package checkers2011_test

import (
	"encoding/json"
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// The effects of a liberating capture, as a browser receives them: the
// white soldier takes the black top piece of d4 prisoner, and the white
// king under it commands d4 again.
func Example_moveEffects() {
	g, err := game.New("checkers-2011", nil)
	if err != nil {
		panic(err)
	}
	s, err := g.ParseFEN("W:c3=w,d4=Wb,h8=B")
	if err != nil {
		panic(err)
	}
	m, err := game.ParseMove(s, "c3xe5")
	if err != nil {
		panic(err)
	}
	e, err := game.MoveEffects(s, m)
	if err != nil {
		panic(err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))
	// Output:
	// {"move":"c3xe5","player":0,"capture":true,"path":["c3","e5"],"moving":[{"owner":0,"rank":"man"}],"captured":[{"cell":"d4","leg":1,"taken":[{"owner":1,"rank":"man"}],"left":[{"owner":0,"rank":"king"}]}],"prisoners":[{"owner":1,"rank":"man"}],"landed":[{"owner":1,"rank":"man"},{"owner":0,"rank":"man"}]}
}
