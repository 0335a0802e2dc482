package pommel_test

// An independent, deliberately simple reference move generator for Pommel,
// written from RULINGS.md section 1 alone (not from the engine's code), and
// differential tests that compare it with the engine.
//
// The reference uses its own board model (doubled coordinates, built from the
// coordinate rule), its own FEN reader and writer and its own move
// application. Speed is not a goal: clarity is.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// ---------------------------------------------------------------------------
// Board model

// refPt is a cell in doubled coordinates: column index x (a=0) and y.
type refPt struct{ x, y int }

func (p refPt) add(d refPt) refPt { return refPt{p.x + d.x, p.y + d.y} }

// refAllDirs are the six directions of RULINGS section 1.
var refAllDirs = []refPt{{0, 2}, {0, -2}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// refForward returns the three forward directions of a side.
func refForward(white bool) []refPt {
	if white {
		return []refPt{{0, 2}, {1, 1}, {-1, 1}}
	}
	return []refPt{{0, -2}, {1, -1}, {-1, -1}}
}

// refBoard is the geometry: which cells exist and what they are called.
type refBoard struct {
	cols    int
	colLen  []int
	maxSide int // most pieces one side may have
	names   map[refPt]string
	cells   map[string]refPt
	all     []refPt // every cell
}

// newRefBoard builds pommel (7 columns, 6/7 cells) or pommel-76 (9 columns,
// 8/9 cells). Columns b, d, f, h (odd x) are the long ones: y = 2(n-1);
// the others are short: y = 2(n-1)+1.
func newRefBoard(board76 bool) *refBoard {
	cols, short, long, maxSide := 7, 6, 7, 14
	if board76 {
		cols, short, long, maxSide = 9, 8, 9, 22
	}
	b := &refBoard{cols: cols, maxSide: maxSide, names: map[refPt]string{}, cells: map[string]refPt{}}
	for x := 0; x < cols; x++ {
		n, off := short, 1
		if x%2 == 1 {
			n, off = long, 0
		}
		b.colLen = append(b.colLen, n)
		for i := 1; i <= n; i++ {
			p := refPt{x, 2*(i-1) + off}
			name := string(rune('a'+x)) + strconv.Itoa(i)
			b.names[p] = name
			b.cells[name] = p
			b.all = append(b.all, p)
		}
	}
	return b
}

func (b *refBoard) on(p refPt) bool { _, ok := b.names[p]; return ok }

// number is the cell number n of a cell (1 = bottom of its column).
func (b *refBoard) number(p refPt) int {
	n, _ := strconv.Atoi(b.names[p][1:])
	return n
}

// promotionCell tells whether p is the last cell of its column for a side:
// the top cell for White, the bottom cell for Black.
func (b *refBoard) promotionCell(p refPt, white bool) bool {
	if white {
		return b.number(p) == b.colLen[p.x]
	}
	return b.number(p) == 1
}

// ---------------------------------------------------------------------------
// Positions

// refPiece: 0 is absent (never stored), +1 white soldier, +2 white captain,
// -1 black soldier, -2 black captain.
type refPiece int

func (p refPiece) white() bool   { return p > 0 }
func (p refPiece) captain() bool { return p == 2 || p == -2 }

type refPos struct {
	b          *refBoard
	whiteToMv  bool
	pieces     map[refPt]refPiece
	whiteCount int
	blackCount int
}

func (s *refPos) clone() *refPos {
	c := *s
	c.pieces = make(map[refPt]refPiece, len(s.pieces))
	for k, v := range s.pieces {
		c.pieces[k] = v
	}
	return &c
}

func (s *refPos) empty(p refPt) bool { _, ok := s.pieces[p]; return s.b.on(p) && !ok }

// refParseFEN reads `W:Wa1,Kc6:Bg5` (side to move, then White's pieces, then
// Black's, in any order; K marks a captain). It enforces the constraints the
// brief lists: no soldier on its own promotion cell, at most 14/22 pieces a
// side, no two pieces on one cell.
func refParseFEN(b *refBoard, fen string) (*refPos, error) {
	parts := strings.Split(fen, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("fen %q: want 3 fields", fen)
	}
	s := &refPos{b: b, pieces: map[refPt]refPiece{}}
	switch parts[0] {
	case "W":
		s.whiteToMv = true
	case "B":
	default:
		return nil, fmt.Errorf("fen %q: bad side to move", fen)
	}
	for i, want := range []string{"W", "B"} {
		f := parts[i+1]
		if !strings.HasPrefix(f, want) {
			return nil, fmt.Errorf("fen %q: field %q should start with %s", fen, f, want)
		}
		f = f[1:]
		if f == "" {
			continue
		}
		white := want == "W"
		for _, tok := range strings.Split(f, ",") {
			piece := refPiece(1)
			if strings.HasPrefix(tok, "K") {
				piece, tok = 2, tok[1:]
			}
			if !white {
				piece = -piece
			}
			p, ok := b.cells[tok]
			if !ok {
				return nil, fmt.Errorf("fen %q: bad cell %q", fen, tok)
			}
			if _, dup := s.pieces[p]; dup {
				return nil, fmt.Errorf("fen %q: two pieces on %s", fen, tok)
			}
			if !piece.captain() && b.promotionCell(p, white) {
				return nil, fmt.Errorf("fen %q: soldier on its promotion cell %s", fen, tok)
			}
			s.pieces[p] = piece
			if white {
				s.whiteCount++
			} else {
				s.blackCount++
			}
		}
	}
	if s.whiteCount > b.maxSide || s.blackCount > b.maxSide {
		return nil, fmt.Errorf("fen %q: too many pieces", fen)
	}
	return s, nil
}

// fen writes the position with each side's pieces sorted by their text, so
// that two FENs of one position compare equal after refNormalizeFEN.
func (s *refPos) fen() string {
	var w, bl []string
	for p, pc := range s.pieces {
		t := s.b.names[p]
		if pc.captain() {
			t = "K" + t
		}
		if pc.white() {
			w = append(w, t)
		} else {
			bl = append(bl, t)
		}
	}
	slices.Sort(w)
	slices.Sort(bl)
	side := "B"
	if s.whiteToMv {
		side = "W"
	}
	return side + ":W" + strings.Join(w, ",") + ":B" + strings.Join(bl, ",")
}

// refNormalizeFEN re-writes a FEN in the reference's canonical order.
func refNormalizeFEN(b *refBoard, fen string) (string, error) {
	s, err := refParseFEN(b, fen)
	if err != nil {
		return "", err
	}
	return s.fen(), nil
}

// ---------------------------------------------------------------------------
// Move generation (RULINGS section 1)

type refGen struct {
	s      *refPos
	hopAny bool
	white  bool
	out    map[string]bool
	// refused counts captain quiet stops refused by the line rule.
	refused int
}

func (g *refGen) enemy(p refPt) bool {
	pc, ok := g.s.pieces[p]
	return ok && pc.white() != g.white
}

func (g *refGen) friend(p refPt) bool {
	pc, ok := g.s.pieces[p]
	return ok && pc.white() == g.white
}

// refMovesOf generates the legal moves of a position as strings, sorted.
func refMovesOf(s *refPos, hopAny bool) []string {
	moves, _ := refMovesCounted(s, hopAny)
	return moves
}

// refMovesCounted is refMovesOf that also tells how many captain quiet
// stops the line rule refused.
func refMovesCounted(s *refPos, hopAny bool) ([]string, int) {
	g := &refGen{s: s.clone(), hopAny: hopAny, white: s.whiteToMv, out: map[string]bool{}}
	var mine []refPt
	for p, pc := range g.s.pieces {
		if pc.white() == g.white {
			mine = append(mine, p)
		}
	}
	// Captures first: they are compulsory, any one may be chosen.
	for _, p := range mine {
		pc := g.s.pieces[p]
		delete(g.s.pieces, p) // the start cell is empty during the move
		g.captures(p, pc.captain(), []refPt{p}, true)
		g.s.pieces[p] = pc
	}
	if len(g.out) == 0 {
		for _, p := range mine {
			if g.s.pieces[p].captain() {
				g.captainQuiet(p)
			} else {
				g.soldierQuiet(p)
			}
		}
	}
	moves := make([]string, 0, len(g.out))
	for m := range g.out {
		moves = append(moves, m)
	}
	slices.Sort(moves)
	return moves, g.refused
}

func (g *refGen) pathText(path []refPt, sep string) string {
	var names []string
	for _, p := range path {
		names = append(names, g.s.b.names[p])
	}
	return strings.Join(names, sep)
}

// captures explores the captures of the moving piece standing (in thought)
// on pos; the board holds neither it nor any piece it has taken. first is
// true before its first capture. A jump (one enemy) goes on with further
// jumps while there are some; a leap (a line of 2+ enemies) is only possible
// as the first capture and ends the move. A captain may cross any number of
// empty cells before the enemy piece(s); it lands on the cell just beyond.
func (g *refGen) captures(pos refPt, captain bool, path []refPt, first bool) {
	jumped := false
	for _, d := range refAllDirs {
		q := pos.add(d)
		if captain {
			for g.s.empty(q) {
				q = q.add(d)
			}
		}
		if !g.enemy(q) {
			continue
		}
		var line []refPt
		r := q
		for g.enemy(r) {
			line = append(line, r)
			r = r.add(d)
		}
		if !g.s.empty(r) {
			continue
		}
		next := append(slices.Clone(path), r)
		if len(line) == 1 {
			jumped = true
			taken := g.s.pieces[q]
			delete(g.s.pieces, q) // removed at once
			g.captures(r, captain, next, false)
			g.s.pieces[q] = taken
		} else if first {
			g.out[g.pathText(next, "x")] = true
		}
	}
	if !first && !jumped {
		g.out[g.pathText(path, "x")] = true
	}
}

// soldierQuiet: in each forward direction, pass over consecutive friendly
// pieces (any pieces with hop=any) to the first empty cell.
func (g *refGen) soldierQuiet(pos refPt) {
	for _, d := range refForward(g.white) {
		r := pos.add(d)
		for g.s.b.on(r) && !g.s.empty(r) && (g.hopAny || g.friend(r)) {
			r = r.add(d)
		}
		if g.s.empty(r) {
			g.out[g.pathText([]refPt{pos, r}, "-")] = true
		}
	}
}

// captainQuiet: any number of empty cells in a direction, stopping only
// where, after the move (start cell empty), one of the six lines from the
// landing cell reaches an enemy piece across empty cells only.
func (g *refGen) captainQuiet(pos refPt) {
	pc := g.s.pieces[pos]
	delete(g.s.pieces, pos)
	defer func() { g.s.pieces[pos] = pc }()
	for _, d := range refAllDirs {
		for r := pos.add(d); g.s.empty(r); r = r.add(d) {
			if g.seesEnemy(r) {
				g.out[g.pathText([]refPt{pos, r}, "-")] = true
			} else {
				g.refused++
			}
		}
	}
}

func (g *refGen) seesEnemy(from refPt) bool {
	for _, d := range refAllDirs {
		t := from.add(d)
		for g.s.empty(t) {
			t = t.add(d)
		}
		if g.enemy(t) {
			return true
		}
	}
	return false
}

// refApply plays a move given as a string on a copy of s: it moves the
// piece along its path, removes every enemy piece between consecutive cells
// of a capture's path, and promotes a soldier that ends on its last cell.
func refApply(s *refPos, move string) (*refPos, error) {
	n := s.clone()
	capture := strings.Contains(move, "x")
	sep := "-"
	if capture {
		sep = "x"
	}
	var path []refPt
	for _, name := range strings.Split(move, sep) {
		p, ok := n.b.cells[name]
		if !ok {
			return nil, fmt.Errorf("move %q: bad cell %q", move, name)
		}
		path = append(path, p)
	}
	if len(path) < 2 {
		return nil, fmt.Errorf("move %q: too short", move)
	}
	pc, ok := n.pieces[path[0]]
	if !ok || pc.white() != n.whiteToMv {
		return nil, fmt.Errorf("move %q: no piece of the side to move on its start", move)
	}
	delete(n.pieces, path[0])
	for i := 1; i < len(path); i++ {
		a, z := path[i-1], path[i]
		dx, dy := z.x-a.x, z.y-a.y
		var d refPt
		switch {
		case dx == 0 && dy != 0 && dy%2 == 0:
			d = refPt{0, refSign(dy) * 2}
		case dx != 0 && (dy == dx || dy == -dx):
			d = refPt{refSign(dx), refSign(dy)}
		default:
			return nil, fmt.Errorf("move %q: %s-%s is not a line", move, n.b.names[a], n.b.names[z])
		}
		for p := a.add(d); p != z; p = p.add(d) {
			if q, ok := n.pieces[p]; ok {
				if capture && q.white() != pc.white() {
					delete(n.pieces, p)
					if q.white() {
						n.whiteCount--
					} else {
						n.blackCount--
					}
				} else if capture {
					return nil, fmt.Errorf("move %q: crosses a friendly piece on %s", move, n.b.names[p])
				}
			}
		}
		if _, ok := n.pieces[z]; ok {
			return nil, fmt.Errorf("move %q: lands on an occupied cell %s", move, n.b.names[z])
		}
	}
	end := path[len(path)-1]
	if !pc.captain() && n.b.promotionCell(end, pc.white()) {
		pc *= 2
	}
	n.pieces[end] = pc
	n.whiteToMv = !n.whiteToMv
	return n, nil
}

func refSign(v int) int {
	if v < 0 {
		return -1
	}
	return 1
}

// referenceMoves returns the sorted legal move strings of a Pommel position
// by RULINGS section 1. It panics on a FEN it cannot read.
func referenceMoves(fen string, hopAny bool, board76 bool) []string {
	s, err := refParseFEN(newRefBoard(board76), fen)
	if err != nil {
		panic(err)
	}
	return refMovesOf(s, hopAny)
}

// ---------------------------------------------------------------------------
// Comparison helpers

type refConfig struct {
	id      string
	board76 bool
	hopAny  bool
}

func (c refConfig) String() string {
	hop := "friendly"
	if c.hopAny {
		hop = "any"
	}
	return c.id + "/hop=" + hop
}

var refConfigs = []refConfig{
	{"pommel", false, false},
	{"pommel", false, true},
	{"pommel-76", true, false},
	{"pommel-76", true, true},
}

func (c refConfig) newGame(t *testing.T) game.Game {
	t.Helper()
	hop := "friendly"
	if c.hopAny {
		hop = "any"
	}
	return gametest.NewGame(t, c.id, "hop="+hop)
}

func refEngineMoveTexts(g game.Game, s game.State) ([]game.Move, []string) {
	moves := s.Moves(nil)
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Text(g.Board())
	}
	slices.Sort(texts)
	return moves, texts
}

// refDiffMoves returns the moves of want missing from got, and the moves of got
// not in want (as multisets, so a duplicate in got is extra).
func refDiffMoves(want, got []string) (missing, extra []string) {
	count := map[string]int{}
	for _, m := range want {
		count[m]++
	}
	for _, m := range got {
		count[m]--
	}
	for _, m := range want {
		if count[m] > 0 {
			missing = append(missing, m)
			count[m]--
		}
	}
	for _, m := range got {
		if count[m] < 0 {
			extra = append(extra, m)
			count[m]++
		}
	}
	return missing, extra
}

// refStats counts what the compared positions exercised, so that a passing
// test shows it covered chains, leaps, captains and the quiet-move rule.
type refStats map[string]int

// tally classifies the legal moves of a position.
func (st refStats) tally(s *refPos, moves []string, refused int) {
	st["positions"]++
	st["moves"] += len(moves)
	if refused > 0 {
		st["positions where the captain line rule refused a stop"]++
	}
	if len(moves) == 0 {
		st["positions without a move"]++
	}
	for _, m := range moves {
		cells := strings.FieldsFunc(m, func(r rune) bool { return r == 'x' || r == '-' })
		pc := s.pieces[s.b.cells[cells[0]]]
		kind := "soldier"
		if pc.captain() {
			kind = "captain"
		}
		if !strings.Contains(m, "x") {
			st[kind+" quiet moves"]++
			if !pc.captain() && s.b.promotionCell(s.b.cells[cells[1]], pc.white()) {
				st["promoting quiet moves"]++
			}
			continue
		}
		after, err := refApply(s, m)
		if err != nil {
			continue
		}
		taken := s.whiteCount + s.blackCount - after.whiteCount - after.blackCount
		switch {
		case len(cells) > 2:
			st[kind+" chains of 2+ jumps"]++
		case taken > 1:
			st[kind+" leaps"]++
		default:
			st[kind+" single jumps"]++
		}
		if !pc.captain() && after.pieces[s.b.cells[cells[len(cells)-1]]].captain() {
			st["promoting captures"]++
		}
	}
}

func (st refStats) log(t *testing.T) {
	t.Helper()
	var keys []string
	for k := range st {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-55s %d", k, st[k])
	}
	t.Logf("coverage:%s", b.String())
}

// refCompareAt compares the engine's moves with the reference's at s and
// reports a mismatch; it returns the engine's moves and whether they agreed.
func refCompareAt(t *testing.T, c refConfig, g game.Game, rb *refBoard, s game.State, st refStats) ([]game.Move, []string, bool) {
	t.Helper()
	fen := s.FEN()
	moves, got := refEngineMoveTexts(g, s)
	rp, err := refParseFEN(rb, fen)
	if err != nil {
		t.Errorf("%s: reference cannot read engine FEN: %v", c, err)
		return moves, got, false
	}
	want, refused := refMovesCounted(rp, c.hopAny)
	st.tally(rp, want, refused)
	if !slices.Equal(want, got) {
		missing, extra := refDiffMoves(want, got)
		t.Errorf("%s: moves differ at %s\n  missing from engine: %v\n  extra in engine:     %v", c, fen, missing, extra)
		return moves, got, false
	}
	return moves, got, true
}

// ---------------------------------------------------------------------------
// Tests

func TestReferenceMovesFromRandomGames(t *testing.T) {
	games, maxPlies := 100, 250
	if testing.Short() {
		games, maxPlies = 25, 200
	}
	st := refStats{}
	for ci, c := range refConfigs {
		t.Run(c.String(), func(t *testing.T) {
			g := c.newGame(t)
			rb := newRefBoard(c.board76)
			rng := rand.New(rand.NewPCG(uint64(2024+ci), 7))
			failures := 0
			for gi := 0; gi < games && failures < 5; gi++ {
				s := g.Start()
				ref, err := refParseFEN(rb, s.FEN())
				if err != nil {
					t.Fatalf("start FEN: %v", err)
				}
				for ply := 0; ply < maxPlies; ply++ {
					moves, texts, ok := refCompareAt(t, c, g, rb, s, st)
					if !ok {
						failures++
						break
					}
					if len(moves) == 0 {
						break
					}
					m := moves[rng.IntN(len(moves))]
					text := m.Text(g.Board())
					before := s.FEN()
					next, err := refApply(ref, text)
					if err != nil {
						t.Errorf("%s: at %s: reference cannot apply %s: %v (legal: %v)", c, before, text, err, texts)
						failures++
						break
					}
					s.Play(m)
					eng, err := refNormalizeFEN(rb, s.FEN())
					if err != nil {
						t.Errorf("%s: after %s from %s: reference cannot read engine FEN %q: %v", c, text, before, s.FEN(), err)
						failures++
						break
					}
					if eng != next.fen() {
						t.Errorf("%s: after %s from %s:\n  engine:    %s\n  reference: %s", c, text, before, eng, next.fen())
						failures++
						break
					}
					// Every few plies, check that Undo restores the position.
					if ply%7 == 3 {
						if !s.Undo() {
							t.Fatalf("%s: Undo failed after %s", c, text)
						}
						if s.FEN() != before {
							t.Errorf("%s: Undo of %s gives %s, want %s", c, text, s.FEN(), before)
							failures++
							break
						}
						s.Play(m)
					}
					ref = next
				}
			}
		})
	}
	st.log(t)
}

// randomRefFEN builds a random legal-looking sparse position: both sides
// have 1..maxPieces pieces, captains with probability captainP, no soldier
// on its own promotion cell.
func randomRefFEN(rng *rand.Rand, rb *refBoard, maxPieces int, captainP float64) string {
	s := &refPos{b: rb, pieces: map[refPt]refPiece{}, whiteToMv: rng.IntN(2) == 0}
	cells := slices.Clone(rb.all)
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	nw, nb := 1+rng.IntN(maxPieces), 1+rng.IntN(maxPieces)
	i := 0
	for side, n := range []int{nw, nb} {
		white := side == 0
		for k := 0; k < n && i < len(cells); i++ {
			p := cells[i]
			pc := refPiece(1)
			if rng.Float64() < captainP || rb.promotionCell(p, white) {
				pc = 2
			}
			if !white {
				pc = -pc
			}
			s.pieces[p] = pc
			k++
		}
	}
	return s.fen()
}

func TestReferenceMovesFromRandomPositions(t *testing.T) {
	perKind := 5000
	if testing.Short() {
		perKind = 500
	}
	// Kinds of position: (most pieces a side, probability of a captain).
	kinds := []struct {
		maxPieces int
		captainP  float64
	}{
		{3, 1.0},  // captains only, very sparse: long runs, the quiet restriction
		{6, 0.8},  // captain-heavy
		{10, 0.5}, // mixed, denser: lines, leaps, chains
		{14, 0.2}, // mostly soldiers, dense
	}
	st := refStats{}
	for ci, c := range refConfigs {
		t.Run(c.String(), func(t *testing.T) {
			g := c.newGame(t)
			rb := newRefBoard(c.board76)
			rng := rand.New(rand.NewPCG(uint64(99+ci), 11))
			failures := 0
			for _, k := range kinds {
				maxPieces := k.maxPieces
				if c.board76 {
					maxPieces = maxPieces * 3 / 2
				}
				for i := 0; i < perKind && failures < 10; i++ {
					fen := randomRefFEN(rng, rb, maxPieces, k.captainP)
					s, err := g.ParseFEN(fen)
					if err != nil {
						t.Errorf("%s: engine rejects %s: %v", c, fen, err)
						failures++
						continue
					}
					if eng, err := refNormalizeFEN(rb, s.FEN()); err != nil || eng != fen {
						t.Errorf("%s: engine reads %s as %s (%v)", c, fen, s.FEN(), err)
						failures++
						continue
					}
					if _, _, ok := refCompareAt(t, c, g, rb, s, st); !ok {
						failures++
					}
				}
			}
		})
	}
	st.log(t)
}

// TestReferenceMovesHandPicked pins the reference itself on small positions
// worked out by hand from RULINGS section 1, so that an agreement between
// the engine and the reference means something.
func TestReferenceMovesHandPicked(t *testing.T) {
	cases := []struct {
		name    string
		fen     string
		hopAny  bool
		board76 bool
		want    []string
	}{
		{
			// a1 is (0,1); up-right passes b2 (1,2), c2 (2,3) to d3 (3,4).
			name: "start position hops",
			fen:  "W:Wa1,a2,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6",
			want: []string{"a1-a3", "a1-d3", "a2-a3", "a2-b3", "b1-b3", "b1-f3", "b2-b3", "b2-d3",
				"c1-c3", "c1-f3", "c2-b3", "c2-c3", "c2-d3", "d1-d3", "d2-b3", "d2-d3", "d2-f3",
				"e1-b3", "e1-e3", "e2-d3", "e2-e3", "e2-f3", "f1-b3", "f1-f3", "f2-d3", "f2-f3",
				"g1-d3", "g1-g3", "g2-f3", "g2-g3"},
		},
		{
			// d3 soldier: a line of enemies d4..d7 up to the edge can be
			// neither captured nor passed, with either hop option.
			name: "enemy line to the edge blocks",
			fen:  "W:Wd3:Bd4,d5,d6,d7",
			want: []string{"d3-c3", "d3-e3"},
		},
		{
			// d2 up: enemy d3 then friend d4: no capture; only hop=any passes.
			name:   "enemy in the way, hop=any",
			fen:    "W:Wd2,d4:Bd3",
			hopAny: true,
			want:   []string{"d2-c2", "d2-d5", "d2-e2", "d4-c4", "d4-d5", "d4-e4"},
		},
		{
			name: "enemy in the way, hop=friendly",
			fen:  "W:Wd2,d4:Bd3",
			want: []string{"d2-c2", "d2-e2", "d4-c4", "d4-d5", "d4-e4"},
		},
		{
			// A jump (c2 to b3) and a leap (d3,d4 to d5) are both allowed.
			name: "free choice of capture",
			fen:  "W:Wd2:Bc2,d3,d4",
			want: []string{"d2xb3", "d2xd5"},
		},
		{
			// d2 jumps d3 to d4, then d5 to d6; the chain must go on.
			name: "soldier chain",
			fen:  "W:Wd2:Bd3,d5",
			want: []string{"d2xd4xd6"},
		},
		{
			// d2 leaps d3,d4 to d5: the move ends though d6 could be jumped.
			name: "soldier leap ends the move",
			fen:  "W:Wd2:Bd3,d4,d6",
			want: []string{"d2xd5"},
		},
		{
			// After jumping d3, the only further capture is a leap of
			// d5,d6: the chain ends on d4.
			name: "no leap inside a chain",
			fen:  "W:Wd2:Bd3,d5,d6",
			want: []string{"d2xd4"},
		},
		{
			// Captain on d1 runs up the column over empty cells, jumps d4.
			name: "captain run and jump",
			fen:  "W:WKd1:Bd4",
			want: []string{"d1xd5"},
		},
		{
			// d6,d7 reach the top edge: no capture. The captain may stop
			// only where a line reaches an enemy: d2..d5 (column d).
			name: "captain quiet restriction",
			fen:  "W:WKd1:Bd6,d7",
			want: []string{"d1-d2", "d1-d3", "d1-d4", "d1-d5"},
		},
		{
			// d4..d7 see d1 down column d through the vacated start d3;
			// b2 and f2 see it along diagonals through c1 and e1.
			name: "captain sees through its vacated start cell",
			fen:  "W:WKd3:BKd1",
			want: []string{"d3-b2", "d3-d2", "d3-d4", "d3-d5", "d3-d6", "d3-d7", "d3-f2"},
		},
	}
	for _, tc := range cases {
		got := referenceMoves(tc.fen, tc.hopAny, tc.board76)
		if !slices.Equal(got, tc.want) {
			missing, extra := refDiffMoves(tc.want, got)
			t.Errorf("%s (%s): reference moves %v\n  missing: %v\n  extra: %v", tc.name, tc.fen, got, missing, extra)
		}
	}
}
