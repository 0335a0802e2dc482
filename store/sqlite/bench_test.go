package sqlite

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-games/arbiter/store"
)

// benchStore opens a store for a benchmark with games games created,
// and gives their headers.
func benchStore(b *testing.B, games int) (*Store, []store.Header) {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	heads := make([]store.Header, games)
	var wg sync.WaitGroup
	for i := range heads {
		heads[i] = store.Header{ID: fmt.Sprintf("g%d", i), Game: "pommel",
			Seats: []store.Seat{{Player: "human"}, {Player: "human"}}, Version: 1, DrawOffer: -1}
		wg.Go(func() {
			if err := s.Create(ctx, heads[i]); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	return s, heads
}

// BenchmarkAddMoveParallel stores moves from many goroutines at once,
// each on a game of its own (created before the timer starts), as a
// server holding many games writes.
func BenchmarkAddMoveParallel(b *testing.B) {
	for _, writers := range []int{16, 256} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			perCore := max(1, writers/runtime.GOMAXPROCS(0))
			s, heads := benchStore(b, perCore*runtime.GOMAXPROCS(0))
			var next atomic.Int64
			b.SetParallelism(perCore)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				h := heads[next.Add(1)-1]
				for ply := 0; pb.Next(); ply++ {
					h.Ply, h.Version = ply+1, int64(ply+2)
					if err := s.AddMove(context.Background(), store.Move{Ply: ply, Text: "c3-d4"}, h); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkAddMoveManyGames stores moves from 256 goroutines, each over
// 16 games of its own in turn: 4,096 games, as a loaded server holds,
// whose rows and moves spread over many pages, so that each batch
// writes many pages.
func BenchmarkAddMoveManyGames(b *testing.B) {
	const writers, perWriter = 256, 16
	s, heads := benchStore(b, writers*perWriter)
	var next atomic.Int64
	b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		first := int(next.Add(1)-1) * perWriter
		mine := heads[first : first+perWriter]
		for i := 0; pb.Next(); i++ {
			h := &mine[i%perWriter]
			ply := int(h.Version) - 1
			h.Ply, h.Version = ply+1, int64(ply+2)
			if err := s.AddMove(context.Background(), store.Move{Ply: ply, Text: "c3-d4"}, *h); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkAddMoveSerial stores one move after another from one
// goroutine: the latency of a write when nothing else is queued.
func BenchmarkAddMoveSerial(b *testing.B) {
	s, heads := benchStore(b, 1)
	h := heads[0]
	for ply := 0; b.Loop(); ply++ {
		h.Ply, h.Version = ply+1, int64(ply+2)
		if err := s.AddMove(context.Background(), store.Move{Ply: ply, Text: "c3-d4"}, h); err != nil {
			b.Fatal(err)
		}
	}
}
