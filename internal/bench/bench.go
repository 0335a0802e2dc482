// Package bench measures arbiter's speed the way engine authors expect of
// an engine (Stockfish has `bench`): for each game, random playouts per
// second from the start to the end (the end rules checked at every ply),
// perft nodes per second with every leaf played and with bulk counting at
// the leaves, and the speed of the alpha-beta and Monte Carlo searches on a
// fixed set of positions. The fixed alpha-beta searches are limited by
// depth, so the nodes they visit, summed as a signature, change only when
// the search's behaviour changes: a change meant to be pure speed must
// keep it (bench_test.go holds each game's signature).
//
// A node is a position a move is played into, as in perft: ab-nodes/s
// counts every position the alpha-beta search plays a move into, in the
// main search and in quiescence (those it scores as a repetition at once
// included), plus the root once per iteration of the deepening; perft/s
// counts the positions at the last ply, which are most of those played.
// The two rates differ in what is done at a node: perft plays the leaves
// and goes back, the search generates the moves of every node it expands
// and, at its horizon, asks the game whether the position has a move and
// must capture (game.LeafTester) and evaluates it when it is quiet, so
// ab-nodes/s is bound by the rates of move generation and evaluation, not
// by that of playing moves.
package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// Figure is one measured number: its game, what it counts and the value.
type Figure struct {
	Game  string
	Name  string // "playouts/s", "perft/s", "perft-bulk/s", "ab-nodes/s", "mcts-iterations/s", "signature"
	Value float64
	// Plies is the mean game length of the playouts (playouts/s only).
	Plies float64
}

// String writes the figure as one line scripts read: "GAME NAME N",
// with "plies/game M" after the playouts.
func (f Figure) String() string {
	if f.Name == "playouts/s" {
		return fmt.Sprintf("%s %s %.0f plies/game %.1f", f.Game, f.Name, f.Value, f.Plies)
	}
	return fmt.Sprintf("%s %s %.0f", f.Game, f.Name, f.Value)
}

// Config says what to measure: each timed figure runs for about Time.
type Config struct {
	Time time.Duration
}

// The fixed searches: positions after these many random plies (seeded)
// of one game, each searched by ab to abDepth plies and by uct for
// mctsIterations iterations.
var positionPlies = [...]int{0, 4, 8, 12, 16, 20}

const (
	mctsIterations = 4000
	seed           = 20261123
)

// abDepth is the depth of the fixed searches: deep enough to measure
// the search rather than its set-up, shallow enough for a second or so.
func abDepth(g game.Game) int {
	if g.Players() > 2 {
		return 4
	}
	return 6
}

// Game measures every figure of one game, calling report with each as it
// is measured. A cancelled ctx stops it with ctx's error.
func Game(ctx context.Context, g game.Game, cfg Config, report func(Figure)) error {
	for _, measure := range []func(context.Context, game.Game, time.Duration) ([]Figure, error){
		playouts, perftEvery, perftBulk, searches,
	} {
		figs, err := measure(ctx, g, cfg.Time)
		if err != nil {
			return err
		}
		for _, f := range figs {
			report(f)
		}
	}
	return nil
}

// playouts plays random games from the start until each ends by the
// game's own rules (Result checked at every ply), for about d.
func playouts(ctx context.Context, g game.Game, d time.Duration) ([]Figure, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	buf := make([]game.Move, 0, 256)
	games, plies := 0, 0
	start := time.Now()
	for time.Since(start) < d || games == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := g.Start()
		for !s.Result().Over() {
			buf = s.Moves(buf[:0])
			s.Play(buf[rng.IntN(len(buf))])
			plies++
		}
		games++
	}
	secs := time.Since(start).Seconds()
	return []Figure{{Game: g.ID(), Name: "playouts/s", Value: float64(games) / secs, Plies: float64(plies) / float64(games)}}, nil
}

func perftEvery(ctx context.Context, g game.Game, d time.Duration) ([]Figure, error) {
	return perftRate(ctx, g, d, "perft/s", game.Perft)
}

func perftBulk(ctx context.Context, g game.Game, d time.Duration) ([]Figure, error) {
	return perftRate(ctx, g, d, "perft-bulk/s", game.PerftBulk)
}

// perftRate runs perft from the start at depths 1, 2, ... until a depth
// takes a quarter of d, then repeats that depth until d has passed, and
// reports the nodes per second of the repeated depth alone (the shallow
// ones measure set-up, not speed).
func perftRate(ctx context.Context, g game.Game, d time.Duration, name string, perft func(game.State, int) uint64) ([]Figure, error) {
	s := g.Start()
	depth := 1
	for ; depth < 32; depth++ {
		t := time.Now()
		perft(s, depth)
		if time.Since(t) >= d/4 {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	var nodes uint64
	start := time.Now()
	for time.Since(start) < d || nodes == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		nodes += perft(s, depth)
	}
	return []Figure{{Game: g.ID(), Name: name, Value: float64(nodes) / time.Since(start).Seconds()}}, nil
}

// Positions are the fixed positions the searches are measured on: the
// start and the positions after a seeded random walk's plies.
func Positions(g game.Game) []game.State {
	rng := rand.New(rand.NewPCG(seed, 2))
	var out []game.State
	s := g.Start()
	var buf []game.Move
	for ply := 0; ply <= positionPlies[len(positionPlies)-1] && !s.Result().Over(); ply++ {
		if slices.Contains(positionPlies[:], ply) {
			out = append(out, s.Clone())
		}
		buf = s.Moves(buf[:0])
		s.Play(buf[rng.IntN(len(buf))])
	}
	return out
}

// searches runs the fixed searches: ab to a fixed depth on every
// position (its nodes per second, and the nodes' sum as the signature),
// then uct for a fixed number of iterations (iterations per second).
func searches(ctx context.Context, g game.Game, _ time.Duration) ([]Figure, error) {
	positions := Positions(g)
	abNodes, abTime, err := fixedSearches(ctx, "ab", positions, ai.Limits{Depth: abDepth(g)})
	if err != nil {
		return nil, err
	}
	iters, mctsTime, err := fixedSearches(ctx, "uct", positions, ai.Limits{Nodes: mctsIterations})
	if err != nil {
		return nil, err
	}
	return []Figure{
		{Game: g.ID(), Name: "ab-nodes/s", Value: float64(abNodes) / max(abTime.Seconds(), 1e-9)},
		{Game: g.ID(), Name: "mcts-iterations/s", Value: float64(iters) / max(mctsTime.Seconds(), 1e-9)},
		{Game: g.ID(), Name: "signature", Value: float64(abNodes)},
	}, nil
}

// fixedSearches searches every position with a fresh engine of spec
// within lim, and returns the nodes and the time of all the searches.
func fixedSearches(ctx context.Context, spec string, positions []game.State, lim ai.Limits) (int64, time.Duration, error) {
	var nodes int64
	var took time.Duration
	for _, s := range positions {
		e, err := ai.New(spec, seed)
		if err != nil {
			return 0, 0, err
		}
		info := e.Search(ctx, s, lim, nil)
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		if info.Err != nil {
			return 0, 0, info.Err
		}
		nodes += info.Nodes
		took += info.Elapsed
	}
	return nodes, took, nil
}
