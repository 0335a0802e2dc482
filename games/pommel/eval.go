package pommel

import "github.com/arbiter-games/arbiter/game"

// Evaluation weights, in hundredths of a soldier, chosen by self-play
// (alpha-beta at depth 4, 60 games each, docs/strength.md): a captain is
// worth 2.5 soldiers (350 and 500 lost to 250), and a soldier loses a
// little for each half-row it has advanced: soldiers that stay back keep
// the lines behind them closed against leaps (advancing +4 lost 29-71% to
// -3, and -6 lost to -3).
const (
	soldierValue = 100
	captainValue = 250
	advanceValue = -3
)

// Evaluate scores the position for each player: material, and the
// advancement of soldiers (a small cost: see the weights). It implements
// game.Evaluator.
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
