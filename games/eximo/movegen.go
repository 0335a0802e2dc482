package eximo

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// gen is the move generator's view of a position while it follows one
// man's move. The moving man is in neither set: it has left its start cell
// for the whole move. A capture chain takes the jumped men out of theirs
// as it goes and puts them back when it backtracks.
type gen struct {
	step         *[nDirs][cells]int8
	near         *[nDirs + 1][cells]uint64
	far, zone    uint64
	mine, theirs uint64
	buf          []game.Move
}

// Moves appends the legal moves of the player to move: every capture
// sequence of every man if there is one (capture is compulsory, any
// sequence may be chosen), else every ordinary move and jumping move. A
// side without men has lost, so then there are none.
//
// The order is fixed (engines keep a move's index, in their transposition table): the
// captures man by man in cell order, each man's chains depth first in the
// order of the directions; else for each forward direction in turn its
// ordinary moves, then its jumping moves, each by landing cell; the pie
// rule's Swap, when it is a move, comes first.
func (s *State) Moves(buf []game.Move) []game.Move {
	if len(s.undo) == 1 && s.swappable {
		buf = append(buf, game.Swap())
	}
	me := s.pos.toMove
	mine, theirs := s.pos.men[me], s.pos.men[1-me]
	if mine == 0 || theirs == 0 {
		return buf
	}
	t := s.g.t
	// Field by field: a gen{...} literal is built in a temporary and
	// copied wider than it was written, which stalls the processor.
	var g gen
	g.step, g.near, g.far, g.zone = &t.step[me], &t.near[me], t.far[me], t.zone[me]
	g.mine, g.theirs, g.buf = mine, theirs, buf
	if capturers := t.capturers(me, mine, theirs); capturers != 0 {
		for w := capturers; w != 0; w &= w - 1 {
			c := bits.TrailingZeros64(w)
			g.mine &^= 1 << c
			m := t.captureFrom[c]
			g.captures(c, &m)
			g.mine |= 1 << c
		}
		return g.buf
	}
	empty := ^(mine | theirs)
	// The landings from which a jumping move goes on: a friendly man in
	// front, an empty cell beyond. The man that jumped is behind its
	// landing, so it changes neither.
	var goesOn uint64
	for d := range nForward {
		back := t.shift[1-me][d]
		goesOn |= back.apply(mine & back.apply(empty))
	}
	// Ordinary moves and jumping moves, by direction over all men at once.
	// Those that need more than a copy from the table (a man that leaves
	// the board, a jump that goes on) are made one by one where they come
	// in the order.
	for d, sh := range t.shift[me][:nForward] {
		steps := sh.apply(mine) & empty
		g.buf = g.eachLanding(steps, g.far, &t.stepTo[me][d], sh.delta)
		jumps := sh.apply(sh.apply(mine)&mine) & empty
		g.buf = g.eachLanding(jumps, g.far|goesOn, &t.jumpTo[me][d], 2*sh.delta)
	}
	return g.buf
}

// eachLanding appends the moves that land on the cells of w, in cell
// order: moves[c] for a cell c outside special, and for a cell in special
// the moves made by hand: the man leaves the board on the far row, or goes
// on jumping. back is how far the man came, in cell numbers: its start
// cell is empty for the rest of the move.
func (g *gen) eachLanding(w, special uint64, moves *[cells]game.Move, back int) []game.Move {
	buf := g.buf
	for w != 0 {
		first := w & special & -(w & special)
		plain := w
		if first != 0 {
			plain = w & (first - 1)
		}
		for ; plain != 0; plain &= plain - 1 {
			buf = append(buf, moves[bits.TrailingZeros64(plain)])
		}
		if first == 0 {
			break
		}
		w &^= first<<1 - 1
		to := bits.TrailingZeros64(first)
		m := moves[to]
		g.buf = buf
		g.mine &^= 1 << (to - back)
		if g.far&first != 0 {
			g.leave(&m)
		} else if !g.jumps(to, &m) {
			g.buf = append(g.buf, m)
		}
		g.mine |= 1 << (to - back)
		buf = g.buf
	}
	return buf
}

// captures follows a capture chain of the man now on cur (m holds the path
// so far) and appends every complete sequence. The man must capture again
// while it can; a landing on the far row ends the move at once.
func (g *gen) captures(cur int, m *game.Move) bool {
	if g.near[nDirs][cur]&g.theirs == 0 {
		return false // no enemy man next to it: the usual end of a chain
	}
	found := false
	for d := range nDirs {
		a := g.step[d][cur]
		if a == none || g.theirs&(1<<a) == 0 {
			continue
		}
		b := g.step[d][a]
		if b == none || (g.mine|g.theirs)&(1<<b) != 0 {
			continue
		}
		found = true
		g.theirs &^= 1 << a
		m.Land(board.Cell(b))
		switch {
		case g.far&(1<<b) != 0:
			g.leave(m)
		case !g.captures(int(b), m):
			g.buf = append(g.buf, *m)
		}
		m.Unland()
		g.theirs |= 1 << a
	}
	return found
}

// jumps continues a jumping move from cur: while the man can jump another
// friendly man in a forward direction it must. It appends every complete
// move and reports whether there was a jump to make.
func (g *gen) jumps(cur int, m *game.Move) bool {
	if g.near[nForward][cur]&g.mine == 0 {
		return false
	}
	occ := g.mine | g.theirs
	found := false
	for d := range nForward {
		a := g.step[d][cur]
		if a == none || g.mine&(1<<a) == 0 {
			continue
		}
		b := g.step[d][a]
		if b == none || occ&(1<<b) != 0 {
			continue
		}
		found = true
		m.Land(board.Cell(b))
		switch {
		case g.far&(1<<b) != 0:
			g.leave(m)
		case !g.jumps(int(b), m):
			g.buf = append(g.buf, *m)
		}
		m.Unland()
	}
	return found
}

// leave appends the moves of a man that has landed on the far row: it
// leaves the board and the move ends, then its owner drops new men on the
// empty cells of the drop zone, judged on the board after the whole move
// (the start cell and the captured men's cells are empty): every pair of
// empty cells when there are two or more, the one empty cell, or none.
func (g *gen) leave(m *game.Move) {
	free := g.zone &^ (g.mine | g.theirs)
	// The drops are written on the copy already in the list, not on a
	// copy made first: see lookup.stepTo.
	switch bits.OnesCount64(free) {
	case 0:
		g.buf = append(g.buf, *m)
	case 1:
		g.buf = append(g.buf, *m)
		g.buf[len(g.buf)-1].Drop(board.Cell(bits.TrailingZeros64(free)))
	default:
		// The first drop is written once for all the pairs it begins.
		for x := free; x&(x-1) != 0; x &= x - 1 {
			first := *m
			first.Drop(board.Cell(bits.TrailingZeros64(x)))
			for y := x & (x - 1); y != 0; y &= y - 1 {
				g.buf = append(g.buf, first)
				g.buf[len(g.buf)-1].Drop(board.Cell(bits.TrailingZeros64(y)))
			}
		}
	}
}

// capturers returns the men of me that can capture: in some direction an
// enemy man next to it and an empty cell beyond, found on the whole board
// at once (each backward shift undoes the forward one).
func (t *lookup) capturers(me game.Player, mine, theirs uint64) uint64 {
	empty := ^(mine | theirs)
	var from uint64
	for d := range nDirs {
		back := t.shift[1-me][d]
		from |= back.apply(theirs & back.apply(empty))
	}
	return from & mine
}

// HasCapture reports whether the player to move has a capture to make:
// then every move Moves returns is a capture, else none is. Engines use it
// to tell a quiet position without listing its moves; it costs a few mask
// operations.
func (s *State) HasCapture() bool {
	me := s.pos.toMove
	mine, theirs := s.pos.men[me], s.pos.men[1-me]
	return theirs != 0 && s.g.t.capturers(me, mine, theirs) != 0
}

// HasMove reports whether the player to move has a legal move, as a
// non-empty Moves would, without listing them: a step to an empty cell in
// a forward direction (a man that lands on its far row leaves, with or
// without drops), or else a capture. Jumps need no look: a jump over a
// friendly man lands where that man could step. With HasCapture it lets
// an engine judge a quiet leaf (no capture: evaluate it; no move at all:
// lost) without listing its moves; Result asks it too.
func (s *State) HasMove() bool {
	me := s.pos.toMove
	mine, theirs := s.pos.men[me], s.pos.men[1-me]
	if mine == 0 || theirs == 0 {
		return false
	}
	t := s.g.t
	empty := ^(mine | theirs)
	for _, sh := range t.shift[me][:nForward] {
		if sh.apply(mine)&empty != 0 {
			return true
		}
	}
	return t.capturers(me, mine, theirs) != 0
}
