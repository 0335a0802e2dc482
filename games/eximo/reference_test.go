package eximo_test

// An independent, deliberately simple reference move generator for Eximo,
// written from RULINGS.md section 2 alone (not from the engine's code), and
// differential tests that compare it with the engine.
//
// The reference keeps a position as a map from (file, rank) to a colour,
// writes moves as strings directly, has its own FEN reader and writer and
// applies moves by replaying their text. Speed is not a goal: clarity is.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// refSq is a square: file 0..7 (a..h), rank 1..8.
type refSq struct{ f, r int }

func (q refSq) add(d refSq) refSq { return refSq{q.f + d.f, q.r + d.r} }
func (q refSq) on() bool          { return q.f >= 0 && q.f < 8 && q.r >= 1 && q.r <= 8 }
func (q refSq) String() string    { return string(rune('a'+q.f)) + strconv.Itoa(q.r) }

// less is the cell order of RULINGS section 0: by rank, then file.
func (q refSq) less(o refSq) bool { return q.r < o.r || q.r == o.r && q.f < o.f }

func refParseSq(s string) (refSq, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return refSq{}, false
	}
	return refSq{int(s[0] - 'a'), int(s[1] - '0')}, true
}

type refPos struct {
	black    bool // Black to move
	men      map[refSq]bool
	blackMen map[refSq]bool // true: Black's man; only for squares in men
}

func (p *refPos) clone() *refPos {
	c := &refPos{black: p.black, men: map[refSq]bool{}, blackMen: map[refSq]bool{}}
	for k := range p.men {
		c.men[k] = true
		c.blackMen[k] = p.blackMen[k]
	}
	return c
}

func (p *refPos) friend(q refSq, black bool) bool { return p.men[q] && p.blackMen[q] == black }
func (p *refPos) enemy(q refSq, black bool) bool  { return p.men[q] && p.blackMen[q] != black }

// forward is +1 rank for Black, -1 for White.
func refForward(black bool) int {
	if black {
		return 1
	}
	return -1
}

// refMoveDirs: forward and both forward diagonals. refCaptureDirs adds
// left and right.
func refMoveDirs(black bool) []refSq {
	f := refForward(black)
	return []refSq{{0, f}, {-1, f}, {1, f}}
}

func refCaptureDirs(black bool) []refSq {
	return append(refMoveDirs(black), refSq{-1, 0}, refSq{1, 0})
}

func refFarRank(black bool) int {
	if black {
		return 8
	}
	return 1
}

// refZone is the drop zone: files b..g of the two home ranks.
func refZone(black bool) []refSq {
	ranks := []int{1, 2}
	if !black {
		ranks = []int{7, 8}
	}
	var z []refSq
	for _, r := range ranks {
		for f := 1; f <= 6; f++ {
			z = append(z, refSq{f, r})
		}
	}
	return z
}

// refMoves returns every legal move's text.
func (p *refPos) refMoves() []string {
	me := p.black
	var mine []refSq
	nMine, nTheirs := 0, 0
	for q := range p.men {
		if p.blackMen[q] == me {
			mine = append(mine, q)
			nMine++
		} else {
			nTheirs++
		}
	}
	if nMine == 0 || nTheirs == 0 {
		return nil
	}
	var out []string
	for _, q := range mine {
		b := p.clone()
		delete(b.men, q)
		b.refCaptures(q, q.String(), me, false, &out)
	}
	if len(out) > 0 {
		slices.Sort(out)
		return out
	}
	for _, q := range mine {
		b := p.clone()
		delete(b.men, q)
		for _, d := range refMoveDirs(me) {
			to := q.add(d)
			if to.on() && !b.men[to] {
				out = append(out, b.finish(to, q.String()+"-"+to.String(), me)...)
			}
		}
		b.refJumps(q, q.String(), me, false, &out)
	}
	slices.Sort(out)
	return out
}

// refCaptures follows capture chains from at (the man itself is not on b).
func (b *refPos) refCaptures(at refSq, path string, me, started bool, out *[]string) {
	any := false
	for _, d := range refCaptureDirs(me) {
		over, to := at.add(d), at.add(d).add(d)
		if !to.on() || !b.enemy(over, me) || b.men[to] {
			continue
		}
		any = true
		c := b.clone()
		delete(c.men, over)
		np := path + "x" + to.String()
		if to.r == refFarRank(me) {
			*out = append(*out, c.finish(to, np, me)...)
			continue
		}
		c.refCaptures(to, np, me, true, out)
	}
	if !any && started {
		*out = append(*out, path)
	}
}

// refJumps follows jumping moves over friendly men from at.
func (b *refPos) refJumps(at refSq, path string, me, started bool, out *[]string) {
	any := false
	for _, d := range refMoveDirs(me) {
		over, to := at.add(d), at.add(d).add(d)
		if !to.on() || !b.friend(over, me) || b.men[to] {
			continue
		}
		any = true
		np := path + "-" + to.String()
		if to.r == refFarRank(me) {
			*out = append(*out, b.finish(to, np, me)...)
			continue
		}
		b.refJumps(to, np, me, true, out)
	}
	if !any && started {
		*out = append(*out, path)
	}
}

// finish ends a move whose man lands on to (b is the board without the
// man, after every capture): off the far row it is complete; on the far row
// the man leaves and the drops follow.
func (b *refPos) finish(to refSq, path string, me bool) []string {
	if to.r != refFarRank(me) {
		return []string{path}
	}
	var free []refSq
	for _, q := range refZone(me) {
		if !b.men[q] {
			free = append(free, q)
		}
	}
	slices.SortFunc(free, func(a, b refSq) int {
		if a.less(b) {
			return -1
		}
		return 1
	})
	switch len(free) {
	case 0:
		return []string{path}
	case 1:
		return []string{path + "@" + free[0].String()}
	}
	var out []string
	for i := range free {
		for j := i + 1; j < len(free); j++ {
			out = append(out, path+"@"+free[i].String()+"@"+free[j].String())
		}
	}
	return out
}

// refPlay applies a move from its text alone.
func (p *refPos) refPlay(text string) *refPos {
	me := p.black
	c := p.clone()
	path, drops, _ := strings.Cut(text, "@")
	capture := strings.Contains(path, "x")
	var sqs []refSq
	for _, n := range strings.FieldsFunc(path, func(r rune) bool { return r == '-' || r == 'x' }) {
		q, _ := refParseSq(n)
		sqs = append(sqs, q)
	}
	delete(c.men, sqs[0])
	if capture {
		for i := 1; i < len(sqs); i++ {
			delete(c.men, refSq{(sqs[i-1].f + sqs[i].f) / 2, (sqs[i-1].r + sqs[i].r) / 2})
		}
	}
	last := sqs[len(sqs)-1]
	if last.r != refFarRank(me) {
		c.men[last], c.blackMen[last] = true, me
	}
	if drops != "" {
		for _, n := range strings.Split(drops, "@") {
			q, _ := refParseSq(n)
			c.men[q], c.blackMen[q] = true, me
		}
	}
	c.black = !me
	return c
}

// refFEN writes side to move, White's men, Black's men, in cell order.
func (p *refPos) refFEN() string {
	side := "W"
	if p.black {
		side = "B"
	}
	lists := [2][]refSq{}
	for q := range p.men {
		i := 0
		if p.blackMen[q] {
			i = 1
		}
		lists[i] = append(lists[i], q)
	}
	var parts []string
	for i, l := range lists {
		slices.SortFunc(l, func(a, b refSq) int {
			if a.less(b) {
				return -1
			}
			return 1
		})
		var names []string
		for _, q := range l {
			names = append(names, q.String())
		}
		parts = append(parts, "WB"[i:i+1]+strings.Join(names, ","))
	}
	return side + ":" + strings.Join(parts, ":")
}

func refFromFEN(fen string) *refPos {
	p := &refPos{men: map[refSq]bool{}, blackMen: map[refSq]bool{}}
	f := strings.Split(fen, ":")
	p.black = f[0] == "B"
	for _, l := range f[1:] {
		black := l[0] == 'B'
		if l[1:] == "" {
			continue
		}
		for _, n := range strings.Split(l[1:], ",") {
			q, _ := refParseSq(n)
			p.men[q], p.blackMen[q] = true, black
		}
	}
	return p
}

func refPerft(p *refPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.refMoves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += refPerft(p.refPlay(m), depth-1)
	}
	return n
}

// refStart is the setup of RULINGS section 2, written out by hand.
const refStart = "B:Wb6,c6,f6,g6,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,b3,c3,f3,g3"

// TestReferenceAgreesOnRandomGames plays random games and compares, at
// every position, the engine's legal moves with the reference's, and the
// position after the chosen move.
func TestReferenceAgreesOnRandomGames(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(2013, 2))
	drops, long := 0, 0
	for i := range games {
		s := g.Start()
		ref := refFromFEN(refStart)
		for ply := 0; ply < 400; ply++ {
			if got, want := gametest.RuleMoves(s), ref.refMoves(); !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d, %s:\nengine:    %v\nreference: %v", i, ply, s.FEN(), got, want)
			}
			moves := gametest.RuleMoves(s)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			if strings.Contains(m, "@") {
				drops++
			}
			if strings.Count(m, "x") >= 3 {
				long++
			}
			if err := game.PlayRuleMoves(s, []string{m}); err != nil {
				t.Fatal(err)
			}
			ref = ref.refPlay(m)
			if got, want := s.FEN(), ref.refFEN(); got != want {
				t.Fatalf("game %d after %s: engine %s, reference %s", i, m, got, want)
			}
		}
	}
	if drops == 0 || long == 0 {
		t.Errorf("the random games never dropped (%d) or made a chain of 3 (%d): the comparison is too weak", drops, long)
	}
}

// TestReferencePerft compares perft counts with the reference from the
// start and from the positions of the perft table.
func TestReferencePerft(t *testing.T) {
	g := newGame(t)
	depth := 3
	if testing.Short() {
		depth = 2
	}
	fens := []string{refStart}
	for _, tc := range perftTable {
		if tc.fen != "" {
			fens = append(fens, tc.fen)
		}
	}
	for _, fen := range fens {
		s := gametest.MustParse(t, g, fen)
		if got, want := game.Perft(s, depth), refPerft(refFromFEN(fen), depth); got != want {
			t.Errorf("%s: perft(%d) = %d, reference %d", fen, depth, got, want)
		}
	}
}

// TestReferenceOnRandomPositions compares the move lists on random
// positions, where drop zones are partly empty and men stand anywhere.
func TestReferenceOnRandomPositions(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range n {
		var lists [2][]string
		for r := 1; r <= 8; r++ {
			for f := range 8 {
				q := refSq{f, r}
				switch x := rng.IntN(100); {
				case x < 22 && r != 1:
					lists[0] = append(lists[0], q.String()) // White
				case x >= 22 && x < 44 && r != 8:
					lists[1] = append(lists[1], q.String()) // Black
				}
			}
		}
		side := "BW"[i%2 : i%2+1]
		fen := fmt.Sprintf("%s:W%s:B%s", side, strings.Join(lists[0], ","), strings.Join(lists[1], ","))
		s := gametest.MustParse(t, g, fen)
		if got, want := gametest.RuleMoves(s), refFromFEN(fen).refMoves(); !slices.Equal(got, want) {
			t.Fatalf("%s:\nengine:    %v\nreference: %v", fen, got, want)
		}
		if s.FEN() != refFromFEN(fen).refFEN() {
			t.Fatalf("FEN %s written as %s, reference %s", fen, s.FEN(), refFromFEN(fen).refFEN())
		}
	}
}

// TestReferencePerftDeep checks the deeper counts of the perft table
// against the reference. It takes minutes, so it runs only when asked:
// EXIMO_REFERENCE_DEEP=1 go test ./games/eximo -run ReferencePerftDeep.
func TestReferencePerftDeep(t *testing.T) {
	if os.Getenv("EXIMO_REFERENCE_DEEP") == "" {
		t.Skip("set EXIMO_REFERENCE_DEEP=1 to run (minutes)")
	}
	for _, tc := range perftTable {
		fen := tc.fen
		if fen == "" {
			fen = refStart
		}
		d := len(tc.counts)
		if got := refPerft(refFromFEN(fen), d); got != tc.counts[d-1] {
			t.Errorf("%s: reference perft(%d) = %d, table %d", tc.name, d, got, tc.counts[d-1])
		}
	}
	if got := refPerft(refFromFEN(refStart), 5); got != perft5Start {
		t.Errorf("start: reference perft(5) = %d, engine %d", got, perft5Start)
	}
}
