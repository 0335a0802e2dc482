package ai

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// benchIDs are the game ids the engine benchmarks run on.
var benchIDs = []string{"pommel", "pommel-76", "eximo", "checkers-2011", "punt-match", "punt-heks-match", "punt-heks-match-3p"}

// benchEngine searches the start position of every game for a fixed node
// count and reports nodes (iterations for uct and mcts) per second.
func benchEngine(b *testing.B, spec string, nodes int64) {
	for _, id := range benchIDs {
		b.Run(id, func(b *testing.B) {
			g, err := game.New(id, nil)
			if err != nil {
				b.Fatal(err)
			}
			s := g.Start()
			var total int64
			for b.Loop() {
				e := mustEngine(b, spec)
				total += e.Search(context.Background(), s, Limits{Nodes: nodes}, nil).Nodes
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkUCT: each uct node is one iteration with one random playout.
func BenchmarkUCT(b *testing.B)  { benchEngine(b, "uct", 2000) }
func BenchmarkMCTS(b *testing.B) { benchEngine(b, "mcts", 5000) }
func BenchmarkAB(b *testing.B)   { benchEngine(b, "ab:tt=16", 200000) }
