// Package ai chooses moves for every game through the core's interfaces
// only: a random player, a plain UCT yardstick, and alpha-beta with
// iterative deepening, a transposition table and quiescence over the
// compulsory captures. Game knowledge comes from game.Evaluator when a game
// implements it, and from a material count otherwise.
//
// Engines are deterministic for a seed and a node or depth limit, keep no
// package-level state, and never modify the state they are given: several
// engines can search at once, even on one state. An engine may be given
// an evaluation of its own (WithEvaluation), so that engines judging one
// game by different weights can play each other in one process.
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
//
// An engine keeps what it learns between searches (tables, a tree), so
// one engine's Search must not be called concurrently: give each
// goroutine an engine of its own. Different engines may search at once,
// on one state too, since a search only reads the state it is given.
type Engine interface {
	// Name is the spec the engine was made from.
	Name() string
	// Search chooses a move for the player to move in s, which must have a
	// legal move. It leaves s as it was. report, if not nil, is called
	// after each completed iteration. Cancelling ctx stops the search
	// soon after (it is looked at every 1024 nodes, as the time limit
	// is), and Search returns the best move found so far.
	Search(ctx context.Context, s game.State, lim Limits, report func(Info)) Info
}

// Option gives an engine what its spec cannot say.
type Option func(*options)

type options struct {
	eval game.Evaluation
}

// WithEvaluation makes an engine judge positions by ev (such as
// pommel.Evaluation(w) for weights w) instead of the game's own
// evaluation. The engines that evaluate take it: ab, mcts and level; uct
// and random refuse it. A search of a game that ev does not judge fails
// with Info.Err.
func WithEvaluation(ev game.Evaluation) Option {
	return func(o *options) { o.eval = ev }
}

// New makes an engine from a spec "kind" or "kind:key=value,key=value":
//
//	random
//	uct            c=1.414 (exploration), playout=200 (ply cap of a playout)
//	ab             depth=N (caps every search), tt=N (log2 of the table entries)
//	mcts           c=0.7, cutoff=8 (playout plies before the evaluation), scale=150,
//	               tt=0 (1: share statistics between transpositions)
//	level=N        1..6, for people (also written ai:level=N)
//
// opts add what a spec cannot say, such as WithEvaluation.
func New(spec string, seed uint64, opts ...Option) (Engine, error) {
	kind, params, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.eval != nil && (kind == "random" || kind == "uct") {
		return nil, fmt.Errorf("player %q does not evaluate positions: an evaluation is for ab, mcts and level", spec)
	}
	switch kind {
	case "random":
		return newRandom(spec, seed), nil
	case "uct":
		e, err := newUCT(spec, seed, params)
		if err != nil {
			return nil, err // a plain nil, never a typed nil in an Engine
		}
		return e, nil
	case "ab":
		e, err := newAB(spec, seed, params)
		if err != nil {
			return nil, err
		}
		e.eval = o.eval
		return e, nil
	case "mcts":
		e, err := newMCTS(spec, seed, params)
		if err != nil {
			return nil, err
		}
		e.eval = o.eval
		return e, nil
	case "level":
		e, err := newLevel(spec, seed, params)
		if err != nil {
			return nil, err
		}
		e.inner.eval = o.eval
		return e, nil
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

// scores returns each player's score of s: by ev when the engine was
// given an evaluation, else by the game's own evaluation if it has one,
// else by material.
func scores(s game.State, ev game.Evaluation) [game.MaxPlayers]int {
	if ev != nil {
		return ev.Evaluate(s)
	}
	if g, ok := s.(game.Evaluator); ok {
		return g.Evaluate()
	}
	return material(s)
}

// checkEvaluation tells why ev cannot judge s, or returns nil.
func checkEvaluation(ev game.Evaluation, s game.State) error {
	if ev != nil && !ev.Judges(s) {
		return fmt.Errorf("the engine's evaluation cannot judge positions of %s", s.Game().ID())
	}
	return nil
}

// evaluateFor scores the position for player me by ev (see scores): its
// score less the best of the others'.
func evaluateFor(s game.State, me game.Player, ev game.Evaluation) int {
	e := scores(s, ev)
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
