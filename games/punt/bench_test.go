package punt_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
)

// benchPerft reports nodes per second of a perft with bulk counting at the
// leaves.
func benchPerft(b *testing.B, id, fen string, depth int) {
	g := gametest.NewGame(b, id)
	s := gametest.Position(b, g, fen)
	gametest.BenchPerft(b, s, depth)
}

func BenchmarkPerft4PuntMatch(b *testing.B)       { benchPerft(b, "punt-match", "", 4) }
func BenchmarkPerft4PuntHeksMatch(b *testing.B)   { benchPerft(b, "punt-heks-match", "", 4) }
func BenchmarkPerft4PuntHeksMatch3p(b *testing.B) { benchPerft(b, "punt-heks-match-3p", "", 4) }
func BenchmarkPerft4Piles3p(b *testing.B) {
	benchPerft(b, "punt-heks-match-3p", "R:a1=w,a2=bw,b4=www,b6=w,c5=w,d4=b,d7=w,d8=r,e1=bwbw,e8=rw,e9=r,f1=b,f5=b,f7=r,f8=r,g1=br,g2=bb,g4=r,h4=bbr,h5=r,i4=r,i5=r", 4)
}

// BenchmarkPerft4PuntMatchNoBulk plays every leaf, as the perft command does.
func BenchmarkPerft4PuntMatchNoBulk(b *testing.B) {
	s := gametest.NewGame(b, "punt-match").Start()
	var nodes uint64
	for b.Loop() {
		nodes += game.Perft(s, 4)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// benchPlayouts plays random games to the end (no legal move, or the
// default ply cap) through the concrete type and reports games per second.
func benchPlayouts(b *testing.B, id string) {
	g := gametest.NewGame(b, id).(*punt.Game)
	gametest.BenchPlayouts(b, g.NewState, 256)
}

func BenchmarkPlayoutPuntMatch(b *testing.B)       { benchPlayouts(b, "punt-match") }
func BenchmarkPlayoutPuntHeksMatch(b *testing.B)   { benchPlayouts(b, "punt-heks-match") }
func BenchmarkPlayoutPuntHeksMatch3p(b *testing.B) { benchPlayouts(b, "punt-heks-match-3p") }

func BenchmarkMovesStart3p(b *testing.B) {
	s := gametest.NewGame(b, "punt-heks-match-3p").Start()
	buf := make([]game.Move, 0, 256)
	for b.Loop() {
		buf = s.Moves(buf[:0])
	}
}

// BenchmarkResult is the end-of-game check a search makes at every node.
func BenchmarkResult(b *testing.B) {
	s := gametest.NewGame(b, "punt-heks-match-3p").Start()
	for b.Loop() {
		s.Result()
	}
}
