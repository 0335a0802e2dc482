// Package board holds the geometry of the boards the games are played on:
// cells with names and coordinates, and each cell's neighbours, rays and
// directions, computed once when a board is built.
//
// A Board is immutable after construction and safe for concurrent use; the
// games share one Board per size. The hot-path accessors (Neighbor, Ray,
// DirTo) are table lookups that never allocate.
package board

import (
	"fmt"
	"iter"
	"slices"
	"strings"
)

// Cell is the index of a cell on a board, 0..Len()-1.
type Cell uint8

// None is the Cell returned where there is no cell (off the board).
const None Cell = 255

// MaxCells bounds the number of cells on any board, so that games can keep
// their positions in fixed-size arrays.
const MaxCells = 128

// Vector is a step in a board's own coordinate system.
type Vector struct{ DX, DY int }

// Kind tells how a board's cells are laid out, for drawing.
type Kind uint8

// The board layouts.
const (
	// HexColumns: hexagons in vertical columns, flat sides up, in doubled
	// coordinates (Pommel).
	HexColumns Kind = iota
	// Square: a rectangular grid of squares.
	Square
	// HexHex: a hexagon of hexagons (Punt-Heks-Match), pointy sides up.
	HexHex
)

// Board is a set of named cells with the neighbours, rays and directions
// the move generators read.
type Board struct {
	id     string
	kind   Kind
	names  []string
	byName map[string]Cell
	xs, ys []int
	dirs   []Vector
	neigh  []Cell  // neigh[c*len(dirs)+d]
	rayIdx []int32 // rays[rayIdx[i]:rayIdx[i+1]] is the ray for i = c*len(dirs)+d
	rays   []Cell
	dirTo  []int8 // dirTo[a*n+b]: direction from a to b along a line, or -1
	// halfTurn[c] is c's image under the half turn (HalfTurn); nil when
	// the board has no such symmetry.
	halfTurn []Cell
	// nameOrder is every cell, sorted by name in byte order.
	nameOrder []Cell
}

// cellSpec describes a cell to the builder.
type cellSpec struct {
	name string
	x, y int
}

// build computes every table of a board from its cells and directions. The
// directions must be listed so that the opposite of d is d+len(dirs)/2.
func build(id string, kind Kind, cells []cellSpec, dirs []Vector) *Board {
	if len(cells) > MaxCells {
		panic(fmt.Sprintf("board %s: %d cells, more than %d", id, len(cells), MaxCells))
	}
	b := &Board{id: id, kind: kind, dirs: dirs, byName: make(map[string]Cell, len(cells))}
	at := make(map[[2]int]Cell, len(cells))
	for i, c := range cells {
		b.names = append(b.names, c.name)
		b.xs = append(b.xs, c.x)
		b.ys = append(b.ys, c.y)
		b.byName[c.name] = Cell(i)
		at[[2]int{c.x, c.y}] = Cell(i)
	}
	n, nd := len(cells), len(dirs)
	b.neigh = make([]Cell, n*nd)
	b.rayIdx = make([]int32, n*nd+1)
	b.dirTo = make([]int8, n*n)
	for i := range b.dirTo {
		b.dirTo[i] = -1
	}
	for c := 0; c < n; c++ {
		for d, v := range dirs {
			b.neigh[c*nd+d] = None
			b.rayIdx[c*nd+d] = int32(len(b.rays))
			x, y := cells[c].x+v.DX, cells[c].y+v.DY
			for {
				next, ok := at[[2]int{x, y}]
				if !ok {
					break
				}
				if b.neigh[c*nd+d] == None {
					b.neigh[c*nd+d] = next
				}
				b.rays = append(b.rays, next)
				b.dirTo[c*n+int(next)] = int8(d)
				x, y = x+v.DX, y+v.DY
			}
		}
	}
	b.rayIdx[n*nd] = int32(len(b.rays))
	b.halfTurn = halfTurnTable(cells, at)
	b.nameOrder = make([]Cell, n)
	for i := range b.nameOrder {
		b.nameOrder[i] = Cell(i)
	}
	slices.SortFunc(b.nameOrder, func(x, y Cell) int { return strings.Compare(b.names[x], b.names[y]) })
	return b
}

// CellsByName yields every cell in the byte order of their names, the
// order of a JSON object keyed by cell, as encoding/json sorts its keys.
func (b *Board) CellsByName() iter.Seq[Cell] {
	return slices.Values(b.nameOrder)
}

// ID is the board's short name, such as "hex45".
func (b *Board) ID() string { return b.id }

// Kind tells how the board is laid out.
func (b *Board) Kind() Kind { return b.kind }

// Len is the number of cells.
func (b *Board) Len() int { return len(b.names) }

// Dirs is the number of directions (6 on hex boards, 8 on square ones).
func (b *Board) Dirs() int { return len(b.dirs) }

// Direction returns the vector of direction d.
func (b *Board) Direction(d int) Vector { return b.dirs[d] }

// Opposite returns the direction opposite to d.
func (b *Board) Opposite(d int) int { return (d + len(b.dirs)/2) % len(b.dirs) }

// Name returns the cell's name in the project's notation, such as "b1".
func (b *Board) Name(c Cell) string {
	if int(c) >= len(b.names) {
		return fmt.Sprintf("cell(%d)", c)
	}
	return b.names[c]
}

// Parse returns the cell with the given name.
func (b *Board) Parse(name string) (Cell, bool) {
	c, ok := b.byName[name]
	return c, ok
}

// Coord returns the cell's coordinates in the board's own system.
func (b *Board) Coord(c Cell) (x, y int) { return b.xs[c], b.ys[c] }

// Neighbor returns the cell next to c in direction d, or None.
func (b *Board) Neighbor(c Cell, d int) Cell { return b.neigh[int(c)*len(b.dirs)+d] }

// Ray returns the cells from c (excluded) to the edge of the board in
// direction d, nearest first. The slice belongs to the board: do not modify.
func (b *Board) Ray(c Cell, d int) []Cell {
	i := int(c)*len(b.dirs) + d
	return b.rays[b.rayIdx[i]:b.rayIdx[i+1]:b.rayIdx[i+1]]
}

// DirTo returns the direction in which to leave a to reach b in a straight
// line, and false if b is not on one of a's lines.
func (b *Board) DirTo(from, to Cell) (int, bool) {
	d := b.dirTo[int(from)*len(b.names)+int(to)]
	return int(d), d >= 0
}

// CellNames returns every cell name, in cell order.
func (b *Board) CellNames() []string { return append([]string(nil), b.names...) }
