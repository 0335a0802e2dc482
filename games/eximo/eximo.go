// Package eximo implements Eximo (rec.games.abstract, 2013), a game of the
// checkers family with orthogonal and diagonal movement, jumps over
// friendly men, and men that leave the board on the far row and are
// replaced by drops, on an 8x8 board (game id "eximo"), exactly as RULINGS
// section 2 fixes the rules.
//
// Black (rows 1-3) moves first and is player 0; White is player 1. There
// are no kings: every piece is a man (game.Man).
//
// A move is one whole turn, drops included, so a position between moves has
// no pending state: the FEN is the side to move and the men of each side.
package eximo

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The players. Black moves first.
const (
	Black game.Player = 0
	White game.Player = 1
)

// seats are Black's and White's, by player: Black is player 0.
var seats = [...]game.Seat{
	Black: {Name: "Black", Key: "black", Letter: 'b'},
	White: {Name: "White", Key: "white", Letter: 'w'},
}

// ID is the game id.
const ID = "eximo"

// cells is the number of squares: 8x8, all used.
const cells = 64

// none marks a missing neighbour in the direction arrays.
const none int8 = -1

// The five capture directions of a man, seen from its owner's side. The
// first three are also the directions of ordinary moves and friendly jumps.
const (
	dirForward = iota
	dirForwardLeft
	dirForwardRight
	dirLeft
	dirRight
	nDirs
	nForward = 3
)

func init() {
	t := newLookup()
	game.Register(game.Descriptor{
		ID:      ID,
		Name:    "Eximo",
		Summary: "Eximo: 8x8 checkers with jumps over friendly men, sideways capture and drops on the far row",
		Players: 2,
		Seats:   seats[:],
		FEN:     &t.fen,
		New: func(o game.Options) (game.Game, error) {
			return &Game{Base: game.NewBase(ID, o, seats[:], t.b), t: t, maxPlies: o.Int("maxplies")}, nil
		},
	})
}

// lookup is the immutable data of the game, built once.
type lookup struct {
	b *board.Board
	// step[p][d][c] is the neighbour of c in p's direction d, or none.
	step [2][nDirs][cells]int8
	// near[p][k][c] is the set of c's neighbours in p's first k
	// directions: near[p][nDirs] those a man on c can capture over,
	// near[p][nForward] those it can jump over.
	near [2][nDirs + 1][cells]uint64
	// shift[p][d] moves a set of cells one step in p's direction d.
	shift [2][nDirs]shift
	// stepTo[p][d][c] is the move from-c of a man of p whose from is one
	// step behind c in direction d, jumpTo[p][d][c] the one whose from is
	// two steps behind (a jump over a friendly man, written the same way):
	// Moves copies these whole instead of building each move, because a
	// move built field by field and then copied to the list makes the
	// processor wait for its small stores (zero for a from outside the
	// board, never read).
	stepTo, jumpTo [2][nForward][cells]game.Move
	// captureFrom[c] is the start of a capture from c, copied for the same
	// reason.
	captureFrom [cells]game.Move
	// far[p] is p's far row, where p's men leave the board; zone[p] is p's
	// drop zone.
	far, zone [2]uint64
	keys      [2][cells]uint64
	sideKey   uint64
	start     position
	// fen is the FEN's syntax and its messages.
	fen game.PieceListFEN
	// weights are the default evaluation weights, kept here so that
	// Evaluate does not build them at every call.
	weights Weights
}

func newLookup() *lookup {
	b := board.NewSquare(8, 8)
	t := &lookup{b: b, fen: fenSyntax(b), weights: weightsFor(ID)}
	dirs := [2][nDirs]int{
		Black: {board.SqN, board.SqNW, board.SqNE, board.SqW, board.SqE},
		White: {board.SqS, board.SqSE, board.SqSW, board.SqE, board.SqW},
	}
	for p := range 2 {
		for d := range nDirs {
			v := b.Direction(dirs[p][d])
			sh := shift{delta: v.DX + 8*v.DY}
			for c := range cells {
				t.step[p][d][c] = none
				if n := b.Neighbor(board.Cell(c), dirs[p][d]); n != board.None {
					t.step[p][d][c] = int8(n)
					sh.mask |= 1 << c
				}
			}
			t.shift[p][d] = sh
			for c, n := range t.step[p][d] {
				for k := d + 1; k <= nDirs && n != none; k++ {
					t.near[p][k][c] |= 1 << n
				}
			}
			if d < nForward {
				t.fillMoves(p, d)
			}
		}
	}
	for c := range cells {
		t.captureFrom[c] = game.Start(board.Cell(c), true)
	}
	const row = 0xff
	const filesBtoG = 0x7e
	t.far[Black], t.far[White] = row<<56, row
	t.zone[Black] = filesBtoG | filesBtoG<<8
	t.zone[White] = filesBtoG<<48 | filesBtoG<<56
	keys := game.ZobristKeys(0xe81360, 2*cells+1)
	for c := range cells {
		t.keys[Black][c], t.keys[White][c] = keys[2*c], keys[2*c+1]
	}
	t.sideKey = keys[2*cells]
	for _, name := range []string{"b1", "c1", "d1", "e1", "f1", "g1", "b2", "c2", "d2", "e2", "f2", "g2", "b3", "c3", "f3", "g3"} {
		c, _ := b.Parse(name)
		t.start.toggle(t, Black, int(c))
		t.start.toggle(t, White, int(c^0x38)) // the same file, the mirrored rank
	}
	return t
}

// fillMoves fills stepTo and jumpTo of p's forward direction d from the
// step table.
func (t *lookup) fillMoves(p, d int) {
	for from := range cells {
		over := t.step[p][d][from]
		if over == none {
			continue
		}
		t.stepTo[p][d][over] = game.Step(board.Cell(from), board.Cell(over))
		if to := t.step[p][d][over]; to != none {
			t.jumpTo[p][d][to] = game.Step(board.Cell(from), board.Cell(to))
		}
	}
}

// shift moves every cell of a set one step in a direction: mask keeps the
// cells that have a neighbour that way, and delta is the change of cell
// number. The step is a rotation, one instruction for either sign of
// delta and without the checks a variable shift needs; the mask has
// already dropped every cell a rotation would carry around the board.
type shift struct {
	mask  uint64
	delta int
}

func (s shift) apply(x uint64) uint64 {
	return bits.RotateLeft64(x&s.mask, s.delta)
}

// Game is Eximo with its options. It is immutable.
type Game struct {
	game.Base // ID, Options, Players, PlayerName, Seat, Board
	t         *lookup
	maxPlies  int
}

// Start returns the starting position, the first player (option first,
// Black by default) to move.
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
	return &State{g: g, pos: p, undo: make([]position, 0, undoRoom)}
}

// undoRoom is the room for moves a state starts with: random games from
// the start last about 70 plies, and growing the stack from nothing, eight
// times in such a game, took about a fifth of a playout's profile (the
// allocations, the clearing, the memory handed back to the system and
// taken again).
const undoRoom = 96
