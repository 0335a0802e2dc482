package game

import (
	"strings"

	"github.com/arbiter-games/arbiter/board"
)

// MaxPath is the most cells a move's path may hold: its start and every
// landing. It bounds capture chains (one enemy piece per jump, and no game
// has more than 22 pieces a side).
const MaxPath = 27

// MaxDrops is the most drops one move may carry (Eximo drops two men).
const MaxDrops = 2

// Move is one whole turn: the path of the moving piece (its start cell and
// every landing cell, in order), whether it captures, and any drops after
// it. It is a small value type that compares with ==; two moves are the same
// move exactly when their notation is the same.
type Move struct {
	path    [MaxPath]board.Cell
	n       uint8
	drops   [MaxDrops]board.Cell
	nDrops  uint8
	capture bool
}

// Step returns the move of a piece from one cell to another without capture.
func Step(from, to board.Cell) Move {
	var m Move
	m.path[0], m.path[1], m.n = from, to, 2
	return m
}

// Start returns a move that so far only has its start cell; Land adds the
// landings.
func Start(from board.Cell, capture bool) Move {
	var m Move
	m.path[0], m.n, m.capture = from, 1, capture
	return m
}

// Land appends a landing cell to the move's path. It reports false, leaving
// the move unchanged, when the path is full.
func (m *Move) Land(c board.Cell) bool {
	if int(m.n) >= MaxPath {
		return false
	}
	m.path[m.n] = c
	m.n++
	return true
}

// Unland removes the last landing, as a move generator backtracks.
func (m *Move) Unland() {
	if m.n > 1 {
		m.n--
	}
}

// SwapText is the notation of the pie rule's move.
const SwapText = "swap"

// Swap returns the pie rule's move (option swap=on): the second player,
// at their first turn, takes over the first player's position instead of
// moving. The colours stay with the people: the position is turned half a
// turn on its board with the two sides' pieces exchanged (Mirror), and the
// first player is to move again.
//
// It is the one move whose path holds a single cell: every other move
// has a start and a landing, and generators only emit finished moves. So
// From, To and At stay in range for code that reads any move's path, and
// IsSwap is one comparison.
func Swap() Move {
	var m Move
	m.n = 1
	return m
}

// IsSwap reports whether the move is the pie rule's Swap.
func (m *Move) IsSwap() bool { return m.n == 1 }

// Drop adds a dropped piece's cell. Drops must be added in cell order. It
// reports false when the move already has MaxDrops drops.
func (m *Move) Drop(c board.Cell) bool {
	if int(m.nDrops) >= MaxDrops {
		return false
	}
	m.drops[m.nDrops] = c
	m.nDrops++
	return true
}

// The accessors take a pointer: a Move is 32 bytes holding an array, and
// a value receiver made the compiler copy it whole at every call, even
// inlined (a fifth of Punt's Play). Drops keeps a value receiver so that
// the slice it returns never aliases the caller's Move.

// From is the cell the move starts from.
func (m *Move) From() board.Cell { return m.path[0] }

// To is the cell where the moving piece ends.
func (m *Move) To() board.Cell { return m.path[m.n-1] }

// Len is the number of cells in the path: the start and every landing.
func (m *Move) Len() int { return int(m.n) }

// At returns the i-th cell of the path; At(0) is the start.
func (m *Move) At(i int) board.Cell { return m.path[i] }

// IsCapture reports whether the move captures.
func (m *Move) IsCapture() bool { return m.capture }

// Drops returns the cells of the move's drops, in cell order.
func (m Move) Drops() []board.Cell { return m.drops[:m.nDrops:m.nDrops] }

// AppendText appends the move in the project's notation (RULINGS section 0):
// "from-to", "from-l1-l2", "fromxl1xl2", then "@cell" for each drop; the
// pie rule's move is "swap".
func (m Move) AppendText(dst []byte, b *board.Board) []byte {
	if m.IsSwap() {
		return append(dst, SwapText...)
	}
	sep := byte('-')
	if m.capture {
		sep = 'x'
	}
	for i := 0; i < int(m.n); i++ {
		if i > 0 {
			dst = append(dst, sep)
		}
		dst = append(dst, b.Name(m.path[i])...)
	}
	for _, c := range m.Drops() {
		dst = append(dst, '@')
		dst = append(dst, b.Name(c)...)
	}
	return dst
}

// Text returns the move in the project's notation.
func (m Move) Text(b *board.Board) string { return string(m.AppendText(nil, b)) }

// normalizeMoveText turns the accepted spellings of a move into the printed
// one: ':' is accepted for 'x', surrounding blanks are ignored.
func normalizeMoveText(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), ":", "x")
}
