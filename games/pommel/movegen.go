package pommel

import (
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// gen is the move generator's view of a position: copies of its cell sets,
// which it changes while following a chain (and restores). Working on
// copies leaves the State untouched, so that any number of goroutines may
// list its moves at once.
type gen struct {
	t *tables
	// mine and theirs are the mover's and the enemy's pieces, occupied
	// both; the moving piece leaves occupied for its whole capture.
	mine, theirs, occupied cellSet
	captains               cellSet
	// passable are the pieces a soldier's step passes over: the mover's
	// (hop=friendly) or all (hop=any).
	passable cellSet
	me       game.Player
}

func (s *State) gen() gen {
	me := s.pos.toMove
	g := gen{t: s.g.t, mine: s.pos.pieces[me], theirs: s.pos.pieces[1-me], captains: s.pos.captains, me: me}
	g.occupied = g.mine.or(g.theirs)
	g.passable = g.mine
	if s.g.hopAny {
		g.passable = g.occupied
	}
	return g
}

// Moves appends the legal moves of the player to move: every capture if
// there is one (capture is compulsory, any capture may be chosen), else
// every non-capturing move. A side without pieces has lost, so then there
// are none (only a FEN can leave the opponent of the mover without pieces).
// The moves come piece by piece in cell order; the pie rule's Swap, when
// it is a move, comes first.
func (s *State) Moves(buf []game.Move) []game.Move {
	if s.ply == 1 && s.swappable {
		buf = append(buf, game.Swap())
	}
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return buf
	}
	g := s.gen()
	// Without captains, anyCapture answers most positions in a few shifts;
	// with them, capturers answers as cheaply and its answer is needed.
	if g.mine.and(g.captains).empty() && !g.anyCapture() {
		return g.quietMoves(buf)
	}
	var by [6]cellSet
	capturing := g.capturers(&by)
	if capturing.empty() {
		return g.quietMoves(buf)
	}
	for rest := capturing; !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		buf = g.captures(c, &by, buf)
	}
	return buf
}

// opposite returns the direction opposite d.
func opposite(d int) int {
	if d < 3 {
		return d + 3
	}
	return d - 3
}

// anyCapture reports whether some piece of the mover has a capture. For
// the soldiers, all at once: in each direction, the lines of enemy pieces
// that start next to one, one cell further at a time, and whether an empty
// cell follows one. Most positions have no enemy piece next to a soldier,
// and then this takes one shift per direction, where capturers takes a
// few. Captains are few, and each looks along its six lines.
func (g *gen) anyCapture() bool {
	t := g.t
	vacant := t.all.andNot(g.occupied)
	soldiers := g.mine.andNot(g.captains)
	for d := 0; d < 6; d++ {
		for line := t.step(soldiers, d).and(g.theirs); !line.empty(); {
			beyond := t.step(line, d)
			if !beyond.and(vacant).empty() {
				return true
			}
			line = beyond.and(g.theirs)
		}
	}
	for rest := g.mine.and(g.captains); !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		for d := 0; d < 6; d++ {
			if _, _, ok := g.firstCapture(c, d, true); ok {
				return true
			}
		}
	}
	return false
}

// capturers finds which of the mover's pieces have a capture in each
// direction d (by[d]), and returns them all. For the soldiers, all at once:
// in direction d, the lines of enemy pieces that end next to an empty cell
// are grown back from the empty cells one cell at a time, and a soldier
// next to the start of one has a capture. Each captain looks along its six
// lines.
func (g *gen) capturers(by *[6]cellSet) cellSet {
	t := g.t
	vacant := t.all.andNot(g.occupied)
	soldiers := g.mine.andNot(g.captains)
	var all cellSet
	for d := 0; d < 6; d++ {
		back := opposite(d)
		front := t.step(vacant, back).and(g.theirs)
		lines := front
		for !front.empty() {
			front = t.step(front, back).and(g.theirs)
			lines = lines.or(front)
		}
		by[d] = t.step(lines, back).and(soldiers)
		all = all.or(by[d])
	}
	for rest := g.mine.and(g.captains); !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		for d := 0; d < 6; d++ {
			if _, _, ok := g.firstCapture(c, d, true); ok {
				by[d] = by[d].or(only(c))
				all = all.or(only(c))
			}
		}
	}
	return all
}

// captures appends every capture of the piece on c, in the directions
// where by says it has one. The piece leaves its cell for the whole move,
// so its chain may cross it again.
func (g *gen) captures(c board.Cell, by *[6]cellSet, buf []game.Move) []game.Move {
	captain := g.captains.has(c)
	occupied := g.occupied
	g.occupied = g.occupied.andNot(only(c))
	m := game.Start(c, true)
	for d := 0; d < 6; d++ {
		if !by[d].has(c) {
			continue
		}
		i, k, ok := g.firstCapture(c, d, captain)
		if !ok {
			continue
		}
		m.Land(k)
		if k == g.t.next[i][d] { // a jump: the chain goes on
			g.chainAfter(i, k, captain, &m, &buf)
		} else { // a leap over a line of 2+: the move ends
			buf = append(buf, m)
		}
		m.Unland()
	}
	g.occupied = occupied
	return buf
}

// target returns the cell a piece on c attacks in direction d: its
// neighbour for a soldier, the first piece across empty cells for a
// captain. It is board.None when there is none or it is not an enemy.
func (g *gen) target(c board.Cell, d int, captain bool) board.Cell {
	i := g.t.next[c][d]
	if captain {
		i = nearest(g.t.rays[c][d].and(g.occupied), d)
	}
	if i == board.None || !g.theirs.has(i) {
		return board.None
	}
	return i
}

// firstCapture finds the first jump or leap of the piece on c in direction
// d: the line of enemy pieces from i up to k (excluded), and the empty
// cell k it lands on. ok is false when there is none.
func (g *gen) firstCapture(c board.Cell, d int, captain bool) (i, k board.Cell, ok bool) {
	i = g.target(c, d, captain)
	if i == board.None {
		return i, i, false
	}
	k = nearest(g.t.rays[i][d].andNot(g.theirs), d)
	return i, k, k != board.None && !g.occupied.has(k)
}

// chainAfter takes the piece jumped on i, follows the chain from the
// landing cell k and puts the piece back.
func (g *gen) chainAfter(i, k board.Cell, captain bool, m *game.Move, buf *[]game.Move) {
	theirs, occupied := g.theirs, g.occupied
	g.theirs, g.occupied = g.theirs.andNot(only(i)), g.occupied.andNot(only(i))
	*buf = g.chain(k, captain, m, *buf)
	g.theirs, g.occupied = theirs, occupied
}

// chain continues a jump chain from cur: the piece must jump again while it
// can, and only jumps count (a leap never continues a chain). The move is
// complete when no jump is left.
func (g *gen) chain(cur board.Cell, captain bool, m *game.Move, buf []game.Move) []game.Move {
	jumped := false
	for d := 0; d < 6; d++ {
		i := g.target(cur, d, captain)
		if i == board.None {
			continue
		}
		k := g.t.next[i][d]
		if k == board.None || g.occupied.has(k) {
			continue
		}
		jumped = true
		m.Land(k)
		g.chainAfter(i, k, captain, m, &buf)
		m.Unland()
	}
	if !jumped {
		buf = append(buf, *m)
	}
	return buf
}

// quietMoves appends the non-capturing moves of the mover: the soldiers'
// steps direction by direction, each direction for all soldiers at once,
// then each captain's slides. A soldier steps in a forward direction to
// the first empty cell, passing over friendly pieces (or any pieces with
// hop=any). The cells a run of k passable pieces leads to are found for
// every soldier by k+1 shifts of the whole set, and each such cell names
// its soldier: the cell k+1 neighbours back. Listing the moves costs a
// few instructions a move, not a test per soldier and direction.
func (g *gen) quietMoves(buf []game.Move) []game.Move {
	t := g.t
	vacant := t.all.andNot(g.occupied)
	soldiers := g.mine.andNot(g.captains)
	for _, d := range t.forward[g.me] {
		buf = g.soldierSteps(buf, soldiers, vacant, d)
	}
	captains := g.mine.and(g.captains)
	if captains.empty() {
		return buf
	}
	seen := g.watched()
	for rest := captains; !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		buf = g.captainSlides(c, seen, buf)
	}
	return buf
}

// soldierSteps appends the steps of the soldiers in direction d: to an
// empty neighbour, then over one passable piece, then over longer runs
// (rare: the loop usually ends after the second shift).
func (g *gen) soldierSteps(buf []game.Move, soldiers, vacant cellSet, d int) []game.Move {
	t := g.t
	delta := t.delta[d]
	ahead := t.step(soldiers, d)
	buf = appendMade(buf, &t.steps, ahead.and(vacant), delta, d)
	ahead = t.step(ahead.and(g.passable), d)
	buf = appendMade(buf, &t.hops, ahead.and(vacant), 2*delta, d)
	for back := 3 * delta; ; back += delta {
		ahead = t.step(ahead.and(g.passable), d)
		if ahead.empty() {
			return buf
		}
		for to := ahead.and(vacant); !to.empty(); {
			var x board.Cell
			x, to = to.pop()
			buf = t.appendStep(buf, board.Cell(int(x)-back), x)
		}
	}
}

// appendMade appends made[x-back][d] for every cell x of to, in cell
// order: the made moves that land on to. It makes room first and copies
// each move straight from the table into the list; append would copy it
// through a temporary, since growing the list could move it.
func appendMade(buf []game.Move, made *[maxCells][6]game.Move, to cellSet, back, d int) []game.Move {
	n := len(buf)
	buf = slices.Grow(buf, to.count())
	buf = buf[:n+to.count()]
	for ; !to.empty(); n++ {
		var x board.Cell
		x, to = to.pop()
		buf[n] = made[int(x)-back][d]
	}
	return buf
}

// appendStep appends the move from c to x, copied from origins and
// completed in the buffer (see origins).
func (t *tables) appendStep(buf []game.Move, c, x board.Cell) []game.Move {
	buf = append(buf, t.origins[c])
	buf[len(buf)-1].Land(x)
	return buf
}

// watched returns the empty cells from which one of the six lines reaches
// an enemy piece across empty cells only: the empty runs that leave the
// enemy pieces in each direction. It is the same for every captain of the
// mover, but for the lines through the captain's own cell, which it leaves
// (see stops).
func (g *gen) watched() cellSet {
	t := g.t
	vacant := t.all.andNot(g.occupied)
	var seen cellSet
	for d := 0; d < 6; d++ {
		for run := g.theirs; !run.empty(); {
			run = t.step(run, d).and(vacant)
			seen = seen.or(run)
		}
	}
	return seen
}

// stops returns the cells where the captain on c may stop in direction d,
// given seen from watched: the empty cells of its slide that see an enemy
// piece, its own cell left empty. From a cell of the slide, the only line
// through c is the one back towards c, and past c it reaches what the
// line from c in the opposite direction reaches first.
func (g *gen) stops(c board.Cell, d int, seen cellSet) cellSet {
	slide := g.slides(c, d)
	back := opposite(d)
	if first := nearest(g.t.rays[c][back].and(g.occupied), back); first != board.None && g.theirs.has(first) {
		return slide
	}
	return slide.and(seen)
}

// slides returns the cells the captain on c slides across in direction d:
// the empty cells up to the first piece or the edge.
func (g *gen) slides(c board.Cell, d int) cellSet {
	ray := g.t.rays[c][d]
	stop := nearest(ray.and(g.occupied), d)
	if stop == board.None {
		return ray
	}
	return ray.andNot(g.t.rays[stop][d].or(only(stop)))
}

// captainSlides appends the non-capturing moves of the captain on c: across
// empty cells in any direction, stopping only where, after the move, a line
// reaches an enemy piece across empty cells (seen is watched()).
func (g *gen) captainSlides(c board.Cell, seen cellSet, buf []game.Move) []game.Move {
	for d := 0; d < 6; d++ {
		stops := g.stops(c, d, seen)
		for x := nearest(stops, d); x != board.None; x = nearest(stops, d) {
			buf = g.t.appendStep(buf, c, x)
			stops = stops.andNot(only(x))
		}
	}
	return buf
}

// hasMove reports whether the player to move has a legal move, as a
// non-empty Moves would, without listing them: any capture, or any
// non-capturing move, found by cell sets.
func (s *State) hasMove() bool {
	p := &s.pos
	if p.count[0] == 0 || p.count[1] == 0 {
		return false
	}
	// The soldiers' steps first, without building a generator: nearly
	// every position has one.
	me := p.toMove
	passable := p.pieces[me]
	if s.g.hopAny {
		passable = p.pieces[0].or(p.pieces[1])
	}
	if s.g.t.anyStep(p.pieces[me].andNot(p.captains), p.pieces[0].or(p.pieces[1]), passable, me) {
		return true
	}
	g := s.gen()
	return g.anyCapture() || g.anySlide()
}

// anyStep reports whether one of the soldiers of me has a non-capturing
// step: in a forward direction, a run of passable pieces (perhaps none)
// then an empty cell.
func (t *tables) anyStep(soldiers, occupied, passable cellSet, me game.Player) bool {
	vacant := t.all.andNot(occupied)
	for _, d := range t.forward[me] {
		for run := t.step(soldiers, d); !run.empty(); run = t.step(run, d) {
			if !run.and(vacant).empty() {
				return true
			}
			run = run.and(passable)
		}
	}
	return false
}

// anySlide reports whether a captain of the mover has a non-capturing
// move.
func (g *gen) anySlide() bool {
	captains := g.mine.and(g.captains)
	if captains.empty() {
		return false
	}
	seen := g.watched()
	for rest := captains; !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		for d := 0; d < 6; d++ {
			if !g.stops(c, d, seen).empty() {
				return true
			}
		}
	}
	return false
}

// HasMove reports whether the player to move has a legal move, as a
// non-empty Moves would. Engines ask it at the horizon instead of listing
// the moves.
func (s *State) HasMove() bool { return s.hasMove() }

// HasCapture reports whether the player to move must capture: then every
// move Moves returns is a capture, else none is.
func (s *State) HasCapture() bool {
	if s.pos.count[0] == 0 || s.pos.count[1] == 0 {
		return false
	}
	g := s.gen()
	return g.anyCapture()
}
