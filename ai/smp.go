package ai

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/game"
)

// Lazy SMP: ab with threads=N runs N searches of the same root at once,
// one per goroutine, each with its own position, killers, history and
// stacks, all sharing one transposition table (tt.go). What one thread
// stores, the others find: the helpers' searches fill the table with the
// bounds and best moves of the positions the main thread meets next, so
// the main thread deepens faster, by time, than it would alone.
//
// The helpers deepen with a skew (skipsDepth), so that at any moment some
// of them search one ply deeper than the main thread and they do not all
// walk the same tree in step. The answer is the main thread's, unless a
// helper completed a deeper iteration, whose answer is then taken (not
// when the engine declines moves, which only the main thread does).
//
// Limits: the time and the depth bound every thread alike; a node limit
// is the budget of all the threads together, each searching at most its
// share (Nodes/N, the main thread the remainder). Info.Nodes counts every
// thread's nodes: in the reports during the search, the helpers' nodes of
// their last completed iteration; in the answer, all of them.
//
// Threads are 1 to MaxThreads. One thread is ab as it always was: the
// same tree, the same nodes, deterministic. More threads are not: which
// thread stores a position first changes what the others find, so the
// same search may answer differently from run to run (always a legal
// move, a forced result scored alike). SearchLines searches with the main
// thread alone.

// MaxThreads bounds threads=N: beyond the cores of any machine this runs
// on, more threads only take turns.
const MaxThreads = 64

// lazySMP is what an engine with threads > 1 keeps between searches: its
// helpers (each an ab of one thread on the engine's table, kept so that
// their history carries over as the main thread's does), and whether a
// search is under way, so that the main thread's own Search, called from
// searchSMP, searches rather than starting helpers again.
type lazySMP struct {
	helpers []*ab
	running bool
}

// searchSMP runs the main thread's search of s0 with the helpers beside
// it, stops the helpers when it ends, and returns the answer.
func (e *ab) searchSMP(ctx context.Context, s0 game.State, lim Limits, report func(Info)) Info {
	lz := e.lazy
	e.ensureHelpers()
	mainLim, helperLim := splitNodes(lim, e.threads)
	helperCtx, stopHelpers := context.WithCancel(ctx)
	defer stopHelpers()
	done := make([]Info, len(lz.helpers))
	progress := make([]atomic.Int64, len(lz.helpers))
	var wg sync.WaitGroup
	for i, h := range lz.helpers {
		wg.Go(func() {
			done[i] = h.Search(helperCtx, s0, helperLim, func(in Info) { progress[i].Store(in.Nodes) })
		})
	}
	var mainReport func(Info)
	if report != nil {
		mainReport = func(in Info) {
			for i := range progress {
				in.Nodes += progress[i].Load()
			}
			report(in)
		}
	}
	lz.running = true
	info := e.Search(ctx, s0, mainLim, mainReport)
	lz.running = false
	stopHelpers()
	wg.Wait()
	return e.pickAnswer(info, done)
}

// pickAnswer returns the main thread's answer, or a helper's that went
// deeper, with the nodes of every thread.
func (e *ab) pickAnswer(main Info, helpers []Info) Info {
	answer := main
	for _, h := range helpers {
		main.Nodes += h.Nodes
		deeper := h.Err == nil && len(h.PV) > 0 && h.Depth > answer.Depth
		if deeper && main.Err == nil && e.avoid == avoidNothing {
			answer = h
		}
	}
	answer.Nodes, answer.Elapsed = main.Nodes, main.Elapsed
	return answer
}

// ensureHelpers makes the helpers the engine's threads call for, once.
func (e *ab) ensureHelpers() {
	lz := e.lazy
	for k := len(lz.helpers) + 1; k < e.threads; k++ {
		h := &ab{name: e.name, depthLimit: e.depthLimit, tt: e.tt, threads: 1, skew: k, eval: e.eval, nplayer: e.nplayer}
		if e.prober != nil {
			h.prober = e.prober.Tables().NewProber()
		}
		lz.helpers = append(lz.helpers, h)
	}
}

// splitNodes shares a node limit among threads: the helpers have
// Nodes/threads each, the main thread the rest. Without a node limit
// every thread has lim.
func splitNodes(lim Limits, threads int) (main, helper Limits) {
	main, helper = lim, lim
	if lim.Nodes > 0 {
		share := max(1, lim.Nodes/int64(threads))
		helper.Nodes = share
		main.Nodes = max(1, lim.Nodes-share*int64(threads-1))
	}
	return main, helper
}

// skipsDepth tells whether the thread skips the iteration of depth: the
// main thread (skew 0) never does; helper k skips depths in runs of
// 1+(k-1)/2, offset by k, so that helper 1 searches the odd depths,
// helper 2 the even ones, helpers 3 and 4 two depths of four, and so on.
func (e *ab) skipsDepth(depth int) bool {
	if e.skew == 0 {
		return false
	}
	run := 1 + (e.skew-1)/2
	return (depth+e.skew)/run%2 == 1
}

// setThreads sets the engine's threads, which New has checked.
func (e *ab) setThreads(n int) {
	e.threads = n
	e.tt.shared = n > 1
	if n > 1 && e.lazy == nil {
		e.lazy = &lazySMP{}
	}
}

// WithThreads makes ab and the levels search with n threads (lazy SMP,
// see docs/strength.md), overriding a threads=N of the spec; random, uct
// and mcts ignore it, so that a command can give it to every player it
// makes. New refuses n below 1 or above MaxThreads.
func WithThreads(n int) Option {
	return func(o *options) { o.threads = threadsOption{n: n, given: true} }
}

// threadsOption is what WithThreads gave, if it was given.
type threadsOption struct {
	n     int
	given bool
}

// apply sets cfg's threads as WithThreads asked, or says why it cannot.
func (t threadsOption) apply(cfg *config) error {
	if !t.given {
		return nil
	}
	if t.n < 1 || t.n > MaxThreads {
		return fmt.Errorf("threads %d: want a whole number from 1 to %d", t.n, MaxThreads)
	}
	cfg.ab.threads = t.n
	return nil
}

// helperBytes is what the helpers of an engine of threads threads hold:
// each an ab of its own, on the main thread's table.
func helperBytes(threads int) int64 {
	return int64(max(0, threads-1)) * sizeOf[ab]()
}
