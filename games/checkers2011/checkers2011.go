// Package checkers2011 implements Checkers 2011 (id "checkers-2011"), a
// mix of Gothic Checkers' moves, Lasca's stacks and Hasami Shogi's
// sandwiches on an 8x8 board, exactly as RULINGS sections 0, 3 and 5 fix
// the rules.
//
// A cell holds a stack of pieces. Jumping an enemy-commanded stack
// imprisons its top piece under the jumper (the rest is liberated), the
// longest capture sequences are compulsory, and after every move the mover
// eliminates whole enemy stacks sandwiched orthogonally against the moved
// stack, along edges and around corners.
//
// The state implements game.Stacker, so drawings, records and the browser
// can show whole stacks bottom first.
package checkers2011

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The players. White (ranks 1-2) moves first.
const (
	White game.Player = 0
	Black game.Player = 1
)

// seats are White's and Black's, by player.
var seats = [...]game.Seat{
	White: {Name: "White", Key: "white", Letter: 'w'},
	Black: {Name: "Black", Key: "black", Letter: 'b'},
}

// ID is the game's id.
const ID = "checkers-2011"

const (
	size     = 8
	numCells = size * size
	// maxSide is the most pieces of one colour: a side's starting army.
	// Pieces are never created, and the bound keeps a capture sequence
	// (one enemy piece per jump) well inside game.MaxPath.
	maxSide = 16
	// maxHeight is the tallest possible stack: every piece on one cell. It
	// is what a uint64 of 2-bit pieces holds.
	maxHeight = 2 * maxSide
)

func init() {
	t, sideways := newLookup(false), newLookup(true)
	game.Register(game.Descriptor{
		ID:      ID,
		Name:    "Checkers 2011",
		Summary: "Checkers 2011: Gothic-checkers moves, Lasca stacks by imprisonment, Hasami sandwiches; 8x8, 16 soldiers each",
		Players: 2,
		Seats:   seats[:],
		FEN:     &t.fen,
		Options: []game.OptionSpec{ownjumpOption, sidejumpOption},
		New: func(o game.Options) (game.Game, error) {
			g := &Game{Base: game.NewBase(ID, o, seats[:], t.b), t: t, maxPlies: o.Int("maxplies"), ownJump: o.Get("ownjump") == "on"}
			if o.Get("sidejump") == "on" {
				g.t = sideways
			}
			return g, nil
		},
	})
}

// lookup is the immutable data of the board, shared by every game.
type lookup struct {
	b *board.Board
	// nb[c][d] is the neighbour of c in direction d (board.Sq*), or
	// board.None.
	nb [numCells][8]board.Cell
	// jumpDirs[player][king] are the directions a commander jumps in:
	// forward and diagonally forward for a soldier (3), every direction
	// but sideways for a king (6); with sidejump=on sideways too (5 and 8).
	jumpDirs [2][2][]int
	// sideJumps tells that jumpDirs hold the sideways jumps.
	sideJumps bool
	// soldierSteps[p] has bit d set for each direction of p's soldier
	// commanders' steps: their jump directions and the two sideways ones.
	// Kings step in all 8 directions.
	soldierSteps [2]uint8
	// soldierJumps[p] and kingJumps are jumpDirs as bit sets, for the
	// bitboard search for stacks that can capture.
	soldierJumps [2]uint8
	kingJumps    uint8
	// lastRank[p] is the set of cells where p's soldier commanders are
	// promoted.
	lastRank [2]uint64
	// turn[c][d] is the direction a sandwich run takes on after reaching
	// corner c while heading in direction d (RULINGS section 3: along the
	// other edge); -1 for cells that are not corners.
	turn [numCells][8]int8
	// keys[c*(maxHeight+1)+h] keys the hash of a stack of height h on c;
	// see stackHash.
	keys    [numCells * (maxHeight + 1)]uint64
	sideKey uint64
	// stepTo[d][c] is the step in direction d that lands on c, made once:
	// a move built byte by byte and then appended costs a stall of the
	// processor's store buffer, a copy from a table does not. leapTo[d][c]
	// is the jump over a friendly stack in direction d that lands on c
	// (ownjump=on), from two cells back.
	stepTo [8][numCells]game.Move
	leapTo [8][numCells]game.Move
	start  position
	// fen is the FEN's syntax and its messages.
	fen game.StackFEN
	// weights are the default evaluation weights, kept here so that
	// Evaluate does not build them at every call.
	weights Weights
}

// newLookup builds the lookup; sideJumps gives soldiers and kings the
// sideways jumps of sidejump=on.
func newLookup(sideJumps bool) *lookup {
	b := board.NewSquare(size, size)
	t := &lookup{b: b, fen: fenSyntax(b), weights: weightsFor(ID)}
	for c := 0; c < numCells; c++ {
		for d := 0; d < 8; d++ {
			t.nb[c][d] = b.Neighbor(board.Cell(c), d)
			t.turn[c][d] = -1
			back := (d + 4) % 8
			if from := b.Neighbor(board.Cell(c), back); from != board.None {
				t.stepTo[d][c] = game.Step(from, board.Cell(c))
				if far := b.Neighbor(from, back); far != board.None {
					t.leapTo[d][c] = game.Step(far, board.Cell(c))
				}
			}
		}
	}
	t.jumpDirs[White][0] = []int{board.SqN, board.SqNE, board.SqNW}
	t.jumpDirs[Black][0] = []int{board.SqS, board.SqSE, board.SqSW}
	kingJumps := []int{board.SqN, board.SqNE, board.SqSE, board.SqS, board.SqSW, board.SqNW}
	if t.sideJumps = sideJumps; sideJumps {
		t.jumpDirs[White][0] = append(t.jumpDirs[White][0], board.SqE, board.SqW)
		t.jumpDirs[Black][0] = append(t.jumpDirs[Black][0], board.SqE, board.SqW)
		kingJumps = append(kingJumps, board.SqE, board.SqW)
	}
	t.jumpDirs[White][1], t.jumpDirs[Black][1] = kingJumps, kingJumps
	for p := White; p <= Black; p++ {
		for _, d := range t.jumpDirs[p][0] {
			t.soldierJumps[p] |= 1 << d
		}
		t.soldierSteps[p] = t.soldierJumps[p] | 1<<board.SqE | 1<<board.SqW
	}
	for _, d := range kingJumps {
		t.kingJumps |= 1 << d
	}
	t.lastRank[White] = 0xff << (8 * 7)
	t.lastRank[Black] = 0xff
	// At a corner exactly two orthogonal directions stay on the board; a
	// run arriving at it turns to the one that does not lead back.
	for _, c := range []int{0, size - 1, numCells - size, numCells - 1} {
		var on []int
		for _, d := range []int{board.SqN, board.SqE, board.SqS, board.SqW} {
			if t.nb[c][d] != board.None {
				on = append(on, d)
			}
		}
		for _, d := range []int{board.SqN, board.SqE, board.SqS, board.SqW} {
			// A run heading d arrived from the neighbour in the opposite
			// direction, which is one of the two.
			switch back := (d + 4) % 8; back {
			case on[0]:
				t.turn[c][d] = int8(on[1])
			case on[1]:
				t.turn[c][d] = int8(on[0])
			}
		}
	}
	keys := game.ZobristKeys(0xc4ec_2011, len(t.keys)+1)
	copy(t.keys[:], keys)
	t.sideKey = keys[len(t.keys)]
	for c := 0; c < numCells; c++ {
		switch rank := c / size; {
		case rank < 2:
			t.start.put(t, board.Cell(c), stack{bits: code(White, game.Man), h: 1})
		case rank >= size-2:
			t.start.put(t, board.Cell(c), stack{bits: code(Black, game.Man), h: 1})
		}
	}
	return t
}

// Game is Checkers 2011 with its options. It is immutable.
type Game struct {
	game.Base // ID, Options, Players, PlayerName, Seat, Board
	t         *lookup
	maxPlies  int
	// ownJump is ownjump=on: a stack may also jump a friendly stack,
	// without capturing (variants.go).
	ownJump bool
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

// reservePlies is the room a new state makes for its undo records at
// once: a typical game's length (about 150 plies), so that a game played
// to its end grows them once at most instead of eight times. Random
// playouts build a state per game, and the garbage of that growth cost
// them more than their moves.
const reservePlies = 256

func (g *Game) newState(p position) *State {
	s := &State{g: g, pos: p, undo: make([]undoRec, 0, reservePlies), saved: make([]savedCell, 0, 2*reservePlies)}
	s.hist.Reset(p.hash)
	return s
}
