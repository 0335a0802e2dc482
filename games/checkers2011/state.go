package checkers2011

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// A piece is coded in two bits: bit 0 is its owner (0 White, 1 Black),
// bit 1 is set for a king.
func code(p game.Player, r game.Rank) uint64 { return uint64(p) | uint64(r)<<1 }

const kingBit = 2

// letters are the piece letters of the drawings and the FEN, by code.
const letters = "wbWB"

// stack is the pieces on one cell, top first: the commander in bits 0-1,
// the piece under it in bits 2-3, and so on, h pieces in all. Top first
// makes both halves of an imprisonment one shift: the jumped stack loses
// its low two bits, the jumper gains two bits above its highest.
type stack struct {
	bits uint64
	h    uint8
}

// position is everything the rules look at.
type position struct {
	cells  [numCells]uint64 // stack bits, see stack
	height [numCells]uint8
	// Bitboards, bit c for cell c: occupied cells, cells commanded by
	// each player, and cells whose commander is a king. The move
	// generator and the sandwich test read only these and the lookup.
	occ   uint64
	side  [2]uint64
	kings uint64
	// toMove is the player to move.
	toMove game.Player
	// hash is the XOR of every stack's stackHash and, with Black to move,
	// the side key.
	hash uint64
}

func (p *position) stackAt(c board.Cell) stack { return stack{p.cells[c], p.height[c]} }

// set replaces the stack on c (an empty stack empties the cell) and keeps
// the bitboards and the hash in step.
func (p *position) set(t *lookup, c board.Cell, st stack) {
	p.hash ^= t.stackHash(c, p.stackAt(c)) ^ t.stackHash(c, st)
	p.restore(c, st)
}

// restore puts back a saved stack on c with the bitboards, leaving the
// hash to the caller (Undo restores the whole hash at once).
func (p *position) restore(c board.Cell, st stack) {
	p.cells[c], p.height[c] = st.bits, st.h
	bit := uint64(1) << c
	p.occ &^= bit
	p.side[0] &^= bit
	p.side[1] &^= bit
	p.kings &^= bit
	if st.h > 0 {
		p.occ |= bit
		p.side[st.bits&1] |= bit
		if st.bits&kingBit != 0 {
			p.kings |= bit
		}
	}
}

// put places a stack on an empty cell, for setting up positions.
func (p *position) put(t *lookup, c board.Cell, st stack) { p.set(t, c, st) }

// pop takes the top piece off the stack on c and returns its code.
func (p *position) pop(t *lookup, c board.Cell) uint64 {
	st := p.stackAt(c)
	p.set(t, c, stack{st.bits >> 2, st.h - 1})
	return st.bits & 3
}

// stackHash is a stack's share of the position hash. A table of keys for
// every (cell, height, piece) would not be incremental, since a capture
// shifts every piece of two stacks; instead the packed stack, which is
// unique for a given height, is mixed with a random key for its cell and
// height by a bijective 64-bit finaliser (splitmix64's). Changing a stack
// costs one lookup and two multiplications.
func (t *lookup) stackHash(c board.Cell, st stack) uint64 {
	if st.h == 0 {
		return 0
	}
	z := st.bits ^ t.keys[int(c)*(maxHeight+1)+int(st.h)]
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// other is the opponent of p in this two-player game.
func other(p game.Player) game.Player { return 1 - p }

// undoRec is what Undo needs besides the saved cells: the hash and side
// to move before the move, and how many cells the move saved. The
// bitboards are rebuilt from the saved cells as they are restored, so a
// record is 16 bytes: a long game's undo stack stays small, and random
// playouts, which build one per game, make little garbage.
type undoRec struct {
	hash   uint64
	toMove game.Player
	n      uint8 // at most 1 + 16 jumps + 1 + 32 eliminated stacks
}

// savedCell is a cell's stack before a move changed it.
type savedCell struct {
	bits uint64
	c    board.Cell
	h    uint8
}

// State is a Checkers 2011 position with its history. It implements
// game.State and game.Stacker.
type State struct {
	g    *Game
	pos  position
	ply  int
	undo []undoRec
	// saved holds the cells every move changed, in order, for Undo.
	saved []savedCell
	hist  game.History
	// swappable tells that the game began at the start position with the
	// pie rule: Swap is then a move at ply 1. A FEN position has no swap.
	swappable bool
}

var _ game.Stacker = (*State)(nil)

// Game returns the game the state belongs to.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move.
func (s *State) ToMove() game.Player { return s.pos.toMove }

// Ply returns the number of moves played since the start or FEN position.
func (s *State) Ply() int { return s.ply }

// Hash returns the hash of the position and the player to move.
func (s *State) Hash() uint64 { return s.pos.hash }

// Owner returns the player who commands the stack on c, or game.NoPlayer.
func (s *State) Owner(c board.Cell) game.Player {
	if int(c) >= numCells || s.pos.height[c] == 0 {
		return game.NoPlayer
	}
	return game.Player(s.pos.cells[c] & 1)
}

// Stack appends the pieces on c to buf, bottom first (the commander
// last), and returns it.
func (s *State) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	if int(c) >= numCells {
		return buf
	}
	st := s.pos.stackAt(c)
	for i := int(st.h) - 1; i >= 0; i-- {
		v := st.bits >> (2 * i) & 3
		buf = append(buf, game.Piece{Owner: game.Player(v & 1), Rank: game.Rank(v >> 1)})
	}
	return buf
}

// Height returns the number of pieces on c.
func (s *State) Height(c board.Cell) int { return int(s.pos.height[c]) }

// Commands returns the number of stacks p commands.
func (s *State) Commands(p game.Player) int { return bits.OnesCount64(s.pos.side[p]) }

// Pieces returns the number of p's pieces on the board, prisoners
// included.
func (s *State) Pieces(p game.Player) int { return s.pos.pieces(p) }

func (p *position) pieces(who game.Player) int {
	n := 0
	for c := 0; c < numCells; c++ {
		st := p.stackAt(board.Cell(c))
		black := bits.OnesCount64(st.bits & 0x5555_5555_5555_5555)
		if who == Black {
			n += black
		} else {
			n += int(st.h) - black
		}
	}
	return n
}

// Play makes a move that Moves returned: the stack leaves its cell, takes
// the top piece of every stack it jumps and puts it at its own bottom,
// promotes its soldier commander on the last rank, and then eliminates the
// enemy stacks it sandwiches.
func (s *State) Play(m game.Move) {
	if m.IsSwap() {
		s.playSwap()
		return
	}
	t := s.g.t
	p := &s.pos
	s.undo = append(s.undo, undoRec{hash: p.hash, toMove: p.toMove})
	mark := len(s.saved)
	me := p.toMove
	stacksBefore := bits.OnesCount64(p.occ)
	from := m.From()
	st := p.stackAt(from)
	s.save(from)
	p.set(t, from, stack{})
	if m.IsCapture() {
		prev := from
		for i := 1; i < m.Len(); i++ {
			land := m.At(i)
			// A jump always spans two cells in a straight line, so the
			// jumped cell's index is the mean of the two on a square board.
			mid := (prev + land) / 2
			s.save(mid)
			st.bits |= p.pop(t, mid) << (2 * st.h)
			st.h++
			prev = land
		}
	}
	to := m.To()
	promoted := st.bits&kingBit == 0 && t.lastRank[me]>>to&1 != 0
	if promoted {
		st.bits |= kingBit
	}
	s.save(to)
	p.set(t, to, st)
	for dead := p.sandwiched(t, to); dead != 0; dead &= dead - 1 {
		c := board.Cell(bits.TrailingZeros64(dead))
		s.save(c)
		p.set(t, c, stack{})
	}
	s.undo[len(s.undo)-1].n = uint8(len(s.saved) - mark)
	p.toMove = other(me)
	p.hash ^= t.sideKey
	s.ply++
	// The number of stacks never grows (a move or an imprisonment keeps
	// it, capturing a lone piece or an elimination lowers it) and kings
	// are never demoted, so after a move that lowers the count or
	// promotes, no earlier position can come back. Other captures keep
	// both and may in principle be undone by later play.
	s.hist.Push(p.hash, promoted || bits.OnesCount64(p.occ) < stacksBefore)
}

// save records the stack on c before the move being played changes it.
// playSwap plays the pie rule's move: the position is mirrored whole
// (game.Mirror). Every cell is saved, so that Undo takes it back as it
// takes back any move; no earlier position can occur again.
func (s *State) playSwap() {
	mirror := game.PlaySwap(s).(*State)
	s.undo = append(s.undo, undoRec{hash: s.pos.hash, toMove: s.pos.toMove, n: numCells})
	for c := range board.Cell(numCells) {
		s.save(c)
	}
	s.pos = mirror.pos
	s.ply++
	s.hist.Push(s.pos.hash, true)
}

func (s *State) save(c board.Cell) {
	s.saved = append(s.saved, savedCell{bits: s.pos.cells[c], c: c, h: s.pos.height[c]})
}

// sandwiched returns the enemy stacks the mover's stack on c eliminates
// (RULINGS section 3): along each orthogonal direction, a run of
// enemy-commanded stacks closed by a friendly-commanded one. A run that
// reaches a corner goes on along the other edge. All runs are found on the
// board after the move, before any stack is removed.
func (p *position) sandwiched(t *lookup, c board.Cell) uint64 {
	me := p.toMove
	friend, enemy := p.side[me], p.side[other(me)]
	var dead uint64
	for _, d0 := range [4]int{board.SqN, board.SqE, board.SqS, board.SqW} {
		d, cur := d0, c
		var run uint64
		// The walk ends: a straight line ends at an edge, and a walk that
		// turns at corners started on the edge and follows the border
		// round to c itself, which is friendly.
		for {
			next := t.nb[cur][d]
			if next == board.None {
				break
			}
			bit := uint64(1) << next
			if enemy&bit == 0 {
				if friend&bit != 0 {
					dead |= run
				}
				break
			}
			run |= bit
			if turn := t.turn[next][d]; turn >= 0 {
				d = int(turn)
			}
			cur = next
		}
	}
	return dead
}

// Undo takes back the last move.
func (s *State) Undo() bool {
	if len(s.undo) == 0 {
		return false
	}
	r := &s.undo[len(s.undo)-1]
	p := &s.pos
	// Later saves of a cell hold later states: restore newest first.
	n := len(s.saved) - int(r.n)
	for i := len(s.saved) - 1; i >= n; i-- {
		sv := s.saved[i]
		p.restore(sv.c, stack{sv.bits, sv.h})
	}
	s.saved = s.saved[:n]
	p.hash, p.toMove = r.hash, r.toMove
	s.undo = s.undo[:len(s.undo)-1]
	s.ply--
	s.hist.Pop()
	return true
}

// Result applies RULINGS sections 0 and 3: a player who commands no stack
// loses, and so does the player to move without a legal move; otherwise
// the draw safeguards apply.
func (s *State) Result() game.Result {
	me := s.pos.toMove
	moves := 0
	if s.hasMove() {
		moves = 1 // DuelEnd only asks whether there is one
	}
	return game.DuelEnd(me, s.pos.side[me] != 0, s.pos.side[other(me)] != 0, moves, &s.hist, s.ply, s.g.maxPlies)
}

// Clone returns an independent copy of the state, history included.
func (s *State) Clone() game.State {
	c := &State{g: s.g, pos: s.pos, ply: s.ply, hist: s.hist.Clone(), swappable: s.swappable}
	c.undo = append([]undoRec(nil), s.undo...)
	c.saved = append([]savedCell(nil), s.saved...)
	return c
}

// appendStack writes a stack bottom first in piece letters: w and b for
// soldiers, W and B for kings.
func appendStack(dst []byte, st stack) []byte {
	for i := int(st.h) - 1; i >= 0; i-- {
		dst = append(dst, letters[st.bits>>(2*i)&3])
	}
	return dst
}
