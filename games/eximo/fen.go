package eximo

import (
	"fmt"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// fenSyntax is Eximo's FEN, in the style of PDN's FEN tag: the side to
// move (B or W), then White's men, then Black's men, each list in cell
// order:
//
//	B:Wb6,c6,f6,g6,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,b3,c3,f3,g3
//
// Nothing else is needed: Eximo has no kings, the drop zones are fixed by
// the rules, and drops are part of the move that earns them, so no drop is
// ever pending between two moves.
func fenSyntax(b *board.Board) game.PieceListFEN {
	return game.PieceListFEN{
		Board:   b,
		Letters: "BW",
		Order:   []game.Player{White, Black},
		Names:   []string{"Black", "White"},
		ToMove:  "the side to move must be B or W",
		Fields:  "a FEN has at most three fields (side to move, White's men, Black's men)",
		List:    "a list of men",
		Pieces:  "men",
		Cells:   ID + " (write cells such as a1)",
		NoKings: "%q: Eximo has no kings, only men (write %s)",
	}
}

// FEN writes the position as fenSyntax describes.
func (s *State) FEN() string {
	return string(s.g.t.fen.Append(nil, s.pos.toMove, func(c board.Cell) (game.Player, bool) {
		return s.Owner(c), false
	}))
}

// ParseFEN reads a position written as FEN does; the two lists may come in
// either order, the men of a list in any order. The history starts at this
// position: Ply is 0 and earlier repetitions are unknown.
func (g *Game) ParseFEN(fen string) (game.State, error) {
	s, err := g.parseFEN(fen)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (g *Game) parseFEN(fen string) (*State, error) {
	t := g.t
	var p position
	me, err := t.fen.Parse(fen, func(who game.Player, _ bool, c board.Cell) string {
		if t.far[who]&(1<<c) != 0 {
			return fmt.Sprintf("a %s man cannot stand on %s: its far row, where men leave the board", g.PlayerName(who), t.b.Name(c))
		}
		p.toggle(t, who, int(c))
		return ""
	})
	if err != nil {
		return nil, err
	}
	if p.toMove = me; me == White {
		p.hash ^= t.sideKey
	}
	return g.newState(p), nil
}
