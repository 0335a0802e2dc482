package pommel_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

func TestEvaluate(t *testing.T) {
	eval := func(id, fen string) [game.MaxPlayers]int {
		g := gametest.NewGame(t, id)
		s := gametest.Position(t, g, fen)
		return s.(game.Evaluator).Evaluate()
	}
	for _, id := range ids {
		if e := eval(id, ""); e[0] != e[1] {
			t.Errorf("%s start is not even: %v", id, e)
		}
	}
	if e := eval("pommel", "W:WKd4:Bd5"); e[0] <= e[1] {
		t.Errorf("a captain is not worth more than a soldier: %v", e)
	}
	// Advancing costs a little (soldiers that stay back keep their lines
	// closed), and each side's advance is measured from its own side.
	if a, b := eval("pommel", "W:Wd5:Bg6"), eval("pommel", "W:Wd2:Bg6"); a[0] >= b[0] || b[0]-a[0] > 50 {
		t.Errorf("advancing three rows: %v vs %v", a, b)
	}
	if a, b := eval("pommel", "W:Wg5:Bd2"), eval("pommel", "W:Wg5:Bd5"); a[1] >= b[1] {
		t.Errorf("Black's advance is not measured from the top: %v vs %v", a, b)
	}
	if a, b := eval("pommel", "W:WKd4:Bd5,e5"), eval("pommel", "W:WKd4:Bd5,e5,f5"); a[0]-a[1] <= 0 || b[0]-b[1] >= 0 {
		t.Errorf("a captain is worth more than two soldiers and less than three: %v %v", a, b)
	}
}
