package endgame

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/game"
)

// Tables of a game whose moves can add pieces (Eximo: a man that leaves
// on the far row drops up to two men) are built differently. A position
// of K pieces may have children of K+1, so "fewer pieces first" is no
// order, and materials lead into each other both ways (a drop up, a
// capture down). A build of up to K pieces therefore solves every
// material of 2 to K men at once, as one system, and treats a move that
// would make more than K pieces as leaving the tables.
//
// The value of such a move's child is not known, but it lies between
// two extremes: a win in 1 for the side that moves in it (no position
// still in play is better for its mover) and a loss in 0 (none is worse).
// The build solves the system twice, each time by ordinary retrograde
// analysis to its fixed point: bound X values every child beyond K as
// best for player X (a win in 1 when X is to move in it, a loss in 0 when
// the other side is). Each bound is the exact value table of a game of
// its own, the game where a move beyond K pieces hands the win to X; and
// a side's power to force a win within N plies only grows when the
// boundary's values improve for it. So a position's true value lies
// between its two bounds, and where they agree it is that value, exact.
// Where they differ the position is not held: its value depends on
// positions of more pieces. Both bounds are written (files M.0.* and
// M.1.*), so that Verify checks each against its moves and the rules.

// Dropper is implemented by games whose pieces are all men and whose
// moves can add men (Eximo's drops). Their tables are built as a whole
// (see above).
type Dropper interface {
	DropsMen() bool
}

// dropsMen reports whether g's tables are built as drop tables.
func dropsMen(g game.Game) bool {
	d, ok := g.(Dropper)
	return ok && d.DropsMen()
}

// DropMaterials lists the materials of 2 to k men with a man on each
// side, fewer men first: the materials of a drop game's tables, solved
// together.
func DropMaterials(k int) []Material {
	var out []Material
	for total := 2; total <= k; total++ {
		out = append(out, materialsOf(total, total)...)
	}
	return out
}

// Flags of a position of a drop system, found when its moves are listed.
const (
	flagNone   uint8 = 1 << iota // the index is no position
	flagTakes                    // a move takes the last enemy man
	flagBeyond                   // a move makes more pieces than the tables hold
)

// dropSystem is every position of a drop build's materials, numbered one
// after the other (a material's indexes from its offset on), with the
// moves between them as lists of parents.
type dropSystem struct {
	b       *builder
	offsets []uint64 // offsets[k] is where b.materials[k] starts; the last is the total
	flags   []uint8
	moves   []uint16 // moves into the system, by position
	// firstPar[i] .. firstPar[i+1] are i's parents in parents.
	firstPar []uint32
	parents  []uint32
}

// newDropSystem numbers the positions of b's materials.
func (b *builder) newDropSystem() (*dropSystem, error) {
	s := &dropSystem{b: b, offsets: make([]uint64, len(b.materials)+1)}
	for k, m := range b.materials {
		s.offsets[k+1] = s.offsets[k] + b.layouts[m].size()
	}
	if n := s.offsets[len(b.materials)]; n >= 1<<32-1 {
		return nil, fmt.Errorf("endgame: %d positions: more than a drop build numbers", n)
	}
	return s, nil
}

// size is the number of indexes of the system.
func (s *dropSystem) size() uint64 { return s.offsets[len(s.offsets)-1] }

// material is the number of the material that global index i is in.
func (s *dropSystem) material(i uint64) int {
	k := 0
	for s.offsets[k+1] <= i {
		k++
	}
	return k
}

// global is the system's index of a position of material m.
func (s *dropSystem) global(m Material, pieces []game.Placed, toMove game.Player) (uint64, bool) {
	for k, o := range s.b.materials {
		if o == m {
			return s.offsets[k] + s.b.layouts[m].index(pieces, toMove), true
		}
	}
	return 0, false
}

// expand lists every position's moves twice: first to count each
// position's parents, then to write them down.
func (s *dropSystem) expand(ctx context.Context) error {
	n := s.size()
	s.flags = make([]uint8, n)
	s.moves = make([]uint16, n)
	counts := make([]uint32, n+1)
	err := s.eachPosition(ctx, func(e *dropExpander, i uint64) error {
		return e.count(i, counts)
	})
	if err != nil {
		return err
	}
	for i := range n {
		counts[i+1] += counts[i]
	}
	s.firstPar = counts
	s.parents = make([]uint32, counts[n])
	fill := make([]uint32, n)
	copy(fill, counts[:n])
	return s.eachPosition(ctx, func(e *dropExpander, i uint64) error {
		return e.link(i, fill)
	})
}

// eachPosition calls f on every index, the builder's workers side by
// side, a chunk at a time; each worker has its own expander.
func (s *dropSystem) eachPosition(ctx context.Context, f func(e *dropExpander, i uint64) error) error {
	n := s.size()
	var next atomic.Uint64
	var wg sync.WaitGroup
	errs := make([]error, s.b.cfg.Workers)
	for w := range errs {
		wg.Go(func() {
			e := s.newExpander()
			for ctx.Err() == nil {
				from := next.Add(chunk) - chunk
				if from >= n {
					return
				}
				to := min(from+chunk, n)
				for i := from; i < to; i++ {
					if err := f(e, i); err != nil {
						errs[w] = err
						next.Store(n)
						return
					}
				}
				s.b.done.Add((to - from) / 2)
			}
			errs[w] = ctx.Err()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// dropExpander lists the moves of positions with scratch of its own.
type dropExpander struct {
	s             *dropSystem
	st            game.State
	pl            game.Placer
	pieces, child []game.Placed
	moves         []game.Move
}

func (s *dropSystem) newExpander() *dropExpander {
	st := s.b.g.Start()
	return &dropExpander{s: s, st: st, pl: st.(game.Placer)}
}

// place sets the expander's state to index i; false when i is no
// position.
func (e *dropExpander) place(i uint64) bool {
	k := e.s.material(i)
	l := e.s.b.layouts[e.s.b.materials[k]]
	var toMove game.Player
	e.pieces, toMove = l.position(i-e.s.offsets[k], e.pieces[:0])
	return e.pl.Place(e.pieces, toMove) == nil
}

// children calls f with the index of each child of the position set
// that is in the system, after noting in flags the moves that leave it.
func (e *dropExpander) children(i uint64, f func(j uint64)) error {
	e.moves = e.st.Moves(e.moves[:0])
	for _, mv := range e.moves {
		var toMove game.Player
		var cm Material
		e.child, toMove, cm = childOf(e.st, e.pl, mv, e.child)
		switch {
		case cm.Side(toMove) == 0:
			e.s.flags[i] |= flagTakes
			continue
		case cm.Total() > e.s.b.cfg.Pieces:
			e.s.flags[i] |= flagBeyond
			continue
		}
		j, ok := e.s.global(cm, e.child, toMove)
		if !ok {
			return fmt.Errorf("endgame: a move from %s leads to %s, which is not in the tables being built", e.fen(), cm)
		}
		f(j)
	}
	return nil
}

func (e *dropExpander) fen() string {
	if f, ok := e.st.(interface{ FEN() string }); ok {
		return f.FEN()
	}
	return "?"
}

// count notes i's flags and moves into the system, and counts i as a
// parent of each of its children.
func (e *dropExpander) count(i uint64, counts []uint32) error {
	if !e.place(i) {
		e.s.flags[i] = flagNone
		return nil
	}
	moves := 0
	err := e.children(i, func(j uint64) {
		moves++
		atomic.AddUint32(&counts[j+1], 1)
	})
	if moves > 1<<16-1 {
		return fmt.Errorf("endgame: %s has %d moves", e.fen(), moves)
	}
	e.s.moves[i] = uint16(moves)
	return err
}

// link writes i as a parent of each of its children.
func (e *dropExpander) link(i uint64, fill []uint32) error {
	if e.s.flags[i]&flagNone != 0 {
		return nil
	}
	e.place(i)
	return e.children(i, func(j uint64) {
		e.s.parents[atomic.AddUint32(&fill[j], 1)-1] = uint32(i)
	})
}

// solve is bound x of the system: its values when every child beyond
// the tables is worth the most to player x. It is retrograde analysis by
// distance: a position lost in d makes its unsettled parents won in d+1,
// the least they can be since shorter losses came before; a position won
// in d takes a move off each parent's count, and a parent left with none
// is lost in d+1, its longest. What is never settled is a draw.
func (s *dropSystem) solve(x game.Player) ([]uint16, error) {
	n := s.size()
	vals := make([]uint16, n)
	pending := make([]uint16, n)
	copy(pending, s.moves)
	var buckets [][]uint32
	settle := func(i uint64, v uint16) {
		vals[i] = v
		d := int(v & distMask)
		for len(buckets) <= d {
			buckets = append(buckets, nil)
		}
		buckets[d] = append(buckets[d], uint32(i))
	}
	for i := range n {
		f, mover := s.flags[i], game.Player(i&1)
		beyond := f&flagBeyond != 0
		switch {
		case f&flagNone != 0:
			vals[i] = notAPosition
		case f&flagTakes != 0 || beyond && mover == x:
			settle(i, winBit|1)
		case pending[i] == 0 && beyond:
			settle(i, lossBit|2) // every move goes beyond, each to a win in 1 for x
		case pending[i] == 0:
			settle(i, lossBit) // no move at all
		}
	}
	for d := 0; d < len(buckets); d++ {
		if d+1 > int(distMask) {
			return nil, fmt.Errorf("endgame: a distance beyond %d plies", distMask)
		}
		for _, i := range buckets[d] {
			lost := vals[i]&lossBit != 0
			for _, p := range s.parents[s.firstPar[i]:s.firstPar[i+1]] {
				switch {
				case vals[p] != 0:
				case lost:
					settle(uint64(p), winBit|uint16(d+1))
				default:
					if pending[p]--; pending[p] == 0 {
						settle(uint64(p), lossBit|uint16(d+1))
					}
				}
			}
		}
		buckets[d] = nil
	}
	return vals, nil
}

// buildDrops builds (or reads) the tables of a drop game: every material
// at once, both bounds.
func (b *builder) buildDrops(ctx context.Context) (*Manifest, error) {
	b.man.Drops = true
	bounds, err := b.readDrops()
	switch {
	case errors.Is(err, os.ErrNotExist):
		b.loaded.Store(false)
		b.current.Store(b.materials[len(b.materials)-1]) // the system, named by its largest material
		if bounds, err = b.solveDrops(ctx); err != nil {
			return nil, err
		}
		if err := b.writeDrops(bounds); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		b.loaded.Store(true)
		b.done.Store(b.total)
	}
	for _, m := range b.materials {
		stats, err := b.dropStatistics(b.layouts[m], bounds[m])
		if err != nil {
			return nil, err
		}
		b.man.add(stats)
	}
	if err := b.man.write(b.cfg.Dir); err != nil {
		return nil, err
	}
	return b.man, nil
}

// readDrops reads both bounds of every material from the folder when the
// folder holds a finished build of the same pieces. It answers
// os.ErrNotExist when the system is still to be solved: a drop build is
// solved whole, so a folder of fewer pieces, or of a build stopped
// before its end, is solved again.
func (b *builder) readDrops() (map[Material][2][]uint16, error) {
	old, err := readManifest(b.cfg.Dir)
	if err != nil {
		return nil, err
	}
	if old.Pieces != b.cfg.Pieces || len(old.Materials) != len(b.materials) {
		return nil, os.ErrNotExist
	}
	out := map[Material][2][]uint16{}
	for _, m := range b.materials {
		var pair [2][]uint16
		for x := range 2 {
			vals, err := readMaterialFiles(b.cfg.Dir, b.man, m, b.layouts[m].size(), boundName(x))
			if err != nil {
				return nil, err
			}
			pair[x] = vals
		}
		out[m] = pair
	}
	return out, nil
}

// solveDrops lists the system's moves and solves both bounds, split back
// into materials.
func (b *builder) solveDrops(ctx context.Context) (map[Material][2][]uint16, error) {
	s, err := b.newDropSystem()
	if err != nil {
		return nil, err
	}
	if err := s.expand(ctx); err != nil {
		return nil, err
	}
	out := map[Material][2][]uint16{}
	for x := range 2 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vals, err := s.solve(game.Player(x))
		if err != nil {
			return nil, err
		}
		for k, m := range b.materials {
			pair := out[m]
			pair[x] = vals[s.offsets[k]:s.offsets[k+1]]
			out[m] = pair
		}
	}
	return out, nil
}

// writeDrops writes both bounds of every material.
func (b *builder) writeDrops(bounds map[Material][2][]uint16) error {
	for _, m := range b.materials {
		b.current.Store(m)
		for x := range 2 {
			if err := writeMaterialFiles(b.cfg.Dir, b.man, m, bounds[m][x], boundName(x)); err != nil {
				return err
			}
		}
	}
	return nil
}

// boundName is the name of bound x in files and their headers.
func boundName(x int) string { return string(rune('0' + x)) }

// exactOf combines a position's two bounds: the value where they agree,
// unknown (notHeld) where they do not.
func exactOf(v0, v1 uint16) uint16 {
	if v0 != v1 {
		return notHeld
	}
	return v0
}

// notHeld marks, in a combination of bounds, a position whose value
// depends on positions of more pieces than the tables hold.
const notHeld uint16 = 0xfffd

// dropStatistics are a material's figures from its exact values; the
// positions not held are counted apart.
func (b *builder) dropStatistics(l *layout, pair [2][]uint16) (MaterialStats, error) {
	exact := make([]uint16, len(pair[0]))
	var unknown uint64
	for i := range exact {
		if exact[i] = exactOf(pair[0][i], pair[1][i]); exact[i] == notHeld {
			unknown++
			exact[i] = notAPosition
		}
	}
	st, err := b.statistics(l, exact)
	st.Unknown = unknown
	st.Positions += unknown
	return st, err
}

// dropMemoryNeeded estimates a drop build's peak: a byte of flags, two
// of moves and two of pending moves a position, four for its first
// parent and four more while they are written, the two bounds' values,
// and the parents themselves (edgesPerDropPosition of four bytes).
func (b *builder) dropMemoryNeeded() int64 {
	return int64(b.total) * (1 + 2 + 2 + 4 + 4 + 2*2 + 4*edgesPerDropPosition)
}

// edgesPerDropPosition is a generous guess of the moves into the system
// a position has, for the memory estimate.
const edgesPerDropPosition = 12
