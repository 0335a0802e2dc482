package ai

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkEngineMemory measures what one engine of each kind and level
// holds once it has searched a position of the 76-cell Pommel board, the
// largest branching of the 2-player games (B/engine: the live heap it
// keeps between moves, transposition table and trees included). docs/strength.md
// quotes it; run with -benchtime 1x.
func BenchmarkEngineMemory(b *testing.B) {
	g, err := game.New("pommel-76", nil)
	if err != nil {
		b.Fatal(err)
	}
	specs := []struct {
		spec string
		lim  Limits
	}{
		{"ai:level=1", Limits{}}, {"ai:level=2", Limits{}}, {"ai:level=3", Limits{}},
		{"ai:level=4", Limits{}}, {"ai:level=5", Limits{}},
		{"ai:level=6", Limits{MoveTime: time.Second}},
		{"ab", Limits{MoveTime: time.Second}},
		{"mcts", Limits{MoveTime: time.Second}},
		{"uct", Limits{MoveTime: time.Second}},
		{"random", Limits{}},
	}
	for _, sp := range specs {
		b.Run(sp.spec, func(b *testing.B) {
			var kept uint64
			for b.Loop() {
				before := heapInUse()
				e, err := New(sp.spec, 1)
				if err != nil {
					b.Fatal(err)
				}
				e.Search(context.Background(), g.Start(), sp.lim, nil)
				if after := heapInUse(); after > before {
					kept = after - before
				}
				runtime.KeepAlive(e)
			}
			b.ReportMetric(float64(kept), "B/engine")
		})
	}
}
