package checkers2011

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Moves appends the legal moves of the player to move. Imprisonment is
// compulsory, and only the capture sequences with the greatest number of
// jumps, over all of the player's stacks, are legal; without a capture,
// every step is. A side that commands no stack has lost, so then there are
// none (only a FEN can leave the opponent of the mover without one).
//
// Moves are identified by their landing cells: a jump always spans two
// cells, so the landings fix every jumped cell, and two different
// sequences never share a text. No deduplication is needed. The pie
// rule's Swap, when it is a move, comes first.
func (s *State) Moves(buf []game.Move) []game.Move {
	if s.ply == 1 && s.swappable {
		buf = append(buf, game.Swap())
	}
	p := &s.pos
	if p.side[White] == 0 || p.side[Black] == 0 {
		return buf
	}
	n0 := len(buf)
	buf = s.captures(buf)
	if len(buf) > n0 {
		return buf
	}
	return s.steps(buf)
}

// jumper follows capture sequences. It never changes the position: the
// jumped stacks keep their pieces, popped[c] counts how many of their top
// pieces the sequence has taken so far, and occ and enemy are the occupied
// and enemy-commanded cells as the sequence has left them.
type jumper struct {
	p          *position
	t          *lookup
	dirs       []int
	them       uint64 // the enemy's owner bit
	occ, enemy uint64
	popped     [numCells]uint8
	best       int // the most jumps of a complete sequence found so far
	n0         int // where this call's moves start in buf
	m          game.Move
	// soldier tells that the jumper is a soldier, which may not jump back
	// the way it came (a king may: RULINGS section 3).
	soldier bool
}

// captures appends the longest capture sequences of all the mover's
// stacks. A bitboard pass first finds the stacks that have a first jump at
// all (an enemy next to them with an empty cell beyond, in one of their
// jump directions), so that a position without captures costs a few
// shifts.
func (s *State) captures(buf []game.Move) []game.Move {
	p, t := &s.pos, s.g.t
	me := p.toMove
	jumpers := p.jumpers(t)
	if jumpers == 0 {
		return buf
	}
	enemy := p.side[other(me)]
	g := jumper{p: p, t: t, them: uint64(other(me)), n0: len(buf)}
	for ; jumpers != 0; jumpers &= jumpers - 1 {
		c := board.Cell(bits.TrailingZeros64(jumpers))
		g.dirs = t.jumpDirs[me][p.kings>>c&1]
		g.soldier = p.kings>>c&1 == 0
		// The jumper has left its cell for the whole move: a king may
		// jump through it again.
		g.occ, g.enemy = p.occ&^(1<<c), enemy
		g.m = game.Start(c, true)
		buf = g.chain(c, 0, -1, buf)
	}
	return buf
}

// jumpers returns the mover's stacks that have a first jump: an enemy
// stack next to them, in one of their jump directions, with an empty cell
// beyond.
func (p *position) jumpers(t *lookup) uint64 {
	me := p.toMove
	own, enemy := p.side[me], p.side[other(me)]
	kings, soldiers := own&p.kings, own&^p.kings
	var jumpers uint64
	for d := 0; d < 8; d++ {
		var movers uint64
		if t.kingJumps>>d&1 != 0 {
			movers |= kings
		}
		if t.soldierJumps[me]>>d&1 != 0 {
			movers |= soldiers
		}
		back := (d + 4) % 8
		jumpers |= movers & shift(enemy&shift(^p.occ, back), back)
	}
	return jumpers
}

// chain extends the sequence standing on cur after jumps jumps, the last
// of them in direction came (-1 before the first): it must jump again
// while it can; a sequence that cannot is complete and is kept if no
// longer one has been found. A soldier never jumps straight back, a turn
// of 180 degrees; its directions hold no such pair unless it jumps
// sideways (sidejump=on).
func (g *jumper) chain(cur board.Cell, jumps, came int, buf []game.Move) []game.Move {
	p, t := g.p, g.t
	jumped := false
	back := -1
	if g.soldier && came >= 0 {
		back = (came + 4) % 8
	}
	for _, d := range g.dirs {
		if d == back {
			continue
		}
		mid := t.nb[cur][d]
		if mid == board.None || g.enemy>>mid&1 == 0 {
			continue
		}
		land := t.nb[mid][d]
		if land == board.None || g.occ>>land&1 != 0 {
			continue
		}
		jumped = true
		occ, enemy := g.occ, g.enemy
		k := g.popped[mid] + 1
		switch {
		// A landing can never be a cell jumped earlier in the sequence
		// (landings keep the start's rank parity, jumped cells have the
		// other), so clearing occ below only keeps the bitboard honest.
		case p.height[mid] == k: // the last piece: the cell is empty now
			g.occ &^= 1 << mid
			g.enemy &^= 1 << mid
		case p.cells[mid]>>(2*k)&1 != g.them: // liberated: a friend on top
			g.enemy &^= 1 << mid
		}
		g.popped[mid] = k
		g.m.Land(land)
		buf = g.chain(land, jumps+1, d, buf)
		g.m.Unland()
		g.popped[mid] = k - 1
		g.occ, g.enemy = occ, enemy
	}
	if !jumped && jumps > 0 && jumps >= g.best {
		if jumps > g.best {
			buf, g.best = buf[:g.n0], jumps
		}
		buf = append(buf, g.m)
	}
	return buf
}

// Bitboard masks of the a and h files, to keep shifts from wrapping.
const (
	fileA uint64 = 0x0101_0101_0101_0101
	fileH uint64 = fileA << 7
)

// shift moves every bit of b one cell in direction d; bits leaving the
// board are dropped.
func shift(b uint64, d int) uint64 {
	switch d {
	case board.SqN:
		return b << 8
	case board.SqNE:
		return (b &^ fileH) << 9
	case board.SqE:
		return (b &^ fileH) << 1
	case board.SqSE:
		return (b &^ fileH) >> 7
	case board.SqS:
		return b >> 8
	case board.SqSW:
		return (b &^ fileA) >> 9
	case board.SqW:
		return (b &^ fileA) >> 1
	default: // board.SqNW
		return (b &^ fileA) << 7
	}
}

// steps appends the non-capturing moves: one step to an empty cell, in 5
// directions for a soldier commander, 8 for a king. They are found a
// direction at a time for all stacks at once.
func (s *State) steps(buf []game.Move) []game.Move {
	p, t := &s.pos, s.g.t
	for d := 0; d < 8; d++ {
		for to := p.stepTargets(t, d); to != 0; to &= to - 1 {
			buf = append(buf, t.stepTo[d][bits.TrailingZeros64(to)&63])
		}
	}
	if s.g.ownJump {
		buf = s.leaps(buf)
	}
	return buf
}

// stepTargets returns the empty cells the mover's stacks can step to in
// direction d.
func (p *position) stepTargets(t *lookup, d int) uint64 {
	own := p.side[p.toMove]
	movers := own & p.kings
	if t.soldierSteps[p.toMove]>>d&1 != 0 {
		movers = own
	}
	return shift(movers, d) &^ p.occ
}

// hasMove reports whether the player to move has a legal move, as a
// non-empty Moves would, without listing them: a first jump (every one
// starts a complete sequence, and the longest of them are legal) or a
// step.
func (s *State) hasMove() bool {
	p, t := &s.pos, s.g.t
	if p.side[White] == 0 || p.side[Black] == 0 {
		return false
	}
	if p.jumpers(t) != 0 {
		return true
	}
	for d := 0; d < 8; d++ {
		if p.stepTargets(t, d) != 0 || s.g.ownJump && p.leapTargets(t, d) != 0 {
			return true
		}
	}
	return false
}

// HasMove reports whether the player to move has a legal move, as a
// non-empty Moves would. Engines ask it at the horizon instead of listing
// the moves.
func (s *State) HasMove() bool { return s.hasMove() }

// HasCapture reports whether the player to move must capture: a stack of
// its has a first jump, and every first jump starts a complete sequence,
// so then every move Moves returns is a capture, else none is.
func (s *State) HasCapture() bool {
	p := &s.pos
	if p.side[White] == 0 || p.side[Black] == 0 {
		return false
	}
	return p.jumpers(s.g.t) != 0
}
