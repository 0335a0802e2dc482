// Package pommel implements Pommel, Michael Howe's hexagonal checkers with
// linear "leaping" capture, on its 45-cell board (id "pommel") and its
// 76-cell board ("pommel-76"), exactly as RULINGS section 1 fixes the rules.
//
// Option hop=friendly (the default) lets a soldier's step pass over friendly
// pieces only; hop=any over any pieces (the 2011 definitive version).
package pommel

import (
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

// variant is one board size.
type variant struct {
	id, summary   string
	columns, long int
	// thirdRow adds a soldier on the third cell of every long column
	// (pommel-76).
	thirdRow bool
}

var variants = []variant{
	{id: "pommel", columns: 7, long: 7,
		summary: "Pommel: hex checkers with linear leaping capture, 45 cells, 14 soldiers each"},
	{id: "pommel-76", columns: 9, long: 9, thirdRow: true,
		summary: "Pommel on the 76-cell board, 22 soldiers each"},
}

var hopOption = game.OptionSpec{
	Key: "hop", Default: "friendly", Values: []string{"friendly", "any"},
	Help: "what a soldier's step may pass over: friendly pieces only (as the rules page has it, the default) or any pieces (as the 2011 definitive version has it)",
}

func init() {
	for _, v := range variants {
		tables := newTables(v)
		game.Register(game.Descriptor{
			ID:      v.id,
			Summary: v.summary,
			Players: 2,
			Seats:   seats[:],
			Options: []game.OptionSpec{hopOption},
			New: func(o game.Options) (game.Game, error) {
				return &Game{t: tables, opts: o, hopAny: o.Get("hop") == "any", maxPlies: o.Int("maxplies")}, nil
			},
		})
	}
}

// tables are the immutable data of one board size, shared by every game
// of that size.
type tables struct {
	v     variant
	b     *board.Board
	n     int
	start position
	// lastCell[p][c]: a soldier of p that ends its move on c is promoted.
	lastCell [2][maxCells]bool
	// forward[p] are the three directions of p's non-capturing steps.
	forward [2][3]int
	// rays[c][d] is board.Ray(c, d), kept here so the move generator reads
	// it without index arithmetic.
	rays [maxCells][6][]board.Cell
	// keys[c*4+k] is the Zobrist key of piece kind k (see pieceKey) on c.
	keys    []uint64
	sideKey uint64
	// maxPieces is the most pieces a side can have: its starting count.
	maxPieces int
	// advance[p][c] is how many rows a soldier of p on c has come from
	// its own side, in half-cells (doubled coordinates).
	advance [2][maxCells]uint8
	// fen is the FEN's syntax and its messages.
	fen game.PieceListFEN
	// weights are the default evaluation weights, kept here so that
	// Evaluate does not build them at every call.
	weights Weights
}

func newTables(v variant) *tables {
	b := board.NewHexColumns(v.columns, v.long)
	t := &tables{v: v, b: b, n: b.Len(), fen: fenSyntax(v, b), weights: DefaultWeights()}
	t.forward[White] = [3]int{board.HexNW, board.HexN, board.HexNE}
	t.forward[Black] = [3]int{board.HexSW, board.HexS, board.HexSE}
	for c := 0; c < t.n; c++ {
		for d := 0; d < 6; d++ {
			t.rays[c][d] = b.Ray(board.Cell(c), d)
		}
		t.lastCell[White][c] = b.Neighbor(board.Cell(c), board.HexN) == board.None
		t.lastCell[Black][c] = b.Neighbor(board.Cell(c), board.HexS) == board.None
	}
	keys := game.ZobristKeys(uint64(len(v.id))*0x51ed27f3+uint64(t.n), t.n*4+1)
	t.keys, t.sideKey = keys[:t.n*4], keys[t.n*4]
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

// setup builds the starting position of RULINGS section 1.
func (t *tables) setup() position {
	var p position
	for c := 0; c < t.n; c++ {
		cell := board.Cell(c)
		x, _ := t.b.Coord(cell)
		fromBottom, fromTop := t.cellNumber(cell), t.columnLength(x)-t.cellNumber(cell)+1
		long := x%2 == 1
		switch {
		case fromBottom <= 2 || long && t.v.thirdRow && fromBottom == 3:
			p.put(t, cell, whiteSoldier)
		case fromTop <= 2 || long && t.v.thirdRow && fromTop == 3:
			p.put(t, cell, blackSoldier)
		}
	}
	return p
}

// cellNumber is the 1-based number of a cell in its column.
func (t *tables) cellNumber(c board.Cell) int {
	n := 1
	for x := t.b.Neighbor(c, board.HexS); x != board.None; x = t.b.Neighbor(x, board.HexS) {
		n++
	}
	return n
}

func (t *tables) columnLength(x int) int {
	if x%2 == 1 {
		return t.v.long
	}
	return t.v.long - 1
}

// Game is Pommel on one board with its options. It is immutable.
type Game struct {
	t        *tables
	opts     game.Options
	hopAny   bool
	maxPlies int
}

// ID returns the game id, "pommel" or "pommel-76".
func (g *Game) ID() string { return g.t.v.id }

// Options returns the game's options.
func (g *Game) Options() game.Options { return g.opts }

// Players returns 2.
func (g *Game) Players() int { return 2 }

// PlayerName names White and Black.
func (g *Game) PlayerName(p game.Player) string { return g.Seat(p).Name }

// Seat returns White's or Black's seat.
func (g *Game) Seat(p game.Player) game.Seat { return seats[p] }

// Board returns the hex column board.
func (g *Game) Board() *board.Board { return g.t.b }

// Start returns the starting position, White to move.
func (g *Game) Start() game.State { return g.newState(g.t.start) }

// NewState returns the starting position as the concrete type, for
// engines that want to avoid the interface.
func (g *Game) NewState() *State { return g.newState(g.t.start) }

func (g *Game) newState(p position) *State {
	s := &State{g: g, pos: p}
	s.hist.Reset(p.hash)
	return s
}
