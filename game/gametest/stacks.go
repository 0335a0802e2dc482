package gametest

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// CheckStacks checks a position through game.Stacker, which every game
// implements: on every cell the top piece of the stack belongs to
// Owner(c), an empty stack goes with NoPlayer, every piece belongs to a
// seat of the game, and Stack appends to a buffer with room without
// allocating. fail is called with a description of the first property that
// does not hold.
func CheckStacks(fail func(string, ...any), s game.State) {
	st, ok := s.(game.Stacker)
	if !ok {
		fail("the state does not implement game.Stacker")
		return
	}
	b := s.Game().Board()
	buf := make([]game.Piece, 0, 64)
	for c := range b.Len() {
		cell := board.Cell(c)
		stack := st.Stack(cell, buf[:0])
		owner := s.Owner(cell)
		switch {
		case len(stack) == 0 && owner != game.NoPlayer:
			fail("%s: the stack is empty but Owner is %d", b.Name(cell), owner)
		case len(stack) > 0 && stack[len(stack)-1].Owner != owner:
			fail("%s: the top piece belongs to %d but Owner is %d", b.Name(cell), stack[len(stack)-1].Owner, owner)
		case len(stack) > cap(buf):
			continue
		case len(stack) > 0 && &stack[0] != &buf[:1][0]:
			fail("%s: Stack did not append to the buffer it was given", b.Name(cell))
		}
		for _, p := range stack {
			if p.Owner < 0 || int(p.Owner) >= s.Game().Players() {
				fail("%s: a piece of player %d, not a seat of the game", b.Name(cell), p.Owner)
			}
		}
	}
}

// CheckFromStacks checks that the game's descriptor names its notation
// (game.Descriptor.FEN) and that game.FromStacks builds s again from the
// stacks it shows and the player to move: the same FEN and hash.
func CheckFromStacks(fail func(string, ...any), s game.State) {
	g := s.Game()
	if d, ok := game.Lookup(g.ID()); !ok || d.FEN == nil {
		fail("the descriptor of %s names no FEN notation", g.ID())
		return
	}
	st, ok := s.(game.Stacker)
	if !ok {
		fail("the state does not implement game.Stacker")
		return
	}
	stacks := map[board.Cell][]game.Piece{}
	for c := range board.Cell(g.Board().Len()) {
		if pieces := st.Stack(c, nil); len(pieces) > 0 {
			stacks[c] = pieces
		}
	}
	back, err := game.FromStacks(g, stacks, s.ToMove())
	switch {
	case err != nil:
		fail("FromStacks of the position's own stacks: %v", err)
	case back.FEN() != s.FEN() || back.Hash() != s.Hash():
		fail("FromStacks of the position's own stacks gave %s (hash %x), want %s (hash %x)", back.FEN(), back.Hash(), s.FEN(), s.Hash())
	}
}
