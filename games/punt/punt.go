// Package punt implements Fred Horn's Punt-Match on its 7x7 square board
// (id "punt-match") and Punt-Heks-Match on the hexhex board of side 5, for
// two players ("punt-heks-match") and for three ("punt-heks-match-3p"),
// exactly as RULINGS section 4 fixes the rules.
//
// Pawns and piles move forward or sideways in a straight line across empty
// cells, 3, 2 or 1 cells by height, and may land on any pile, which they
// then control. A pile a player controls on their own end-row is frozen.
// The game ends when the player to move has no move, and is scored: each
// player counts the pawns in the piles they control on their end-row.
//
// The three ids share all the code: a variant is a board and a list of
// seats, and a seat is a linear "progress" measure on the board's
// coordinates from which its home cells, end-row and directions follow.
package punt

import (
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The players, in turn order. Red plays only in punt-heks-match-3p.
const (
	White game.Player = 0
	Black game.Player = 1
	Red   game.Player = 2
)

// maxPlayers is the most seats a Punt variant has; maxCells the most cells
// a board has: 64, so that a set of cells is one word.
const (
	maxPlayers = 3
	maxCells   = 64
	maxSlots   = 6 // the hexhex board's six directions
)

// ray is the start of a line from a cell, as Moves reads it: the moves to
// its first three cells (the farthest any pile goes), built once here so
// that Moves copies them, and the two cells a move to the second or third
// must cross (offBoard when there is no such move). landings[far][blocked]
// is how many of the moves a pile makes when it may go far cells (its
// reach) and blocked tells which of the two cells are occupied (bit 0 the
// first, bit 1 the second): the pile goes up to the first occupied cell,
// the edge or its reach, whichever comes first.
type ray struct {
	moves         [3]game.Move
	first, second uint8
	landings      [4][4]uint8
}

// offBoard is a cell number no board reaches: its bit in a set of occupied
// cells is never set.
const offBoard = maxCells - 1

// seat places a player on a board. progress(x, y) = (ax·x + ay·y + c) / div
// counts the lines between a cell and the player's home edge: 0 on the home
// edge, the board's last line on the end-row. A direction that raises it is
// forward, one that keeps it is sideways.
type seat struct {
	name          string
	key           string // the seat in flags and JSON: white, black, red
	letter        byte   // the pawn's letter in FENs and drawings: w, b, r
	ax, ay, c, dv int
}

// public is the seat as the core knows it.
func (s seat) public() game.Seat { return game.Seat{Name: s.name, Key: s.key, Letter: s.letter} }

var (
	// On both boards White's home edge is the bottom (progress = y).
	whiteSeat = seat{name: "White", key: "white", letter: 'w', ay: 1, dv: 1}
	// Black faces White across the board in the two-player games.
	blackSquare = seat{name: "Black", key: "black", letter: 'b', ay: -1, c: 6, dv: 1}
	blackHex2   = seat{name: "Black", key: "black", letter: 'b', ay: -1, c: 8, dv: 1}
	// In the three-player game Black's home edge is the upper-left one,
	// x - y = -4 in the board's doubled coordinates, and Red's the
	// upper-right one, x + y = 20.
	blackHex3 = seat{name: "Black", key: "black", letter: 'b', ax: 1, ay: -1, c: 4, dv: 2}
	redHex3   = seat{name: "Red", key: "red", letter: 'r', ax: -1, ay: -1, c: 20, dv: 2}
)

// variant is one board with its seats.
type variant struct {
	id, name, summary string
	hex               bool // the hexhex board of side 5; else the 7x7 square
	seats             []seat
}

// publicSeats are the variant's seats as the core knows them.
func (v variant) publicSeats() []game.Seat {
	seats := make([]game.Seat, len(v.seats))
	for i, s := range v.seats {
		seats[i] = s.public()
	}
	return seats
}

var variants = []variant{
	{id: "punt-match", seats: []seat{whiteSeat, blackSquare},
		name: "Punt-Match", summary: "Punt-Match: race pawns and piles to your end-row, 7x7 square, 14 pawns each"},
	{id: "punt-heks-match", hex: true, seats: []seat{whiteSeat, blackHex2},
		name: "Punt-Heks-Match", summary: "Punt-Heks-Match: Punt-Match on the hexhex board of side 5, 11 pawns each"},
	{id: "punt-heks-match-3p", hex: true, seats: []seat{whiteSeat, blackHex3, redHex3},
		name: "Punt-Heks-Match (3 players)", summary: "Punt-Heks-Match for three players (White, Black, Red), 11 pawns each"},
}

func init() {
	for _, v := range variants {
		t := newLookup(v)
		seats := v.publicSeats()
		game.Register(game.Descriptor{
			ID:      v.id,
			Name:    v.name,
			Summary: v.summary,
			Players: len(v.seats),
			Seats:   seats,
			FEN:     &t.fen,
			Options: []game.OptionSpec{endOption, tiebreakOption, repetitionOption},
			New: func(o game.Options) (game.Game, error) {
				return &Game{Base: game.NewBase(v.id, o, seats, t.b), t: t, maxPlies: o.Int("maxplies"),
					allStuck: o.Get("end") == endAllStuck, tiebreak: o.Get("tiebreak"),
					repetitionScored: o.Get("repetition") == repetitionScored}, nil
			},
		})
	}
}

// lookup is the immutable data of one variant, shared by all its games.
type lookup struct {
	v       variant
	b       *board.Board
	n       int
	players int
	start   position
	// dirs[p][:nDirs] are the directions p's piles move in: forward ones
	// first, then sideways ones.
	dirs     [maxPlayers][4]int
	nDirs    int
	nForward int
	// near[c][d] are the first three cells from c in direction d, None
	// past the edge: no pile moves further.
	near [maxCells][8][3]board.Cell
	// rays[c][slots[p][i]] is the line from c in direction dirs[p][i], as
	// Moves reads it. The board's directions that no seat moves in have
	// no slot, which keeps the table small enough to stay in cache.
	rays  [maxCells][maxSlots]ray
	slots [maxPlayers][4]uint8
	// progress[p][c] is how many lines c lies from p's home edge.
	progress [maxPlayers][maxCells]int8
	// home[p] and endRow[p] are sets of cells (bit c for cell c).
	home, endRow [maxPlayers]uint64
	// mobile[p] is the set of cells from which a pile p controls has a
	// move: not on p's end-row and with a neighbour in one of p's
	// directions. Since a pile may land on any pile, a pile there always
	// has a move, so p has a legal move exactly when it controls one.
	mobile [maxPlayers]uint64
	// perSeat is the number of pawns each player starts with; maxPawns the
	// number of pawns on the board, the highest a pile can be.
	perSeat, maxPawns int
	// keys[(c*maxPawns+level)*players+colour] is the Zobrist key of a pawn
	// of that colour at that level (0 = bottom) of the pile on c.
	keys     []uint64
	sideKeys [maxPlayers]uint64
	// keyStride is the distance in keys between two cells' keys.
	keyStride int
	// next[p] is the player after p in turn order; turnKeys[p] the change
	// of hash when p's turn passes to next[p].
	next     [maxPlayers]game.Player
	turnKeys [maxPlayers]uint64
	// fen is the FEN's syntax and its messages.
	fen game.StackFEN
	// weights are the default evaluation weights, kept here so that
	// Evaluate does not build them at every call.
	weights Weights
}

func newLookup(v variant) *lookup {
	b := board.NewSquare(7, 7)
	allowed := []int{board.SqN, board.SqE, board.SqS, board.SqW}
	if v.hex {
		b = board.NewHexHex(5)
		allowed = []int{board.HexHexE, board.HexHexNE, board.HexHexNW, board.HexHexW, board.HexHexSW, board.HexHexSE}
	}
	t := &lookup{v: v, b: b, n: b.Len(), players: len(v.seats), fen: fenSyntax(v, b), weights: weightsFor(v.id)}
	if t.n > offBoard {
		panic(fmt.Sprintf("punt: %s has %d cells, more than %d", v.id, t.n, offBoard))
	}
	for c := 0; c < t.n; c++ {
		for d := 0; d < b.Dirs(); d++ {
			ray := b.Ray(board.Cell(c), d)
			for i := range t.near[c][d] {
				t.near[c][d][i] = board.None
				if i < len(ray) {
					t.near[c][d][i] = ray[i]
				}
			}
		}
	}
	t.fillRays(allowed)
	for p, s := range v.seats {
		last := 0
		for c := 0; c < t.n; c++ {
			x, y := b.Coord(board.Cell(c))
			t.progress[p][c] = int8((s.ax*x + s.ay*y + s.c) / s.dv)
			last = max(last, int(t.progress[p][c]))
		}
		var fwd, side []int
		for _, d := range allowed {
			vec := b.Direction(d)
			switch rise := s.ax*vec.DX + s.ay*vec.DY; {
			case rise > 0:
				fwd = append(fwd, d)
			case rise == 0:
				side = append(side, d)
			}
		}
		// Every seat has the same number of directions (1+2 or 2+2):
		// the move generator keeps one count per variant.
		if len(side) != 2 || p > 0 && len(fwd) != t.nForward || len(fwd)+len(side) > len(t.dirs[p]) {
			panic(fmt.Sprintf("punt: %s seat %d moves forward %v and sideways %v", v.id, p, fwd, side))
		}
		t.nForward, t.nDirs = len(fwd), len(fwd)+len(side)
		copy(t.dirs[p][:], append(fwd, side...))
		for i, d := range t.dirs[p][:t.nDirs] {
			t.slots[p][i] = uint8(slices.Index(allowed, d))
		}
		for c := 0; c < t.n; c++ {
			bit := uint64(1) << c
			switch t.progress[p][c] {
			case 0, 1:
				t.home[p] |= bit
			case int8(last):
				t.endRow[p] |= bit
				continue
			}
			for _, d := range t.dirs[p][:t.nDirs] {
				if b.Neighbor(board.Cell(c), d) != board.None {
					t.mobile[p] |= bit
				}
			}
		}
	}
	t.start = t.setup()
	for c := 0; c < t.n; c++ {
		if t.start.top[c] == White {
			t.perSeat++
		}
	}
	t.maxPawns = t.perSeat * t.players
	keys := game.ZobristKeys(0x70756e74^uint64(t.n)<<8^uint64(t.players), t.n*t.maxPawns*t.players+maxPlayers)
	t.keys = keys[:t.n*t.maxPawns*t.players]
	copy(t.sideKeys[:], keys[t.n*t.maxPawns*t.players:])
	t.start.hash = t.hashOf(&t.start)
	t.keyStride = t.maxPawns * t.players
	for p := range t.players {
		t.next[p] = game.Player((p + 1) % t.players)
		t.turnKeys[p] = t.sideKeys[p] ^ t.sideKeys[t.next[p]]
	}
	return t
}

// fillRays fills rays from near: slot i is the direction allowed[i].
func (t *lookup) fillRays(allowed []int) {
	for c := 0; c < t.n; c++ {
		for i, d := range allowed {
			r := &t.rays[c][i]
			cells := t.near[c][d][:]
			if end := slices.Index(cells, board.None); end >= 0 {
				cells = cells[:end]
			}
			for j, x := range cells {
				r.moves[j] = game.Step(board.Cell(c), x)
			}
			r.first, r.second = offBoard, offBoard
			if len(cells) > 1 {
				r.first = uint8(cells[0])
			}
			if len(cells) > 2 {
				r.second = uint8(cells[1])
			}
			for far := range r.landings {
				for blocked := range r.landings[far] {
					r.landings[far][blocked] = landings(min(far, len(cells)), blocked)
				}
			}
		}
	}
}

// landings is how many cells a pile lands on along a line when it may
// go far cells and blocked tells which of the first two are occupied.
func landings(far, blocked int) uint8 {
	n := 0
	for n < far {
		n++
		if blocked>>(n-1)&1 != 0 {
			break
		}
	}
	return uint8(n)
}

// key is the Zobrist key of a pawn of colour col at level lv of c's pile.
func (t *lookup) key(c board.Cell, lv int, col game.Player) uint64 {
	return t.keys[(int(c)*t.maxPawns+lv)*t.players+int(col)]
}

// pileKeys is the change of hash when the pile on from, k pawns with
// colour planes lo and hi, goes on top of the h pawns on to: the keys of
// each pawn at its old place and at its new one.
func (t *lookup) pileKeys(from, to board.Cell, h, k uint8, lo, hi uint64) uint64 {
	var x uint64
	kf := int(from) * t.keyStride
	kt := int(to)*t.keyStride + int(h)*t.players
	for i := range uint(k) {
		col := int(lo>>(i%64)&1 | (hi>>(i%64)&1)<<1)
		x ^= t.keys[kf+col] ^ t.keys[kt+col]
		kf += t.players
		kt += t.players
	}
	return x
}

// setup builds the starting position: every player's pawns on their two
// home lines, White to move.
func (t *lookup) setup() position {
	p := emptyPosition()
	for c := 0; c < t.n; c++ {
		for s := 0; s < t.players; s++ {
			if t.home[s]>>c&1 != 0 {
				p.place(board.Cell(c), game.Player(s))
			}
		}
	}
	return p
}

// hashOf computes a position's hash from scratch; play keeps it up to date.
func (t *lookup) hashOf(p *position) uint64 {
	h := t.sideKeys[p.toMove]
	for c := 0; c < t.n; c++ {
		for lv := 0; lv < int(p.height[c]); lv++ {
			h ^= t.key(board.Cell(c), lv, p.colour(board.Cell(c), lv))
		}
	}
	return h
}

// undoRoom is the number of moves a new state has room for before its undo
// stack grows: more than most games last, in one allocation.
const undoRoom = 128

// Game is one Punt variant with its options. It is immutable.
type Game struct {
	game.Base // ID, Options, Players, PlayerName, Seat, Board
	t         *lookup
	maxPlies  int
	// allStuck is end=all-stuck: stuck players pass and the game goes on
	// while another player can move (variants.go).
	allStuck bool
	// tiebreak is the tiebreak option's value: none, progress or last.
	tiebreak string
	// repetitionScored is repetition=scored: the third occurrence of a
	// position ends the game scored, not drawn.
	repetitionScored bool
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
		s.pos.hash = g.t.hashOf(&s.pos)
	}
	s.swappable = g.SwapRule()
	return s
}

// EndRow reports whether c is on p's end-row.
func (g *Game) EndRow(p game.Player, c board.Cell) bool {
	return p >= 0 && int(p) < g.t.players && int(c) < g.t.n && g.t.endRow[p]>>c&1 != 0
}

// Directions returns the directions p's pawns and piles move in, forward
// ones first, then the two sideways ones, as the board numbers them.
func (g *Game) Directions(p game.Player) (forward, sideways []int) {
	if p < 0 || int(p) >= g.t.players {
		return nil, nil
	}
	d := g.t.dirs[p][:g.t.nDirs]
	return append([]int(nil), d[:g.t.nForward]...), append([]int(nil), d[g.t.nForward:]...)
}

func (g *Game) newState(p position) *State {
	s := &State{g: g, pos: p}
	s.undo = s.room[:0]
	return s
}
