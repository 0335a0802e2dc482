package pommel

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/textboard"
)

// piece is what stands on a cell: 0 for empty, else the owner in the low
// two bits (1 White, 2 Black) and the captain flag.
type piece uint8

const (
	empty        piece = 0
	whiteSoldier piece = 1
	blackSoldier piece = 2
	captainFlag  piece = 4
	whiteCaptain       = whiteSoldier | captainFlag
	blackCaptain       = blackSoldier | captainFlag
)

func soldierOf(p game.Player) piece { return piece(p + 1) }

// owner returns the piece's owner; only for non-empty pieces.
func (p piece) owner() game.Player { return game.Player(p&3) - 1 }

func (p piece) isCaptain() bool { return p&captainFlag != 0 }

// pieceKey indexes the Zobrist table: 0..3 for the four kinds.
func (p piece) key() int { return int(p&3) - 1 + int(p>>2)*2 }

// cellSet is a set of cells as a bit mask: 76 cells fit in two words.
type cellSet [2]uint64

func (s *cellSet) toggle(c board.Cell) { s[c>>6] ^= 1 << (c & 63) }

// position is everything the rules look at. It is small and copied whole
// for undo: cheaper and simpler than reversing a capture chain.
type position struct {
	cells [maxCells]piece
	// pieces[p] is the set of cells holding p's pieces, so that move
	// generation visits a side's pieces without scanning the board.
	pieces [2]cellSet
	count  [2]uint8
	toMove game.Player
	hash   uint64
}

func (p *position) put(t *tables, c board.Cell, v piece) {
	p.cells[c] = v
	p.count[v.owner()]++
	p.pieces[v.owner()].toggle(c)
	p.hash ^= t.keys[int(c)*4+v.key()]
}

func (p *position) remove(t *tables, c board.Cell) piece {
	v := p.cells[c]
	p.cells[c] = empty
	p.count[v.owner()]--
	p.pieces[v.owner()].toggle(c)
	p.hash ^= t.keys[int(c)*4+v.key()]
	return v
}

// State is a Pommel position with its history. It implements game.State
// and game.Stacker.
type State struct {
	g    *Game
	pos  position
	ply  int
	undo []position
	hist game.History
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
	if int(c) >= s.g.t.n || s.pos.cells[c] == empty {
		return game.NoPlayer
	}
	return s.pos.cells[c].owner()
}

// Count returns how many pieces p has.
func (s *State) Count(p game.Player) int { return int(s.pos.count[p]) }

// Play makes a move that Moves returned: the piece leaves its cell, every
// enemy piece between consecutive cells of the path is removed, and a
// soldier that ends on its last cell becomes a captain.
func (s *State) Play(m game.Move) {
	t := s.g.t
	s.undo = append(s.undo, s.pos)
	p := &s.pos
	me := p.toMove
	cur := m.From()
	v := p.remove(t, cur)
	// A capture removes every piece between consecutive cells of its path;
	// a step passes over pieces and leaves them.
	for i := 1; i < m.Len() && m.IsCapture(); i++ {
		to := m.At(i)
		d, _ := t.b.DirTo(cur, to)
		for _, x := range t.b.Ray(cur, d) {
			if x == to {
				break
			}
			if p.cells[x] != empty {
				p.remove(t, x)
			}
		}
		cur = to
	}
	cur = m.To()
	wasSoldier := !v.isCaptain()
	if wasSoldier && t.lastCell[me][cur] {
		v |= captainFlag
	}
	p.put(t, cur, v)
	p.toMove = 1 - me
	p.hash ^= t.sideKey
	s.ply++
	// Soldiers never move back and pieces never come back: both kinds of
	// move make every earlier position unreachable.
	s.hist.Push(p.hash, wasSoldier || m.IsCapture())
}

// Undo takes back the last move.
func (s *State) Undo() bool {
	if len(s.undo) == 0 {
		return false
	}
	s.pos = s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	s.ply--
	s.hist.Pop()
	return true
}

// Result applies RULINGS sections 0 and 1: a player with no pieces loses,
// and so does the player to move without a legal move; otherwise the draw
// safeguards apply.
func (s *State) Result() game.Result {
	me := s.pos.toMove
	moves := 0
	if s.hasMove() {
		moves = 1 // DuelEnd only asks whether there is one
	}
	return game.DuelEnd(me, s.pos.count[me] != 0, s.pos.count[1-me] != 0, moves, &s.hist, s.ply, s.g.maxPlies)
}

// Clone returns an independent copy of the state, history included.
func (s *State) Clone() game.State {
	c := &State{g: s.g, pos: s.pos, ply: s.ply, hist: s.hist.Clone()}
	c.undo = append([]position(nil), s.undo...)
	return c
}

// Stack appends the piece on c to buf, if any, and returns it: a soldier
// is a game.Man, a captain a game.King.
func (s *State) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	if int(c) >= s.g.t.n || s.pos.cells[c] == empty {
		return buf
	}
	v := s.pos.cells[c]
	rank := game.Man
	if v.isCaptain() {
		rank = game.King
	}
	return append(buf, game.Piece{Owner: v.owner(), Rank: rank})
}

// String draws the board as seat 0 sees it and says who is to move.
func (s *State) String() string {
	return textboard.String(s) + s.g.PlayerName(s.pos.toMove) + " to move\n"
}
