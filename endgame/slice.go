package endgame

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// worker solves slices of one material, one at a time, with scratch
// space kept from slice to slice.
type worker struct {
	b    *builder
	l    *layout
	vals []uint16
	adv  []int16
	st   game.State
	pl   game.Placer
	// pieces and child hold placements; moves the moves of a position.
	pieces, child []game.Placed
	moves         []game.Move
	// Per slice, by local index: the moves not yet known to lead to a
	// win for the opponent, the longest such win among the children out
	// of the slice, the children inside the slice as (child, parent)
	// pairs and then as lists of parents.
	pending  []int32
	maxOut   []int32
	edges    [][2]uint32
	firstPar []uint32
	parents  []uint32
	// span is how many indexes from the slice's start count as inside
	// it: a slice's size, or a whole material's (solveByUnmoves).
	span uint64
	// buckets[d] are the positions found to be worth d plies, each as its
	// local index times 2 plus 1 for a loss.
	buckets [][]uint32
}

func (b *builder) newWorker(l *layout, vals []uint16, adv []int16) *worker {
	st := b.g.Start()
	return &worker{b: b, l: l, vals: vals, adv: adv, st: st, pl: st.(game.Placer), span: l.sliceSize()}
}

// solveSlice solves slice s: first every position's moves, with the
// values of the children outside the slice; then the children inside it
// from the positions already known, in order of distance, as retrograde
// analysis does. A position still unknown at the end is a draw.
func (w *worker) solveSlice(s uint64) error {
	size := w.l.sliceSize()
	base := s * size
	out := w.vals[base : base+size]
	if !w.placeable(base) {
		for i := range out {
			out[i] = notAPosition
		}
		return nil
	}
	w.reset(int(size))
	for i := range size {
		if err := w.expand(base, i); err != nil {
			return err
		}
	}
	w.linkParents(int(size))
	clear(out)
	return w.propagateWith(out, func(i uint32, visit func(uint32)) {
		for _, p := range w.parents[w.firstPar[i]:w.firstPar[i+1]] {
			visit(p)
		}
	})
}

// placeable reports whether the slice at base holds positions: its men
// decide, a man on the row where it would have been promoted is none.
func (w *worker) placeable(base uint64) bool {
	var toMove game.Player
	w.pieces, toMove = w.l.position(base, w.pieces[:0])
	return w.pl.Place(w.pieces, toMove) == nil
}

// reset sizes the scratch for a slice of size positions.
func (w *worker) reset(size int) {
	w.pending = resize(w.pending, size)
	w.maxOut = resize(w.maxOut, size)
	w.edges = w.edges[:0]
	for d := range w.buckets {
		w.buckets[d] = w.buckets[d][:0]
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// expand lists the moves of local position i of the slice at base and
// judges what it can from the children outside the slice.
func (w *worker) expand(base, i uint64) error {
	var toMove game.Player
	w.pieces, toMove = w.l.position(base+i, w.pieces[:0])
	if err := w.pl.Place(w.pieces, toMove); err != nil {
		return fmt.Errorf("endgame: %s index %d: %v", w.l.m, base+i, err)
	}
	w.moves = w.st.Moves(w.moves[:0])
	pending, maxOut, minLoss := int32(len(w.moves)), int32(-1), int32(-1)
	for _, m := range w.moves {
		var childToMove game.Player
		var cm Material
		w.child, childToMove, cm = childOf(w.st, w.pl, m, w.child)
		if cm.Side(childToMove) == 0 {
			minLoss = 0 // the move takes the last enemy piece
			continue
		}
		v, err := w.childValue(base, i, cm, childToMove)
		if err != nil {
			return err
		}
		if v == inSlice {
			continue
		}
		switch d := int32(v & distMask); {
		case v&lossBit != 0:
			if minLoss < 0 || d < minLoss {
				minLoss = d
			}
		case v&winBit != 0:
			pending--
			maxOut = max(maxOut, d)
		}
	}
	w.pending[i], w.maxOut[i] = pending, maxOut
	switch {
	case minLoss >= 0:
		w.schedule(uint32(i), false, int(minLoss)+1)
	case pending == 0:
		w.schedule(uint32(i), true, int(maxOut)+1) // no move at all: a loss in 0
	}
	return nil
}

// inSlice is childValue's answer for a child in the slice being solved,
// which it has noted as an edge.
const inSlice uint16 = 0xfffe

// childValue is the value of w.child, a child of local position i of the
// slice at base with material cm: known when it is out of the slice, and
// else noted as an edge of the slice.
func (w *worker) childValue(base, i uint64, cm Material, toMove game.Player) (uint16, error) {
	if cm != w.l.m {
		return w.b.valueOf(cm, w.child, toMove)
	}
	size := w.span
	ci := w.l.index(w.child, toMove)
	if ci >= base && ci < base+size {
		w.edges = append(w.edges, [2]uint32{uint32(ci - base), uint32(i)})
		return inSlice, nil
	}
	if w.adv[ci/size] <= w.adv[base/size] || w.vals[ci] == notAPosition {
		return 0, fmt.Errorf("endgame: %s: a move from index %d leads to index %d, not solved before it", w.l.m, base+i, ci)
	}
	return w.vals[ci], nil
}

// valueOf is the value of a position of a material solved before.
func (b *builder) valueOf(m Material, pieces []game.Placed, toMove game.Player) (uint16, error) {
	vals, ok := b.solved[m]
	if !ok {
		return 0, fmt.Errorf("endgame: a move leads to %s, which is not in the tables being built", m)
	}
	idx := b.layouts[m].index(pieces, toMove)
	if vals[idx] == notAPosition {
		return 0, fmt.Errorf("endgame: a move leads to index %d of %s, which is no position", idx, m)
	}
	return vals[idx], nil
}

// schedule notes that local position i is worth a win (loss false) or a
// loss in d plies, once the positions worth less are done.
func (w *worker) schedule(i uint32, loss bool, d int) {
	for len(w.buckets) <= d {
		w.buckets = append(w.buckets, nil)
	}
	e := i << 1
	if loss {
		e |= 1
	}
	w.buckets[d] = append(w.buckets[d], e)
}

// linkParents turns the (child, parent) pairs into a list of parents for
// each child, counting first.
func (w *worker) linkParents(size int) {
	w.firstPar = resize(w.firstPar, size+1)
	clear(w.firstPar)
	for _, e := range w.edges {
		w.firstPar[e[0]+1]++
	}
	for i := 1; i <= size; i++ {
		w.firstPar[i] += w.firstPar[i-1]
	}
	w.parents = resize(w.parents, len(w.edges))
	fill := w.firstPar[:size] // advanced as parents are written, then restored
	for _, e := range w.edges {
		w.parents[fill[e[0]]] = e[1]
		fill[e[0]]++
	}
	for i := size; i > 0; i-- {
		w.firstPar[i] = w.firstPar[i-1]
	}
	w.firstPar[0] = 0
}

// propagateWith settles the slice's positions in order of distance: a
// position lost in d makes its parents won in d+1 at most; a position won
// in d takes one move off each parent's pending count, and a parent left
// with none is lost in d+1 (or later, if a child outside the slice wins
// later). What is never settled is a draw. parents visits the parents
// inside the slice of a position.
func (w *worker) propagateWith(out []uint16, parents func(i uint32, visit func(p uint32))) error {
	for d := 0; d < len(w.buckets); d++ {
		if d > int(distMask) {
			return fmt.Errorf("endgame: %s: a distance beyond %d plies", w.l.m, distMask)
		}
		for _, e := range w.buckets[d] {
			i, loss := e>>1, e&1 == 1
			if out[i] != 0 {
				continue
			}
			if loss {
				out[i] = lossBit | uint16(d)
			} else {
				out[i] = winBit | uint16(d)
			}
			parents(i, func(p uint32) {
				switch {
				case out[p] != 0:
				case loss:
					w.schedule(p, false, d+1)
				default:
					if w.pending[p]--; w.pending[p] == 0 {
						w.schedule(p, true, max(d+1, int(w.maxOut[p])+1))
					}
				}
			})
		}
	}
	return nil
}

// childOf plays m on st (which pl is), reads the position it leads to
// into buf, and takes m back: the child's pieces, side to move and
// material.
func childOf(st game.State, pl game.Placer, m game.Move, buf []game.Placed) ([]game.Placed, game.Player, Material) {
	st.Play(m)
	buf = pl.Placement(buf[:0])
	toMove := st.ToMove()
	st.Undo()
	return buf, toMove, materialOf(buf)
}
