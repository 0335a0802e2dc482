package pommel

//go:generate go run narrowgen.go

import (
	"math/bits"
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// gen is the move generator's view of a position: copies of its cell sets,
// which it changes while following a chain (and restores). Working on
// copies leaves the State untouched, so that any number of goroutines may
// list its moves at once.
//
// This file is the source of movegen_narrow.go, the same generator on
// one-word sets for the 45-cell board: edit this one and regenerate the
// other with go generate (narrowgen.go).
type gen struct {
	t    *lookup
	sets *setLookup[cellSet]
	// mine and theirs are the mover's and the enemy's pieces, occupied
	// both; the moving piece leaves occupied for its whole capture.
	mine, theirs, occupied cellSet
	captains               cellSet
	// passable are the pieces a soldier's step passes over: the mover's
	// (hop=friendly) or all (hop=any).
	passable cellSet
	me       game.Player
}

// load makes g, whose lookup t and sets are set, the generator of the
// position p. It fills g in place: a generator returned by value was
// copied whole, a tenth of a playout. The caller sets the two pointers in
// a composite literal: stored here, through a pointer the compiler cannot
// place on the stack, each would take the collector's write barrier
// whenever a collection is under way (3% of a playout).
func (g *gen) load(p *position, hopAny bool) { g.loadFor(p, p.toMove, hopAny) }

// loadFor is load as if me were to move: the evaluation asks whether the
// player not to move could capture.
func (g *gen) loadFor(p *position, me game.Player, hopAny bool) {
	g.me = me
	g.mine, g.theirs, g.captains = toCellSet(p.pieces[me]), toCellSet(p.pieces[1-me]), toCellSet(p.captains)
	g.occupied = g.mine.or(g.theirs)
	g.passable = g.mine
	if hopAny {
		g.passable = g.occupied
	}
}

// moves appends the legal moves (see State.Moves) of a position where
// both sides have pieces: every capture if there is one, else every
// non-capturing move.
func (g *gen) moves(buf []game.Move) []game.Move {
	// soldierCaptureFrom answers most positions in a few shifts, and when
	// a soldier has a capture, no direction before the one it names has
	// one: capturers starts there for the soldiers (with captains, and no
	// soldier's capture, it looks at the captains alone).
	first := g.soldierCaptureFrom(0)
	if first == 6 && g.mine.and(g.captains).empty() {
		return g.quietMoves(buf)
	}
	var by [6]cellSet
	capturing := g.capturers(&by, first)
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

// step moves every cell of s to its neighbour in direction d; cells
// without one leave the set.
func (g *gen) step(s cellSet, d int) cellSet { return stepIn(g.sets, s, d) }

// stepIn is step by the lookup's sets.
func stepIn(sets *setLookup[cellSet], s cellSet, d int) cellSet {
	return s.and(sets.leaving[d]).moved(d, sets.shift[d])
}

// nearestIn returns the cell of s nearest to the start of a ray in
// direction d (s holds cells of one ray), or board.None.
func nearestIn(s cellSet, d int) board.Cell {
	if d < 3 {
		return s.lowest()
	}
	return s.highest()
}

// anyCapture reports whether some piece of the mover has a capture. For
// the soldiers, all at once: in each direction, the lines of enemy pieces
// that start next to one, one cell further at a time, and whether an empty
// cell follows one. Most positions have no enemy piece next to a soldier,
// and then this takes one shift per direction, where capturers takes a
// few. Captains are few, and each looks along its six lines.
func (g *gen) anyCapture() bool {
	if g.soldierCaptureFrom(0) < 6 {
		return true
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

// soldierCaptureFrom returns the first direction from d on in which one
// of the mover's soldiers has a capture, or 6 if none has one.
func (g *gen) soldierCaptureFrom(d int) int {
	vacant := g.sets.all.andNot(g.occupied)
	soldiers := g.mine.andNot(g.captains)
	for ; d < 6; d++ {
		// On one word, lines of one and two enemy pieces without a
		// branch on what the board holds: the test below is nearly always
		// false, and so guessed right; longer lines are rare. On two
		// words the shifts cost more than the branches they save (the
		// 76-cell board's perft was 10% slower): there the plain walk.
		line := g.step(soldiers, d).and(g.theirs)
		if line.twoWords() {
			if !line.empty() && g.leapFrom(line, vacant, d) {
				return d
			}
			continue
		}
		beyond := g.step(line, d)
		found := beyond.and(vacant)
		beyond = g.step(beyond.and(g.theirs), d)
		found = found.or(beyond.and(vacant))
		if line := beyond.and(g.theirs); !found.empty() || !line.empty() && g.leapFrom(line, vacant, d) {
			return d
		}
	}
	return d
}

// leapFrom reports whether one of the lines of enemy pieces that go on
// from the cells of line in direction d ends next to a vacant cell.
func (g *gen) leapFrom(line, vacant cellSet, d int) bool {
	for ; !line.empty(); line = line.and(g.theirs) {
		line = g.step(line, d)
		if !line.and(vacant).empty() {
			return true
		}
	}
	return false
}

// capturers finds which of the mover's pieces have a capture in each
// direction d (by[d]), and returns them all. For the soldiers, all at once:
// in direction d, the lines of enemy pieces that end next to an empty cell
// are grown back from the empty cells one cell at a time, and a soldier
// next to the start of one has a capture; no soldier has one in a
// direction before first. Each captain looks along its six lines.
func (g *gen) capturers(by *[6]cellSet, first int) cellSet {
	vacant := g.sets.all.andNot(g.occupied)
	soldiers := g.mine.andNot(g.captains)
	var all cellSet
	for d := first; d < 6; d++ {
		// On one word, the first three cells of the lines without a
		// branch on what the board holds (see soldierCaptureFrom).
		back := opposite(d)
		front := g.step(vacant, back).and(g.theirs)
		lines := front
		if !front.twoWords() {
			front = g.step(front, back).and(g.theirs)
			lines = lines.or(front)
			front = g.step(front, back).and(g.theirs)
			lines = lines.or(front)
		}
		for !front.empty() {
			front = g.step(front, back).and(g.theirs)
			lines = lines.or(front)
		}
		by[d] = g.step(lines, back).and(soldiers)
		all = all.or(by[d])
	}
	for rest := g.mine.and(g.captains); !rest.empty(); {
		var c board.Cell
		c, rest = rest.pop()
		if g.sets.lines[c].and(g.theirs).empty() {
			continue // no enemy piece on its lines: nothing to capture
		}
		for d := 0; d < 6; d++ {
			if _, _, ok := g.firstCapture(c, d, true); ok {
				by[d] = by[d].or(setOf(c))
				all = all.or(setOf(c))
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
	g.occupied = g.occupied.andNot(setOf(c))
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
			buf = g.chainAfter(i, k, captain, &m, buf)
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
		i = nearestIn(g.sets.rays[c][d].and(g.occupied), d)
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
	k = nearestIn(g.sets.rays[i][d].andNot(g.theirs), d)
	return i, k, k != board.None && !g.occupied.has(k)
}

// chainAfter takes the piece jumped on i, follows the chain from the
// landing cell k and puts the piece back. It returns the list rather than
// storing it through a pointer, which would take the collector's write
// barrier.
func (g *gen) chainAfter(i, k board.Cell, captain bool, m *game.Move, buf []game.Move) []game.Move {
	theirs, occupied := g.theirs, g.occupied
	g.theirs, g.occupied = g.theirs.andNot(setOf(i)), g.occupied.andNot(setOf(i))
	buf = g.chain(k, captain, m, buf)
	g.theirs, g.occupied = theirs, occupied
	return buf
}

// chain continues a jump chain from cur: the piece must jump again while it
// can, and only jumps count (a leap never continues a chain). The move is
// complete when no jump is left.
func (g *gen) chain(cur board.Cell, captain bool, m *game.Move, buf []game.Move) []game.Move {
	// Most chains end at the first landing with no enemy piece in reach:
	// one mask says so, before six directions are looked at.
	reach := &g.sets.around
	if captain {
		reach = &g.sets.lines
	}
	if reach[cur].and(g.theirs).empty() {
		return append(buf, *m)
	}
	if !captain {
		return g.soldierChain(cur, m, buf)
	}
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
		buf = g.chainAfter(i, k, captain, m, buf)
		m.Unland()
	}
	if !jumped {
		buf = append(buf, *m)
	}
	return buf
}

// soldierChain is chain for a soldier with an enemy piece next to it.
// Which of its six directions have a jump is worked out first, without a
// branch (the processor cannot guess which do), then only those are
// followed, in direction order.
func (g *gen) soldierChain(cur board.Cell, m *game.Move, buf []game.Move) []game.Move {
	vacant := g.sets.all.andNot(g.occupied)
	over, to := &g.t.jumpOver[cur], &g.t.jumpTo[cur]
	var dirs uint
	for d := 0; d < 6; d++ {
		dirs |= uint(g.theirs.bit(over[d])&vacant.bit(to[d])) << d
	}
	if dirs == 0 {
		return append(buf, *m)
	}
	for ; dirs != 0; dirs &= dirs - 1 {
		d := bits.TrailingZeros(dirs)
		m.Land(to[d])
		buf = g.chainAfter(over[d], to[d], false, m, buf)
		m.Unland()
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
	vacant := g.sets.all.andNot(g.occupied)
	soldiers := g.mine.andNot(g.captains)
	// A soldier has at most one step in each of its three directions:
	// room for them all at once, written in place (see cellSet.putMade).
	n := len(buf)
	buf = slices.Grow(buf, 3*soldiers.count())
	room := buf[:cap(buf)]
	for _, d := range t.forward[g.me] {
		n = g.soldierSteps(room, n, soldiers, vacant, d)
	}
	buf = room[:n]
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

// soldierSteps writes the steps of the soldiers in direction d into
// room from room[n] on, and returns the new count: to an empty neighbour,
// then over one passable piece, then over longer runs (rare: the loop
// usually ends after the second shift).
func (g *gen) soldierSteps(room []game.Move, n int, soldiers, vacant cellSet, d int) int {
	t := g.t
	ahead := g.step(soldiers, d)
	n = ahead.and(vacant).putMade(room, n, &t.stepsTo[d])
	ahead = g.step(ahead.and(g.passable), d)
	n = ahead.and(vacant).putMade(room, n, &t.hopsTo[d])
	delta := t.delta[d]
	for back := 3 * delta; ; back += delta {
		ahead = g.step(ahead.and(g.passable), d)
		if ahead.empty() {
			return n
		}
		for to := ahead.and(vacant); !to.empty(); n++ {
			var x board.Cell
			x, to = to.pop()
			room[n] = t.origins[int(x)-back]
			room[n].Land(x)
		}
	}
}

// watched returns the empty cells from which one of the six lines reaches
// an enemy piece across empty cells only: the empty runs that leave the
// enemy pieces in each direction. It is the same for every captain of the
// mover, but for the lines through the captain's own cell, which it leaves
// (see stops).
func (g *gen) watched() cellSet {
	vacant := g.sets.all.andNot(g.occupied)
	var seen cellSet
	for d := 0; d < 6; d++ {
		for run := g.theirs; !run.empty(); {
			run = g.step(run, d).and(vacant)
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
	if first := nearestIn(g.sets.rays[c][back].and(g.occupied), back); first != board.None && g.theirs.has(first) {
		return slide
	}
	return slide.and(seen)
}

// slides returns the cells the captain on c slides across in direction d:
// the empty cells up to the first piece or the edge.
func (g *gen) slides(c board.Cell, d int) cellSet {
	ray := g.sets.rays[c][d]
	stop := nearestIn(ray.and(g.occupied), d)
	if stop == board.None {
		return ray
	}
	return ray.andNot(g.sets.rays[stop][d].or(setOf(stop)))
}

// captainSlides appends the non-capturing moves of the captain on c: across
// empty cells in any direction, stopping only where, after the move, a line
// reaches an enemy piece across empty cells (seen is watched()).
func (g *gen) captainSlides(c board.Cell, seen cellSet, buf []game.Move) []game.Move {
	for d := 0; d < 6; d++ {
		stops := g.stops(c, d, seen)
		for x := nearestIn(stops, d); x != board.None; x = nearestIn(stops, d) {
			buf = g.t.appendStep(buf, c, x)
			stops = stops.andNot(setOf(x))
		}
	}
	return buf
}

// hasMove reports whether the mover has a legal move, as a non-empty
// moves would, without listing them: the soldiers' steps first (nearly
// every position has one), then any capture or captain's slide.
func (g *gen) hasMove() bool {
	return g.anyStep() || g.anyCapture() || g.anySlide()
}

// anyStep reports whether one of the mover's soldiers has a
// non-capturing step.
func (g *gen) anyStep() bool {
	return anySoldierStep(g.sets, &g.t.forward[g.me], g.mine.andNot(g.captains), g.sets.all.andNot(g.occupied), g.passable)
}

// quickStep reports whether a soldier of the player to move in p has a
// non-capturing step, from p's sets without a generator: nearly every
// position has one, and Result asks at every ply.
func quickStep(t *lookup, p *position, hopAny bool) bool {
	me := p.toMove
	mine := toCellSet(p.pieces[me])
	occupied := mine.or(toCellSet(p.pieces[1-me]))
	passable := mine
	if hopAny {
		passable = occupied
	}
	sets := t.wideSets()
	return anySoldierStep(sets, &t.forward[me], mine.andNot(toCellSet(p.captains)), sets.all.andNot(occupied), passable)
}

// anySoldierStep reports whether one of soldiers has a non-capturing step
// in one of the directions forward: a run of passable pieces (perhaps
// none) then a vacant cell.
func anySoldierStep(sets *setLookup[cellSet], forward *[3]int, soldiers, vacant, passable cellSet) bool {
	for _, d := range forward {
		for run := stepIn(sets, soldiers, d); !run.empty(); run = stepIn(sets, run, d) {
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
