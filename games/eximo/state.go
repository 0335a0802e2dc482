package eximo

import (
	"math/bits"
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// position is everything the rules look at: the men of each side as bit
// sets (bit c is cell c: a1 = 0, h1 = 7, a2 = 8, ...), the Zobrist hash of
// the men and the player to move, and the player to move. It is copied
// whole for undo: 32 bytes, two aligned 16-byte moves each way.
type position struct {
	men    [2]uint64
	hash   uint64
	toMove game.Player
}

// toggle puts a man of p on an empty cell c, or takes it off.
func (p *position) toggle(t *lookup, who game.Player, c int) {
	p.men[who] ^= 1 << c
	p.hash ^= t.keys[who][c]
}

// State is an Eximo position with its history. It implements game.State
// and game.Stacker.
//
// The undo stack is the history too: it holds every earlier position since
// the start or the FEN, with its hash, which is all the repetition rule
// needs. No kind of Eximo move is irreversible (men that advanced or were
// captured can be replaced by drops, and a man dropped on the cell another
// left may walk back to where that one stood: the rule test "repetition
// through drops" plays such a cycle), so every earlier position may occur
// again and a separate game.History would only copy the stack.
type State struct {
	g    *Game
	pos  position
	undo []position // one entry per move played: its length is the ply
	// swappable tells that the game began at the start position with the
	// pie rule: Swap is then a move at ply 1. A FEN position has no swap.
	swappable bool
}

// Game returns the game the state belongs to.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move.
func (s *State) ToMove() game.Player { return s.pos.toMove }

// Ply returns the number of moves played since the start or FEN position.
func (s *State) Ply() int { return len(s.undo) }

// Hash returns the Zobrist hash of the position and the player to move.
func (s *State) Hash() uint64 { return s.pos.hash }

// Owner returns the owner of the man on c, or game.NoPlayer.
func (s *State) Owner(c board.Cell) game.Player {
	switch {
	case int(c) >= cells:
		return game.NoPlayer
	case s.pos.men[Black]&(1<<c) != 0:
		return Black
	case s.pos.men[White]&(1<<c) != 0:
		return White
	}
	return game.NoPlayer
}

// Count returns how many men p has.
func (s *State) Count(p game.Player) int { return bits.OnesCount64(s.pos.men[p]) }

// Play makes a move that Moves returned: the man leaves its start cell, a
// capture removes the man between each pair of consecutive cells of the
// path, the man stands on its last cell unless that is its far row (then it
// has left the board), and the drops put new men on their cells.
func (s *State) Play(m game.Move) {
	if m.IsSwap() {
		s.playSwap()
		return
	}
	t := s.g.t
	p := &s.pos
	// Copied straight from the position onto the stack (append copies it
	// through a temporary first).
	n := len(s.undo)
	s.undo = slices.Grow(s.undo, 1)[:n+1]
	s.undo[n] = *p
	me := p.toMove
	p.toggle(t, me, int(m.From()))
	if m.IsCapture() {
		// Every jump is two cells in a straight line, so the jumped man
		// stands on the cell numbered halfway between.
		for i := 1; i < m.Len(); i++ {
			p.toggle(t, 1-me, (int(m.At(i-1))+int(m.At(i)))/2)
		}
	}
	if to := int(m.To()); t.far[me]&(1<<to) == 0 {
		p.toggle(t, me, to)
	}
	for _, c := range m.Drops() {
		p.toggle(t, me, int(c))
	}
	p.toMove = 1 - me
	p.hash ^= t.sideKey
}

// playSwap plays the pie rule's move: the position is mirrored whole
// (game.Mirror), and Undo takes it back like any move, from the stack.
func (s *State) playSwap() {
	mirror := game.PlaySwap(s).(*State)
	s.undo = append(s.undo, s.pos)
	s.pos = mirror.pos
}

// Undo takes back the last move.
func (s *State) Undo() bool {
	if len(s.undo) == 0 {
		return false
	}
	s.pos = s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	return true
}

// Result applies RULINGS sections 0 and 2: a player with no men loses, and
// so does the player to move without a legal move; otherwise the draw
// safeguards apply.
func (s *State) Result() game.Result {
	me := s.pos.toMove
	switch {
	case s.pos.men[me] == 0:
		return game.Win(1-me, game.NoPieces)
	case s.pos.men[1-me] == 0: // only from a FEN: no move leaves its mover without men
		return game.Win(me, game.NoPieces)
	case !s.HasMove():
		return game.Win(1-me, game.NoMoves)
	case s.repeats() >= 3:
		return game.DrawBy(game.Repetition)
	case s.g.maxPlies > 0 && len(s.undo) >= s.g.maxPlies:
		return game.DrawBy(game.PlyCap)
	}
	return game.Result{}
}

// repeats counts how many times the current position has occurred since
// the start or the FEN, itself included. Only every second earlier
// position has the same player to move, so only those are compared.
func (s *State) repeats() int {
	n := 1
	for i := len(s.undo) - 2; i >= 0; i -= 2 {
		if s.undo[i].hash == s.pos.hash {
			n++
		}
	}
	return n
}

// Clone returns an independent copy of the state, history included.
func (s *State) Clone() game.State {
	c := &State{g: s.g, pos: s.pos, swappable: s.swappable}
	c.undo = append(make([]position, 0, max(undoRoom, len(s.undo))), s.undo...)
	return c
}

// Stack appends the man on c to buf, if any, and returns it: Eximo has
// no promoted piece, so every man is a game.Man.
func (s *State) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	if owner := s.Owner(c); owner != game.NoPlayer {
		buf = append(buf, game.Piece{Owner: owner, Rank: game.Man})
	}
	return buf
}
