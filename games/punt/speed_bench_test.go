package punt_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// benchInterfacePlayouts plays random games as `arbiter bench` does.
func benchInterfacePlayouts(b *testing.B, id string) {
	gametest.BenchGames(b, gametest.NewGame(b, id))
}

func BenchmarkStatePlayoutPuntMatch(b *testing.B)     { benchInterfacePlayouts(b, "punt-match") }
func BenchmarkStatePlayoutPuntHeksMatch(b *testing.B) { benchInterfacePlayouts(b, "punt-heks-match") }
func BenchmarkStatePlayoutPuntHeksMatch3p(b *testing.B) {
	benchInterfacePlayouts(b, "punt-heks-match-3p")
}

// benchPerftEvery plays every leaf of a perft from the start, as the
// perft command and `arbiter bench` (perft/s) do.
func benchPerftEvery(b *testing.B, id string, depth int) {
	s := gametest.NewGame(b, id).Start()
	var nodes uint64
	for b.Loop() {
		nodes += game.Perft(s, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerftEveryPuntMatch(b *testing.B)       { benchPerftEvery(b, "punt-match", 4) }
func BenchmarkPerftEveryPuntHeksMatch(b *testing.B)   { benchPerftEvery(b, "punt-heks-match", 4) }
func BenchmarkPerftEveryPuntHeksMatch3p(b *testing.B) { benchPerftEvery(b, "punt-heks-match-3p", 4) }

// BenchmarkStart is the cost of a new game, paid once per playout.
func BenchmarkStart(b *testing.B) {
	g := gametest.NewGame(b, "punt-heks-match-3p")
	for b.Loop() {
		g.Start()
	}
}
