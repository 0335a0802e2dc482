package ai

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// random plays a uniformly random legal move.
type random struct {
	name string
	rng  *rand.Rand
}

func newRandom(spec string, seed uint64) *random {
	return &random{name: spec, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

func (r *random) Name() string { return r.name }

func (r *random) Search(_ context.Context, s game.State, _ Limits, report func(Info)) Info {
	start := time.Now()
	moves := s.Moves(nil)
	info := Info{Move: moves[r.rng.IntN(len(moves))], Nodes: 1}
	info.PV, info.Elapsed = []game.Move{info.Move}, time.Since(start)
	if report != nil {
		report(info)
	}
	return info
}
