package pommel

import (
	"github.com/arbiter-games/arbiter/board"

	"github.com/arbiter-games/arbiter/game"
)

// Weights are the evaluation's weights, in hundredths of a soldier.
type Weights struct {
	Soldier, Captain int
	// Advance is added for each half-row a soldier has advanced.
	Advance int
	// Home is added for each soldier still on its own first row, where
	// it keeps the enemy's soldiers from promoting.
	Home int
	// Edge is added for each piece on the board's edge, where fewer lines
	// cross it, so fewer leaps can take it.
	Edge int
	// Threatened is taken from the player to move when the other player
	// could capture if it were its turn: the mover must answer the
	// threat, and quiescence, which follows the mover's captures only,
	// does not see it.
	Threatened int
	// Tempo is added for the player to move.
	Tempo int
}

// DefaultWeights returns the weights Evaluate uses, chosen by self-play
// (alpha-beta at depth 4, 60 games each, docs/strength.md): a captain is
// worth 2.5 soldiers (350 and 500 lost to 250), and a soldier loses a
// little for each half-row it has advanced: soldiers that stay back keep
// the lines behind them closed against leaps (advancing +4 lost 29-71% to
// -3, and -6 lost to -3).
func DefaultWeights() Weights {
	return Weights{Soldier: 100, Captain: 250, Advance: -3}
}

// Evaluate scores the position for each player by DefaultWeights. It
// implements game.Evaluator.
func (s *State) Evaluate() [game.MaxPlayers]int {
	return s.evaluate(&s.g.t.weights)
}

// evaluate scores the position for each player: material, and the
// advancement of soldiers (a small cost by default: see DefaultWeights).
func (s *State) evaluate(w *Weights) [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	t := s.g.t
	for p := White; p <= Black; p++ {
		pieces := s.pos.pieces[p]
		captains := pieces.and(s.pos.captains)
		soldiers := pieces.andNot(s.pos.captains)
		e[p] = w.Captain*captains.count() + w.Soldier*soldiers.count()
		for rest := soldiers; !rest.empty(); {
			var c board.Cell
			c, rest = rest.pop()
			e[p] += w.Advance * int(t.advance[p][c])
		}
		// A player's first row is where the other promotes.
		e[p] += w.Home*soldiers.and(t.lastRow[1-p]).count() + w.Edge*pieces.and(t.edge).count()
	}
	mover := s.pos.toMove
	e[mover] += w.Tempo
	if w.Threatened != 0 && s.opponentCanCapture() {
		e[mover] -= w.Threatened
	}
	return e
}

// opponentCanCapture reports whether the player not to move would have a
// capture if it were its turn. The 45-cell board asks the generator on
// one word, as Moves does.
func (s *State) opponentCanCapture() bool {
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return false
	}
	other := 1 - s.pos.toMove
	if t := s.t; t.narrow {
		g := narrowGen{t: t, sets: t.narrowSets()}
		g.loadFor(&s.pos, other, s.g.hopAny)
		return g.anyCapture()
	}
	g := gen{t: s.t, sets: s.t.wideSets()}
	g.loadFor(&s.pos, other, s.g.hopAny)
	return g.anyCapture()
}

// Evaluation returns a game.Evaluation of Pommel (both boards) by w, for
// an engine: ai.WithEvaluation(pommel.Evaluation(w)).
func Evaluation(w Weights) game.Evaluation { return &evaluation{w} }

// evaluation is a copy of its weights, so nothing can change it.
type evaluation struct{ w Weights }

func (e *evaluation) Judges(s game.State) bool {
	_, ok := s.(*State)
	return ok
}

func (e *evaluation) Evaluate(s game.State) [game.MaxPlayers]int {
	return s.(*State).evaluate(&e.w)
}
