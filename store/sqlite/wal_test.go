package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// TestWALStartsOverUnderSteadyWrites writes without a pause from many
// goroutines: the WAL must still start over from its beginning (its
// header's checkpoint sequence number counts the restarts) and stay
// short, rather than grow for as long as the writes go on.
func TestWALStartsOverUnderSteadyWrites(t *testing.T) {
	s := open(t, t.TempDir())
	var stop atomic.Bool
	var wg sync.WaitGroup
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	for i := range 32 {
		h := game(t, s, fmt.Sprintf("g%d", i))
		wg.Go(func() {
			for ply := 0; !stop.Load(); ply++ {
				h = after(h)
				if err := s.AddMove(context.Background(), store.Move{Ply: ply, Text: "c3-d4"}, h); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wal := s.Path() + "-wal"
	restarts := func() uint32 {
		f, err := os.Open(wal)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		header := make([]byte, 32)
		if _, err := f.ReadAt(header, 0); err != nil {
			t.Fatal(err)
		}
		return binary.BigEndian.Uint32(header[12:16])
	}
	first := restarts()
	deadline := time.Now().Add(30 * time.Second)
	for restarts() == first {
		if time.Now().After(deadline) {
			info, _ := os.Stat(wal)
			t.Fatalf("after 30 s of writes the WAL never started over (%d bytes)", info.Size())
		}
		time.Sleep(10 * time.Millisecond)
	}
	info, err := os.Stat(wal)
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(4 * walLimit * 4096); info.Size() > limit {
		t.Errorf("the WAL grew to %d bytes, want at most %d", info.Size(), limit)
	}
}
