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
	// nodes, when not 0, is the level's search with two players: a
	// fixed count of positions, whatever the machine's load (nodesN with
	// three or more players).
	nodes, nodesN int64
	// timeCap is the most a search of the level takes, a safety for a
	// machine too busy to reach its nodes in time.
	timeCap time.Duration
}

// levels: each level is a fixed amount of search, so that its strength
// (and its rating) is the same on an idle machine and a busy one: the
// lower levels search to a fixed depth, the first two (four with three
// players, level 1 every move) also playing some moves at random; level 6
// searches a fixed count of positions (with three players five plies).
// Level 6 keeps a time cap as a safety: on a machine so busy that its
// nodes take longer than that, it plays what it found by then (and a game
// clock, when one runs, caps it as well).
// Measured in docs/strength.md: each beats the one below.
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
	depth   int
	blunder float64
	nodes   int64
	timeCap time.Duration
	ttBits  int
	// With three or more players: the depth and the chance of a random
	// move (the search is ab's default, paranoid).
	depthN   int
	blunderN float64
	nodesN   int64
}{
	1: {depth: 1, blunder: 0.5, ttBits: 10, depthN: 1, blunderN: 1},
	2: {depth: 1, blunder: 0.2, ttBits: 10, depthN: 1, blunderN: 0.8},
	3: {depth: 2, ttBits: 12, depthN: 1, blunderN: 0.5},
	4: {depth: 3, ttBits: 14, depthN: 1, blunderN: 0.2},
	5: {depth: 4, ttBits: 16, depthN: 2},
	6: {depth: MaxDepth, nodes: Level6Nodes, timeCap: 3 * time.Second, ttBits: 20, depthN: 5},
}

// Level6Nodes is level 6's search with two players, in positions: about a
// fifth of a second of one core in Pommel, half a second in Punt-Match
// (docs/strength.md, "Levels").
const Level6Nodes = 1_000_000

// newLevel makes level n, which parseConfig has checked.
func newLevel(spec string, seed uint64, n int) *level {
	l := levels[n]
	inner := newAB("ab", abConfig{ttBits: l.ttBits})
	return &level{name: spec, inner: inner, rng: rand.New(rand.NewPCG(seed, uint64(n))),
		depth: l.depth, depthN: l.depthN, blunder: l.blunder, blunderN: l.blunderN,
		nodes: l.nodes, nodesN: l.nodesN, timeCap: l.timeCap}
}

func (l *level) Name() string { return l.name }

func (l *level) Search(ctx context.Context, s game.State, lim Limits, report func(Info)) Info {
	if err := checkEvaluation(l.inner.eval, s); err != nil {
		return Info{Err: err}
	}
	depth, blunder, nodes := l.depth, l.blunder, l.nodes
	if s.Game().Players() > 2 {
		depth, blunder, nodes = l.depthN, l.blunderN, l.nodesN
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
	return l.inner.Search(ctx, s, l.limits(lim, depth, nodes), report)
}

// limits are the caller's limits held to the level's own: its depth, its
// nodes and its time cap, each the smaller of the two where both are set.
// A caller's limit only ever makes a level search less.
func (l *level) limits(lim Limits, depth int, nodes int64) Limits {
	lim.Depth = capped(lim.Depth, depth)
	lim.Nodes = capped(lim.Nodes, nodes)
	lim.MoveTime = capped(lim.MoveTime, l.timeCap)
	return lim
}

// capped is the smaller of a caller's limit and a level's, 0 meaning no
// limit for either.
func capped[T int | int64 | time.Duration](caller, own T) T {
	if own > 0 && (caller == 0 || caller > own) {
		return own
	}
	return caller
}
