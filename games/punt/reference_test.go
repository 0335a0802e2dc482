package punt_test

// An independent, deliberately naive reference move generator for the
// Punt games, written from RULINGS.md sections 0 and 4 alone (not from the
// engine's code), and differential tests that compare it with the engine.
//
// The reference has its own board model (axial hex coordinates instead of
// the engine's doubled ones, and the seats' directions written out by hand
// from the rulings), its own FEN reader and writer and its own move
// application. Positions are maps from cell names to strings of colours.
// Speed is not a goal: clarity is.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// ---------------------------------------------------------------------------
// Boards

// refPt is a cell: (file, rank) from 0 on the square board; axial (q, r) on
// the hex board, r = row index - 4 (row a is r = -4), q growing to the
// right along a row, the row above a cell (q, r) holding (q, r+1) up-right
// and (q-1, r+1) up-left.
type refPt struct{ a, b int }

func (p refPt) add(d refPt) refPt { return refPt{p.a + d.a, p.b + d.b} }

// The hex directions in axial coordinates.
var (
	hxE  = refPt{1, 0}
	hxW  = refPt{-1, 0}
	hxNE = refPt{0, 1}
	hxNW = refPt{-1, 1}
	hxSE = refPt{1, -1}
	hxSW = refPt{0, -1}
	sqN  = refPt{0, 1}
	sqS  = refPt{0, -1}
	sqE  = refPt{1, 0}
	sqW  = refPt{-1, 0}
)

// refSeat is one player as RULINGS section 4 describes them.
type refSeat struct {
	letter  byte // w, b, r
	home    func(refPt) bool
	endRow  func(refPt) bool
	forward []refPt
	side    []refPt
}

type refGame struct {
	id      string
	cells   []refPt // in cell order
	names   map[refPt]string
	byName  map[string]refPt
	seats   []refSeat
	perSeat int
}

func (g *refGame) on(p refPt) bool { _, ok := g.names[p]; return ok }

func newRefGame(id string) *refGame {
	g := &refGame{id: id, names: map[refPt]string{}, byName: map[string]refPt{}}
	add := func(p refPt, name string) {
		g.cells = append(g.cells, p)
		g.names[p] = name
		g.byName[name] = p
	}
	if id == "punt-match" {
		// 7x7: files a..g, ranks 1..7; cell order by rank then file.
		for rank := 0; rank < 7; rank++ {
			for file := 0; file < 7; file++ {
				add(refPt{file, rank}, string(rune('a'+file))+strconv.Itoa(rank+1))
			}
		}
		g.perSeat = 14
		g.seats = []refSeat{
			{letter: 'w', home: func(p refPt) bool { return p.b <= 1 }, endRow: func(p refPt) bool { return p.b == 6 },
				forward: []refPt{sqN}, side: []refPt{sqE, sqW}},
			{letter: 'b', home: func(p refPt) bool { return p.b >= 5 }, endRow: func(p refPt) bool { return p.b == 0 },
				forward: []refPt{sqS}, side: []refPt{sqE, sqW}},
		}
		return g
	}
	// Hexhex of side 5: rows a..i; a cell is named by its row and its
	// number counted from the left of the row.
	for r := -4; r <= 4; r++ {
		qmin, qmax := max(-4, -4-r), min(4, 4-r)
		for q := qmin; q <= qmax; q++ {
			add(refPt{q, r}, string(rune('a'+r+4))+strconv.Itoa(q-qmin+1))
		}
	}
	g.perSeat = 11
	s := func(p refPt) int { return -p.a - p.b }
	white := refSeat{letter: 'w', home: func(p refPt) bool { return p.b <= -3 }, endRow: func(p refPt) bool { return p.b == 4 },
		forward: []refPt{hxNE, hxNW}, side: []refPt{hxE, hxW}}
	if id == "punt-heks-match" {
		g.seats = []refSeat{white,
			{letter: 'b', home: func(p refPt) bool { return p.b >= 3 }, endRow: func(p refPt) bool { return p.b == -4 },
				forward: []refPt{hxSE, hxSW}, side: []refPt{hxE, hxW}}}
		return g
	}
	// Three players. The upper-left edge runs from e1 to i1: q = -4; the
	// lower-right edge opposite it is q = 4. The upper-right edge runs from
	// e9 to i5: s = -q-r = -4; the lower-left edge opposite it is s = 4.
	g.seats = []refSeat{white,
		{letter: 'b', home: func(p refPt) bool { return p.a <= -3 }, endRow: func(p refPt) bool { return p.a == 4 },
			forward: []refPt{hxE, hxSE}, side: []refPt{hxNE, hxSW}},
		{letter: 'r', home: func(p refPt) bool { return s(p) <= -3 }, endRow: func(p refPt) bool { return s(p) == 4 },
			forward: []refPt{hxW, hxSW}, side: []refPt{hxNW, hxSE}},
	}
	return g
}

// ---------------------------------------------------------------------------
// Positions

type refPos struct {
	g      *refGame
	toMove int
	piles  map[refPt]string // colours bottom to top
}

func (g *refGame) seatOf(l byte) int {
	for i, s := range g.seats {
		if s.letter == l {
			return i
		}
	}
	return -1
}

func (g *refGame) start() *refPos {
	s := &refPos{g: g, piles: map[refPt]string{}}
	for _, seat := range g.seats {
		for _, p := range g.cells {
			if seat.home(p) {
				s.piles[p] = string(seat.letter)
			}
		}
	}
	return s
}

// parseFEN reads "W:a1=w,c4=bw" (player to move, then every pile as
// cell=colours bottom to top).
func (g *refGame) parseFEN(fen string) (*refPos, error) {
	s := &refPos{g: g, piles: map[refPt]string{}}
	side, piles, _ := strings.Cut(fen, ":")
	s.toMove = g.seatOf(strings.ToLower(side)[0])
	if s.toMove < 0 {
		return nil, fmt.Errorf("side %q", side)
	}
	if piles == "" {
		return s, nil
	}
	for _, item := range strings.Split(piles, ",") {
		name, cols, _ := strings.Cut(item, "=")
		p, ok := g.byName[name]
		if !ok || cols == "" {
			return nil, fmt.Errorf("item %q", item)
		}
		s.piles[p] = cols
	}
	return s, nil
}

// fen writes the position with the piles in cell order.
func (s *refPos) fen() string {
	var items []string
	for _, p := range s.g.cells {
		if cols, ok := s.piles[p]; ok {
			items = append(items, s.g.names[p]+"="+cols)
		}
	}
	return strings.ToUpper(string(s.g.seats[s.toMove].letter)) + ":" + strings.Join(items, ",")
}

// ---------------------------------------------------------------------------
// Rules (RULINGS section 4)

// moves lists the legal moves, sorted: a pile whose top is the mover's
// colour and that does not stand on the mover's end-row moves 1-3 (one
// pawn), 1-2 (two) or 1 (three or more) cells in a forward or sideways
// direction, crossing only empty cells, landing on an empty cell or on
// any pile.
func (s *refPos) moves() []string {
	seat := s.g.seats[s.toMove]
	var out []string
	for _, p := range s.g.cells {
		cols, ok := s.piles[p]
		if !ok || cols[len(cols)-1] != seat.letter || seat.endRow(p) {
			continue
		}
		reach := 1
		switch len(cols) {
		case 1:
			reach = 3
		case 2:
			reach = 2
		}
		for _, d := range append(slices.Clone(seat.forward), seat.side...) {
			q := p
			for step := 1; step <= reach; step++ {
				q = q.add(d)
				if !s.g.on(q) {
					break
				}
				out = append(out, s.g.names[p]+"-"+s.g.names[q])
				if _, occupied := s.piles[q]; occupied {
					break
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// apply plays a move "from-to" on a copy: the whole pile goes on top of
// whatever is on the landing cell, and the next player in turn moves.
func (s *refPos) apply(move string) *refPos {
	from, to, _ := strings.Cut(move, "-")
	c := &refPos{g: s.g, toMove: (s.toMove + 1) % len(s.g.seats), piles: map[refPt]string{}}
	for k, v := range s.piles {
		c.piles[k] = v
	}
	a, b := s.g.byName[from], s.g.byName[to]
	c.piles[b] += c.piles[a]
	delete(c.piles, a)
	return c
}

// scores: each player counts the pawns of the piles they control on their
// own end-row.
func (s *refPos) scores() []int {
	sc := make([]int, len(s.g.seats))
	for p, cols := range s.piles {
		who := s.g.seatOf(cols[len(cols)-1])
		if s.g.seats[who].endRow(p) {
			sc[who] += len(cols)
		}
	}
	return sc
}

// ---------------------------------------------------------------------------
// Differential tests

var refIDs = []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"}

// compareAt checks the engine's moves, FEN and (when the game is over by
// the rules) scores against the reference's.
func compareAt(t *testing.T, s game.State, r *refPos) bool {
	t.Helper()
	if s.FEN() != r.fen() {
		t.Errorf("positions differ: engine %s, reference %s", s.FEN(), r.fen())
		return false
	}
	got, want := gametest.RuleMoves(s), r.moves()
	if !slices.Equal(got, want) {
		t.Errorf("%s: moves differ\nengine    %v\nreference %v", s.FEN(), got, want)
		return false
	}
	if len(want) == 0 {
		res := s.Result()
		sc := r.scores()
		if res.Reason != game.Scored {
			t.Errorf("%s: no moves but result %v", s.FEN(), res.Reason)
			return false
		}
		for p := range sc {
			if res.Scores[p] != sc[p] {
				t.Errorf("%s: scores %v, reference %v", s.FEN(), res.Scores, sc)
				return false
			}
		}
	}
	return true
}

// TestReferenceRandomGames plays random games with the engine and compares
// every position with the reference.
func TestReferenceRandomGames(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, id := range refIDs {
		t.Run(id, func(t *testing.T) {
			g, rg := gametest.NewGame(t, id), newRefGame(id)
			rng := rand.New(rand.NewPCG(4, uint64(len(id))))
			positions, ended := 0, 0
			for i := 0; i < games; i++ {
				s, r := g.Start(), rg.start()
				for ply := 0; ply < 400; ply++ {
					positions++
					if !compareAt(t, s, r) {
						return
					}
					moves := s.Moves(nil)
					if len(moves) == 0 {
						ended++
						break
					}
					m := moves[rng.IntN(len(moves))]
					s.Play(m)
					r = r.apply(m.Text(g.Board()))
				}
			}
			t.Logf("%d positions, %d games ended by the rules", positions, ended)
			if ended == 0 {
				t.Error("no random game reached its end: the end rule went untested")
			}
		})
	}
}

// randomRefPos scatters each player's pawns (some or all) over the board
// in piles of random heights and colours.
func randomRefPos(rg *refGame, rng *rand.Rand) *refPos {
	s := &refPos{g: rg, toMove: rng.IntN(len(rg.seats)), piles: map[refPt]string{}}
	var pawns []byte
	for _, seat := range rg.seats {
		for i := rng.IntN(rg.perSeat + 1); i > 0; i-- {
			pawns = append(pawns, seat.letter)
		}
	}
	rng.Shuffle(len(pawns), func(i, j int) { pawns[i], pawns[j] = pawns[j], pawns[i] })
	cells := slices.Clone(rg.cells)
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	for len(pawns) > 0 {
		h := 1 + rng.IntN(min(len(pawns), 1+rng.IntN(5)))
		c := cells[0]
		cells = cells[1:]
		s.piles[c] = string(pawns[:h])
		pawns = pawns[h:]
	}
	return s
}

// TestReferenceRandomPositions compares moves, and the position after
// each move, on random positions with piles everywhere, end-rows included.
func TestReferenceRandomPositions(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	for _, id := range refIDs {
		t.Run(id, func(t *testing.T) {
			g, rg := gametest.NewGame(t, id), newRefGame(id)
			rng := rand.New(rand.NewPCG(5, uint64(len(id))))
			for i := 0; i < n; i++ {
				r := randomRefPos(rg, rng)
				s := gametest.MustParse(t, g, r.fen())
				if !compareAt(t, s, r) {
					return
				}
				for _, m := range s.Moves(nil) {
					text := m.Text(g.Board())
					s.Play(m)
					if got, want := s.FEN(), r.apply(text).fen(); got != want {
						t.Fatalf("%s after %s: engine %s, reference %s", r.fen(), text, got, want)
					}
					s.Undo()
				}
			}
		})
	}
}

// refPerft counts move sequences with the reference.
func refPerft(r *refPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range r.moves() {
		n += refPerft(r.apply(m), depth-1)
	}
	return n
}

// TestReferencePerft checks the first plies of the perft table against the
// reference.
func TestReferencePerft(t *testing.T) {
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, tc := range perftTable {
		rg := newRefGame(tc.id)
		r := rg.start()
		if tc.fen != "" {
			var err error
			if r, err = rg.parseFEN(tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		for d := 1; d <= depth && d <= len(tc.counts); d++ {
			if got := refPerft(r, d); got != tc.counts[d-1] {
				t.Errorf("%s %s: reference perft(%d) = %d, table %d", tc.id, tc.name, d, got, tc.counts[d-1])
			}
		}
	}
}
