package punt

import (
	"math/bits"
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// position is everything the rules look at. A pile is its height and its
// colours, kept as two bit planes so that putting a pile on another is two
// shifts and two ors: the pawn at level i (0 = bottom) of the pile on c has
// colour lo[c]>>i&1 | (hi[c]>>i&1)<<1. Up to 64 pawns fit; a game has 33 at
// most. The colours below the top never change what a pile may do, but
// they are part of the position: FENs, drawings and the hash show them.
type position struct {
	lo, hi [maxCells]uint64
	height [maxCells]uint8
	// top[c] is the colour of the top pawn, the pile's controller, or
	// NoPlayer on an empty cell.
	top [maxCells]game.Player
	// ctrl[p] is the set of cells whose pile p controls; occ the set of
	// cells that hold a pile. Move generation walks them, never the board.
	ctrl   [maxPlayers]uint64
	occ    uint64
	toMove game.Player
	hash   uint64
}

func emptyPosition() position {
	var p position
	for c := range p.top {
		p.top[c] = game.NoPlayer
	}
	return p
}

// place puts one pawn of colour col on top of c's pile. It leaves the hash
// alone: positions built pawn by pawn are hashed whole (lookup.hashOf).
func (p *position) place(c board.Cell, col game.Player) {
	h := p.height[c]
	p.lo[c] |= uint64(col&1) << h
	p.hi[c] |= uint64(col>>1) << h
	p.height[c] = h + 1
	if old := p.top[c]; old != game.NoPlayer {
		p.ctrl[old] &^= 1 << c
	}
	p.top[c] = col
	p.ctrl[col] |= 1 << c
	p.occ |= 1 << c
}

// colour is the colour of the pawn at level lv of c's pile.
func (p *position) colour(c board.Cell, lv int) game.Player {
	return game.Player(p.lo[c]>>lv&1 | (p.hi[c]>>lv&1)<<1)
}

// undoRec is what Undo needs besides the position after the move, and the
// history the draw safeguards read: the hash of the position before the
// move and the start of its stretch of reversible moves. The destination
// pile as it was is the bottom height pawns of the new one, its controller
// the colour of the highest of them. A pass (end=all-stuck) has from ==
// to. mover is the player who moved: the turn may skip players
// (end=all-stuck), and the tie-break "last" looks for the latest mover.
type undoRec struct {
	hash     uint64
	since    int32
	from, to board.Cell
	height   uint8
	mover    game.Player
}

// State is a Punt position with its history. It implements game.State and
// game.Stacker.
type State struct {
	g   *Game
	pos position
	ply int
	// undo[i] holds the hash of the position at ply i; the current one is
	// pos.hash. Only the positions from ply since on can occur again: an
	// irreversible move came before them.
	undo  []undoRec
	since int
	room  [undoRoom]undoRec
	// swappable tells that the game began at the start position with the
	// pie rule: Swap is then a move at ply 1. A FEN position has no swap.
	swappable bool
	// beforeSwap is the position Swap replaced, for Undo; nil when no
	// Swap has been played.
	beforeSwap *position
}

// Game returns the game the state belongs to.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move.
func (s *State) ToMove() game.Player { return s.pos.toMove }

// Ply returns the number of moves played since the start or FEN position.
func (s *State) Ply() int { return s.ply }

// Hash returns the Zobrist hash of the piles and the player to move.
func (s *State) Hash() uint64 { return s.pos.hash }

// Owner returns the player who controls the pile on c (its top pawn's
// colour), or game.NoPlayer when c is empty.
func (s *State) Owner(c board.Cell) game.Player {
	if int(c) >= s.g.t.n {
		return game.NoPlayer
	}
	return s.pos.top[c]
}

// Height returns the number of pawns on c, of every colour.
func (s *State) Height(c board.Cell) int {
	if int(c) >= s.g.t.n {
		return 0
	}
	return int(s.pos.height[c])
}

// Stack appends the pawns on c to buf, bottom first.
func (s *State) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	for lv := 0; lv < s.Height(c); lv++ {
		buf = append(buf, game.Piece{Owner: s.pos.colour(c, lv), Rank: game.Man})
	}
	return buf
}

// Scores returns what each player scores now: the pawns, of any colour,
// in the piles the player controls on their own end-row.
func (s *State) Scores() [game.MaxPlayers]int {
	var sc [game.MaxPlayers]int
	t := s.g.t
	for p := 0; p < t.players; p++ {
		for m := s.pos.ctrl[p] & t.endRow[p]; m != 0; m &= m - 1 {
			sc[p] += int(s.pos.height[bits.TrailingZeros64(m)])
		}
	}
	return sc
}

// Play makes a move that Moves returned: the whole pile leaves its cell
// and is put on top of whatever stands on the landing cell.
//
// Play and Undo are most of a perft's time. Cells and heights are taken
// modulo 64 (none is higher) so that indexing and shifting need no range
// check.
func (s *State) Play(m game.Move) {
	t := s.g.t
	p := &s.pos
	from, to := m.From()%maxCells, m.To()%maxCells
	if from == to { // a pass (from a cell to itself) or Swap (one cell)
		if m.Len() == 1 {
			s.playSwap()
		} else {
			s.pass(from)
		}
		return
	}
	me := p.toMove
	h, k := p.height[to], p.height[from]
	s.pushUndo(from, to, h)
	lo, hi := p.lo[from], p.hi[from]
	p.hash ^= t.pileKeys(from, to, h, k, lo, hi) ^ t.turnKeys[me]
	p.lo[to] |= lo << (h % maxCells)
	p.hi[to] |= hi << (h % maxCells)
	p.height[to] = h + k
	p.lo[from], p.hi[from], p.height[from] = 0, 0, 0
	if old := p.top[to]; old != game.NoPlayer {
		p.ctrl[old] &^= 1 << to
	}
	p.ctrl[me] = p.ctrl[me]&^(1<<from) | 1<<to
	p.top[to], p.top[from] = me, game.NoPlayer
	p.occ = p.occ&^(1<<from) | 1<<to
	p.toMove = t.next[me]
	s.ply++
	// Landing on a pile can never be undone by play (piles never split),
	// and a forward move can never be taken back: without stacking, every
	// pile keeps its controller, and a player's moves only ever raise the
	// progress of their own piles. Only a sideways move to an empty cell
	// leaves the earlier positions within reach.
	if h > 0 || t.progress[me][to] != t.progress[me][from] {
		s.since = len(s.undo)
	}
	if s.g.allStuck {
		p.skipOut(t)
	}
}

// playSwap plays the pie rule's move: the position is mirrored whole
// (game.Mirror). Its undo record goes from a cell to the same cell, which
// no other move does, and Undo finds the position it replaced in
// beforeSwap. No earlier position can occur again.
func (s *State) playSwap() {
	mirror := game.PlaySwap(s).(*State)
	s.pushUndo(0, 0, 0)
	before := s.pos
	s.beforeSwap = &before
	s.pos = mirror.pos
	s.ply++
	s.since = len(s.undo)
}

// undoSwap takes back the pie rule's move, whose record is the last.
// It is nosplit, as Undo is: see Undo.
//
//go:nosplit
func (s *State) undoSwap() bool {
	n := len(s.undo) - 1
	s.pos = *s.beforeSwap
	s.beforeSwap = nil
	s.ply--
	s.since = int(s.undo[n].since)
	s.undo = s.undo[:n]
	return true
}

// pushUndo records a move for Undo. The record is written field by field
// where it is kept: one built aside and copied in, then read by an Undo
// right after, stalls the processor on the copy.
func (s *State) pushUndo(from, to board.Cell, height uint8) {
	n := len(s.undo)
	if n == cap(s.undo) {
		s.undo = slices.Grow(s.undo, 1)
	}
	s.undo = s.undo[:n+1]
	u := &s.undo[n]
	u.hash, u.since, u.from, u.to, u.height, u.mover = s.pos.hash, int32(s.since), from, to, height, s.pos.toMove
}

// Undo takes back the last move.
//
// It is nosplit, and so is undoSwap, the one function it calls: without a
// call Undo was a leaf the compiler made nosplit, and the stack check a
// call brings cost a perft without bulk counting 1% (Undo is a fifth of
// it). The linker checks that the two fit in the stack's guard.
//
//go:nosplit
func (s *State) Undo() bool {
	n := len(s.undo) - 1
	if n < 0 {
		return false
	}
	u := &s.undo[n]
	if u.from == u.to && u.height == 0 { // Swap's record; a pass's holds its pile's height
		return s.undoSwap()
	}
	from, to, h := u.from%maxCells, u.to%maxCells, u.height%maxCells
	p := &s.pos
	if from != to { // a pass moved nothing
		mover := p.top[to]
		p.lo[from], p.hi[from] = p.lo[to]>>h, p.hi[to]>>h
		p.height[from] = p.height[to] - h
		p.top[from] = mover
		mask := uint64(1)<<h - 1
		p.lo[to], p.hi[to] = p.lo[to]&mask, p.hi[to]&mask
		p.height[to] = h
		p.ctrl[mover] = p.ctrl[mover]&^(1<<to) | 1<<from
		p.occ |= 1 << from
		if h > 0 {
			under := p.colour(to, int(h)-1)
			p.top[to] = under
			p.ctrl[under] |= 1 << to
		} else {
			p.top[to] = game.NoPlayer
			p.occ &^= 1 << to
		}
	}
	p.hash, p.toMove = u.hash, u.mover
	s.ply--
	s.since = int(u.since)
	s.undo = s.undo[:n]
	return true
}

// Result applies RULINGS sections 0 and 4: when the player to move has no
// legal move the game ends and is scored (with end=all-stuck, when no
// player can move: see HasMove); otherwise the draw safeguards apply, as
// game.Safeguards applies them: the third occurrence of a position, then
// the ply cap.
func (s *State) Result() game.Result {
	switch {
	case !s.HasMove():
		return s.scored()
	case s.repeats() >= 3:
		return s.repeated()
	case s.g.maxPlies > 0 && s.ply >= s.g.maxPlies:
		return game.DrawBy(game.PlyCap)
	}
	return game.Result{}
}

// repeats counts how many times the current position has occurred since
// the last irreversible move, itself included. Only the positions with
// the same player to move, a whole number of rounds back, can equal it,
// unless the turn skips players (end=all-stuck): then every one is looked
// at, the hash telling the players to move apart.
func (s *State) repeats() int {
	n := 1
	step := s.g.t.players
	if s.g.allStuck {
		step = 1
	}
	for i := len(s.undo) - step; i >= s.since; i -= step {
		if s.undo[i].hash == s.pos.hash {
			n++
		}
	}
	return n
}

// scored is the result of a game that ended: the highest score wins.
func (s *State) scored() game.Result {
	t := s.g.t
	r := game.Result{Reason: game.Scored, Scores: s.Scores()}
	best := -1
	for p := 0; p < t.players; p++ {
		switch sc := r.Scores[p]; {
		case sc > best:
			best, r.Winners = sc, game.PlayerSet(0).Add(game.Player(p))
		case sc == best:
			r.Winners = r.Winners.Add(game.Player(p))
		}
	}
	if r.Winners.Len() > 1 {
		r.Winners = s.breakTie(r.Winners)
	}
	// Two players with the same score draw; three share the win.
	if t.players == 2 && r.Winners.Len() == 2 {
		r.Winners = 0
	}
	return r
}

// Clone returns an independent copy of the state, history included.
func (s *State) Clone() game.State {
	c := &State{g: s.g, pos: s.pos, ply: s.ply, since: s.since, swappable: s.swappable}
	if s.beforeSwap != nil {
		before := *s.beforeSwap
		c.beforeSwap = &before
	}
	c.undo = append(c.room[:0], s.undo...)
	return c
}

// appendPile appends a pile's colours bottom to top, such as "bww".
func (s *State) appendPile(buf []byte, c board.Cell) []byte {
	for lv := 0; lv < int(s.pos.height[c]); lv++ {
		buf = append(buf, s.g.t.v.seats[s.pos.colour(c, lv)].letter)
	}
	return buf
}
