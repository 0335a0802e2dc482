package eximo

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// FEN writes the position in the style of PDN's FEN tag: the side to move
// (B or W), then White's men, then Black's men, each list in cell order:
//
//	B:Wb6,c6,f6,g6,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,b3,c3,f3,g3
//
// Nothing else is needed: Eximo has no kings, the drop zones are fixed by
// the rules, and drops are part of the move that earns them, so no drop is
// ever pending between two moves.
func (s *State) FEN() string {
	var sb strings.Builder
	sb.WriteString(sideLetter(s.pos.toMove))
	for _, p := range []game.Player{White, Black} {
		sb.WriteString(":" + sideLetter(p))
		first := true
		for c := range cells {
			if s.pos.men[p]&(1<<c) == 0 {
				continue
			}
			if !first {
				sb.WriteByte(',')
			}
			first = false
			sb.WriteString(s.g.t.b.Name(board.Cell(c)))
		}
	}
	return sb.String()
}

func sideLetter(p game.Player) string { return string("BW"[p]) }

// FENError says where a FEN is wrong.
type FENError struct {
	FEN    string
	Field  int // 1-based field (separated by ':'), 0 for the whole FEN
	Reason string
}

func (e *FENError) Error() string {
	if e.Field == 0 {
		return fmt.Sprintf("bad FEN %q: %s", e.FEN, e.Reason)
	}
	return fmt.Sprintf("bad FEN %q, field %d: %s", e.FEN, e.Field, e.Reason)
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
	fail := func(field int, format string, args ...any) (*State, error) {
		return nil, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Split(strings.TrimSpace(fen), ":")
	var p position
	switch fields[0] {
	case "B":
	case "W":
		p.toMove = White
		p.hash ^= t.sideKey
	default:
		return fail(1, "the side to move must be B or W, not %q", fields[0])
	}
	if len(fields) > 3 {
		return fail(0, "a FEN has at most three fields (side to move, White's men, Black's men)")
	}
	seen := [2]bool{}
	for i, f := range fields[1:] {
		field := i + 2
		var who game.Player
		switch {
		case strings.HasPrefix(f, "W"):
			who = White
		case strings.HasPrefix(f, "B"):
			who = Black
		default:
			return fail(field, "a list of men starts with W or B, not %q", f)
		}
		if seen[who] {
			return fail(field, "%s's men are listed twice", g.PlayerName(who))
		}
		seen[who] = true
		if f[1:] == "" {
			continue
		}
		for _, name := range strings.Split(f[1:], ",") {
			c, ok := t.b.Parse(name)
			switch {
			case strings.HasPrefix(name, "K"):
				return fail(field, "%q: Eximo has no kings, only men (write %s)", name, name[1:])
			case !ok:
				return fail(field, "%q is not a cell of eximo (write cells such as a1)", name)
			case (p.men[Black]|p.men[White])&(1<<c) != 0:
				return fail(field, "two men on %s", name)
			case t.far[who]&(1<<c) != 0:
				return fail(field, "a %s man cannot stand on %s: its far row, where men leave the board", g.PlayerName(who), name)
			}
			p.toggle(t, who, int(c))
		}
	}
	return g.newState(p), nil
}
