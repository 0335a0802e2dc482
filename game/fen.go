package game

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// The games write their positions in two one-line notations, whose syntax
// lives here so that every game reads and reports it the same way; what a
// piece may be and where it may stand stays with the game, through the
// callbacks the parsers take. Both start with the letter of the player to
// move and separate their fields with ':'.

// FENError says where a FEN is wrong: which field, and in a field of items
// (stacks, piles) which item.
type FENError struct {
	FEN    string
	Field  int    // 1-based field (separated by ':'), 0 for the whole FEN
	Item   int    // 1-based item of the field, 0 when not about one item
	Kind   string // what an item is called ("stack", "pile"), when Item > 0
	Text   string // the item as written, when Item > 0
	Reason string
}

// Error quotes at most the start of a long FEN or item: they are the
// user's, and may be of any length.
func (e *FENError) Error() string {
	fen := clip.Quote(e.FEN)
	switch {
	case e.Item > 0:
		return fmt.Sprintf("bad FEN %s, field %d, %s %d %s: %s", fen, e.Field, e.Kind, e.Item, clip.Quote(e.Text), e.Reason)
	case e.Field > 0:
		return fmt.Sprintf("bad FEN %s, field %d: %s", fen, e.Field, e.Reason)
	}
	return fmt.Sprintf("bad FEN %s: %s", fen, e.Reason)
}

// fenMover reads the first field, the letter of the player to move, among
// letters (letters[p] is player p's); toMove is the rule an error states.
func fenMover(fen string, fields []string, letters, toMove string) (Player, error) {
	side := fields[0]
	if len(side) == 1 {
		if i := strings.IndexByte(letters, side[0]); i >= 0 {
			return Player(i), nil
		}
	}
	if len(side) > 8 { // not a letter at all; the FEN is quoted already
		return NoPlayer, &FENError{FEN: fen, Field: 1, Reason: toMove}
	}
	return NoPlayer, &FENError{FEN: fen, Field: 1, Reason: fmt.Sprintf("%s, not %q", toMove, side)}
}

// PieceListFEN is the notation in the style of PDN's FEN tag, for boards
// with at most one piece on a cell: the player to move, then a list of
// each player's pieces, kings prefixed with K, in cell order:
//
//	W:Wa1,a2,Kc6:Bg5,g6
//
// The fields other than Board and Letters are the words of its error
// messages, as the game's rules call things.
type PieceListFEN struct {
	Board *board.Board
	// Letters[p] is the letter of player p, upper case.
	Letters string
	// Order lists the players in the order their lists are written.
	Order []Player
	// Names[p] is the name of player p, as PlayerName gives it.
	Names []string
	// ToMove is the rule for the first field: "the side to move must be W
	// or B".
	ToMove string
	// Fields says how many fields a FEN has, when it has too many.
	Fields string
	// List is what a list is called ("a piece list"), Pieces what the
	// pieces are ("pieces").
	List, Pieces string
	// Cells ends the reason for an item that is not a cell: `"z9" is not
	// a cell of ` + Cells.
	Cells string
	// NoKings, when not empty, refuses an item prefixed with K once its
	// cell is known (so that the item is short); it is a format given the
	// item and the cell after K.
	NoKings string
}

// Append writes the FEN of a position to buf: at gives the owner of the
// piece on a cell (NoPlayer when empty) and whether it is a king.
func (f *PieceListFEN) Append(buf []byte, toMove Player, at func(board.Cell) (Player, bool)) []byte {
	buf = append(buf, f.Letters[toMove])
	for _, p := range f.Order {
		buf = append(buf, ':', f.Letters[p])
		first := true
		for c := 0; c < f.Board.Len(); c++ {
			owner, king := at(board.Cell(c))
			if owner != p {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			if king {
				buf = append(buf, 'K')
			}
			buf = append(buf, f.Board.Name(board.Cell(c))...)
		}
	}
	return buf
}

// Parse reads a FEN as Append writes it; the lists may come in any order,
// the pieces of a list too. put places each piece on its empty cell, or
// returns why it cannot stand there. Parse returns the player to move.
func (f *PieceListFEN) Parse(fen string, put func(who Player, king bool, c board.Cell) string) (Player, error) {
	fail := func(field int, format string, args ...any) (Player, error) {
		return NoPlayer, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Split(strings.TrimSpace(fen), ":")
	me, err := fenMover(fen, fields, f.Letters, f.ToMove)
	if err != nil {
		return NoPlayer, err
	}
	if len(fields) > 1+len(f.Order) {
		return fail(0, "%s", f.Fields)
	}
	var orderLetters []string
	for _, p := range f.Order {
		orderLetters = append(orderLetters, f.Letters[p:p+1])
	}
	seen := make([]bool, len(f.Letters))
	taken := make([]bool, f.Board.Len())
	for i, list := range fields[1:] {
		field := i + 2
		who := NoPlayer
		for _, p := range f.Order {
			if strings.HasPrefix(list, f.Letters[p:p+1]) {
				who = p
				break
			}
		}
		if who == NoPlayer {
			return fail(field, "%s starts with %s, not %s", f.List, strings.Join(orderLetters, " or "), clip.Quote(list))
		}
		if seen[who] {
			return fail(field, "%s's %s are listed twice", f.Names[who], f.Pieces)
		}
		seen[who] = true
		if list[1:] == "" {
			continue
		}
		for _, item := range strings.Split(list[1:], ",") {
			name, king := strings.CutPrefix(item, "K")
			c, ok := f.Board.Parse(name)
			switch {
			case !ok:
				return fail(field, "%s is not a cell of %s", clip.Quote(item), f.Cells)
			case king && f.NoKings != "":
				// After the cell is known: item is then short.
				return fail(field, f.NoKings, item, name)
			case taken[c]:
				return fail(field, "two %s on %s", f.Pieces, name)
			}
			taken[c] = true
			if reason := put(who, king, c); reason != "" {
				return fail(field, "%s", reason)
			}
		}
	}
	return me, nil
}

// StackFEN is the notation of boards whose cells hold stacks of pieces:
// the player to move, a colon, then every stack as cell=pieces, its pieces
// from the bottom up, separated by commas, in cell order:
//
//	W:a1=w,c3=bbW,d4=B,h8=wB
//
// The empty board is "W:". A piece is written as its owner's letter, lower
// case, and upper case when promoted (AppendStacks writes them so); what a
// piece may be is the game's to say, through Parse's callback. The fields
// other than Board and Letters are the words of its error messages, as the
// game's rules call things.
type StackFEN struct {
	Board *board.Board
	// Letters[p] is the letter of player p, upper case.
	Letters string
	// ToMove is the rule for the first field: "the side to move must be W
	// or B".
	ToMove string
	// Fields says what the two fields are, when there are not two.
	Fields string
	// Item is what a stack is called ("stack"), Pieces what it is made of
	// ("pieces").
	Item, Pieces string
	// Syntax says how to write a stack, when an item has no '='.
	Syntax string
	// Cells ends the reason for a name that is not a cell: `"z9" is not a
	// cell of ` + Cells.
	Cells string
}

// Append writes the FEN of a position to buf: stack appends the pieces on
// a cell, bottom first, and nothing for an empty cell.
func (f *StackFEN) Append(buf []byte, toMove Player, stack func(buf []byte, c board.Cell) []byte) []byte {
	buf = append(buf, f.Letters[toMove], ':')
	first := true
	for c := 0; c < f.Board.Len(); c++ {
		// Write the cell's name first and take it back when the cell is
		// empty, so that stack is asked about each cell once.
		mark := len(buf)
		if !first {
			buf = append(buf, ',')
		}
		buf = append(buf, f.Board.Name(board.Cell(c))...)
		buf = append(buf, '=')
		n := len(buf)
		if buf = stack(buf, board.Cell(c)); len(buf) == n {
			buf = buf[:mark]
			continue
		}
		first = false
	}
	return buf
}

// Parse reads a FEN as Append writes it; the stacks may come in any order.
// put places the stack written as pieces on its empty cell c (named name),
// or returns why it cannot. Parse returns the player to move.
func (f *StackFEN) Parse(fen string, put func(c board.Cell, name, pieces string) string) (Player, error) {
	fields := strings.Split(strings.TrimSpace(fen), ":")
	me, err := fenMover(fen, fields, f.Letters, f.ToMove)
	if err != nil {
		return NoPlayer, err
	}
	if len(fields) != 2 {
		return NoPlayer, &FENError{FEN: fen, Reason: f.Fields}
	}
	if fields[1] == "" {
		return me, nil
	}
	taken := make([]bool, f.Board.Len())
	for i, item := range strings.Split(fields[1], ",") {
		fail := func(format string, args ...any) (Player, error) {
			return NoPlayer, &FENError{FEN: fen, Field: 2, Item: i + 1, Kind: f.Item, Text: item, Reason: fmt.Sprintf(format, args...)}
		}
		name, pieces, ok := strings.Cut(item, "=")
		if !ok {
			return fail("%s", f.Syntax)
		}
		c, ok := f.Board.Parse(name)
		switch {
		case !ok:
			return fail("%s is not a cell of %s", clip.Quote(name), f.Cells)
		case taken[c]:
			return fail("a second %s on %s", f.Item, name)
		case pieces == "":
			return fail("the %s on %s has no %s", f.Item, name, f.Pieces)
		}
		taken[c] = true
		if reason := put(c, name, pieces); reason != "" {
			return fail("%s", reason)
		}
	}
	return me, nil
}

// FENCodec is a game's notation, one of the core's two: *PieceListFEN or
// *StackFEN, made for the game's board. A game's Descriptor names it
// (FEN), so that a position can be built from what stands on each cell
// (FromStacks) without knowing the game.
type FENCodec interface {
	// Stacks reports whether a cell may hold several pieces: true for
	// StackFEN, false for PieceListFEN.
	Stacks() bool
	// AppendStacks writes to buf the FEN of the position where stack(c)
	// stands on each cell, bottom first (nothing on an empty cell), and
	// toMove is to move. It refuses what the notation cannot write: a
	// player it has no letter for, a rank other than Man and King, a
	// stack on a cell that holds one piece.
	AppendStacks(buf []byte, toMove Player, stack func(board.Cell) []Piece) ([]byte, error)
}

// checkPieces refuses a player with no letter and an unknown rank.
func checkPieces(b *board.Board, letters string, c board.Cell, st []Piece) error {
	for _, pc := range st {
		switch {
		case pc.Owner < 0 || int(pc.Owner) >= len(letters):
			return fmt.Errorf("a piece of player %d on %s: the players are 0 to %d", pc.Owner, b.Name(c), len(letters)-1)
		case pc.Rank != Man && pc.Rank != King:
			return fmt.Errorf("a piece of rank %d on %s: a piece is a Man or a King", pc.Rank, b.Name(c))
		}
	}
	return nil
}

// checkMover refuses a player to move that has no letter.
func checkMover(letters string, toMove Player) error {
	if toMove < 0 || int(toMove) >= len(letters) {
		return fmt.Errorf("player %d to move: the players are 0 to %d", toMove, len(letters)-1)
	}
	return nil
}

// Stacks returns false: a cell holds one piece at most.
func (f *PieceListFEN) Stacks() bool { return false }

// AppendStacks writes the position as Append does, each cell's stack
// being one piece at most (a King written with K).
func (f *PieceListFEN) AppendStacks(buf []byte, toMove Player, stack func(board.Cell) []Piece) ([]byte, error) {
	if err := checkMover(f.Letters, toMove); err != nil {
		return buf, err
	}
	for c := range board.Cell(f.Board.Len()) {
		st := stack(c)
		if len(st) > 1 {
			return buf, fmt.Errorf("a cell holds one piece, not a stack of %d (on %s)", len(st), f.Board.Name(c))
		}
		if err := checkPieces(f.Board, f.Letters, c, st); err != nil {
			return buf, err
		}
	}
	return f.Append(buf, toMove, func(c board.Cell) (Player, bool) {
		if st := stack(c); len(st) == 1 {
			return st[0].Owner, st[0].Rank == King
		}
		return NoPlayer, false
	}), nil
}

// Stacks returns true: a cell holds a stack.
func (f *StackFEN) Stacks() bool { return true }

// AppendStacks writes the position as Append does, each piece as its
// owner's letter, lower case for a Man and upper case for a King: "bbW".
func (f *StackFEN) AppendStacks(buf []byte, toMove Player, stack func(board.Cell) []Piece) ([]byte, error) {
	if err := checkMover(f.Letters, toMove); err != nil {
		return buf, err
	}
	for c := range board.Cell(f.Board.Len()) {
		if err := checkPieces(f.Board, f.Letters, c, stack(c)); err != nil {
			return buf, err
		}
	}
	return f.Append(buf, toMove, func(buf []byte, c board.Cell) []byte {
		for _, pc := range stack(c) {
			l := f.Letters[pc.Owner]
			if pc.Rank == Man && 'A' <= l && l <= 'Z' {
				l += 'a' - 'A'
			}
			buf = append(buf, l)
		}
		return buf
	}), nil
}
