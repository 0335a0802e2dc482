package pommel

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// gen is the move generator's view of a position: a copy of the cells,
// which it changes while following a chain (and restores), and the owner
// bits that tell the mover's pieces from the enemy's (piece&mine,
// piece&theirs). Working on a copy (76 bytes) leaves the State untouched,
// so that any number of goroutines may list its moves at once.
type gen struct {
	cells        [maxCells]piece
	t            *tables
	mine, theirs piece
	hopAny       bool
	me           game.Player
}

func (s *State) gen() gen {
	me := s.pos.toMove
	return gen{cells: s.pos.cells, t: s.g.t, mine: soldierOf(me), theirs: soldierOf(1 - me), hopAny: s.g.hopAny, me: me}
}

// Moves appends the legal moves of the player to move: every capture if
// there is one (capture is compulsory, any capture may be chosen), else
// every non-capturing move. A side without pieces has lost, so then there
// are none (only a FEN can leave the opponent of the mover without pieces).
func (s *State) Moves(buf []game.Move) []game.Move {
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return buf
	}
	g := s.gen()
	own := s.pos.pieces[g.me]
	n0 := len(buf)
	for w := 0; w < 2; w++ {
		for m := own[w]; m != 0; m &= m - 1 {
			buf = g.captures(board.Cell(w<<6+bits.TrailingZeros64(m)), buf)
		}
	}
	if len(buf) > n0 {
		return buf
	}
	for w := 0; w < 2; w++ {
		for m := own[w]; m != 0; m &= m - 1 {
			c := board.Cell(w<<6 + bits.TrailingZeros64(m))
			if g.cells[c].isCaptain() {
				buf = g.captainSlides(c, buf)
			} else {
				buf = g.soldierSteps(c, buf)
			}
		}
	}
	return buf
}

// captures appends every capture of the piece on c. The piece leaves its
// cell for the whole move, so its chain may cross it again.
func (g *gen) captures(c board.Cell, buf []game.Move) []game.Move {
	cells := &g.cells
	v := cells[c]
	captain := v.isCaptain()
	var m game.Move
	started := false
	for d := 0; d < 6; d++ {
		i, k, ok := g.firstCapture(c, d, captain)
		if !ok {
			continue
		}
		if !started {
			cells[c] = empty
			m = game.Start(c, true)
			started = true
		}
		ray := g.t.rays[c][d]
		m.Land(ray[k])
		if k == i+1 { // a jump: the chain goes on
			taken := cells[ray[i]]
			cells[ray[i]] = empty
			buf = g.chain(ray[k], captain, &m, buf)
			cells[ray[i]] = taken
		} else { // a leap over a line of 2+: the move ends
			buf = append(buf, m)
		}
		m.Unland()
	}
	cells[c] = v
	return buf
}

// firstCapture finds the first jump or leap of the piece on c in direction
// d: the line of enemy pieces on ray[i] up to ray[k] (excluded), and the
// empty cell ray[k] it lands on. A captain first crosses empty cells. ok
// is false when there is none.
func (g *gen) firstCapture(c board.Cell, d int, captain bool) (i, k int, ok bool) {
	cells := &g.cells
	ray := g.t.rays[c][d]
	if captain {
		for i < len(ray) && cells[ray[i]] == empty {
			i++
		}
	}
	k = i
	for k < len(ray) && cells[ray[k]]&g.theirs != 0 {
		k++
	}
	return i, k, k > i && k < len(ray) && cells[ray[k]] == empty
}

// chain continues a jump chain from cur: the piece must jump again while it
// can, and only jumps count (a leap never continues a chain). The move is
// complete when no jump is left.
func (g *gen) chain(cur board.Cell, captain bool, m *game.Move, buf []game.Move) []game.Move {
	cells := &g.cells
	jumped := false
	for d := 0; d < 6; d++ {
		ray := g.t.rays[cur][d]
		i := 0
		if captain {
			for i < len(ray) && cells[ray[i]] == empty {
				i++
			}
		}
		if i+1 >= len(ray) || cells[ray[i]]&g.theirs == 0 || cells[ray[i+1]] != empty {
			continue
		}
		jumped = true
		taken := cells[ray[i]]
		cells[ray[i]] = empty
		m.Land(ray[i+1])
		buf = g.chain(ray[i+1], captain, m, buf)
		m.Unland()
		cells[ray[i]] = taken
	}
	if !jumped {
		buf = append(buf, *m)
	}
	return buf
}

// soldierSteps appends the non-capturing moves of the soldier on c: in each
// forward direction, to the first empty cell, passing over friendly pieces
// (or any pieces with hop=any).
func (g *gen) soldierSteps(c board.Cell, buf []game.Move) []game.Move {
	passable := g.passable()
	for _, d := range g.t.forward[g.me] {
		for _, x := range g.t.rays[c][d] {
			v := g.cells[x]
			if v == empty {
				buf = append(buf, game.Step(c, x))
				break
			}
			if v&passable == 0 {
				break
			}
		}
	}
	return buf
}

// passable is the owner bits of the pieces a soldier's step passes over.
func (g *gen) passable() piece {
	if g.hopAny {
		return g.mine | g.theirs
	}
	return g.mine
}

// canStep reports whether the soldier on c has a step, as soldierSteps
// would find.
func (g *gen) canStep(c board.Cell) bool {
	passable := g.passable()
	for _, d := range g.t.forward[g.me] {
		for _, x := range g.t.rays[c][d] {
			v := g.cells[x]
			if v == empty {
				return true
			}
			if v&passable == 0 {
				break
			}
		}
	}
	return false
}

// captainSlides appends the non-capturing moves of the captain on c: across
// empty cells in any direction, stopping only where, after the move, a line
// reaches an enemy piece across empty cells.
func (g *gen) captainSlides(c board.Cell, buf []game.Move) []game.Move {
	cells := &g.cells
	v := cells[c]
	cells[c] = empty
	for d := 0; d < 6; d++ {
		for _, x := range g.t.rays[c][d] {
			if cells[x] != empty {
				break
			}
			if g.seesEnemy(x) {
				buf = append(buf, game.Step(c, x))
			}
		}
	}
	cells[c] = v
	return buf
}

// seesEnemy reports whether one of the six lines from c reaches an enemy
// piece across empty cells only.
func (g *gen) seesEnemy(c board.Cell) bool {
	for d := 0; d < 6; d++ {
		for _, x := range g.t.rays[c][d] {
			if v := g.cells[x]; v != empty {
				if v&g.theirs != 0 {
					return true
				}
				break
			}
		}
	}
	return false
}

// hasMove reports whether the player to move has a legal move, as a
// non-empty Moves would, without listing them. Any capture or any
// non-capturing move of any piece will do: captures are compulsory, so
// when some piece has one the legal moves are the captures, and when none
// has one they are the other moves.
func (s *State) hasMove() bool {
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return false
	}
	g := s.gen()
	own := s.pos.pieces[g.me]
	for w := 0; w < 2; w++ {
		for m := own[w]; m != 0; m &= m - 1 {
			if g.canMove(board.Cell(w<<6 + bits.TrailingZeros64(m))) {
				return true
			}
		}
	}
	return false
}

// canMove reports whether the piece on c has a capture or a non-capturing
// move.
func (g *gen) canMove(c board.Cell) bool {
	captain := g.cells[c].isCaptain()
	for d := 0; d < 6; d++ {
		if _, _, ok := g.firstCapture(c, d, captain); ok {
			return true
		}
	}
	if !captain {
		return g.canStep(c)
	}
	v := g.cells[c]
	g.cells[c] = empty
	found := false
	for d := 0; d < 6 && !found; d++ {
		for _, x := range g.t.rays[c][d] {
			if g.cells[x] != empty {
				break
			}
			if g.seesEnemy(x) {
				found = true
				break
			}
		}
	}
	g.cells[c] = v
	return found
}
