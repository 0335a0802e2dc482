package pommel

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// kindKey indexes the Zobrist keys of a cell: 0..3 for White's and
// Black's soldiers, then their captains.
func kindKey(owner game.Player, captain bool) int {
	k := int(owner)
	if captain {
		k += 2
	}
	return k
}

// position is everything the rules look at, as cell sets. It is small
// (64 bytes) and copied whole for undo: cheaper and simpler than reversing
// a capture chain.
type position struct {
	// pieces[p] are the cells of p's pieces, captains those of the
	// captains of both sides.
	pieces   [2]cellSet
	captains cellSet
	count    [2]uint8
	toMove   game.Player
	// since is the ply of the earliest position that this one may
	// repeat: the one after the last irreversible move. It travels with
	// the position onto the 76-cell board's undo stack, so that Undo
	// restores it; it fills what would be padding.
	since int32
	hash  uint64
}

// put places a piece of owner on the empty cell c.
func (p *position) put(t *lookup, c board.Cell, owner game.Player, captain bool) {
	p.pieces[owner] = p.pieces[owner].or(setOf(c))
	if captain {
		p.captains = p.captains.or(setOf(c))
	}
	p.count[owner]++
	p.hash ^= t.keys[int(c)*4+kindKey(owner, captain)]
}

// take removes the pieces of owner on the cells of s.
func (p *position) take(t *lookup, s cellSet, owner game.Player) {
	for rest := s; !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		p.hash ^= t.keys[int(c)*4+kindKey(owner, p.captains.has(c))]
	}
	p.pieces[owner] = p.pieces[owner].andNot(s)
	p.captains = p.captains.andNot(s)
	p.count[owner] -= uint8(s.count())
}

// restore puts back the pieces of owner on the cells of s that take
// removed, those on the cells of captains as captains; the hash is the
// caller's to restore.
func (p *position) restore(s, captains cellSet, owner game.Player) {
	p.pieces[owner] = p.pieces[owner].or(s)
	p.captains = p.captains.or(captains)
	p.count[owner] += uint8(s.count())
}

// at returns the owner of the piece on c, or game.NoPlayer, and whether
// it is a captain.
func (p *position) at(c board.Cell) (game.Player, bool) {
	switch {
	case p.pieces[White].has(c):
		return White, p.captains.has(c)
	case p.pieces[Black].has(c):
		return Black, p.captains.has(c)
	}
	return game.NoPlayer, false
}

// State is a Pommel position with its history. It implements game.State
// and game.Stacker.
type State struct {
	g *Game
	// t is g.t, one pointer fewer to follow at every move.
	t   *lookup
	pos position
	ply int
	// undo (the 45-cell board) and positions (the 76-cell board) are
	// what Undo goes back by, and the history the repetition rule reads
	// (a separate history was a second allocation per game): see undo.go.
	undo      []uint64
	positions []position
	// swappable tells that the game began at the start position with the
	// pie rule: Swap is then a move at ply 1. A FEN position has no swap.
	swappable bool
}

// Game returns the game the state belongs to.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move.
func (s *State) ToMove() game.Player { return s.pos.toMove }

// Ply returns the number of moves played since the start or FEN position.
func (s *State) Ply() int { return s.ply }

// Hash returns the Zobrist hash of the position and the player to move.
func (s *State) Hash() uint64 { return s.pos.hash }

// Owner returns the owner of the piece on c, or game.NoPlayer.
func (s *State) Owner(c board.Cell) game.Player {
	if int(c) >= s.t.n {
		return game.NoPlayer
	}
	owner, _ := s.pos.at(c)
	return owner
}

// Count returns how many pieces p has.
func (s *State) Count(p game.Player) int { return int(s.pos.count[p]) }

// Play makes a move that Moves returned: the piece leaves its cell, every
// enemy piece between consecutive cells of the path is removed, and a
// soldier that ends on its last cell becomes a captain.
func (s *State) Play(m game.Move) {
	if m.IsSwap() {
		s.playSwap()
		return
	}
	t := s.t
	p := &s.pos
	me := p.toMove
	from, to := m.From(), m.To()
	captain := p.captains.bit(from) != 0
	var taken cellSet
	if m.IsCapture() {
		taken = t.crossed(m).and(p.pieces[1-me])
	}
	if t.narrow {
		s.pushMove(from, to, captain, taken, taken.and(p.captains))
	} else {
		s.positions = append(s.positions, s.pos)
	}
	if m.IsCapture() {
		p.take(t, taken, 1-me)
	}
	// The captured pieces are gone before the piece lands: a chain may
	// land where it took a piece before.
	promoted := captain || t.lastRow[me].bit(to) != 0
	p.pieces[me] = p.pieces[me].andNot(setOf(from)).or(setOf(to))
	p.captains = p.captains.andNot(setOf(from))
	if promoted {
		p.captains = p.captains.or(setOf(to))
	}
	p.hash ^= t.sideKey ^ t.keys[int(from)*4+kindKey(me, captain)] ^ t.keys[int(to)*4+kindKey(me, promoted)]
	p.toMove = 1 - me
	s.ply++
	// Soldiers never move back and pieces never come back: both kinds of
	// move make every earlier position unreachable.
	if !captain || m.IsCapture() {
		p.since = int32(s.ply)
	}
}

// playSwap plays the pie rule's move: the position is mirrored whole
// (game.Mirror), and Undo takes it back like any move, from the stack.
// No position before it can occur again: it is irreversible.
func (s *State) playSwap() {
	mirror := game.PlaySwap(s).(*State)
	if s.t.narrow {
		s.pushSwap()
	} else {
		s.positions = append(s.positions, s.pos)
	}
	s.pos = mirror.pos
	s.ply++
	s.pos.since = int32(s.ply)
}

// crossed returns the cells a capture passes over or lands on after its
// start. The enemy pieces among them are exactly the ones it takes: it
// crosses only empty cells and the pieces it jumps, and it can only land
// on a cell that is empty or whose piece it has already taken.
func (t *lookup) crossed(m game.Move) cellSet {
	var s cellSet
	cur := m.From()
	for i := 1; i < m.Len(); i++ {
		to := m.At(i)
		d, _ := t.b.DirTo(cur, to)
		s = s.or(t.rays[cur][d].andNot(t.rays[to][d]))
		cur = to
	}
	return s
}

// Undo takes back the last move.
func (s *State) Undo() bool {
	switch {
	case s.ply == 0:
		return false
	case s.t.narrow:
		s.popMove()
	default:
		s.pos = s.positions[len(s.positions)-1]
		s.positions = s.positions[:len(s.positions)-1]
	}
	s.ply--
	return true
}

// Result applies RULINGS sections 0 and 1: a player with no pieces loses,
// and so does the player to move without a legal move; otherwise the draw
// safeguards apply.
// The order is game.DuelEnd's, which reads a game.History: here the undo
// stack is the history.
func (s *State) Result() game.Result {
	me := s.pos.toMove
	switch {
	case s.pos.count[me] == 0:
		return game.Win(1-me, game.NoPieces)
	case s.pos.count[1-me] == 0: // only from a FEN: no move leaves its mover without pieces
		return game.Win(me, game.NoPieces)
	case !s.hasMove():
		return game.Win(1-me, game.NoMoves)
	case s.repeats() >= 3:
		return game.DrawBy(game.Repetition)
	case s.g.maxPlies > 0 && s.ply >= s.g.maxPlies:
		return game.DrawBy(game.PlyCap)
	}
	return game.Result{}
}

// Clone returns an independent copy of the state, history included.
func (s *State) Clone() game.State {
	c := &State{g: s.g, t: s.t, pos: s.pos, ply: s.ply, swappable: s.swappable}
	c.undo = append([]uint64(nil), s.undo...)
	c.positions = append([]position(nil), s.positions...)
	return c
}

// Stack appends the piece on c to buf, if any, and returns it: a soldier
// is a game.Man, a captain a game.King.
func (s *State) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	if int(c) >= s.t.n {
		return buf
	}
	owner, captain := s.pos.at(c)
	if owner == game.NoPlayer {
		return buf
	}
	rank := game.Man
	if captain {
		rank = game.King
	}
	return append(buf, game.Piece{Owner: owner, Rank: rank})
}
