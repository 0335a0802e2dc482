package endgame

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// maxTotal is the most pieces a table can hold: the index's binomials are
// computed up to it.
const maxTotal = 6

// layout numbers the positions of one material on a board of n cells.
// The men come first (the first side's, then the second's, each set as
// a combination of the cells still free), then the kings the same way,
// then the side to move as the lowest bit:
//
//	index = ((menIndex*kingPlacements) + kingIndex)*2 + toMove
//
// All positions with the same men are therefore one run of indexes, a
// slice. Only kings' quiet moves stay inside a slice: a man's move
// changes the men, a capture or a promotion the material. Building solves
// one slice at a time.
type layout struct {
	m     Material
	n     int
	binom *binomials
	// counts are the group sizes in index order: first side's men,
	// second side's men, first side's kings, second side's kings.
	counts [4]int
	// kingPlacements is the number of ways to place the kings once the
	// men stand; slices the number of ways to place the men.
	kingPlacements, slices uint64
}

// groupOwner and groupRank say whose pieces each group holds.
var (
	groupOwner = [4]game.Player{0, 1, 0, 1}
	groupRank  = [4]game.Rank{game.Man, game.Man, game.King, game.King}
)

func newLayout(m Material, n int, bin *binomials) layout {
	l := layout{m: m, n: n, binom: bin}
	for g := range 4 {
		l.counts[g] = int(m[groupOwner[g]][groupRank[g]])
	}
	free := uint64(n)
	l.slices = bin.c(free, l.counts[0]) * bin.c(free-uint64(l.counts[0]), l.counts[1])
	free -= uint64(l.counts[0] + l.counts[1])
	l.kingPlacements = bin.c(free, l.counts[2]) * bin.c(free-uint64(l.counts[2]), l.counts[3])
	return l
}

// size is the number of indexes: slices × kingPlacements × 2.
func (l *layout) size() uint64 { return l.slices * l.kingPlacements * 2 }

// sliceSize is the number of indexes of one slice.
func (l *layout) sliceSize() uint64 { return l.kingPlacements * 2 }

// index numbers pieces (in cell order, of material l.m) with toMove to
// move.
func (l *layout) index(pieces []game.Placed, toMove game.Player) uint64 {
	var occupied [maxTotal]board.Cell
	nOcc := 0
	var idx [4]uint64
	for g := range 4 {
		var r uint64
		k := 0
		for _, pc := range pieces {
			if pc.Piece.Owner != groupOwner[g] || pc.Piece.Rank != groupRank[g] {
				continue
			}
			k++
			r += l.binom.c(uint64(freeRank(pc.Cell, occupied[:nOcc])), k)
		}
		idx[g] = r
		// The group's cells join the occupied ones only now: its own
		// cells were ranked among the cells free before it.
		for _, pc := range pieces {
			if pc.Piece.Owner == groupOwner[g] && pc.Piece.Rank == groupRank[g] {
				occupied[nOcc] = pc.Cell
				nOcc++
			}
		}
		sortCells(occupied[:nOcc])
	}
	n := uint64(l.n)
	free1 := n - uint64(l.counts[0])
	men := idx[0]*l.binom.c(free1, l.counts[1]) + idx[1]
	free2 := free1 - uint64(l.counts[1]) - uint64(l.counts[2])
	kings := idx[2]*l.binom.c(free2, l.counts[3]) + idx[3]
	return (men*l.kingPlacements+kings)*2 + uint64(toMove)
}

// position is index's inverse: it appends the pieces to buf in cell
// order and returns them with the side to move.
func (l *layout) position(index uint64, buf []game.Placed) ([]game.Placed, game.Player) {
	toMove := game.Player(index & 1)
	index >>= 1
	men, kings := index/l.kingPlacements, index%l.kingPlacements
	n := uint64(l.n)
	free1 := n - uint64(l.counts[0])
	free2 := free1 - uint64(l.counts[1]) - uint64(l.counts[2])
	per1 := l.binom.c(free1, l.counts[1])
	per3 := l.binom.c(free2, l.counts[3])
	idx := [4]uint64{men / per1, men % per1, kings / per3, kings % per3}
	var occupied [maxTotal]board.Cell
	nOcc := 0
	start := len(buf)
	for g := range 4 {
		var ranks [maxTotal]int
		l.binom.unrank(idx[g], l.counts[g], ranks[:l.counts[g]])
		first := nOcc
		for _, r := range ranks[:l.counts[g]] {
			occupied[nOcc] = cellOfFreeRank(r, occupied[:first])
			buf = append(buf, game.Placed{Cell: occupied[nOcc], Piece: game.Piece{Owner: groupOwner[g], Rank: groupRank[g]}})
			nOcc++
		}
		sortCells(occupied[:nOcc])
	}
	sortPlaced(buf[start:])
	return buf, toMove
}

// freeRank is c's number among the cells not in occupied (sorted).
func freeRank(c board.Cell, occupied []board.Cell) int {
	r := int(c)
	for _, o := range occupied {
		if o < c {
			r--
		}
	}
	return r
}

// cellOfFreeRank is freeRank's inverse.
func cellOfFreeRank(r int, occupied []board.Cell) board.Cell {
	c := board.Cell(r)
	for _, o := range occupied {
		if o <= c {
			c++
		}
	}
	return c
}

// sortCells sorts a handful of cells (insertion sort: no allocation).
func sortCells(cs []board.Cell) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j] < cs[j-1]; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// sortPlaced sorts a handful of pieces by cell.
func sortPlaced(ps []game.Placed) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].Cell < ps[j-1].Cell; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// binomials holds C(n, k) for the cells of the largest board and k up to
// maxTotal.
type binomials struct {
	n     int
	table [][maxTotal + 1]uint64
}

func newBinomials(n int) *binomials {
	b := &binomials{n: n, table: make([][maxTotal + 1]uint64, n+1)}
	for i := 0; i <= n; i++ {
		b.table[i][0] = 1
		for k := 1; k <= maxTotal && k <= i; k++ {
			b.table[i][k] = b.table[i-1][k-1]
			if k <= i-1 {
				b.table[i][k] += b.table[i-1][k]
			}
		}
	}
	return b
}

// c is C(n, k), 0 when k > n.
func (b *binomials) c(n uint64, k int) uint64 { return b.table[n][k] }

// unrank writes into ranks (len k, ascending) the combination whose
// colex number is idx: the largest r with C(r, k) <= idx is the top one.
func (b *binomials) unrank(idx uint64, k int, ranks []int) {
	r := b.n
	for j := k; j >= 1; j-- {
		for b.c(uint64(r), j) > idx {
			r--
		}
		ranks[j-1] = r
		idx -= b.c(uint64(r), j)
		r--
	}
}
