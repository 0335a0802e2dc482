// Package ai chooses moves for every game through the core's interfaces
// only: a random player, a plain UCT yardstick, and alpha-beta with
// iterative deepening, a transposition table and quiescence over the
// compulsory captures. Game knowledge comes from game.Evaluator when a game
// implements it, and from a material count otherwise.
//
// Engines are deterministic for a seed and a node or depth limit, keep no
// package-level state, and never modify the state they are given: several
// can search at once.
package ai

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Limits bound a search; zero fields do not limit. A search with no limit
// at all stops at MaxDepth.
type Limits struct {
	MoveTime time.Duration
	// Nodes counts what the engine counts: positions for ab, iterations
	// (one playout each) for uct and mcts.
	Nodes int64
	// Depth is in plies for ab; the Monte Carlo engines ignore it.
	Depth int
}

// Info describes a search: the move it chose, its score from the mover's
// point of view (ab: hundredths of a piece, wins near ±Mate; uct and mcts:
// the move's expected share of the point in thousandths, less an even
// share for mcts), how deep it went and how much it visited (see Limits),
// and the expected line of play.
type Info struct {
	Move    game.Move
	Score   int
	Depth   int
	Nodes   int64
	PV      []game.Move
	Elapsed time.Duration
	// Err is set when the engine could not choose a move (an external
	// engine that failed or answered an illegal move); Move is then unset.
	Err error
}

// Mate is the score of a won position; a win in n plies scores Mate-n.
const Mate = 1_000_000

// MaxDepth bounds iterative deepening.
const MaxDepth = 64

// Engine chooses moves.
type Engine interface {
	// Name is the spec the engine was made from.
	Name() string
	// Search chooses a move for the player to move in s, which must have a
	// legal move. It leaves s as it was. report, if not nil, is called
	// after each completed iteration.
	Search(ctx context.Context, s game.State, lim Limits, report func(Info)) Info
}

// New makes an engine from a spec "kind" or "kind:key=value,key=value":
//
//	random
//	uct            c=1.414 (exploration), playout=200 (ply cap of a playout)
//	ab             depth=N (caps every search), tt=N (log2 of the table entries)
//	mcts           c=0.7, cutoff=8 (playout plies before the evaluation), scale=150,
//	               tt=0 (1: share statistics between transpositions)
//	level=N        1..6, for people (also written ai:level=N)
func New(spec string, seed uint64) (Engine, error) {
	kind, params, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "random":
		return newRandom(spec, seed), nil
	case "uct":
		return newUCT(spec, seed, params)
	case "ab":
		return newAB(spec, seed, params)
	case "mcts":
		return newMCTS(spec, seed, params)
	case "level":
		return newLevel(spec, seed, params)
	}
	return nil, fmt.Errorf("unknown player %q: use random, uct, mcts, ab or ai:level=1..6", spec)
}

// parseSpec splits "kind:k=v,k=v"; "ai:level=4" and "level=4" mean the
// level kind.
func parseSpec(spec string) (string, map[string]string, error) {
	kind, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if strings.Contains(kind, "=") {
		kind, rest = "ai", kind
	}
	params := map[string]string{}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return "", nil, fmt.Errorf("player %q: write parameters as key=value", spec)
			}
			params[k] = v
		}
	}
	if kind == "ai" {
		if _, ok := params["level"]; !ok {
			return "", nil, fmt.Errorf("player %q: ai needs level=1..6", spec)
		}
		kind = "level"
	}
	return kind, params, nil
}

// intParam reads an integer parameter with a default and a range.
func intParam(params map[string]string, key string, def, lo, hi int) (int, error) {
	v, ok := params[key]
	if !ok {
		return def, nil
	}
	delete(params, key)
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%s: want a whole number from %d to %d", key, v, lo, hi)
	}
	return n, nil
}

// floatParam reads a number parameter with a default.
func floatParam(params map[string]string, key string, def float64) (float64, error) {
	v, ok := params[key]
	if !ok {
		return def, nil
	}
	delete(params, key)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%s=%s: want a number, 0 or more", key, v)
	}
	return f, nil
}

// noneLeft reports parameters that no one read.
func noneLeft(spec string, params map[string]string) error {
	for k := range params {
		return fmt.Errorf("player %q: unknown parameter %q", spec, k)
	}
	return nil
}

// clock tells a search when to stop.
type clock struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time
	nodes    int64
	maxNodes int64
	stopped  bool
}

func newClock(ctx context.Context, lim Limits) *clock {
	c := &clock{ctx: ctx, start: time.Now(), maxNodes: lim.Nodes}
	if lim.MoveTime > 0 {
		c.deadline = c.start.Add(lim.MoveTime)
	}
	return c
}

// tick counts a node and reports whether the search must stop. The time
// and the context are looked at every 1024 nodes.
func (c *clock) tick() bool {
	c.nodes++
	if c.stopped {
		return true
	}
	if c.maxNodes > 0 && c.nodes >= c.maxNodes {
		c.stopped = true
	} else if c.nodes&1023 == 0 {
		if !c.deadline.IsZero() && time.Now().After(c.deadline) || c.ctx.Err() != nil {
			c.stopped = true
		}
	}
	return c.stopped
}

// evaluate scores a position for the player to move: the game's own
// evaluation if it has one, else material.
func evaluate(s game.State) int { return evaluateFor(s, s.ToMove()) }

// evaluateFor scores the position for player me: its evaluation less the
// best of the others'.
func evaluateFor(s game.State, me game.Player) int {
	var e [game.MaxPlayers]int
	if ev, ok := s.(game.Evaluator); ok {
		e = ev.Evaluate()
	} else {
		e = material(s)
	}
	best := -1 << 60
	for p := 0; p < s.Game().Players(); p++ {
		if game.Player(p) != me && e[p] > best {
			best = e[p]
		}
	}
	return e[me] - best
}

// material counts pieces: 100 for a man, 300 for a king, whole stacks
// counted for their commander's owner when the game has stacks.
func material(s game.State) [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	b := s.Game().Board()
	stacker, stacked := s.(game.Stacker)
	var buf []game.Piece
	for c := 0; c < b.Len(); c++ {
		owner := s.Owner(board.Cell(c))
		if owner == game.NoPlayer {
			continue
		}
		if !stacked {
			e[owner] += 100
			continue
		}
		buf = stacker.Stack(board.Cell(c), buf[:0])
		for _, p := range buf {
			v := 100
			if p.Rank == game.King {
				v = 300
			}
			e[owner] += v
		}
	}
	return e
}

// resultScore scores a finished game for the player to move at ply plies
// from the root: a win or loss by distance, a draw or shared result by the
// player's share.
func resultScore(r game.Result, me game.Player, ply int) int {
	switch {
	case r.Winners == 0:
		return 0
	case r.Winners.Has(me) && r.Winners.Len() == 1:
		return Mate - ply
	case r.Winners.Has(me):
		return 0
	default:
		return -Mate + ply
	}
}
