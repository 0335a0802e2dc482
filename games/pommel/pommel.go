// Package pommel implements Pommel, Michael Howe's hexagonal checkers with
// linear "leaping" capture, on its 45-cell board (id "pommel") and its
// 76-cell board ("pommel-76"), exactly as RULINGS section 1 fixes the rules.
//
// Option hop=friendly (the default) lets a soldier's step pass over friendly
// pieces only; hop=any over any pieces (the 2011 definitive version).
package pommel

import (
	"fmt"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The players. White (the bottom side) moves first.
const (
	White game.Player = 0
	Black game.Player = 1
)

// seats are White's and Black's, by player.
var seats = [...]game.Seat{
	White: {Name: "White", Key: "white", Letter: 'w'},
	Black: {Name: "Black", Key: "black", Letter: 'b'},
}

// maxCells is the size of the largest Pommel board.
const maxCells = 76

// noCell is a cell number that no cell set holds (the boards have fewer
// cells): a table's "no cell" that a set's bit reads as absent, without a
// test.
const noCell board.Cell = 127

// variant is one board size.
type variant struct {
	id, name, summary string
	columns, long     int
	// thirdRow adds a soldier on the third cell of every long column
	// (pommel-76).
	thirdRow bool
	// undoRoom is how many words (positions on the 76-cell board) a new
	// State's undo stack has room for (see undo.go): more than a random
	// game's mean length (46 plies on the small board, 92 on the large)
	// needs, so that most games never grow it.
	undoRoom int
}

var variants = []variant{
	{id: "pommel", columns: 7, long: 7, undoRoom: 160,
		name: "Pommel", summary: "Pommel: hex checkers with linear leaping capture, 45 cells, 14 soldiers each"},
	{id: "pommel-76", columns: 9, long: 9, thirdRow: true, undoRoom: 128,
		name: "Pommel 76", summary: "Pommel on the 76-cell board, 22 soldiers each"},
}

var hopOption = game.OptionSpec{
	Key: "hop", Default: "friendly", Values: []string{"friendly", "any"},
	Help: "what a soldier's step may pass over: friendly pieces only (as the rules page has it, the default) or any pieces (as the 2011 definitive version has it)",
}

func init() {
	for _, v := range variants {
		lk := newLookup(v)
		game.Register(game.Descriptor{
			ID:      v.id,
			Name:    v.name,
			Summary: v.summary,
			Players: 2,
			Seats:   seats[:],
			FEN:     &lk.fen,
			Options: []game.OptionSpec{hopOption},
			New: func(o game.Options) (game.Game, error) {
				return &Game{Base: game.NewBase(v.id, o, seats[:], lk.b), t: lk, hopAny: o.Get("hop") == "any", maxPlies: o.Int("maxplies")}, nil
			},
		})
	}
}

// lookup is the immutable data of one board size, shared by every game
// of that size.
type lookup struct {
	v     variant
	b     *board.Board
	n     int
	start position
	// lastRow[p] are the cells where a soldier of p that ends its move is
	// promoted.
	lastRow [2]cellSet
	// forward[p] are the three directions of p's non-capturing steps.
	forward [2][3]int
	// next[c][d] is c's neighbour in direction d, or board.None.
	next [maxCells][6]board.Cell
	// jumpOver[c][d] and jumpTo[c][d] are the cells a soldier on c jumps
	// over and lands on in direction d, or noCell (both) where the board
	// ends before.
	jumpOver, jumpTo [maxCells][6]board.Cell
	// stepsTo[d][x] is the move in direction d to x from its neighbour,
	// and origins[c] a quiet move that so far only starts on c: the
	// generator copies these instead of building moves. A move built in
	// place and then appended is read back whole just after its bytes were
	// written, which stalls the processor (the store cannot be forwarded
	// to the wider load), and it was a quarter of a playout's time. By
	// direction, then by landing cell: the generator lists the steps of a
	// direction in cell order, and finds them next to each other.
	stepsTo [6][maxCells]game.Move
	origins [maxCells]game.Move
	// hopsTo[d][x] is the move in direction d to x from the cell two away
	// (a soldier's step over one piece), or the zero Move.
	hopsTo [6][maxCells]game.Move
	// delta[d] is how far the neighbour in direction d is in the cell
	// order, with its sign: x's neighbour is x+delta[d].
	delta [6]int
	// The sets on two words (rays, leaving, shift, all, around, lines),
	// for the rules and the generator of the 76-cell board, and oneWord
	// the same on one word when narrow: the board has at most 64 cells.
	setLookup[cellSet]
	oneWord setLookup[narrowSet]
	narrow  bool
	// keys[c*4+k] is the Zobrist key of piece kind k (see kindKey) on c:
	// an array for every cell number, so that Play's lookups need no
	// bounds check (only the board's cells have keys).
	keys    [256 * 4]uint64
	sideKey uint64
	// maxPieces is the most pieces a side can have: its starting count.
	maxPieces int
	// advance[p][c] is how many rows a soldier of p on c has come from
	// its own side, in half-cells (doubled coordinates).
	advance [2][maxCells]uint8
	// edge are the cells without a neighbour in some direction, for the
	// evaluation.
	edge cellSet
	// fen is the FEN's syntax and its messages.
	fen game.PieceListFEN
	// weights are the default evaluation weights, kept here so that
	// Evaluate does not build them at every call.
	weights Weights
}

// setLookup are the cell sets the move generator reads, in its set type
// S (cellSet or narrowSet). A generic struct only: the generator reads its
// fields, and calls no method through S, which Go would make an indirect
// call.
type setLookup[S any] struct {
	// rays[c][d] are the cells of board.Ray(c, d): every cell from c
	// (excluded) to the edge in direction d.
	rays [maxCells][6]S
	// leaving[d] are the cells that have a neighbour in direction d, and
	// shift[d] how far that neighbour is in the cell order: the cells are
	// numbered column by column, so one direction is one distance on the
	// whole board (up the order in the directions N, NE and SE, down in
	// the others).
	leaving [6]S
	shift   [6]uint
	// all are the cells of the board.
	all S
	// around[c] are c's neighbours, and lines[c] the cells of its six
	// rays: where a soldier's or a captain's capture from c would start.
	around, lines [maxCells]S
}

// narrowed returns the sets of ts on one word: the board has at most 64
// cells.
func (ts *setLookup[S]) narrowed(toNarrow func(S) narrowSet) setLookup[narrowSet] {
	n := setLookup[narrowSet]{shift: ts.shift, all: toNarrow(ts.all)}
	for c := range ts.rays {
		for d := range ts.rays[c] {
			n.rays[c][d] = toNarrow(ts.rays[c][d])
		}
	}
	for d := range ts.leaving {
		n.leaving[d] = toNarrow(ts.leaving[d])
	}
	for c := range ts.around {
		n.around[c], n.lines[c] = toNarrow(ts.around[c]), toNarrow(ts.lines[c])
	}
	return n
}

func newLookup(v variant) *lookup {
	b := board.NewHexColumns(v.columns, v.long)
	t := &lookup{v: v, b: b, n: b.Len(), fen: fenSyntax(v, b), weights: weightsFor(v.id)}
	t.forward[White] = [3]int{board.HexNW, board.HexN, board.HexNE}
	t.forward[Black] = [3]int{board.HexSW, board.HexS, board.HexSE}
	for c := 0; c < t.n; c++ {
		cell := board.Cell(c)
		t.all = t.all.or(setOf(cell))
		t.origins[c] = game.Start(cell, false)
		for d := 0; d < 6; d++ {
			t.next[c][d] = b.Neighbor(cell, d)
			if x := t.next[c][d]; x != board.None {
				t.stepsTo[d][x] = game.Step(cell, x)
			}
			t.jumpOver[c][d], t.jumpTo[c][d] = noCell, noCell
			if ray := b.Ray(cell, d); len(ray) >= 2 {
				t.hopsTo[d][ray[1]] = game.Step(cell, ray[1])
				t.jumpOver[c][d], t.jumpTo[c][d] = ray[0], ray[1]
			}
			for _, x := range b.Ray(cell, d) {
				t.rays[c][d] = t.rays[c][d].or(setOf(x))
			}
			t.lines[c] = t.lines[c].or(t.rays[c][d])
			if x := t.next[c][d]; x != board.None {
				t.around[c] = t.around[c].or(setOf(x))
			}
		}
		if b.Neighbor(cell, board.HexN) == board.None {
			t.lastRow[White] = t.lastRow[White].or(setOf(cell))
		}
		if b.Neighbor(cell, board.HexS) == board.None {
			t.lastRow[Black] = t.lastRow[Black].or(setOf(cell))
		}
	}
	t.measureShifts()
	inner := t.all
	for d := range t.leaving {
		inner = inner.and(t.leaving[d])
	}
	t.edge = t.all.andNot(inner)
	if t.narrow = t.n <= 64; t.narrow {
		t.oneWord = t.setLookup.narrowed(toNarrowSet)
	}
	keys := game.ZobristKeys(uint64(len(v.id))*0x51ed27f3+uint64(t.n), t.n*4+1)
	copy(t.keys[:], keys[:t.n*4])
	t.sideKey = keys[t.n*4]
	maxY := 0
	for c := 0; c < t.n; c++ {
		_, y := b.Coord(board.Cell(c))
		maxY = max(maxY, y)
	}
	for c := 0; c < t.n; c++ {
		_, y := b.Coord(board.Cell(c))
		t.advance[White][c], t.advance[Black][c] = uint8(y), uint8(maxY-y)
	}
	t.start = t.setup()
	t.maxPieces = int(t.start.count[White])
	return t
}

// measureShifts fills leaving, shift and delta from the neighbours. The shifts of
// the move generator are only right if every neighbour in a direction is
// the same distance away in the cell order, so a board where that fails
// stops the program at start-up rather than play wrong moves.
func (t *lookup) measureShifts() {
	for d := 0; d < 6; d++ {
		for c := 0; c < t.n; c++ {
			x := t.next[c][d]
			if x == board.None {
				continue
			}
			t.leaving[d] = t.leaving[d].or(setOf(board.Cell(c)))
			dist := int(x) - c
			if d >= 3 {
				dist = -dist
			}
			if shift := t.shift[d]; dist <= 0 || shift != 0 && shift != uint(dist) {
				panic(fmt.Sprintf("pommel: %s: direction %d is not one shift of the cell order", t.v.id, d))
			}
			t.shift[d] = uint(dist)
			t.delta[d] = int(x) - c
		}
	}
}

// wideSets are the sets of the generator on two words.
func (t *lookup) wideSets() *setLookup[cellSet] { return &t.setLookup }

// narrowSets are the sets of the generator on one word (narrow boards).
func (t *lookup) narrowSets() *setLookup[narrowSet] { return &t.oneWord }

// opposite returns the direction opposite d.
func opposite(d int) int {
	if d < 3 {
		return d + 3
	}
	return d - 3
}

// appendStep appends the move from c to x, copied from origins and
// completed in the buffer (see origins).
func (t *lookup) appendStep(buf []game.Move, c, x board.Cell) []game.Move {
	buf = append(buf, t.origins[c])
	buf[len(buf)-1].Land(x)
	return buf
}

// setup builds the starting position of RULINGS section 1.
func (t *lookup) setup() position {
	var p position
	for c := 0; c < t.n; c++ {
		cell := board.Cell(c)
		x, _ := t.b.Coord(cell)
		fromBottom, fromTop := t.cellNumber(cell), t.columnLength(x)-t.cellNumber(cell)+1
		long := x%2 == 1
		switch {
		case fromBottom <= 2 || long && t.v.thirdRow && fromBottom == 3:
			p.put(t, cell, White, false)
		case fromTop <= 2 || long && t.v.thirdRow && fromTop == 3:
			p.put(t, cell, Black, false)
		}
	}
	return p
}

// cellNumber is the 1-based number of a cell in its column.
func (t *lookup) cellNumber(c board.Cell) int {
	n := 1
	for x := t.b.Neighbor(c, board.HexS); x != board.None; x = t.b.Neighbor(x, board.HexS) {
		n++
	}
	return n
}

func (t *lookup) columnLength(x int) int {
	if x%2 == 1 {
		return t.v.long
	}
	return t.v.long - 1
}

// Game is Pommel on one board with its options. It is immutable.
type Game struct {
	game.Base // ID, Options, Players, PlayerName, Seat, Board
	t         *lookup
	hopAny    bool
	maxPlies  int
}

// Start returns the starting position, the first player (option first,
// White by default) to move.
func (g *Game) Start() game.State { return g.startState() }

// NewState returns the starting position as the concrete type, for
// engines that want to avoid the interface.
func (g *Game) NewState() *State { return g.startState() }

// startState is the starting position with the first player to move, and
// the pie rule's Swap open at ply 1 when the game has it.
func (g *Game) startState() *State {
	s := g.newState(g.t.start)
	if first := g.First(); first != s.pos.toMove {
		s.pos.toMove = first
		s.pos.hash ^= g.t.sideKey
	}
	s.swappable = g.SwapRule()
	return s
}

func (g *Game) newState(p position) *State {
	// Room for the undo records of a typical game, so that a game played
	// from the start does not grow the stack move after move.
	s := &State{g: g, t: g.t, pos: p}
	if g.t.narrow {
		s.undo = make([]uint64, 0, g.t.v.undoRoom)
	} else {
		s.positions = make([]position, 0, g.t.v.undoRoom)
	}
	return s
}
