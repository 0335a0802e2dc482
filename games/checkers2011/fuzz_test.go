package checkers2011_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// stacksOf reads every stack through game.Stacker, bottom first.
func stacksOf(s game.State) [][]game.Piece {
	st := s.(game.Stacker)
	out := make([][]game.Piece, s.Game().Board().Len())
	for c := range out {
		out[c] = st.Stack(board.Cell(c), nil)
	}
	return out
}

func countPieces(stacks [][]game.Piece) (n [2]int) {
	for _, st := range stacks {
		for _, p := range st {
			n[p.Owner]++
		}
	}
	return n
}

// stackInvariant checks, through the public API only, that a move did
// what RULINGS section 3 allows and nothing else: the moving stack took
// exactly the top piece of each stack it jumped, to its bottom; its
// commander was promoted exactly when a soldier ended on the last rank;
// every other stack is as the jumps left it, or gone whole while commanded
// by the enemy (eliminated), on the landing cell's rank or file or on the
// border. So no piece is ever created, and pieces leave the board only by
// elimination.
func stackInvariant(before, after game.State, m game.Move) error {
	b := before.Game().Board()
	me := before.ToMove()
	want := stacksOf(before)
	got := stacksOf(after)
	moving := want[m.From()]
	want[m.From()] = nil
	if len(moving) == 0 || moving[len(moving)-1].Owner != me {
		return fmt.Errorf("the move starts on %s, not a stack %v commands", b.Name(m.From()), me)
	}
	if m.IsCapture() != (m.Len() > 1 && isJump(b, m.At(0), m.At(1))) {
		return fmt.Errorf("capture flag %v does not match the path", m.IsCapture())
	}
	for i := 1; i < m.Len() && m.IsCapture(); i++ {
		x0, y0 := b.Coord(m.At(i - 1))
		x1, y1 := b.Coord(m.At(i))
		mid := board.Cell(int(m.At(i-1)) + ((y1-y0)/2)*8 + (x1-x0)/2)
		if !isJump(b, m.At(i-1), m.At(i)) {
			return fmt.Errorf("%s to %s is not a jump", b.Name(m.At(i-1)), b.Name(m.At(i)))
		}
		st := want[mid]
		if len(st) == 0 || st[len(st)-1].Owner == me {
			return fmt.Errorf("jump over %s, which the mover does not face an enemy on", b.Name(mid))
		}
		moving = append([]game.Piece{st[len(st)-1]}, moving...)
		want[mid] = st[:len(st)-1]
	}
	top := &moving[len(moving)-1]
	_, y := b.Coord(m.To())
	lastY := 7
	if me == 1 {
		lastY = 0
	}
	if top.Rank == game.Man && y == lastY {
		top.Rank = game.King
	}
	if !slices.Equal(got[m.To()], moving) {
		return fmt.Errorf("the moved stack on %s is %v, want %v", b.Name(m.To()), got[m.To()], moving)
	}
	want[m.To()] = moving
	tx, ty := b.Coord(m.To())
	eliminated := 0
	for c := range want {
		if slices.Equal(got[c], want[c]) {
			continue
		}
		x, y := b.Coord(board.Cell(c))
		border := x == 0 || x == 7 || y == 0 || y == 7
		switch {
		case len(got[c]) != 0:
			return fmt.Errorf("the stack on %s is %v, want %v", b.Name(board.Cell(c)), got[c], want[c])
		case want[c][len(want[c])-1].Owner == me:
			return fmt.Errorf("the mover's stack on %s vanished", b.Name(board.Cell(c)))
		case x != tx && y != ty && !border:
			return fmt.Errorf("the stack on %s vanished off the lines and border from %s", b.Name(board.Cell(c)), b.Name(m.To()))
		}
		eliminated += len(want[c])
	}
	nb, na := countPieces(stacksOf(before)), countPieces(got)
	if na[0]+na[1] != nb[0]+nb[1]-eliminated || na[0] > nb[0] || na[1] > nb[1] {
		return fmt.Errorf("pieces went from %v to %v with %d eliminated", nb, na, eliminated)
	}
	if after.ToMove() == me {
		return fmt.Errorf("%v is to move again", me)
	}
	return nil
}

// isJump reports whether a to z is two cells in a straight line.
func isJump(b *board.Board, a, z board.Cell) bool {
	x0, y0 := b.Coord(a)
	x1, y1 := b.Coord(z)
	dx, dy := x1-x0, y1-y0
	return (dx == 0 || dx == 2 || dx == -2) && (dy == 0 || dy == 2 || dy == -2) && (dx != 0 || dy != 0)
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 4 // eight games, every check at every ply
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(42, 2011))
	for i := 0; i < n; i++ {
		gametest.RandomGame(t, g.Start(), rng, 600, stackInvariant)
		gametest.RandomGame(t, gametest.MustParse(t, g, randomFEN(rng, 6+rng.IntN(20), 0.3)), rng, 300, stackInvariant)
	}
}

// FuzzRandomGame plays a random game chosen by the fuzzer's seed, from the
// start or from a random position with stacks, and checks the conformance
// suite and the stack invariant at every move.
func FuzzRandomGame(f *testing.F) {
	f.Add(uint64(1), false)
	f.Add(uint64(2), true)
	f.Fuzz(func(t *testing.T, seed uint64, fromRandom bool) {
		g := newGame(t)
		rng := rand.New(rand.NewPCG(seed, seed>>32))
		s := g.Start()
		if fromRandom {
			s = gametest.MustParse(t, g, randomFEN(rng, 4+rng.IntN(26), rng.Float64()))
		}
		gametest.RandomGame(t, s, rng, 600, stackInvariant)
	})
}

// FuzzParseFEN: any text either reads as a position that passes the
// conformance checks and writes itself back the same, or is an error.
func FuzzParseFEN(f *testing.F) {
	for _, fen := range []string{startFEN, "W:", "B:a1=B,d4=wbWbw", "W:d4=wbbW,e5=bB", "W:a1=w,a1=b", "W:z9=w",
		"W:d8=bw", "X", ":::", "W:a1=,", "W:h8=wwwwwwwwwwwwwwwwbbbbbbbbbbbbbbbB"} {
		f.Add(fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		g := newGame(t)
		gametest.CheckParseFEN(t, g, fen)
	})
}

// FuzzParseMove: any text is either the notation of a legal move (after
// the accepted ':' spelling) or an error that quotes it.
func FuzzParseMove(f *testing.F) {
	positions := []string{
		startFEN,
		"W:c3=W,d4=bbB,f4=wbw,d6=bwb,f6=b,b6=bb,h6=B,c7=b,e7=wB,a1=w,e1=w,g1=w,b2=w",
		"W:d3=W,d4=bbbbB,a1=w",
		"W:c1=B,b1=B,a1=B,a2=b,a3=bB,a4=w,d2=W,g2=w,f3=bw,e7=B,g8=W,h8=W,h7=w,h6=b,c6=bbww,d5=Wb,b5=b",
	}
	for _, m := range []string{"a2-a3", "c3xe5xc3xe5xg7", "d3:d5:d3:d5:d3:d5", "d2-d1", "", "x", "a1-", "-a1", "a1@b2",
		"A2-A3", "a2xa3-a4", "d3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5xd3xd5"} {
		f.Add(uint8(0), m)
	}
	f.Fuzz(func(t *testing.T, pos uint8, text string) {
		s := gametest.MustParse(t, newGame(t), positions[int(pos)%len(positions)])
		gametest.CheckParseMove(t, s, text)
	})
}
