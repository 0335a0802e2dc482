package pommel

import (
	"fmt"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Placement appends the pieces of the position to buf in cell order: a
// soldier is a game.Man, a captain a game.King. It walks the two sides'
// cell sets, so it costs a few instructions a piece, not one a cell.
func (s *State) Placement(buf []game.Placed) []game.Placed {
	for rest := s.pos.pieces[White].or(s.pos.pieces[Black]); !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		owner, captain := s.pos.at(c)
		rank := game.Man
		if captain {
			rank = game.King
		}
		buf = append(buf, game.Placed{Cell: c, Piece: game.Piece{Owner: owner, Rank: rank}})
	}
	return buf
}

// Place makes s the position of pieces with toMove to move, its history
// starting there (game.Placer). It refuses what ParseFEN refuses.
func (s *State) Place(pieces []game.Placed, toMove game.Player) error {
	t := s.t
	if toMove != White && toMove != Black {
		return fmt.Errorf("pommel: no player %d", toMove)
	}
	var p position
	for _, pc := range pieces {
		if err := s.g.checkPlaced(p, pc); err != nil {
			return err
		}
		p.put(t, pc.Cell, pc.Piece.Owner, pc.Piece.Rank == game.King)
	}
	if p.toMove = toMove; toMove == Black {
		p.hash ^= t.sideKey
	}
	s.pos = p
	s.ply = 0
	s.undo, s.positions = s.undo[:0], s.positions[:0]
	s.swappable = false
	return nil
}

// checkPlaced refuses a piece that cannot join p: off the board, on an
// occupied cell, of no player, of no rank, a soldier on its last row, or
// one more than a side starts with.
func (g *Game) checkPlaced(p position, pc game.Placed) error {
	t := g.t
	c, who := pc.Cell, pc.Piece.Owner
	switch {
	case int(c) >= t.n:
		return fmt.Errorf("pommel: no cell %d on %s", c, t.v.id)
	case who != White && who != Black:
		return fmt.Errorf("pommel: no player %d", who)
	case pc.Piece.Rank != game.Man && pc.Piece.Rank != game.King:
		return fmt.Errorf("pommel: no rank %d", pc.Piece.Rank)
	case p.pieces[White].or(p.pieces[Black]).has(c):
		return fmt.Errorf("pommel: two pieces on %s", t.b.Name(c))
	case pc.Piece.Rank == game.Man && t.lastRow[who].has(c):
		return fmt.Errorf("pommel: a %s soldier on %s would have been promoted", g.PlayerName(who), t.b.Name(c))
	case int(p.count[who]) >= t.maxPieces:
		return fmt.Errorf("pommel: %s has more than %d pieces", g.PlayerName(who), t.maxPieces)
	}
	return nil
}
