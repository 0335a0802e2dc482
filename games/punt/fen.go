package punt

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// FEN writes the position in one line, in the shape Checkers 2011 uses for
// its stacks: the player to move (W, B or R), a colon, then every pile as
// cell=colours, its pawns from the bottom up (w, b, r), so that the last
// letter is the pile's controller, separated by commas, in cell order:
//
//	W:a1=w,c4=bw,d4=wwb,h1=b
//	R:a1=w,d1=b,e5=wbr,i4=r
//
// The empty board is "W:".
func (s *State) FEN() string {
	t := s.g.t
	buf := make([]byte, 0, 256)
	buf = append(buf, upper(t.v.seats[s.pos.toMove].letter), ':')
	first := true
	for c := 0; c < t.n; c++ {
		if s.pos.height[c] == 0 {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, t.b.Name(board.Cell(c))...)
		buf = append(buf, '=')
		buf = s.appendPile(buf, board.Cell(c))
	}
	return string(buf)
}

func upper(b byte) byte { return b - 'a' + 'A' }

// FENError says where a FEN is wrong: which field, and in the piles field
// which pile.
type FENError struct {
	FEN    string
	Field  int    // 1 player to move, 2 piles; 0 for the whole FEN
	Item   int    // 1-based pile in field 2, 0 when not about one pile
	Text   string // the pile as written, when Item > 0
	Reason string
}

func (e *FENError) Error() string {
	switch {
	case e.Item > 0:
		return fmt.Sprintf("bad FEN %q, field %d, pile %d %q: %s", e.FEN, e.Field, e.Item, e.Text, e.Reason)
	case e.Field > 0:
		return fmt.Sprintf("bad FEN %q, field %d: %s", e.FEN, e.Field, e.Reason)
	}
	return fmt.Sprintf("bad FEN %q: %s", e.FEN, e.Reason)
}

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
func (t *tables) seatOf(l byte) (game.Player, bool) {
	for p, s := range t.v.seats {
		if s.letter == l {
			return game.Player(p), true
		}
	}
	return game.NoPlayer, false
}

// letters lists the players' letters for messages: "W, B, R".
func (g *Game) letters(upperCase bool) string {
	var ls []string
	for _, s := range g.t.v.seats {
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
	fields := strings.Split(strings.TrimSpace(fen), ":")
	fail := func(field, item int, format string, args ...any) (*State, error) {
		e := &FENError{FEN: fen, Field: field, Item: item, Reason: fmt.Sprintf(format, args...)}
		if item > 0 {
			e.Text = strings.Split(fields[1], ",")[item-1]
		}
		return nil, e
	}
	p := emptyPosition()
	side := fields[0]
	me := game.NoPlayer
	if len(side) == 1 && side[0] >= 'A' && side[0] <= 'Z' {
		me, _ = t.seatOf(side[0] - 'A' + 'a')
	}
	if me == game.NoPlayer {
		return fail(1, 0, "the player to move must be one of %s, not %q", g.letters(true), side)
	}
	p.toMove = me
	if len(fields) != 2 {
		return fail(0, 0, "a FEN has two fields separated by ':', the player to move and the piles (W:a1=w,c4=bw)")
	}
	var count [maxPlayers]int
	if fields[1] != "" {
		for i, item := range strings.Split(fields[1], ",") {
			name, colours, ok := strings.Cut(item, "=")
			if !ok {
				return fail(2, i+1, "write a pile as cell=colours, bottom pawn first, such as %s=w or %s=bw", t.b.Name(0), t.b.Name(0))
			}
			c, ok := t.b.Parse(name)
			switch {
			case !ok:
				return fail(2, i+1, "%q is not a cell of %s", name, g.ID())
			case p.height[c] != 0:
				return fail(2, i+1, "a second pile on %s", name)
			case colours == "":
				return fail(2, i+1, "the pile on %s has no pawns", name)
			}
			for j := 0; j < len(colours); j++ {
				col, ok := t.seatOf(colours[j])
				if !ok {
					return fail(2, i+1, "%q is not a pawn colour of %s (colours: %s)", colours[j:j+1], g.ID(), g.letters(false))
				}
				if count[col]++; count[col] > t.perSeat {
					return fail(2, i+1, "more than %d %s pawns, the number each player has", t.perSeat, g.PlayerName(col))
				}
				p.place(c, col)
			}
		}
	}
	p.hash = t.hashOf(&p)
	return g.newState(p), nil
}
