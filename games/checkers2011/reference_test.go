package checkers2011_test

// An independent, deliberately simple reference for Checkers 2011, written
// from RULINGS.md section 3 alone (not from the engine's code), and
// differential tests that compare it with the engine.
//
// The reference keeps a board of stacks as strings of piece letters, bottom
// first ("bbW": two black soldiers under a white king), copies the whole
// board at every jump, and finds sandwiches along the edge by walking the
// ring of 28 border cells instead of turning at corners. Speed is not a
// goal: clarity is.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// refXY is a cell: file x (a=0) and rank y (1=0).
type refXY struct{ x, y int }

func (p refXY) add(d refXY) refXY { return refXY{p.x + d.x, p.y + d.y} }
func (p refXY) on() bool          { return p.x >= 0 && p.x < 8 && p.y >= 0 && p.y < 8 }
func (p refXY) name() string      { return fmt.Sprintf("%c%d", 'a'+p.x, p.y+1) }

func refParseCell(s string) (refXY, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return refXY{}, false
	}
	return refXY{int(s[0] - 'a'), int(s[1] - '1')}, true
}

// refPos is a position: the stacks (bottom first, commander last) and
// whether White is to move.
type refPos struct {
	white bool
	board [8][8]string // [x][y]
}

func (s *refPos) at(p refXY) string { return s.board[p.x][p.y] }
func (s *refPos) set(p refXY, v string) {
	s.board[p.x][p.y] = v
}

// isWhite tells a piece letter's colour; isKing its rank.
func isWhite(piece byte) bool { return piece == 'w' || piece == 'W' }
func isKing(piece byte) bool  { return piece == 'W' || piece == 'B' }

// commander returns the top letter of the stack on p, 0 when empty.
func (s *refPos) commander(p refXY) byte {
	v := s.at(p)
	if v == "" {
		return 0
	}
	return v[len(v)-1]
}

func (s *refPos) friendOf(p refXY, white bool) bool {
	c := s.commander(p)
	return c != 0 && isWhite(c) == white
}

func (s *refPos) enemyOf(p refXY, white bool) bool {
	c := s.commander(p)
	return c != 0 && isWhite(c) != white
}

// refParseFEN reads "W:a1=w,c3=bbW" (any order of stacks).
func refParseFEN(fen string) (*refPos, error) {
	side, list, ok := strings.Cut(fen, ":")
	if !ok || (side != "W" && side != "B") {
		return nil, fmt.Errorf("fen %q: bad side", fen)
	}
	s := &refPos{white: side == "W"}
	if list == "" {
		return s, nil
	}
	for _, item := range strings.Split(list, ",") {
		name, pieces, _ := strings.Cut(item, "=")
		p, ok := refParseCell(name)
		if !ok || pieces == "" || s.at(p) != "" || strings.Trim(pieces, "wbWB") != "" {
			return nil, fmt.Errorf("fen %q: bad stack %q", fen, item)
		}
		s.set(p, pieces)
	}
	return s, nil
}

// fen writes the position with the stacks in cell order: rank by rank,
// files a to h.
func (s *refPos) fen() string {
	var items []string
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			if v := s.board[x][y]; v != "" {
				items = append(items, refXY{x, y}.name()+"="+v)
			}
		}
	}
	side := "B"
	if s.white {
		side = "W"
	}
	return side + ":" + strings.Join(items, ",")
}

// Directions. Forward is up the board for White, down for Black.
func refSoldierJumps(white bool) []refXY {
	f := 1
	if !white {
		f = -1
	}
	return []refXY{{0, f}, {-1, f}, {1, f}}
}

var refKingJumps = []refXY{{0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

var refAllSteps = []refXY{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

func refSoldierSteps(white bool) []refXY {
	return append(refSoldierJumps(white), refXY{1, 0}, refXY{-1, 0})
}

// refRules are the options of docs/rules/checkers-2011.md ("Variants"):
// sideJump adds left and right to every commander's jumps (a soldier
// never jumping straight back), ownJump lets a stack jump a friendly one
// to the empty cell beyond, as a non-capturing move of its own.
type refRules struct{ sideJump, ownJump bool }

// refMoves returns the legal moves of s, sorted, by RULINGS section 3.
func refMoves(s *refPos) []string { return refMovesWith(s, refRules{}) }

// refJumps are a commander's jump directions under rules.
func refJumps(white, king bool, rules refRules) []refXY {
	dirs := refSoldierJumps(white)
	if king {
		dirs = slices.Clone(refKingJumps)
	}
	if rules.sideJump {
		dirs = append(dirs, refXY{1, 0}, refXY{-1, 0})
	}
	return dirs
}

// refMovesWith returns the legal moves of s, sorted, by RULINGS section 3
// changed by rules.
func refMovesWith(s *refPos, rules refRules) []string {
	var whiteStacks, blackStacks int
	for x := 0; x < 8; x++ {
		for y := 0; y < 8; y++ {
			if c := s.commander(refXY{x, y}); c != 0 && isWhite(c) {
				whiteStacks++
			} else if c != 0 {
				blackStacks++
			}
		}
	}
	if whiteStacks == 0 || blackStacks == 0 {
		return nil // the game is over
	}
	type seq struct {
		text  string
		jumps int
	}
	var seqs []seq
	var explore func(b *refPos, at refXY, king bool, path []refXY, came refXY)
	explore = func(b *refPos, at refXY, king bool, path []refXY, came refXY) {
		more := false
		for _, d := range refJumps(s.white, king, rules) {
			if !king && d == (refXY{-came.x, -came.y}) && came != (refXY{}) {
				continue // a soldier does not turn 180 degrees
			}
			over, land := at.add(d), at.add(d).add(d)
			if !land.on() || !b.enemyOf(over, s.white) || b.at(land) != "" {
				continue
			}
			more = true
			next := *b // arrays copy: a fresh board for this branch
			v := next.at(over)
			next.set(over, v[:len(v)-1])
			explore(&next, land, king, append(slices.Clone(path), land), d)
		}
		if !more && len(path) > 1 {
			var names []string
			for _, p := range path {
				names = append(names, p.name())
			}
			seqs = append(seqs, seq{strings.Join(names, "x"), len(path) - 1})
		}
	}
	for x := 0; x < 8; x++ {
		for y := 0; y < 8; y++ {
			p := refXY{x, y}
			if !s.friendOf(p, s.white) {
				continue
			}
			b := *s
			b.set(p, "") // the stack is lifted for its whole move
			explore(&b, p, isKing(s.commander(p)), []refXY{p}, refXY{})
		}
	}
	set := map[string]bool{}
	if len(seqs) > 0 {
		most := 0
		for _, q := range seqs {
			most = max(most, q.jumps)
		}
		for _, q := range seqs {
			if q.jumps == most {
				set[q.text] = true
			}
		}
	} else {
		for x := 0; x < 8; x++ {
			for y := 0; y < 8; y++ {
				p := refXY{x, y}
				if !s.friendOf(p, s.white) {
					continue
				}
				dirs := refSoldierSteps(s.white)
				if isKing(s.commander(p)) {
					dirs = refAllSteps
				}
				for _, d := range dirs {
					if q := p.add(d); q.on() && s.at(q) == "" {
						set[p.name()+"-"+q.name()] = true
					}
				}
				for _, d := range refJumps(s.white, isKing(s.commander(p)), rules) {
					if q := p.add(d).add(d); rules.ownJump && q.on() && s.friendOf(p.add(d), s.white) && s.at(q) == "" {
						set[p.name()+"-"+q.name()] = true
					}
				}
			}
		}
	}
	var out []string
	for m := range set {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// refRing is the border of the board, clockwise from a1: up the a file,
// along rank 8, down the h file, back along rank 1.
var refRing = func() []refXY {
	var r []refXY
	for y := 0; y < 8; y++ {
		r = append(r, refXY{0, y})
	}
	for x := 1; x < 8; x++ {
		r = append(r, refXY{x, 7})
	}
	for y := 6; y >= 0; y-- {
		r = append(r, refXY{7, y})
	}
	for x := 6; x >= 1; x-- {
		r = append(r, refXY{x, 0})
	}
	return r
}()

func refRingIndex(p refXY) int { return slices.Index(refRing, p) }

// refLine lists the cells a sandwich run from p in direction d visits: the
// ring in the direction of the first step when that step runs along the
// border, else the straight line to the edge.
func refLine(p refXY, d refXY) []refXY {
	q := p.add(d)
	i, j := refRingIndex(p), refRingIndex(q)
	if i >= 0 && j >= 0 {
		step := j - i
		if step > 1 {
			step = -1
		} else if step < -1 {
			step = 1
		}
		var out []refXY
		for k := 1; k < len(refRing); k++ {
			out = append(out, refRing[((i+step*k)%len(refRing)+len(refRing))%len(refRing)])
		}
		return append(out, p)
	}
	var out []refXY
	for ; q.on(); q = q.add(d) {
		out = append(out, q)
	}
	return out
}

// refApply plays a move on a copy of s.
func refApply(s *refPos, move string) (*refPos, error) {
	n := *s
	sep := "-"
	if strings.Contains(move, "x") {
		sep = "x"
	}
	var path []refXY
	for _, name := range strings.Split(move, sep) {
		p, ok := refParseCell(name)
		if !ok {
			return nil, fmt.Errorf("move %q: bad cell %q", move, name)
		}
		path = append(path, p)
	}
	moving := n.at(path[0])
	if moving == "" || isWhite(moving[len(moving)-1]) != n.white {
		return nil, fmt.Errorf("move %q: no stack of the mover on its start", move)
	}
	n.set(path[0], "")
	for i := 1; i < len(path) && sep == "x"; i++ {
		a, z := path[i-1], path[i]
		if abs(z.x-a.x) > 2 || abs(z.y-a.y) > 2 || (z.x-a.x)%2 != 0 || (z.y-a.y)%2 != 0 {
			return nil, fmt.Errorf("move %q: %s-%s is not a jump", move, a.name(), z.name())
		}
		over := refXY{(a.x + z.x) / 2, (a.y + z.y) / 2}
		v := n.at(over)
		if v == "" {
			return nil, fmt.Errorf("move %q: nothing to jump on %s", move, over.name())
		}
		moving = v[len(v)-1:] + moving // the prisoner goes to the bottom
		n.set(over, v[:len(v)-1])
	}
	end := path[len(path)-1]
	last := 7
	if !n.white {
		last = 0
	}
	if top := moving[len(moving)-1]; end.y == last && !isKing(top) {
		moving = moving[:len(moving)-1] + strings.ToUpper(string(top))
	}
	n.set(end, moving)
	// Sandwiches, all found before any stack is removed.
	var dead []refXY
	for _, d := range []refXY{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
		var run []refXY
		for _, q := range refLine(end, d) {
			if n.enemyOf(q, n.white) {
				run = append(run, q)
				continue
			}
			if n.friendOf(q, n.white) {
				dead = append(dead, run...)
			}
			break
		}
	}
	for _, q := range dead {
		n.set(q, "")
	}
	n.white = !n.white
	return &n, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func refPerft(s *refPos, depth int) uint64 { return refPerftWith(s, refRules{}, depth) }

// rulesOf reads a game's options as the reference's rules.
func rulesOf(g game.Game) refRules {
	return refRules{sideJump: g.Options().Get("sidejump") == "on", ownJump: g.Options().Get("ownjump") == "on"}
}

func refPerftWith(s *refPos, rules refRules, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range refMovesWith(s, rules) {
		next, err := refApply(s, m)
		if err != nil {
			panic(err)
		}
		n += refPerftWith(next, rules, depth-1)
	}
	return n
}

// ---------------------------------------------------------------------------
// Comparison

// refStats counts what the compared positions exercised, so that a passing
// test shows it covered imprisonment, liberation, kings and sandwiches.
type refStats map[string]int

func (st refStats) tally(s *refPos, moves []string) {
	st["positions"]++
	st["moves"] += len(moves)
	if len(moves) == 0 {
		st["positions without a move"]++
	}
	for _, m := range moves {
		after, err := refApply(s, m)
		if err != nil {
			continue
		}
		from, _ := refParseCell(m[:2])
		if isKing(s.commander(from)) {
			st["king moves"]++
		}
		if strings.Contains(m, "x") {
			jumps := strings.Count(m, "x")
			st["captures"]++
			if jumps >= 3 {
				st["captures of 3+ jumps"]++
			}
		}
		before, now := refCount(s), refCount(after)
		if now < before {
			st["moves that eliminate"]++
		}
		for x := 0; x < 8; x++ {
			for y := 0; y < 8; y++ {
				if v := after.board[x][y]; len(v) >= 4 {
					st["stacks of 4+ after a move"]++
				}
			}
		}
	}
}

func refCount(s *refPos) int {
	n := 0
	for x := 0; x < 8; x++ {
		for y := 0; y < 8; y++ {
			n += len(s.board[x][y])
		}
	}
	return n
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
		fmt.Fprintf(&b, "\n  %-30s %d", k, st[k])
	}
	t.Logf("coverage:%s", b.String())
}

// compareAt compares the engine's moves with the reference's and the
// position each move leads to. It reports false on the first difference.
func compareAt(t *testing.T, s game.State, st refStats) bool {
	t.Helper()
	fen := s.FEN()
	ref, err := refParseFEN(fen)
	if err != nil {
		t.Errorf("the reference cannot read the engine's FEN: %v", err)
		return false
	}
	want := refMovesWith(ref, rulesOf(s.Game()))
	if st != nil {
		st.tally(ref, want)
	}
	got := gametest.RuleMoves(s)
	if !slices.Equal(got, want) {
		t.Errorf("moves differ at %s\n  engine:    %v\n  reference: %v", fen, got, want)
		return false
	}
	for _, m := range s.Moves(nil) {
		text := m.Text(s.Game().Board())
		next, err := refApply(ref, text)
		if err != nil {
			t.Errorf("at %s the reference cannot play %s: %v", fen, text, err)
			return false
		}
		s.Play(m)
		after := s.FEN()
		s.Undo()
		if after != next.fen() {
			t.Errorf("at %s after %s:\n  engine:    %s\n  reference: %s", fen, text, after, next.fen())
			return false
		}
	}
	return true
}

func TestReferenceFromRandomGames(t *testing.T) {
	games, plies := 60, 300
	if testing.Short() {
		games = 8
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(2011, 3))
	st := refStats{}
	for i := 0; i < games; i++ {
		s := g.Start()
		for ply := 0; ply < plies; ply++ {
			if !compareAt(t, s, st) {
				return
			}
			moves := s.Moves(nil)
			if len(moves) == 0 {
				break
			}
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
	st.log(t)
}

// randomFEN builds a random position in the reference's terms: stacks of
// mixed heights and colours, kings with probability kingP, up to 16 pieces
// a colour, cells drawn with a bias to the border (where sandwiches turn
// corners), no soldier commanding on its own last rank.
func randomFEN(rng *rand.Rand, stacks int, kingP float64) string {
	s := &refPos{white: rng.IntN(2) == 0}
	var count [2]int
	for i := 0; i < stacks; i++ {
		var p refXY
		if rng.IntN(2) == 0 {
			p = refRing[rng.IntN(len(refRing))]
		} else {
			p = refXY{rng.IntN(8), rng.IntN(8)}
		}
		if s.at(p) != "" {
			continue
		}
		h := 1 + rng.IntN(3)
		if rng.IntN(5) == 0 {
			h += rng.IntN(6)
		}
		var v []byte
		for k := 0; k < h; k++ {
			white := rng.IntN(2) == 0
			side := 0
			if !white {
				side = 1
			}
			if count[side] == 16 {
				continue
			}
			count[side]++
			letter := byte('b')
			if white {
				letter = 'w'
			}
			if rng.Float64() < kingP {
				letter -= 'a' - 'A'
			}
			v = append(v, letter)
		}
		if len(v) == 0 {
			continue
		}
		if top := v[len(v)-1]; (top == 'w' && p.y == 7) || (top == 'b' && p.y == 0) {
			v[len(v)-1] -= 'a' - 'A'
		}
		s.set(p, string(v))
	}
	return s.fen()
}

func TestReferenceFromRandomPositions(t *testing.T) {
	per := 3000
	if testing.Short() {
		per = 500
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(7, 2011))
	st := refStats{}
	kinds := []struct {
		stacks int
		kingP  float64
	}{{4, 0.8}, {8, 0.5}, {14, 0.3}, {22, 0.3}, {30, 0.15}}
	failures := 0
	for _, k := range kinds {
		for i := 0; i < per && failures < 5; i++ {
			fen := randomFEN(rng, k.stacks, k.kingP)
			s, err := g.ParseFEN(fen)
			if err != nil {
				t.Errorf("the engine refuses %s: %v", fen, err)
				failures++
				continue
			}
			if s.FEN() != fen {
				t.Errorf("the engine reads %s as %s", fen, s.FEN())
				failures++
				continue
			}
			if !compareAt(t, s, st) {
				failures++
			}
		}
	}
	st.log(t)
}

// TestReferenceHandPicked pins the reference itself on positions worked
// out by hand from RULINGS section 3, so that an agreement between the
// engine and the reference means something.
func TestReferenceHandPicked(t *testing.T) {
	cases := []struct {
		name, fen string
		moves     []string
		move      string // played by the reference
		after     string
	}{
		{"soldier steps in five directions", "W:d4=w,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"}, "d4-e4", "B:e4=w,h8=B"},
		{"imprisonment and liberation", "W:c3=W,d4=wb,h8=B",
			[]string{"c3xe5"}, "c3xe5", "B:d4=w,e5=bW,h8=B"},
		{"the longest sequence only", "W:c3=w,g2=w,g3=b,d4=b,e6=b,b4=b,h8=B",
			[]string{"c3xe5xe7"}, "c3xe5xe7", "B:g2=w,g3=b,b4=b,e7=bbw,h8=B"},
		{"a king jumps the same stack twice", "W:d3=W,d4=wbB,h8=B",
			[]string{"d3xd5xd3"}, "d3xd5xd3", "B:d3=bBW,d4=w,h8=B"},
		{"a lone enemy in a corner", "W:c1=W,a1=B,a2=w,h8=B",
			nil, "c1-b1", "B:b1=W,a2=w,h8=B"},
		{"a run around a corner", "W:e2=W,c1=B,b1=B,a1=B,a2=B,a3=W,h8=B",
			nil, "e2-d1", "B:d1=W,a3=W,h8=B"},
	}
	for _, tc := range cases {
		s, err := refParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if tc.moves != nil {
			if got := refMoves(s); !slices.Equal(got, tc.moves) {
				t.Errorf("%s: reference moves %v, want %v", tc.name, got, tc.moves)
			}
		}
		after, err := refApply(s, tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want, _ := refParseFEN(tc.after)
		if after.fen() != want.fen() {
			t.Errorf("%s: after %s the reference has %s, want %s", tc.name, tc.move, after.fen(), want.fen())
		}
	}
}
