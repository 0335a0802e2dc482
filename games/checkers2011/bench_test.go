package checkers2011_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/checkers2011"
)

// benchPerft reports nodes per second of a perft with bulk counting at the
// leaves.
func benchPerft(b *testing.B, fen string, depth int) {
	g := newGame(b)
	s := gametest.Position(b, g, fen)
	gametest.BenchPerft(b, s, depth)
}

// BenchmarkPerft5Start pins the start position's depth 5 (10043928).
func BenchmarkPerft5Start(b *testing.B) { benchPerft(b, "", 5) }

func BenchmarkPerft5Corners(b *testing.B) {
	benchPerft(b, "W:c1=B,b1=B,a1=B,a2=b,a3=bB,a4=w,d2=W,g2=w,f3=bw,e7=B,g8=W,h8=W,h7=w,h6=b,c6=bbww,d5=Wb,b5=b", 5)
}

func BenchmarkPerft5TallStacks(b *testing.B) {
	benchPerft(b, "B:a1=w,b1=w,f1=w,h1=w,a2=w,c2=w,e2=w,h2=w,c3=W,f3=w,h4=w,a5=w,e5=bbbb,h5=bw,d6=bw,f6=b,g7=b,h7=b,b8=b,d8=bbbW,f8=bbW,h8=b", 5)
}

// BenchmarkPerft4StartNoBulk plays every leaf, as the perft command does.
func BenchmarkPerft4StartNoBulk(b *testing.B) {
	s := newGame(b).Start()
	for b.Loop() {
		game.Perft(s, 4)
	}
}

// BenchmarkPlayout plays random games to the end (or the 600-ply cap)
// through the concrete type and reports games per second.
func BenchmarkPlayout(b *testing.B) {
	g := newGame(b).(*checkers2011.Game)
	gametest.BenchPlayouts(b, g.NewState, 256)
}

func BenchmarkMovesStart(b *testing.B) {
	s := newGame(b).Start()
	buf := make([]game.Move, 0, 256)
	for b.Loop() {
		buf = s.Moves(buf[:0])
	}
}

// BenchmarkMovesCaptures generates the one longest capture of a position
// where a king goes back and forth over a stack.
func BenchmarkMovesCaptures(b *testing.B) {
	s := gametest.MustParse(b, newGame(b), "W:c3=W,d4=bbB,f4=wbw,d6=bwb,f6=b,b6=bb,h6=B,c7=b,e7=wB,a1=w,e1=w,g1=w,b2=w")
	buf := make([]game.Move, 0, 256)
	for b.Loop() {
		buf = s.Moves(buf[:0])
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	s := newGame(b).Start()
	m := s.Moves(nil)[0]
	for b.Loop() {
		s.Play(m)
		s.Undo()
	}
}
