package ai

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// level is an engine for people: alpha-beta held back by depth, and at the
// lowest levels by chance, so that each level is stronger than the one
// below.
type level struct {
	name  string
	inner *ab
	rng   *rand.Rand
	// depth caps the search; blunder is the chance of a random move.
	// With three or more players depthN and blunderN take their place.
	depth, depthN     int
	blunder, blunderN float64
	// moveTime is the time the level takes when the caller gives none.
	moveTime time.Duration
}

// levels: the lower levels search to a fixed depth, the first two (four
// with three players, level 1 every move) also playing some moves at
// random; level 6 uses all the time it is given (with three players up to
// five plies).
// Measured in docs/strength.md: each beats the one below at 100 ms a move
// (with three players level 6 at its own time).
//
// ttBits sizes each level's transposition table (2^ttBits entries of 16
// bytes): a search a few plies deep visits a few thousand positions, so a
// server can hold hundreds of low-level engines (docs/strength.md gives
// each level's memory).
//
// With three or more players depth alone does not make a ladder: a
// paranoid search three plies deep (the root and both opponents) plays
// no better than one two deep, and above a search that sees two of its
// own moves (best-reply three plies deep, paranoid four) no depth tried
// has played measurably better against two of the level below. So the
// levels have a table of their own for three or more players (the N
// fields), each step measured in docs/strength.md: chance moves at the
// bottom (level 1 plays at random), then two plies at level 5, and level
// 6 a step above it with four or five plies (its second move seen): it
// stops at five plies, since with more time its paranoid search went
// deeper and did worse against level 5.
var levels = [...]struct {
	depth    int
	blunder  float64
	moveTime time.Duration
	ttBits   int
	// With three or more players: the depth and the chance of a random
	// move (the search is ab's default, paranoid).
	depthN   int
	blunderN float64
}{
	1: {depth: 1, blunder: 0.5, ttBits: 10, depthN: 1, blunderN: 1},
	2: {depth: 1, blunder: 0.2, ttBits: 10, depthN: 1, blunderN: 0.8},
	3: {depth: 2, ttBits: 12, depthN: 1, blunderN: 0.5},
	4: {depth: 3, ttBits: 14, depthN: 1, blunderN: 0.2},
	5: {depth: 4, ttBits: 16, depthN: 2},
	6: {depth: MaxDepth, moveTime: 3 * time.Second, ttBits: 20, depthN: 5},
}

// newLevel makes level n, which parseConfig has checked.
func newLevel(spec string, seed uint64, n int) *level {
	l := levels[n]
	inner := newAB("ab", abConfig{ttBits: l.ttBits})
	return &level{name: spec, inner: inner, rng: rand.New(rand.NewPCG(seed, uint64(n))),
		depth: l.depth, depthN: l.depthN, blunder: l.blunder, blunderN: l.blunderN, moveTime: l.moveTime}
}

func (l *level) Name() string { return l.name }

func (l *level) Search(ctx context.Context, s game.State, lim Limits, report func(Info)) Info {
	if err := checkEvaluation(l.inner.eval, s); err != nil {
		return Info{Err: err}
	}
	depth, blunder := l.depth, l.blunder
	if s.Game().Players() > 2 {
		depth, blunder = l.depthN, l.blunderN
	}
	if blunder > 0 && l.rng.Float64() < blunder {
		moves := s.Moves(nil)
		m := moves[l.rng.IntN(len(moves))]
		info := Info{Move: m, PV: []game.Move{m}, Nodes: 1}
		if report != nil {
			report(info)
		}
		return info
	}
	if lim.Depth == 0 || lim.Depth > depth {
		lim.Depth = depth
	}
	if lim.MoveTime == 0 && lim.Nodes == 0 {
		lim.MoveTime = l.moveTime
	}
	return l.inner.Search(ctx, s, lim, report)
}
