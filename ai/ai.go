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
	"time"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Limits bound a search; zero fields do not limit. A search with no limit
// at all stops at MaxDepth.
type Limits struct {
	// MoveTime is the most the search takes, on a clock too.
	MoveTime time.Duration
	// Nodes counts what the engine counts: positions for ab, iterations
	// (one playout each) for uct and mcts.
	Nodes int64
	// Depth is in plies for ab; the Monte Carlo engines ignore it.
	Depth int
	// Clock, when On, is the mover's clock: the search plans its time by
	// PlanTime. ab stretches or shrinks its budget by how clear the
	// position looks and answers a forced move at once; the Monte Carlo
	// engines spend the plan's Soft. An external engine is sent the clock.
	Clock MoverClock
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
	// Lines, set by SearchLines only, are the best moves, best first,
	// each with its exact score and line; the first is Move, Score and PV.
	Lines []Line
}

// Mate is the score of a won position; a win in n plies scores Mate-n.
const Mate = 1_000_000

// MaxDepth bounds iterative deepening.
const MaxDepth = 64

// Engine chooses moves.
//
// An engine keeps what it learns between searches (a transposition table, a tree), so
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
	eval    game.Evaluation
	tables  *endgame.Tables
	threads threadsOption // WithThreads, smp.go
}

// WithEvaluation makes an engine judge positions by ev (such as
// pommel.Evaluation(w) for weights w) instead of the game's own
// evaluation. The engines that evaluate take it: ab, mcts and level; uct
// and random refuse it. A search of a game that ev does not judge fails
// with Info.Err.
func WithEvaluation(ev game.Evaluation) Option {
	return func(o *options) { o.eval = ev }
}

// New makes an engine from a spec "kind" or "kind:key=value,key=value".
// Every parameter has a default and a range; a value out of its range,
// NaN or an infinity is refused, and the error names the parameter and
// its range:
//
//	random
//	uct            c=1.414 (exploration, 0 to 100), playout=200 (ply cap of a
//	               playout, 1 to 100000), tree=16 (MiB the tree may hold, 1 to 16384)
//	ab             depth=N (caps every search, 1 to 64), tt=20 (log2 of the
//	               table's entries of 16 bytes, 10 to 26), threads=1 (1 to
//	               64, lazy SMP: see smp.go; the levels take it too),
//	               nplayer=paranoid (or brs: how three players are
//	               searched, see brs.go)
//	mcts           c=0.7 (0 to 100), cutoff=8 (playout plies before the
//	               evaluation, 0 to 10000), scale=150 (evaluation points per
//	               unit of the softmax, 1 to 100000), tt=0 (1: share statistics
//	               between transpositions), tree=16 (as uct's)
//	level=N        1..6, for people (also written ai:level=N)
//
// ab also takes tables=on or tables=off: whether it probes the endgame
// tables given by WithTables (on when they are given, unless off; on
// without tables is refused), so that one match can give the tables to
// one player and not the other.
//
// A tree full to its bound stops growing: the search goes on with
// playouts from the tree's leaves. Footprint tells the memory an engine
// holds, CheckForServer what a server should refuse.
//
// opts add what a spec cannot say, such as WithEvaluation.
func New(spec string, seed uint64, opts ...Option) (Engine, error) {
	cfg, err := parseConfig(spec)
	if err != nil {
		return nil, err
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.threads.apply(&cfg); err != nil {
		return nil, err
	}
	if o.eval != nil && (cfg.kind == "random" || cfg.kind == "uct") {
		return nil, fmt.Errorf("player %s does not evaluate positions: an evaluation is for ab, mcts and level", clip.Quote(spec))
	}
	switch cfg.kind {
	case "random":
		return newRandom(spec, seed), nil
	case "uct":
		return newUCT(spec, seed, cfg.uct), nil
	case "ab":
		e := newAB(spec, cfg.ab)
		e.eval = o.eval
		if err := e.useTables(cfg.ab.tables, o.tables); err != nil {
			return nil, specError(spec, err)
		}
		return e, nil
	case "mcts":
		e := newMCTS(spec, seed, cfg.mcts)
		e.eval = o.eval
		return e, nil
	default: // parseConfig knows no other kind
		e := newLevel(spec, seed, cfg.level)
		e.inner.eval = o.eval
		e.inner.setThreads(cfg.ab.threads)
		if cfg.level == len(levels)-1 && o.tables != nil {
			e.inner.useTables(tablesAuto, o.tables) // the strongest level only: see WithTables
		}
		return e, nil
	}
}

// stopper tells a search when to stop: its node count, its deadline and
// its context. It is no game clock (that is the mover's, MoverClock), but
// it may follow one's plan.
type stopper struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time
	nodes    int64
	maxNodes int64
	stopped  bool
	// timed, on a game clock, is the time manager; moveTime is the
	// search's own limit (0: none), which its deadline never passes.
	timed    *timeManager
	moveTime time.Duration
}

// newStopper starts the stopper of a search within lim. On a game clock the
// deadline is at first the plan's Soft, which suits an engine that does
// not iterate; an iterative search earns the Hard limit with its first
// iteration (see enough).
func newStopper(ctx context.Context, lim Limits) *stopper {
	st := &stopper{ctx: ctx, start: time.Now(), maxNodes: lim.Nodes, moveTime: lim.MoveTime}
	if lim.Clock.On() {
		st.timed = &timeManager{plan: PlanTime(lim.Clock)}
		st.setDeadline(st.timed.plan.Soft)
	} else if lim.MoveTime > 0 {
		st.deadline = st.start.Add(lim.MoveTime)
	}
	return st
}

// setDeadline puts the deadline d after the start, or at the search's own
// move time if that comes first.
func (st *stopper) setDeadline(d time.Duration) {
	if st.moveTime > 0 {
		d = min(d, st.moveTime)
	}
	st.deadline = st.start.Add(d)
}

// enough is an iterative search's stop decision after an iteration that
// found best among moves root moves: on a game clock the time manager's
// (which also moves the deadline to the plan's Hard limit), without one
// never (the search stops at its limits).
func (st *stopper) enough(moves int, best Info) bool {
	if st.timed == nil {
		return false
	}
	if st.timed.iterations == 0 {
		st.setDeadline(st.timed.plan.Hard)
	}
	return st.timed.enough(moves, best, time.Since(st.start))
}

// tick counts a node and reports whether the search must stop. The time
// and the context are looked at every 1024 nodes.
func (st *stopper) tick() bool {
	st.nodes++
	if st.stopped {
		return true
	}
	if st.maxNodes > 0 && st.nodes >= st.maxNodes {
		st.stopped = true
	} else if st.nodes&1023 == 0 {
		if !st.deadline.IsZero() && time.Now().After(st.deadline) || st.ctx.Err() != nil {
			st.stopped = true
		}
	}
	return st.stopped
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
