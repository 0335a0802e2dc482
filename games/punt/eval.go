package punt

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// maxMoves is the most moves a pile can need to reach its end-row: the
// eight lines of the hexhex board, one line a move.
const maxMoves = 8

// movesNeeded[h][d] is how many forward moves a pile of height h (3 for
// any taller one) needs to cross d lines: d divided by its reach, rounded
// up.
var movesNeeded = func() (m [4][maxMoves + 1]int8) {
	for h := 1; h < 4; h++ {
		for d := range m[h] {
			m[h][d] = int8((d + reach[h] - 1) / reach[h])
		}
	}
	return m
}()

// Weights are the evaluation's weights, in hundredths of a pawn.
type Weights struct {
	// Scored is a pawn in a pile that its controller has on their
	// end-row: it counts if the game ends now.
	Scored int
	// OnWay[k] is a pawn in a pile that needs k more moves to get home.
	// The game ends as soon as one player has no move, and piles are
	// taken over by landing on them, so a pawn far from home is worth
	// little: by default the value roughly halves with every move still
	// needed.
	OnWay [maxMoves + 1]int
	// Threat is the share, in percent, of a pile's value lost when
	// another player can land on it with one move. Only the most valuable
	// pile each player can reach counts, since a move lands on one pile.
	Threat int
	// Pile is the bonus for each pile a player controls, whatever its
	// height: each is a piece that can move and land.
	Pile int
	// Tempo is the bonus of the player to move.
	Tempo int
}

// DefaultWeights returns the weights Evaluate uses, chosen by matches
// between evaluation variants at fixed node counts: ab against ab in the
// two-player games, mcts against two uct players in punt-heks-match-3p.
func DefaultWeights() Weights {
	return Weights{
		Scored: 100,
		OnWay:  [maxMoves + 1]int{100, 70, 40, 20, 10, 5, 2, 1, 0},
		Threat: 60,
	}
}

// Evaluate scores the position for each player by DefaultWeights. It
// implements game.Evaluator. It does not allocate.
func (s *State) Evaluate() [game.MaxPlayers]int {
	return s.evaluate(&s.g.t.weights)
}

// evaluate scores the position for each player, in hundredths of a pawn:
// the pawns in the piles the player has on their end-row, the pawns in
// the piles still on their way, valued by how many moves they need, less
// what other players threaten to take by landing on a pile.
func (s *State) evaluate(w *Weights) [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	// val[c] is what the pile on c is worth to its controller.
	var val [maxCells]int32
	t := s.g.t
	p := &s.pos
	for pl := 0; pl < t.players; pl++ {
		last := int(t.progress[pl][bits.TrailingZeros64(t.endRow[pl])])
		for m := p.ctrl[pl]; m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			h := int(p.height[c])
			v := w.Scored * h
			if t.endRow[pl]>>c&1 == 0 {
				k := movesNeeded[min(h, 3)][last-int(t.progress[pl][c])]
				v = w.OnWay[k] * h
			}
			val[c] = int32(v)
			e[pl] += v
		}
		e[pl] += w.Pile * bits.OnesCount64(p.ctrl[pl])
	}
	e[p.toMove] += w.Tempo
	s.threats(w, &e, &val)
	return e
}

// threats takes off each player's evaluation what another can take: for
// every player, the pile of another player worth most to its controller
// among those it can land on with one move loses threat percent of its
// value. Whose turn it is does not matter: matches showed no gain from
// weighing the threats of the player to move more. Of two piles of equal
// value, the one whose controller plays sooner after the attacker is the
// one at risk, so that no seat is favoured.
func (s *State) threats(w *Weights, e *[game.MaxPlayers]int, val *[maxCells]int32) {
	t := s.g.t
	p := &s.pos
	// after(q, o) is how many turns after q player o plays; an empty
	// cell's NoPlayer comes last.
	after := func(q, o game.Player) int {
		if o == game.NoPlayer {
			return maxPlayers
		}
		return (int(o) - int(q) + t.players) % t.players
	}
	for q := game.Player(0); int(q) < t.players; q++ {
		theirs := p.occ &^ p.ctrl[q]
		worst, victim := int32(0), game.NoPlayer
		for m := p.ctrl[q] & t.mobile[q]; m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			r := reach[min(p.height[c], 3)]
			for _, d := range t.dirs[q][:t.nDirs] {
				near := &t.near[c][d]
				for i := 0; i < r; i++ {
					x := near[i]
					if x == board.None {
						break
					}
					if p.occ>>x&1 != 0 {
						if theirs>>x&1 != 0 && (val[x] > worst || val[x] == worst && after(q, p.top[x]) < after(q, victim)) {
							worst, victim = val[x], p.top[x]
						}
						break
					}
				}
			}
		}
		if victim == game.NoPlayer {
			continue
		}
		e[victim] -= w.Threat * int(worst) / 100
	}
}

// Evaluation returns a game.Evaluation of the Punt games by w, for an
// engine: ai.WithEvaluation(punt.Evaluation(w)).
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
