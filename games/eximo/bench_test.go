package eximo_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/eximo"
)

// benchPerft reports nodes per second of a perft with bulk counting at the
// leaves, and checks the count.
func benchPerft(b *testing.B, fen string, depth int, want uint64) {
	g := newGame(b)
	s := gametest.Position(b, g, fen)
	var nodes uint64
	for b.Loop() {
		n := game.PerftBulk(s, depth)
		if n != want {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, want)
		}
		nodes += n
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerft5Start pins perft 5 from the start, which TestPerft5Start
// skips under -short.
func BenchmarkPerft5Start(b *testing.B) { benchPerft(b, "", 5, perft5Start) }
func BenchmarkPerft4Start(b *testing.B) { benchPerft(b, "", 4, 2093190) }

// BenchmarkPerft4Drops counts from the sparse ending of the perft table,
// where nearly every far-row move carries a pair of drops.
func BenchmarkPerft4Drops(b *testing.B) { benchPerft(b, "B:Wb3,b4:Bg4,h4,f6,h7", 4, 2137674) }

// BenchmarkPerft4StartNoBulk plays every leaf, as the perft command does.
func BenchmarkPerft4StartNoBulk(b *testing.B) {
	s := newGame(b).Start()
	for b.Loop() {
		game.Perft(s, 4)
	}
	b.ReportMetric(float64(2093190*b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPlayout plays random games from the start to the end (or to
// 600 plies, the default maxplies) through the concrete type and reports
// games per second.
func BenchmarkPlayout(b *testing.B) {
	g := newGame(b).(*eximo.Game)
	gametest.BenchPlayouts(b, g.NewState, 512)
}

func BenchmarkMovesStart(b *testing.B) {
	s := newGame(b).Start()
	buf := make([]game.Move, 0, 512)
	for b.Loop() {
		buf = s.Moves(buf[:0])
	}
}
