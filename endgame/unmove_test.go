package endgame

import (
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// This file builds tables a second way, for the check the issue asks
// for: the parents of a position found by un-moves, Pommel's moves played
// backwards, instead of by the game's move generator. The un-moves are
// written from RULINGS section 1 alone; the tests compare both the
// parents and the finished tables.

// unmover lists the parents of positions of one Pommel game by un-moves.
type unmover struct {
	g      game.Game
	b      *board.Board
	hopAny bool
	st     game.State
}

func newUnmover(g game.Game) *unmover {
	return &unmover{g: g, b: g.Board(), hopAny: g.Options().Get("hop") == "any", st: g.Start()}
}

// parents returns the placements (with the side to move) of every
// position from which one quiet move of the side that just moved, keeping
// the material, leads to pieces with toMove to move: a captain's slide
// or a soldier's step, each found backwards and then kept only if the
// rules allow it there (no capture was compulsory; a captain stops where
// a line reaches an enemy).
func (u *unmover) parents(pieces []game.Placed, toMove game.Player) [][]game.Placed {
	mover := 1 - toMove
	var out [][]game.Placed
	for k, pc := range pieces {
		if pc.Piece.Owner != mover {
			continue
		}
		for _, from := range u.origins(pieces, pc) {
			parent := slices.Clone(pieces)
			parent[k].Cell = from
			sortPlaced(parent)
			if u.legalParent(parent, mover) {
				out = append(out, parent)
			}
		}
	}
	return out
}

// origins are the cells the piece pc may have come from.
func (u *unmover) origins(pieces []game.Placed, pc game.Placed) []board.Cell {
	occupant := func(c board.Cell) (game.Placed, bool) {
		for _, o := range pieces {
			if o.Cell == c {
				return o, true
			}
		}
		return game.Placed{}, false
	}
	var out []board.Cell
	if pc.Piece.Rank == game.King {
		if !u.seesEnemy(pieces, pc) {
			return nil
		}
		for d := range 6 {
			for _, c := range u.b.Ray(pc.Cell, d) {
				if _, full := occupant(c); full {
					break
				}
				out = append(out, c)
			}
		}
		return out
	}
	for _, d := range forward(pc.Piece.Owner) {
		// Back from the landing cell over the pieces it passed, to the
		// empty cell it started on.
		for _, c := range u.b.Ray(pc.Cell, u.b.Opposite(d)) {
			o, full := occupant(c)
			if !full {
				out = append(out, c)
				break
			}
			if o.Piece.Owner != pc.Piece.Owner && !u.hopAny {
				break
			}
		}
	}
	return out
}

// forward are the three directions of a soldier's steps.
func forward(p game.Player) []int {
	if p == 0 {
		return []int{board.HexNW, board.HexN, board.HexNE}
	}
	return []int{board.HexSW, board.HexS, board.HexSE}
}

// seesEnemy reports whether a line from the captain pc reaches an enemy
// across empty cells: where a captain may stop.
func (u *unmover) seesEnemy(pieces []game.Placed, pc game.Placed) bool {
	for d := range 6 {
	ray:
		for _, c := range u.b.Ray(pc.Cell, d) {
			for _, o := range pieces {
				if o.Cell == c {
					if o.Piece.Owner != pc.Piece.Owner {
						return true
					}
					break ray
				}
			}
		}
	}
	return false
}

// legalParent reports whether pieces with toMove to move is a position
// without a compulsory capture (so a quiet move may be played).
func (u *unmover) legalParent(pieces []game.Placed, toMove game.Player) bool {
	if u.st.(game.Placer).Place(pieces, toMove) != nil {
		return false
	}
	return !u.st.(game.LeafTester).HasCapture()
}

// solveByUnmoves solves material l.m as Build does, but over the whole
// material at once, finding parents by un-moves: the moves of each
// position are still listed, to count them and to judge the children in
// other materials.
func (b *builder) solveByUnmoves(l *layout, u *unmover) ([]uint16, error) {
	vals := make([]uint16, l.size())
	w := b.newWorker(l, vals, make([]int16, l.slices))
	w.span = l.size()
	w.reset(int(l.size()))
	for i := range l.size() {
		if !w.placeable(i) {
			vals[i] = notAPosition
			continue
		}
		if err := w.expand(0, i); err != nil {
			return nil, err
		}
	}
	err := w.propagateWith(vals, func(i uint32, visit func(uint32)) {
		pieces, toMove := l.position(uint64(i), nil)
		for _, p := range u.parents(pieces, toMove) {
			if materialOf(p) == l.m {
				visit(uint32(l.index(p, 1-toMove)))
			}
		}
	})
	return vals, err
}

// unmoveMaterials are the materials of the tiny tables built both ways:
// every material of up to three pieces with at most two men, so that
// captains' slides and soldiers' steps (with hops) both occur.
func unmoveMaterials(t *testing.T, k int) []Material {
	t.Helper()
	var out []Material
	for _, m := range Materials(k) {
		if m.Men() <= 2 {
			out = append(out, m)
		}
	}
	return out
}

// TestUnmovesFindEveryParent lists, for every position of the tiny
// tables, its parents by un-moves, and checks they are exactly the
// positions whose generated moves lead to it (as multisets: two moves
// between the same positions count twice).
func TestUnmovesFindEveryParent(t *testing.T) {
	for _, tc := range unmoveCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			u := newUnmover(tc.g)
			bin := newBinomials(tc.g.Board().Len())
			for _, m := range unmoveMaterials(t, tc.pieces) {
				l := newLayout(m, tc.g.Board().Len(), bin)
				forward := forwardParents(t, tc.g, &l)
				for i := range l.size() {
					pieces, toMove := l.position(i, nil)
					if tc.g.Start().(game.Placer).Place(pieces, toMove) != nil {
						continue
					}
					var got []uint64
					for _, p := range u.parents(pieces, toMove) {
						got = append(got, l.index(p, 1-toMove))
					}
					slices.Sort(got)
					if want := forward[i]; !slices.Equal(got, want) {
						t.Fatalf("%s %s: parents by un-moves %v, by moves %v", m, fenOfPlaced(tc.g, pieces, toMove), fens(tc.g, &l, got), fens(tc.g, &l, want))
					}
				}
			}
		})
	}
}

// TestUnmoveTablesMatch builds the tiny tables both ways and compares
// every value.
func TestUnmoveTablesMatch(t *testing.T) {
	for _, tc := range unmoveCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			b, err := newBuilder(Config{Game: tc.g, Pieces: tc.pieces, Dir: t.TempDir(), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			u := newUnmover(tc.g)
			for _, m := range b.materials {
				l := b.layouts[m]
				forward := make([]uint16, l.size())
				if err := b.solveMaterial(t.Context(), l, forward); err != nil {
					t.Fatal(err)
				}
				if m.Men() <= 2 {
					backward, err := b.solveByUnmoves(l, u)
					if err != nil {
						t.Fatal(err)
					}
					for i := range forward {
						if forward[i] != backward[i] {
							pieces, toMove := l.position(uint64(i), nil)
							t.Fatalf("%s %s: forward %v, by un-moves %v", m, fenOfPlaced(tc.g, pieces, toMove), decode(forward[i]), decode(backward[i]))
						}
					}
				}
				b.solved[m] = forward
			}
		})
	}
}

type unmoveCase struct {
	name   string
	g      game.Game
	pieces int
}

// unmoveCases are the games of the tiny tables: both boards and both hop
// rules, three pieces on the small board (two under -short) and two on
// the large one.
func unmoveCases(t *testing.T) []unmoveCase {
	t.Helper()
	var out []unmoveCase
	for _, c := range []struct {
		id, hop string
		pieces  int
	}{{"pommel", "friendly", 3}, {"pommel", "any", 3}, {"pommel-76", "friendly", 2}} {
		g, err := game.New(c.id, map[string]string{"hop": c.hop})
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() {
			c.pieces = 2
		}
		out = append(out, unmoveCase{fmt.Sprintf("%s hop=%s %d", c.id, c.hop, c.pieces), g, c.pieces})
	}
	return out
}

// forwardParents lists, for each index of l, the indexes of l whose
// moves lead to it, sorted, by the game's own move generator.
func forwardParents(t *testing.T, g game.Game, l *layout) map[uint64][]uint64 {
	t.Helper()
	out := map[uint64][]uint64{}
	s := g.Start()
	for i := range l.size() {
		pieces, toMove := l.position(i, nil)
		if s.(game.Placer).Place(pieces, toMove) != nil {
			continue
		}
		for _, mv := range s.Moves(nil) {
			s.Play(mv)
			child := s.(game.Placer).Placement(nil)
			if materialOf(child) == l.m {
				c := l.index(child, s.ToMove())
				out[c] = append(out[c], i)
			}
			s.Undo()
		}
	}
	for _, ps := range out {
		slices.Sort(ps)
	}
	return out
}

func fenOfPlaced(g game.Game, pieces []game.Placed, toMove game.Player) string {
	s := g.Start()
	if err := s.(game.Placer).Place(pieces, toMove); err != nil {
		return err.Error()
	}
	return s.(interface{ FEN() string }).FEN()
}

func fens(g game.Game, l *layout, idx []uint64) []string {
	var out []string
	for _, i := range idx {
		p, tm := l.position(i, nil)
		out = append(out, fenOfPlaced(g, p, tm))
	}
	return out
}
