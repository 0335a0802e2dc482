package checkers2011

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/game"
)

// The open alternatives of seed 003 that docs/rules/checkers-2011.md
// ("Variants") makes options. The defaults are the rulings of RULINGS
// section 3.

var ownjumpOption = game.OptionSpec{
	Key: "ownjump", Default: "off", Values: []string{"off", "on"},
	Help: "whether a stack may jump a friendly stack to the empty cell beyond, in its jump directions, " +
		"as a move of its own that captures nothing, when no capture is possible (on), or not (off, the rulings)",
}

var sidejumpOption = game.OptionSpec{
	Key: "sidejump", Default: "off", Values: []string{"off", "on"},
	Help: "whether soldiers and kings also capture sideways, left and right, as the seed's " +
		"\"move (and jump)\" sentences read (on), or not (off, the rulings)",
}

// leaps appends the jumps over friendly stacks (ownjump=on): from a
// stack, over a stack its side commands next to it in one of its jump
// directions, to the empty cell beyond. They are steps by the rules: not
// captures, a move each, never followed by another jump.
func (s *State) leaps(buf []game.Move) []game.Move {
	p, t := &s.pos, s.g.t
	for d := 0; d < 8; d++ {
		for to := p.leapTargets(t, d); to != 0; to &= to - 1 {
			buf = append(buf, t.leapTo[d][bits.TrailingZeros64(to)&63])
		}
	}
	return buf
}

// leapTargets returns the empty cells the mover's stacks can reach in
// direction d by jumping one of the mover's own stacks.
func (p *position) leapTargets(t *lookup, d int) uint64 {
	me := p.toMove
	own := p.side[me]
	var movers uint64
	if t.kingJumps>>d&1 != 0 {
		movers |= own & p.kings
	}
	if t.soldierJumps[me]>>d&1 != 0 {
		movers |= own &^ p.kings
	}
	return shift(shift(movers, d)&own, d) &^ p.occ
}
