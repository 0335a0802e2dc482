package punt

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// fenSyntax is a variant's FEN, in the shape Checkers 2011 uses for its
// stacks: the player to move (W, B or R), a colon, then every pile as
// cell=colours, its pawns from the bottom up (w, b, r), so that the last
// letter is the pile's controller, separated by commas, in cell order:
//
//	W:a1=w,c4=bw,d4=wwb,h1=b
//	R:a1=w,d1=b,e5=wbr,i4=r
//
// The empty board is "W:".
func fenSyntax(v variant, b *board.Board) game.StackFEN {
	var upperCase []byte
	for _, s := range v.seats {
		upperCase = append(upperCase, upper(s.letter))
	}
	return game.StackFEN{
		Board:   b,
		Letters: string(upperCase),
		ToMove:  "the player to move must be one of " + letters(v, true),
		Fields:  "a FEN has two fields separated by ':', the player to move and the piles (W:a1=w,c4=bw)",
		Item:    "pile",
		Pieces:  "pawns",
		Syntax:  fmt.Sprintf("write a pile as cell=colours, bottom pawn first, such as %s=w or %s=bw", b.Name(0), b.Name(0)),
		Cells:   v.id,
	}
}

// FEN writes the position as fenSyntax describes.
func (s *State) FEN() string {
	return string(s.g.t.fen.Append(make([]byte, 0, 256), s.pos.toMove, s.appendPile))
}

func upper(b byte) byte { return b - 'a' + 'A' }

// ParseFEN reads a position written as FEN writes it; the piles may come
// in any order. It refuses more pawns of a colour than a player has. The
// history starts at this position: Ply is 0 and earlier repetitions are
// unknown.
func (g *Game) ParseFEN(fen string) (game.State, error) {
	s, err := g.parseFEN(fen)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// seatOf returns the player whose letter (lower case) is l.
func (t *lookup) seatOf(l byte) (game.Player, bool) {
	for p, s := range t.v.seats {
		if s.letter == l {
			return game.Player(p), true
		}
	}
	return game.NoPlayer, false
}

// letters lists the players' letters for messages: "W, B, R".
func letters(v variant, upperCase bool) string {
	var ls []string
	for _, s := range v.seats {
		l := s.letter
		if upperCase {
			l = upper(l)
		}
		ls = append(ls, string(l))
	}
	return strings.Join(ls, ", ")
}

func (g *Game) parseFEN(fen string) (*State, error) {
	t := g.t
	p := emptyPosition()
	var count [maxPlayers]int
	me, err := t.fen.Parse(fen, func(c board.Cell, _, colours string) string {
		for j := 0; j < len(colours); j++ {
			col, ok := t.seatOf(colours[j])
			if !ok {
				return fmt.Sprintf("%q is not a pawn colour of %s (colours: %s)", colours[j:j+1], g.ID(), letters(t.v, false))
			}
			if count[col]++; count[col] > t.perSeat {
				return fmt.Sprintf("more than %d %s pawns, the number each player has", t.perSeat, g.PlayerName(col))
			}
			p.place(c, col)
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	p.toMove = me
	p.hash = t.hashOf(&p)
	if g.allStuck {
		p.skipOut(t)
	}
	return g.newState(p), nil
}
