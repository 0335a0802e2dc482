package pommel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The move generator decides by cell-set masks whether a side has a
// capture, which pieces have one in which direction, and whether it has a
// step or a slide (Result's hasMove). These tests check every one of those
// answers against a walk along the board's rays, cell by cell, at every
// position of random games and of random sparse positions full of
// captains, on both boards with both hop options.

// slowOwner is the owner of the piece on c by the position's sets, and
// whether the cell is the mover's vacated start.
func slowOwner(p *position, c, vacated board.Cell) game.Player {
	if c == vacated {
		return game.NoPlayer
	}
	owner, _ := p.at(c)
	return owner
}

// slowCapture reports whether the piece on c has a first jump or leap in
// direction d.
func slowCapture(t *lookup, p *position, c board.Cell, d int) bool {
	me := p.toMove
	ray := t.b.Ray(c, d)
	i := 0
	if p.captains.has(c) {
		for i < len(ray) && slowOwner(p, ray[i], c) == game.NoPlayer {
			i++
		}
	}
	k := i
	for k < len(ray) && slowOwner(p, ray[k], c) == 1-me {
		k++
	}
	return k > i && k < len(ray) && slowOwner(p, ray[k], c) == game.NoPlayer
}

// slowStep reports whether the soldier on c has a non-capturing step.
func slowStep(t *lookup, p *position, c board.Cell, hopAny bool) bool {
	me := p.toMove
	for _, d := range t.forward[me] {
		for _, x := range t.b.Ray(c, d) {
			owner := slowOwner(p, x, c)
			if owner == game.NoPlayer {
				return true
			}
			if owner != me && !hopAny {
				break
			}
		}
	}
	return false
}

// slowSlide reports whether the captain on c has a non-capturing move: an
// empty cell along a line from which, c left empty, a line reaches an
// enemy piece across empty cells.
func slowSlide(t *lookup, p *position, c board.Cell) bool {
	for d := 0; d < 6; d++ {
		for _, x := range t.b.Ray(c, d) {
			if slowOwner(p, x, c) != game.NoPlayer {
				break
			}
			for d2 := 0; d2 < 6; d2++ {
				for _, y := range t.b.Ray(x, d2) {
					if owner := slowOwner(p, y, c); owner != game.NoPlayer {
						if owner == 1-p.toMove {
							return true
						}
						break
					}
				}
			}
		}
	}
	return false
}

// answers are one generator's answers at a position, as plain values, so
// that both generators' can be checked the same way.
type answers struct {
	name string
	// capturer[d][c] tells that capturers found a capture of the piece on
	// c in direction d; capturing that it found one at all.
	capturer                                 [6][maxCells]bool
	capturing, anyCapture, anyStep, anySlide bool
	// soldierFrom is the first direction in which a soldier has a
	// capture, 6 if none (soldierCaptureFrom).
	soldierFrom int
	moves       []game.Move
}

// wideAnswers are the answers of the generator on two-word sets, which
// serves both boards.
func wideAnswers(s *State) answers {
	g := s.gen()
	var by [6]cellSet
	a := answers{name: "wide", capturing: !g.capturers(&by, 0).empty(), soldierFrom: g.soldierCaptureFrom(0),
		anyCapture: g.anyCapture(), anyStep: g.anyStep(), anySlide: g.anySlide(), moves: g.moves(nil)}
	for d := range by {
		for c := range maxCells {
			a.capturer[d][c] = by[d].has(board.Cell(c))
		}
	}
	return a
}

// narrowAnswers are the answers of the generator on one-word sets, which
// the 45-cell board uses.
func narrowAnswers(s *State) answers {
	g := narrowGen{t: s.g.t, sets: s.g.t.narrowSets()}
	g.load(&s.pos, s.g.hopAny)
	var by [6]narrowSet
	a := answers{name: "narrow", capturing: !g.capturers(&by, 0).empty(), soldierFrom: g.soldierCaptureFrom(0),
		anyCapture: g.anyCapture(), anyStep: g.anyStep(), anySlide: g.anySlide(), moves: g.moves(nil)}
	for d := range by {
		for c := range 64 {
			a.capturer[d][c] = by[d].has(board.Cell(c))
		}
	}
	return a
}

// checkMasks compares the masks' answers of both generators (the narrow
// one on the 45-cell board only) with the walks at s, and their moves
// with each other's and Moves'.
func checkMasks(t *testing.T, s *State) {
	t.Helper()
	p := &s.pos
	tb := s.g.t
	moves := s.Moves(nil)
	if got := s.hasMove(); got != (len(moves) > 0) {
		t.Fatalf("%s: hasMove %v with %d moves", s.FEN(), got, len(moves))
	}
	if p.count[0] == 0 || p.count[1] == 0 {
		return
	}
	all := []answers{wideAnswers(s)}
	if tb.narrow {
		all = append(all, narrowAnswers(s))
	}
	var anyCapture, anyStep, anySlide bool
	soldierFrom := 6
	for c := board.Cell(0); int(c) < tb.n; c++ {
		if slowOwner(p, c, board.None) != p.toMove {
			continue
		}
		for d := 0; d < 6; d++ {
			want := slowCapture(tb, p, c, d)
			for _, a := range all {
				if a.capturer[d][c] != want {
					t.Fatalf("%s: %s capturers says %v for %s in direction %d, the walk %v", s.FEN(), a.name, a.capturer[d][c], tb.b.Name(c), d, want)
				}
			}
			anyCapture = anyCapture || want
			if want && !p.captains.has(c) {
				soldierFrom = min(soldierFrom, d)
			}
		}
		if p.captains.has(c) {
			anySlide = anySlide || slowSlide(tb, p, c)
		} else {
			anyStep = anyStep || slowStep(tb, p, c, s.g.hopAny)
		}
	}
	for _, a := range all {
		switch {
		case a.anyCapture != anyCapture || a.capturing != anyCapture:
			t.Fatalf("%s: %s anyCapture %v, capturers %v, the walk %v", s.FEN(), a.name, a.anyCapture, a.capturing, anyCapture)
		case len(moves) > 0 && moves[0].IsCapture() != anyCapture:
			t.Fatalf("%s: the first move %v is a capture: %v, the walk finds one: %v", s.FEN(), moves[0].Text(tb.b), moves[0].IsCapture(), anyCapture)
		case a.soldierFrom != soldierFrom:
			t.Fatalf("%s: %s soldierCaptureFrom %d, the walk %d", s.FEN(), a.name, a.soldierFrom, soldierFrom)
		case a.anyStep != anyStep:
			t.Fatalf("%s: %s anyStep %v, the walk %v", s.FEN(), a.name, a.anyStep, anyStep)
		case a.anySlide != anySlide:
			t.Fatalf("%s: %s anySlide %v, the walk %v", s.FEN(), a.name, a.anySlide, anySlide)
		case !slices.Equal(a.moves, moves):
			t.Fatalf("%s: the %s generator lists %d moves, Moves %d, or in another order", s.FEN(), a.name, len(a.moves), len(moves))
		}
	}
}

// maskGames are the four games the mask tests cover.
func maskGames(t *testing.T) []*Game {
	t.Helper()
	var games []*Game
	for _, id := range []string{"pommel", "pommel-76"} {
		for _, hop := range []string{"friendly", "any"} {
			g, err := game.New(id, map[string]string{"hop": hop})
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, g.(*Game))
		}
	}
	return games
}

// TestNarrowBoards checks which boards the one-word generator serves, so
// that the mask tests do compare it on the 45-cell board.
func TestNarrowBoards(t *testing.T) {
	for _, tt := range []struct {
		id     string
		narrow bool
	}{{"pommel", true}, {"pommel-76", false}} {
		g, err := game.New(tt.id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.(*Game).t.narrow; got != tt.narrow {
			t.Errorf("%s: narrow %v, want %v", tt.id, got, tt.narrow)
		}
	}
}

func TestMasksAgreeInRandomGames(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	positions := 0
	for gi, g := range maskGames(t) {
		rng := rand.New(rand.NewPCG(uint64(gi), 15))
		for range n {
			s := g.NewState()
			for s.Ply() < 400 {
				checkMasks(t, s)
				positions++
				moves := s.Moves(nil)
				if len(moves) == 0 {
					break
				}
				s.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
	t.Logf("%d positions", positions)
}

// randomPosition places up to most pieces of each side on random cells,
// each a captain with probability captainP (and always on its last row).
func randomPosition(g *Game, rng *rand.Rand, most int, captainP float64) *State {
	t := g.t
	var p position
	cells := rng.Perm(t.n)
	for side, n := range []int{1 + rng.IntN(most), 1 + rng.IntN(most)} {
		who := game.Player(side)
		for _, c := range cells[:n] {
			cell := board.Cell(c)
			p.put(t, cell, who, rng.Float64() < captainP || t.lastRow[who].has(cell))
		}
		cells = cells[n:]
	}
	if rng.IntN(2) == 1 {
		p.toMove, p.hash = Black, p.hash^t.sideKey
	}
	return g.newState(p)
}

func TestMasksAgreeInRandomPositions(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	for gi, g := range maskGames(t) {
		rng := rand.New(rand.NewPCG(uint64(gi), 16))
		for _, most := range []int{3, 8, 14} {
			for _, captainP := range []float64{1, 0.5, 0.1} {
				for range n {
					checkMasks(t, randomPosition(g, rng, most, captainP))
				}
			}
		}
	}
}

// TestBit checks a set's bit against has on both set types, at every cell
// of both words and at noCell, which no set holds.
func TestBit(t *testing.T) {
	full := cellSet{lo: ^uint64(0), hi: 1<<(maxCells-64) - 1}
	sets := []cellSet{{}, full, {lo: 0x5555_5555_5555_5555, hi: 0xaaa}, {lo: 1, hi: 1 << 11}}
	for _, s := range sets {
		for c := board.Cell(0); c < maxCells; c++ {
			if want := s.has(c); (s.bit(c) == 1) != want || s.bit(c) > 1 {
				t.Errorf("%x: bit(%d) = %d, has %v", s, c, s.bit(c), want)
			}
			if c < 64 {
				n := toNarrowSet(s)
				if want := n.has(c); (n.bit(c) == 1) != want || n.bit(c) > 1 {
					t.Errorf("%x: narrow bit(%d) = %d, has %v", s, c, n.bit(c), want)
				}
			}
		}
		if s.bit(noCell) != 0 || toNarrowSet(s).bit(noCell) != 0 {
			t.Errorf("%x holds noCell", s)
		}
	}
}
