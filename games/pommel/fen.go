package pommel

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// FEN writes the position in the style of PDN's FEN tag: the side to move,
// then each side's pieces, captains prefixed with K, in cell order:
//
//	W:Wa1,a2,Kc6:Bg5,g6
func (s *State) FEN() string {
	var sb strings.Builder
	sb.WriteString(sideLetter(s.pos.toMove))
	for _, p := range []game.Player{White, Black} {
		sb.WriteString(":" + sideLetter(p))
		first := true
		for c := 0; c < s.g.t.n; c++ {
			v := s.pos.cells[c]
			if v == empty || v.owner() != p {
				continue
			}
			if !first {
				sb.WriteByte(',')
			}
			first = false
			if v.isCaptain() {
				sb.WriteByte('K')
			}
			sb.WriteString(s.g.t.b.Name(board.Cell(c)))
		}
	}
	return sb.String()
}

func sideLetter(p game.Player) string { return string("WB"[p]) }

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
	fail := func(field int, format string, args ...any) (*State, error) {
		return nil, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Split(strings.TrimSpace(fen), ":")
	var p position
	switch fields[0] {
	case "W":
	case "B":
		p.toMove = Black
		p.hash ^= t.sideKey
	default:
		return fail(1, "the side to move must be W or B, not %q", fields[0])
	}
	if len(fields) > 3 {
		return fail(0, "a FEN has at most three fields (side to move, White's pieces, Black's pieces)")
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
			return fail(field, "a piece list starts with W or B, not %q", f)
		}
		if seen[who] {
			return fail(field, "%s's pieces are listed twice", g.PlayerName(who))
		}
		seen[who] = true
		if f[1:] == "" {
			continue
		}
		for _, item := range strings.Split(f[1:], ",") {
			v := soldierOf(who)
			name := item
			if strings.HasPrefix(name, "K") {
				v |= captainFlag
				name = name[1:]
			}
			c, ok := t.b.Parse(name)
			switch {
			case !ok:
				return fail(field, "%q is not a cell of %s (write cells such as a1, captains as Ka1)", item, g.ID())
			case p.cells[c] != empty:
				return fail(field, "two pieces on %s", name)
			case !v.isCaptain() && t.lastCell[who][c]:
				return fail(field, "a %s soldier on %s would have been promoted: write K%s", g.PlayerName(who), name, name)
			}
			p.put(t, c, v)
			if int(p.count[who]) > t.maxPieces {
				return fail(field, "%s has more than %d pieces, the most a side starts with", g.PlayerName(who), t.maxPieces)
			}
		}
	}
	return g.newState(p), nil
}
