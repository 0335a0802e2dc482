package checkers2011

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// fenSyntax is Checkers 2011's FEN: the side to move, a colon, then every
// stack as cell=pieces, its pieces from the bottom up (w and b for
// soldiers, W and B for kings, so the commander is the last letter),
// separated by commas, in cell order:
//
//	W:a1=w,c3=bbW,d4=B,h8=wB
//
// The empty board is "W:".
func fenSyntax(b *board.Board) game.StackFEN {
	return game.StackFEN{
		Board:   b,
		Letters: "WB",
		ToMove:  "the side to move must be W or B",
		Fields:  "a FEN has two fields separated by ':', the side to move and the stacks (W:a1=w,c3=bW)",
		Item:    "stack",
		Pieces:  "pieces",
		Syntax:  "write a stack as cell=pieces, bottom piece first, such as c3=bW",
		Cells:   "the 8x8 board (a1..h8)",
	}
}

// FEN writes the position as fenSyntax describes.
func (s *State) FEN() string {
	return string(s.g.t.fen.Append(make([]byte, 0, 256), s.pos.toMove, func(buf []byte, c board.Cell) []byte {
		return appendStack(buf, s.pos.stackAt(c))
	}))
}

// ParseFEN reads a position written as FEN writes it; the stacks may come
// in any order. It refuses what no game can reach: more than 16 pieces of
// a colour, or a soldier commanding on its own last rank (it would have
// been promoted). The history starts at this position: Ply is 0 and
// earlier repetitions are unknown.
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
	var count [2]int
	me, err := t.fen.Parse(fen, func(c board.Cell, name, pieces string) string {
		var st stack
		for j := 0; j < len(pieces); j++ {
			v := strings.IndexByte(letters, pieces[j])
			if v < 0 {
				return fmt.Sprintf("%q is not a piece: w and b are soldiers, W and B kings", pieces[j:j+1])
			}
			count[v&1]++
			if count[v&1] > maxSide {
				return fmt.Sprintf("%s has more than %d pieces, the most a side starts with", g.PlayerName(game.Player(v&1)), maxSide)
			}
			// Read bottom first: each new piece goes on top.
			st.bits = st.bits<<2 | uint64(v)
			st.h++
		}
		// With sideways jumps a stack on a last rank can be jumped, and
		// a soldier freed there commands unpromoted until it moves.
		if top := st.bits & 3; top&kingBit == 0 && t.lastRank[top&1]>>c&1 != 0 && !t.sideJumps {
			return fmt.Sprintf("a %s soldier commanding on %s would have been promoted: write its letter %c",
				g.PlayerName(game.Player(top&1)), name, letters[top|kingBit])
		}
		p.put(t, c, st)
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
