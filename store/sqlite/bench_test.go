package sqlite

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
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

// BenchmarkTopGames ranks the games in play for the top game (what the
// watch service asks once a second): games in play between accounts,
// every fourth of them correspondence, each account rated.
func BenchmarkTopGames(b *testing.B) {
	for _, games := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			ctx := context.Background()
			s, err := Open(ctx, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			const accounts = 500
			for i := range accounts {
				id := fmt.Sprint("a", i)
				if err := s.CreateAccount(ctx, store.Account{ID: id, Name: id}); err != nil {
					b.Fatal(err)
				}
				if err := s.SetRating(ctx, id, store.Rating{Game: "pommel", Rating: float64(1000 + i*3), RD: 80, Volatility: 0.06}); err != nil {
					b.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			for i := range games {
				control := timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second}
				if i%4 == 0 {
					control = timecontrol.Control{PerMove: 24 * time.Hour}
				}
				h := store.Header{ID: fmt.Sprint("g", i), Game: "pommel", Version: 1, DrawOffer: -1,
					Clock: &store.Clock{Control: control, Left: []time.Duration{time.Minute, time.Minute}},
					Seats: []store.Seat{{Player: "human", Account: fmt.Sprint("a", i%accounts)}, {Player: "human", Account: fmt.Sprint("a", (i*7+1)%accounts)}}}
				wg.Go(func() {
					if err := s.Create(ctx, h); err != nil {
						b.Error(err)
					}
				})
			}
			wg.Wait()
			b.ResetTimer()
			for b.Loop() {
				if got, err := s.TopGames(ctx, 1); err != nil || len(got) != 1 {
					b.Fatal(got, err)
				}
			}
		})
	}
}
