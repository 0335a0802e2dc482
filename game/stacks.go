package game

import (
	"fmt"
	"slices"

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
	return string(AppendStackLetters(make([]byte, 0, len(pieces)), g, pieces))
}

// AppendStackLetters appends StackLetters(g, pieces) to dst.
func AppendStackLetters(dst []byte, g Game, pieces []Piece) []byte {
	for _, p := range pieces {
		letter := g.Seat(p.Owner).Letter
		if p.Rank == King && 'a' <= letter && letter <= 'z' {
			letter -= 'a' - 'A'
		}
		dst = append(dst, letter)
	}
	return dst
}

// Mirror returns the position of the two-player state s turned half a
// turn on its board (board.HalfTurn) with the two players' pieces
// exchanged and the other player to move: each side's pieces stand,
// turned, where the other side's stood, and head the right way. It is the
// position the pie rule's Swap leaves, built through FromStacks; its
// history starts there. It refuses a game without two players, a board
// without the half-turn symmetry and a state that shows no stacks.
func Mirror(s State) (State, error) {
	g := s.Game()
	if g.Players() != 2 {
		return nil, fmt.Errorf("%s: only a two-player position has a mirror image, and this game seats %d", g.ID(), g.Players())
	}
	st, err := stacker(s)
	if err != nil {
		return nil, err
	}
	b := g.Board()
	stacks := make(map[board.Cell][]Piece, b.Len())
	for c := range board.Cell(b.Len()) {
		pieces := st.Stack(c, nil)
		if len(pieces) == 0 {
			continue
		}
		img := b.HalfTurn(c)
		if img == board.None {
			return nil, fmt.Errorf("%s: board %s has no half-turn symmetry to mirror a position with", g.ID(), b.ID())
		}
		for i := range pieces {
			pieces[i].Owner = 1 - pieces[i].Owner
		}
		stacks[img] = pieces
	}
	return FromStacks(g, stacks, 1-s.ToMove())
}

// PlaySwap returns the position the pie rule's Swap leaves in s, for the
// game's Play to take over: Mirror, which cannot fail on a game of the
// registry (the conformance suite mirrors every two-player game's start),
// so that it panics, as a Play given an illegal move may.
func PlaySwap(s State) State {
	m, err := Mirror(s)
	if err != nil {
		panic("swap: " + err.Error())
	}
	return m
}
