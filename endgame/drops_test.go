package endgame

import (
	"context"
	"errors"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/eximo"
)

// This file tests drop tables (Eximo) against what is written here from
// the rules alone: the positions are listed by nested loops over the
// cells, not by the index, and a second solver finds both bounds by
// plain value iteration over a map of positions, round by round.

// exPos is an Eximo position as the test solver keys it: each side's men
// as a set of cells and the side to move.
type exPos struct {
	men    [2]uint64
	toMove game.Player
}

// farRowOf tells whether c is p's far row: rank 8 for Black (player 0),
// rank 1 for White. A man never stands there.
func farRowOf(b *board.Board, p game.Player, c board.Cell) bool {
	_, y := b.Coord(c)
	return p == 0 && y == 7 || p == 1 && y == 0
}

// allPositions lists every position of a men of player 0 and b of player
// 1, either side to move, by choosing cell sets in nested loops.
func allPositions(bd *board.Board, a, b int) []exPos {
	var out []exPos
	var choose func(p game.Player, k, from int, mine, taken uint64)
	var sets [2]uint64
	choose = func(p game.Player, k, from int, mine, taken uint64) {
		if k == 0 {
			sets[p] = mine
			if p == 0 {
				choose(1, b, 0, 0, taken|mine)
				return
			}
			for toMove := range game.Player(2) {
				out = append(out, exPos{men: sets, toMove: toMove})
			}
			return
		}
		for c := from; c < bd.Len(); c++ {
			if taken&(1<<c) != 0 || farRowOf(bd, p, board.Cell(c)) {
				continue
			}
			choose(p, k-1, c+1, mine|1<<c, taken)
		}
	}
	choose(0, a, 0, 0, 0)
	return out
}

// placed writes a position as pieces in cell order.
func (p exPos) placed() []game.Placed {
	var out []game.Placed
	for rest := p.men[0] | p.men[1]; rest != 0; rest &= rest - 1 {
		c := bits.TrailingZeros64(rest)
		owner := game.Player(0)
		if p.men[1]&(1<<c) != 0 {
			owner = 1
		}
		out = append(out, game.Placed{Cell: board.Cell(c), Piece: game.Piece{Owner: owner, Rank: game.Man}})
	}
	return out
}

func keyOf(pieces []game.Placed, toMove game.Player) exPos {
	k := exPos{toMove: toMove}
	for _, pc := range pieces {
		k.men[pc.Piece.Owner] |= 1 << pc.Cell
	}
	return k
}

// TestDropLayoutRoundTrip: every position of Eximo's small materials,
// listed cell by cell, has an index of its own in its material, the
// index reads back as the position, and every index that is not one of
// them is no position (Place refuses it).
func TestDropLayoutRoundTrip(t *testing.T) {
	g := mustGame(t, "eximo", nil)
	bd := g.Board()
	bin := newBinomials(bd.Len())
	st := g.Start()
	pl := st.(game.Placer)
	for _, m := range DropMaterials(smallPieces()) {
		l := newLayout(m, bd.Len(), bin)
		seen := make([]bool, l.size())
		positions := allPositions(bd, int(m[0][game.Man]), int(m[1][game.Man]))
		for _, p := range positions {
			i := l.index(p.placed(), p.toMove)
			if i >= l.size() || seen[i] {
				t.Fatalf("%s: %v has index %d, out of range or taken twice", m, p, i)
			}
			seen[i] = true
			back, toMove := l.position(i, nil)
			if keyOf(back, toMove) != p {
				t.Fatalf("%s: index %d reads back as %v, not %v", m, i, keyOf(back, toMove), p)
			}
		}
		for i, ok := range seen {
			pieces, toMove := l.position(uint64(i), nil)
			if err := pl.Place(pieces, toMove); (err == nil) != ok {
				t.Fatalf("%s: index %d: a listed position %v, Place says %v", m, i, ok, err)
			}
		}
		if want := map[Material]int{{{1, 0}, {1, 0}}: 6176}[m]; want > 0 && len(positions) != want {
			t.Errorf("%s: %d positions, want %d (56 cells each, 48 shared, both sides to move)", m, len(positions), want)
		}
	}
}

// simpleBounds solves bound x of the drop tables of up to k men from
// the rules alone: the positions of every material in a map, their
// children by the game's moves, and values found round by round. In
// round d a position is a win in d (d odd) when a child was a loss in
// d-1, or a loss in d (d even) when every child was a win in less than
// d plies and one in d-1; a move beyond k men is a win in 1 for x when x
// is to move after it, a loss in 0 for the side to move otherwise. What
// no round settles is a draw.
func simpleBounds(t *testing.T, g game.Game, k int) [2]map[exPos]Value {
	bd := g.Board()
	type node struct {
		children []exPos
		takes    bool // a move takes the last enemy man
		beyond   bool // a move makes more than k men
	}
	nodes := map[exPos]*node{}
	st := g.Start()
	pl := st.(game.Placer)
	for total := 2; total <= k; total++ {
		for a := 1; a < total; a++ {
			for _, p := range allPositions(bd, a, total-a) {
				if err := pl.Place(p.placed(), p.toMove); err != nil {
					t.Fatal(err)
				}
				n := &node{}
				for _, mv := range st.Moves(nil) {
					st.Play(mv)
					c := keyOf(pl.Placement(nil), st.ToMove())
					st.Undo()
					switch men := bits.OnesCount64(c.men[0]) + bits.OnesCount64(c.men[1]); {
					case c.men[c.toMove] == 0:
						n.takes = true
					case men > k:
						n.beyond = true
					default:
						n.children = append(n.children, c)
					}
				}
				nodes[p] = n
			}
		}
	}
	var out [2]map[exPos]Value
	for x := range game.Player(2) {
		vals := map[exPos]Value{}
		for d := 0; ; d++ {
			settled := map[exPos]Value{}
			for p, n := range nodes {
				if _, ok := vals[p]; ok {
					continue
				}
				if d%2 == 1 {
					win := d == 1 && (n.takes || n.beyond && p.toMove == x)
					for _, c := range n.children {
						if v, ok := vals[c]; ok && v == (Value{Kind: Loss, Plies: d - 1}) {
							win = true
						}
					}
					if win {
						settled[p] = Value{Kind: Win, Plies: d}
					}
					continue
				}
				if n.takes || n.beyond && p.toMove == x {
					continue
				}
				longest := -1
				if n.beyond {
					longest = 1
				}
				all := true
				for _, c := range n.children {
					v, ok := vals[c]
					if !ok || v.Kind != Win {
						all = false
						break
					}
					longest = max(longest, v.Plies)
				}
				if all && longest+1 == d {
					settled[p] = Value{Kind: Loss, Plies: d}
				}
			}
			for p, v := range settled {
				vals[p] = v
			}
			if len(settled) == 0 && d >= 2 {
				break
			}
		}
		for p := range nodes {
			if _, ok := vals[p]; !ok {
				vals[p] = Value{Kind: Draw}
			}
		}
		out[x] = vals
	}
	return out
}

// TestDropsAgreeWithSimpleSolver builds Eximo's tables of 2 pieces (and
// 3 without -short) and compares both bounds of every position with the
// test's solver, and the value Probe gives with their agreement.
func TestDropsAgreeWithSimpleSolver(t *testing.T) {
	for k := 2; k <= smallPieces(); k++ {
		g, dir := tablesFor(t, "eximo", nil, k)
		tb, err := Open(dir, g)
		if err != nil {
			t.Fatal(err)
		}
		want := simpleBounds(t, g, k)
		st := g.Start()
		held, notHeld := 0, 0
		for p, v0 := range want[0] {
			v1 := want[1][p]
			pieces := p.placed()
			m := materialOf(pieces)
			for x, w := range []Value{v0, v1} {
				got, err := tb.boundValue(m, pieces, p.toMove, x)
				if err != nil || got != w {
					t.Fatalf("%d pieces, %v bound %d: the tables say %v (%v), the test's solver %v", k, p, x, got, err, w)
				}
			}
			if err := st.(game.Placer).Place(pieces, p.toMove); err != nil {
				t.Fatal(err)
			}
			got, err := tb.Probe(st)
			var nh *NotHeldError
			switch {
			case v0 == v1 && (err != nil || got != v0):
				t.Fatalf("%d pieces, %v: Probe says %v (%v), want %v", k, p, got, err, v0)
			case v0 != v1 && !errors.As(err, &nh):
				t.Fatalf("%d pieces, %v: Probe says %v (%v), want not held (bounds %v, %v)", k, p, got, err, v0, v1)
			case v0 == v1:
				held++
			default:
				notHeld++
			}
		}
		ms := tb.Manifest()
		var unknown, positions uint64
		for _, s := range ms.Materials {
			unknown += s.Unknown
			positions += s.Positions
		}
		if positions != uint64(len(want[0])) || unknown != uint64(notHeld) {
			t.Errorf("%d pieces: the manifest counts %d positions, %d not held; the test's solver %d, %d", k, positions, unknown, len(want[0]), notHeld)
		}
		t.Logf("%d pieces: %d positions held, %d not held", k, held, notHeld)
	}
}

// TestDropBoundsBracket: along a bound's order, bound 0 is never worse
// for player 0 than bound 1, as the argument for exactness needs.
func TestDropBoundsBracket(t *testing.T) {
	g, dir := tablesFor(t, "eximo", nil, smallPieces())
	tb, err := Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	for _, ms := range tb.Manifest().Materials {
		m, _ := ParseMaterial(ms.Material)
		st, err := tb.loaded(m)
		if err != nil {
			t.Fatal(err)
		}
		for i := range st.l.size() {
			v0, code := st.bounds[0].at(i)
			v1, _ := st.bounds[1].at(i)
			if code == wdlNone {
				continue
			}
			// For the side to move, player i&1: bound 0 is better for
			// player 0.
			r0, r1 := rank(v0), rank(v1)
			if i&1 == 1 {
				r0, r1 = -r0, -r1
			}
			if r0 < r1 {
				t.Fatalf("%s index %d (player %d to move): bound 0 %v is worse for player 0 than bound 1 %v", m, i, i&1, v0, v1)
			}
		}
	}
}

// TestDropValuesByHand: positions whose values follow from the rules at
// a glance, in tables of 2 and 3 pieces.
func TestDropValuesByHand(t *testing.T) {
	for _, tc := range []struct {
		k    int
		fen  string
		want string // a value, or "not held"
	}{
		// Black (to move, player 0) captures forward over d5 onto d6.
		{2, "B:Wd5:Bd4", "win 1"},
		// White captures down over d4 onto d3.
		{2, "W:Wd5:Bd4", "win 1"},
		// Black's only moves leave on row 8 and drop two men: three
		// pieces, beyond tables of two.
		{2, "B:Wh5:Ba7", "not held"},
	} {
		if tc.k > smallPieces() {
			continue
		}
		g, dir := tablesFor(t, "eximo", nil, tc.k)
		tb, err := Open(dir, g)
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		v, err := tb.Probe(s)
		got := v.String()
		var nh *NotHeldError
		if errors.As(err, &nh) {
			got = "not held"
		} else if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		if got != tc.want {
			t.Errorf("%d pieces, %s: %s, want %s", tc.k, tc.fen, got, tc.want)
		}
	}
}

// TestDropResume: a finished drop build in its folder is read, not
// solved again, and gives the same files; a folder of fewer pieces is
// solved again to more (its values change: fewer moves go beyond).
func TestDropResume(t *testing.T) {
	g, dir := tablesFor(t, "eximo", nil, 2)
	again := copyDir(t, dir)
	var loaded bool
	if _, err := Build(context.Background(), Config{Game: g, Pieces: 2, Dir: again, Progress: func(p Progress) { loaded = p.Loaded }}); err != nil {
		t.Fatal(err)
	}
	if !loaded {
		t.Error("a finished drop build was solved again")
	}
	sameFiles(t, dir, again)
	if testing.Short() {
		return
	}
	_, three := tablesFor(t, "eximo", nil, 3)
	if _, err := Build(context.Background(), Config{Game: g, Pieces: 3, Dir: again}); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, three, again)
	if _, err := os.Stat(filepath.Join(again, "MvMM.0.wdl")); err != nil {
		t.Error(err)
	}
}

// TestDropVerifyFinds: Verify checks both bounds, and finds a value
// changed in either.
func TestDropVerifyFinds(t *testing.T) {
	g, dir := tablesFor(t, "eximo", nil, 2)
	tb, err := Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(context.Background(), tb, 1, nil)
	if err != nil || rep.Failures != 0 || rep.Positions != 2*6176 {
		t.Fatalf("the check of good tables: %+v, %v; want 0 failures of %d", rep, err, 2*6176)
	}
	for x := range 2 {
		bad := copyDir(t, dir)
		m := Material{{1, 0}, {1, 0}}
		vals, err := readMaterialFiles(bad, tb.man, m, tb.materials[m].l.size(), boundName(x))
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if v != notAPosition && v&winBit != 0 {
				vals[i] = lossBit | 2
				break
			}
		}
		if err := writeMaterialFiles(bad, tb.man, m, vals, boundName(x)); err != nil {
			t.Fatal(err)
		}
		tb2, err := Open(bad, g)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(context.Background(), tb2, 1, nil)
		if err != nil || rep.Failures == 0 {
			t.Errorf("bound %d changed: %+v, %v; want failures", x, rep, err)
		}
		if len(rep.Examples) > 0 {
			t.Logf("bound %d: %s", x, rep.Examples[0])
		}
	}
}
