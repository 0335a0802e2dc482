package checkers2011

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// FEN writes the position in one line: the side to move, a colon, then
// every stack as cell=pieces, its pieces from the bottom up (w and b for
// soldiers, W and B for kings, so the commander is the last letter),
// separated by commas, in cell order:
//
//	W:a1=w,c3=bbW,d4=B,h8=wB
//
// The empty board is "W:".
func (s *State) FEN() string {
	buf := make([]byte, 0, 256)
	buf = append(buf, "WB"[s.pos.toMove], ':')
	first := true
	for c := 0; c < numCells; c++ {
		st := s.pos.stackAt(board.Cell(c))
		if st.h == 0 {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, s.g.t.b.Name(board.Cell(c))...)
		buf = append(buf, '=')
		buf = appendStack(buf, st)
	}
	return string(buf)
}

// FENError says where a FEN is wrong: which field, and in the stacks field
// which stack.
type FENError struct {
	FEN    string
	Field  int    // 1 side to move, 2 stacks; 0 for the whole FEN
	Item   int    // 1-based stack in field 2, 0 when not about one stack
	Text   string // the stack as written, when Item > 0
	Reason string
}

func (e *FENError) Error() string {
	switch {
	case e.Item > 0:
		return fmt.Sprintf("bad FEN %q, field %d, stack %d %q: %s", e.FEN, e.Field, e.Item, e.Text, e.Reason)
	case e.Field > 0:
		return fmt.Sprintf("bad FEN %q, field %d: %s", e.FEN, e.Field, e.Reason)
	}
	return fmt.Sprintf("bad FEN %q: %s", e.FEN, e.Reason)
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
	fields := strings.Split(strings.TrimSpace(fen), ":")
	fail := func(field, item int, format string, args ...any) (*State, error) {
		e := &FENError{FEN: fen, Field: field, Item: item, Reason: fmt.Sprintf(format, args...)}
		if item > 0 {
			e.Text = strings.Split(fields[1], ",")[item-1]
		}
		return nil, e
	}
	var p position
	switch fields[0] {
	case "W":
	case "B":
		p.toMove = Black
		p.hash ^= t.sideKey
	default:
		return fail(1, 0, "the side to move must be W or B, not %q", fields[0])
	}
	if len(fields) != 2 {
		return fail(0, 0, "a FEN has two fields separated by ':', the side to move and the stacks (W:a1=w,c3=bW)")
	}
	var count [2]int
	if fields[1] != "" {
		for i, item := range strings.Split(fields[1], ",") {
			name, pieces, ok := strings.Cut(item, "=")
			if !ok {
				return fail(2, i+1, "write a stack as cell=pieces, bottom piece first, such as c3=bW")
			}
			c, ok := t.b.Parse(name)
			switch {
			case !ok:
				return fail(2, i+1, "%q is not a cell of the 8x8 board (a1..h8)", name)
			case p.height[c] != 0:
				return fail(2, i+1, "a second stack on %s", name)
			case pieces == "":
				return fail(2, i+1, "the stack on %s has no pieces", name)
			}
			var st stack
			for j := 0; j < len(pieces); j++ {
				v := strings.IndexByte(letters, pieces[j])
				if v < 0 {
					return fail(2, i+1, "%q is not a piece: w and b are soldiers, W and B kings", pieces[j:j+1])
				}
				count[v&1]++
				if count[v&1] > maxSide {
					return fail(2, i+1, "%s has more than %d pieces, the most a side starts with", g.PlayerName(game.Player(v&1)), maxSide)
				}
				// Read bottom first: each new piece goes on top.
				st.bits = st.bits<<2 | uint64(v)
				st.h++
			}
			if top := st.bits & 3; top&kingBit == 0 && t.lastRank[top&1]>>c&1 != 0 {
				return fail(2, i+1, "a %s soldier commanding on %s would have been promoted: write its letter %c",
					g.PlayerName(game.Player(top&1)), name, letters[top|kingBit])
			}
			p.put(t, c, st)
		}
	}
	return g.newState(p), nil
}
