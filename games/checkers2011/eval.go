package checkers2011

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Weights are the evaluation's weights, in hundredths of a soldier.
type Weights struct {
	Soldier, King int
	// Prisoner is the holder's bonus per enemy piece it holds;
	// Liberation is what a piece held by the enemy is still worth to its
	// owner, in hundredths of its value, when it lies right under the
	// commander (one jump frees it), and DeepLib deeper down.
	Prisoner, Liberation, DeepLib int
	// Commander is the bonus per stack commanded.
	Commander int
	// Adv[r] is the bonus of a soldier commander r ranks in front of its
	// own first rank.
	Adv [8]int
	// Mobility is the bonus per step available to a player's stacks.
	Mobility int
	// Hunt is the bonus, for the side ahead by more than HuntLead, per
	// rank or file (the larger) each of its kings is closer to the nearest
	// enemy stack than 7: a won ending is won by closing in.
	Hunt, HuntLead int
	// Threat is the share, in hundredths, of the most valuable enemy stack
	// the player to move can eliminate with one step that the evaluation
	// credits to that player.
	Threat int
	// Tempo is the bonus of the player to move.
	Tempo int
}

// DefaultWeights returns the weights Evaluate uses.
func DefaultWeights() Weights {
	return Weights{
		Soldier:    100,
		King:       200,
		Prisoner:   0,
		Liberation: 70,
		DeepLib:    30,
		Commander:  100,
		Adv:        [8]int{0, 0, 2, 4, 8, 14, 22, 0},
		Threat:     0,
		Mobility:   0,
		Hunt:       5,
		HuntLead:   300,
	}
}

// Piece bit masks of a packed stack: the owner bits (set for Black) of
// every 2-bit piece.
const ownerBits = 0x5555_5555_5555_5555

// heightMask returns the bits of a stack of height h.
func heightMask(h int) uint64 { return 1<<(2*h) - 1 }

// pieceValues returns the value of who's pieces in the packed stack st of
// height h, and how many there are.
func pieceValues(w *Weights, st uint64, h int, who game.Player) (value, n int) {
	own := ^st & ownerBits
	if who == Black {
		own = st & ownerBits
	}
	own &= heightMask(h)
	n = bits.OnesCount64(own)
	k := bits.OnesCount64(st & (own << 1))
	return w.Soldier*(n-k) + w.King*k, n
}

// Evaluate scores the position for each player by DefaultWeights. It
// implements game.Evaluator and does not allocate.
func (s *State) Evaluate() [game.MaxPlayers]int {
	return s.evaluate(&s.g.t.weights)
}

// evaluate scores the position for each player. A stack belongs to its
// commander: the commander's side counts its own pieces in it, soldiers and
// kings, and gains a little for every enemy prisoner, which the enemy has
// lost while it is held; a piece held by the enemy keeps a fraction of its
// value, more right under the commander, where one jump frees it. Soldier
// commanders gain for each rank they have advanced towards promotion.
func (s *State) evaluate(w *Weights) [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	p := &s.pos
	for occ := p.occ; occ != 0; occ &= occ - 1 {
		c := bits.TrailingZeros64(occ)
		st := p.cells[c]
		h := int(p.height[c])
		me := game.Player(st & 1)
		if st&kingBit != 0 {
			e[me] += w.Commander
		} else {
			r := c / size
			if me == Black {
				r = size - 1 - r
			}
			e[me] += w.Commander + w.Adv[r]
		}
		if h == 1 {
			if st&kingBit != 0 {
				e[me] += w.King
			} else {
				e[me] += w.Soldier
			}
			continue
		}
		v, n := pieceValues(w, st, h, me)
		e[me] += v
		if n < h {
			them := other(me)
			tv, tn := pieceValues(w, st, h, them)
			e[me] += w.Prisoner * tn
			e[them] += tv * w.DeepLib / 100
			if next := st >> 2 & 3; game.Player(next&1) == them {
				v := w.Soldier
				if next&kingBit != 0 {
					v = w.King
				}
				e[them] += v * (w.Liberation - w.DeepLib) / 100
			}
		}
	}
	if w.Hunt != 0 {
		switch lead := e[White] - e[Black]; {
		case lead > w.HuntLead:
			e[White] += w.Hunt * s.closeness(White)
		case lead < -w.HuntLead:
			e[Black] += w.Hunt * s.closeness(Black)
		}
	}
	if w.Mobility != 0 {
		for who := range game.Player(2) {
			e[who] += w.Mobility * s.mobility(who)
		}
	}
	if w.Threat != 0 {
		me := p.toMove
		if v := s.sandwichThreat(w, me); v > 0 {
			e[me] += v * w.Threat / 100
		}
	}
	e[p.toMove] += w.Tempo
	return e
}

// sandwichThreat returns the value to its owner of the most valuable enemy
// stack that the player me could eliminate with one step: an enemy stack
// with me's stack on one side, along a rank or a file, and on the other
// an empty cell that one of me's stacks can step to. Longer runs and runs
// round corners are left to the search.
func (s *State) sandwichThreat(w *Weights, me game.Player) int {
	p, t := &s.pos, s.g.t
	friend, enemy := p.side[me], p.side[other(me)]
	empty := ^p.occ
	kings, soldiers := friend&p.kings, friend&^p.kings
	var reach uint64
	for d := 0; d < 8; d++ {
		movers := kings
		if t.soldierSteps[me]>>d&1 != 0 {
			movers |= soldiers
		}
		reach |= shift(movers, d)
	}
	reach &= empty
	var targets uint64
	for _, d := range [4]int{board.SqN, board.SqE, board.SqS, board.SqW} {
		targets |= enemy & shift(friend, d) & shift(reach, (d+4)%8)
	}
	best := 0
	for ; targets != 0; targets &= targets - 1 {
		c := bits.TrailingZeros64(targets)
		st, h := p.cells[c], int(p.height[c])
		theirs, _ := pieceValues(w, st, h, other(me))
		mine, _ := pieceValues(w, st, h, me)
		best = max(best, theirs-mine)
	}
	return best
}

// mobility counts the steps (non-capturing moves) of who's stacks.
func (s *State) mobility(who game.Player) int {
	p, t := &s.pos, s.g.t
	own := p.side[who]
	kings, soldiers := own&p.kings, own&^p.kings
	empty := ^p.occ
	n := 0
	for d := 0; d < 8; d++ {
		movers := kings
		if t.soldierSteps[who]>>d&1 != 0 {
			movers |= soldiers
		}
		n += bits.OnesCount64(shift(movers, d) & empty)
	}
	return n
}

// closeness sums, over who's king-commanded stacks, 7 minus the distance
// in king steps to the nearest enemy stack.
func (s *State) closeness(who game.Player) int {
	p := &s.pos
	kings := p.side[who] & p.kings
	if kings == 0 {
		return 0
	}
	near := p.side[other(who)]
	n := 0
	for d := 7; d > 0 && kings != 0; d-- {
		// near holds the cells at most 7-d steps from an enemy stack.
		grow := near
		for dir := 0; dir < 8; dir++ {
			grow |= shift(near, dir)
		}
		near = grow
		n += (d - 1) * bits.OnesCount64(kings&near)
		kings &^= near
	}
	return n
}

// Evaluation returns a game.Evaluation of Checkers 2011 by w, for an
// engine: ai.WithEvaluation(checkers2011.Evaluation(w)).
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
