package pommel

import (
	"fmt"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// fenSyntax is Pommel's FEN, in the style of PDN's FEN tag: the side
// to move, then each side's pieces, captains prefixed with K, in cell
// order:
//
//	W:Wa1,a2,Kc6:Bg5,g6
func fenSyntax(v variant, b *board.Board) game.PieceListFEN {
	return game.PieceListFEN{
		Board:   b,
		Letters: "WB",
		Order:   []game.Player{White, Black},
		Names:   []string{"White", "Black"},
		ToMove:  "the side to move must be W or B",
		Fields:  "a FEN has at most three fields (side to move, White's pieces, Black's pieces)",
		List:    "a piece list",
		Pieces:  "pieces",
		Cells:   v.id + " (write cells such as a1, captains as Ka1)",
	}
}

// FEN writes the position as fenSyntax describes.
func (s *State) FEN() string {
	return string(s.g.t.fen.Append(nil, s.pos.toMove, func(c board.Cell) (game.Player, bool) {
		return s.pos.at(c)
	}))
}

// ParseFEN reads a position written as FEN does. The history starts at
// this position: Ply is 0 and earlier repetitions are unknown.
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
	me, err := t.fen.Parse(fen, func(who game.Player, captain bool, c board.Cell) string {
		if !captain && t.lastRow[who].has(c) {
			name := t.b.Name(c)
			return fmt.Sprintf("a %s soldier on %s would have been promoted: write K%s", g.PlayerName(who), name, name)
		}
		p.put(t, c, who, captain)
		if int(p.count[who]) > t.maxPieces {
			return fmt.Sprintf("%s has more than %d pieces, the most a side starts with", g.PlayerName(who), t.maxPieces)
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	if p.toMove = me; me == Black {
		p.hash ^= t.sideKey
	}
	return g.newState(p), nil
}
