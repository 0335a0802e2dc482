package hall

import (
	"testing"
)

// benchGameLength is how many moves a benchmark's game lasts before a
// new one starts, so that every iteration costs about the same.
const benchGameLength = 40

// BenchmarkMove measures a person's move through the hall and a real
// SQLite store: parsing it, playing it, storing it, answering the game,
// and telling the game's watchers (none, or one that drains its events),
// in Checkers 2011 and in Pommel (the load test's game).
func BenchmarkMove(b *testing.B) {
	for _, name := range []string{"checkers-2011", "pommel"} {
		for _, bc := range []struct {
			name     string
			watchers int
		}{
			{"unwatched", 0},
			{"watched", 1},
		} {
			b.Run(name+"/"+bc.name, func(b *testing.B) { benchmarkMove(b, name, bc.watchers) })
		}
	}
}

func benchmarkMove(b *testing.B, name string, watchers int) {
	h := newTestHall(b, Config{})
	ctx := b.Context()
	var c Created
	var v View
	var stops []func()
	newGame := func() {
		for _, stop := range stops {
			stop()
		}
		stops = stops[:0]
		var err error
		if c, err = h.Create(ctx, humans(name)); err != nil {
			b.Fatal(err)
		}
		v = c.Game
		for range watchers {
			w, _, err := h.Watch(ctx, c.ID)
			if err != nil {
				b.Fatal(err)
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range w.Events() {
				}
			}()
			stops = append(stops, func() { h.Stop(w); <-done })
		}
	}
	newGame()
	b.ReportAllocs()
	for b.Loop() {
		if v.Result != nil || v.Ply >= benchGameLength {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		after, err := h.Move(ctx, c.ID, Who{Token: c.Seats[v.ToMove].Token}, v.Legal[0], v.Ply)
		if err != nil {
			b.Fatalf("move %s at ply %d: %v", v.Legal[0], v.Ply, err)
		}
		v = after
	}
	b.StopTimer()
	for _, stop := range stops {
		stop()
	}
}
