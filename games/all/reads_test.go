package all_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// TestReadsDoNotAllocate plays random games of every game id and checks,
// every few plies and at the end, that the reads an engine makes at every
// node do not allocate.
func TestReadsDoNotAllocate(t *testing.T) {
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			g := gametest.NewGame(t, d.ID)
			rng := rand.New(rand.NewPCG(uint64(len(d.ID)), 11))
			fail := func(format string, args ...any) { t.Helper(); t.Fatalf(format, args...) }
			for range 3 {
				s := g.Start()
				var buf []game.Move
				for ply := 0; ; ply++ {
					if ply%8 == 0 {
						gametest.CheckReadsDoNotAllocate(fail, s)
					}
					if buf = s.Moves(buf[:0]); len(buf) == 0 || s.Result().Over() {
						break
					}
					s.Play(buf[rng.IntN(len(buf))])
				}
				gametest.CheckReadsDoNotAllocate(fail, s)
			}
		})
	}
}
