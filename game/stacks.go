package game

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/board"
)

// FromStacks builds the position of g where stacks[c] stands on each cell
// c, bottom first (a missing or empty stack is an empty cell), and toMove
// is to move, as a position editor sets one up. It writes the position in
// the notation g's descriptor names (Descriptor.FEN) and has g's ParseFEN
// read it, so that a position the game does not allow is refused with the
// parser's own error; the history starts there, as ParseFEN's does. It
// refuses a cell that is not on g's board, a player that is not one of
// g's, a stack on a game whose cells hold one piece, and a position the
// parser would read as another one.
func FromStacks(g Game, stacks map[board.Cell][]Piece, toMove Player) (State, error) {
	d, ok := Lookup(g.ID())
	if !ok || d.FEN == nil {
		return nil, fmt.Errorf("%s names no FEN notation to write a position in", g.ID())
	}
	b := g.Board()
	if toMove < 0 || int(toMove) >= g.Players() {
		return nil, fmt.Errorf("%s: player %d to move: the players are 0 to %d", g.ID(), toMove, g.Players()-1)
	}
	for c, st := range stacks {
		if c < 0 || int(c) >= b.Len() {
			return nil, fmt.Errorf("%s: cell %d is not on the board (%s)", g.ID(), c, b.ID())
		}
		for _, pc := range st {
			if pc.Owner < 0 || int(pc.Owner) >= g.Players() {
				return nil, fmt.Errorf("%s: a piece of player %d on %s: the players are 0 to %d", g.ID(), pc.Owner, b.Name(c), g.Players()-1)
			}
		}
	}
	fen, err := d.FEN.AppendStacks(nil, toMove, func(c board.Cell) []Piece { return stacks[c] })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.ID(), err)
	}
	s, err := g.ParseFEN(string(fen))
	if err != nil {
		return nil, err
	}
	// The parser takes what it is given or refuses it; should it ever
	// change a position silently, the position is refused.
	if !sameStacks(s, stacks) || s.ToMove() != toMove {
		return nil, fmt.Errorf("%s reads the FEN %q as another position", g.ID(), fen)
	}
	return s, nil
}

// sameStacks reports whether s has stacks on its cells, through Stacker,
// or one piece of each cell's owner when it is no Stacker.
func sameStacks(s State, stacks map[board.Cell][]Piece) bool {
	stacker, stacked := s.(Stacker)
	var buf []Piece
	for c := range board.Cell(s.Game().Board().Len()) {
		want := stacks[c]
		if !stacked {
			owner := NoPlayer
			if len(want) > 0 {
				owner = want[len(want)-1].Owner
			}
			if s.Owner(c) != owner {
				return false
			}
			continue
		}
		if buf = stacker.Stack(c, buf[:0]); !slices.Equal(buf, want) {
			return false
		}
	}
	return true
}

// StackLetters writes a stack bottom first, a letter per piece: its
// owner's seat letter, upper case for a king (the letters of the
// browser's data-stack and of the rules pages' diagrams).
func StackLetters(g Game, pieces []Piece) string {
	var sb strings.Builder
	for _, p := range pieces {
		letter := string(g.Seat(p.Owner).Letter)
		if p.Rank == King {
			letter = strings.ToUpper(letter)
		}
		sb.WriteString(letter)
	}
	return sb.String()
}
