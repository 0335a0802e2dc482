package pommel

import "github.com/arbiter-games/arbiter/game"

// Evaluation weights, in hundredths of a soldier. A captain flies along
// six lines and captures from afar, so it is worth several soldiers; a
// soldier gains a little for each row it has advanced, more on the last
// rows where promotion threatens.
const (
	soldierValue = 100
	captainValue = 350
	advanceValue = 4
)

// Evaluate scores the position for each player: material plus the
// advancement of soldiers towards promotion. It implements game.Evaluator.
func (s *State) Evaluate() [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	t := s.g.t
	for c := 0; c < t.n; c++ {
		v := s.pos.cells[c]
		if v == empty {
			continue
		}
		p := v.owner()
		if v.isCaptain() {
			e[p] += captainValue
			continue
		}
		e[p] += soldierValue + advanceValue*int(t.advance[p][c])
	}
	return e
}
