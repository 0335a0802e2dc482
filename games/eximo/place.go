package eximo

import (
	"fmt"
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Placement appends the men to buf in cell order and returns it
// (game.Placer, for endgame tables).
func (s *State) Placement(buf []game.Placed) []game.Placed {
	for rest := s.pos.men[Black] | s.pos.men[White]; rest != 0; rest &= rest - 1 {
		c := board.Cell(bits.TrailingZeros64(rest))
		buf = append(buf, game.Placed{Cell: c, Piece: game.Piece{Owner: s.Owner(c), Rank: game.Man}})
	}
	return buf
}

// Place makes s the position of pieces with toMove to move, its history
// starting there (game.Placer). It refuses what ParseFEN refuses: a cell
// off the board or taken twice, a king (Eximo has none), a man on its
// far row.
func (s *State) Place(pieces []game.Placed, toMove game.Player) error {
	t := s.g.t
	if toMove != Black && toMove != White {
		return fmt.Errorf("eximo: no player %d", toMove)
	}
	var p position
	for _, pc := range pieces {
		who, c := pc.Piece.Owner, int(pc.Cell)
		switch {
		case c < 0 || c >= cells:
			return fmt.Errorf("eximo: cell %d is off the board", c)
		case who != Black && who != White:
			return fmt.Errorf("eximo: no player %d", who)
		case pc.Piece.Rank != game.Man:
			return fmt.Errorf("eximo: %s: Eximo has no kings, only men", t.b.Name(pc.Cell))
		case (p.men[Black]|p.men[White])&(1<<c) != 0:
			return fmt.Errorf("eximo: two men on %s", t.b.Name(pc.Cell))
		case t.far[who]&(1<<c) != 0:
			return fmt.Errorf("eximo: a %s man cannot stand on %s: its far row, where men leave the board", s.g.PlayerName(who), t.b.Name(pc.Cell))
		}
		p.toggle(t, who, c)
	}
	if p.toMove = toMove; toMove == White {
		p.hash ^= t.sideKey
	}
	s.pos = p
	s.undo = s.undo[:0]
	s.swappable = false
	return nil
}

// DropsMen tells endgame tables that every piece of Eximo is a man and
// that a move can add men (a man that leaves on the far row drops up to
// two): the tables then solve their materials together (see
// docs/tables.md).
func (g *Game) DropsMen() bool { return true }
