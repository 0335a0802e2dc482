package ai

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"

	"github.com/arbiter-games/arbiter/game"
)

// mcts is the strong Monte Carlo player for any number of players: UCB1
// selection on reward vectors, playouts cut off after a few plies and
// judged by the game's evaluation (turned into a share of the point for
// each player), a solver that marks proven results and plays a proven win
// at once, and reuse of the subtree of the position it meets next.
type mcts struct {
	name   string
	c      float64
	cutoff int
	scale  float64
	rng    *rand.Rand
	root   *mnode // kept between searches for reuse
	// budget counts the bytes of the tree, table included, and stops its
	// growth at the tree parameter.
	budget treeBudget
	// transpose shares what is learnt about a position between the nodes
	// that reach it by different orders of moves (positions keyed by
	// hash in table): a child's value is the mean over all its visits,
	// its exploration term still counts the visits through this edge.
	transpose bool
	table     map[uint64]*pstats
	// eval, when set, judges positions instead of the game's own
	// evaluation (WithEvaluation).
	eval game.Evaluation
	// tester, when the game's states have one, tells at a playout's end
	// whether the position is over without listing its moves.
	tester leafTester
}

// pstats is what the search has learnt about one position, over every
// node that holds it.
type pstats struct {
	visits float64
	reward [game.MaxPlayers]float64
}

// mctsConfig is what an mcts spec says (see New for the ranges).
type mctsConfig struct {
	c         float64
	cutoff    int
	scale     float64
	transpose bool
	treeMiB   int
}

func parseMCTS(p *params) mctsConfig {
	return mctsConfig{
		c:      p.float("c", 0.7, 0, 100),
		cutoff: p.int("cutoff", 8, 0, 10_000),
		// The softmax divides by scale: at 1 a point of evaluation is
		// already decisive, and below it the shares would only saturate.
		scale: p.float("scale", 150, 1, 100_000),
		// Off by default: at 100 ms a move sharing did not pay
		// (docs/strength.md).
		transpose: p.int("tt", 0, 0, 1) == 1,
		treeMiB:   p.int("tree", defaultTreeMiB, 1, maxTreeMiB),
	}
}

func newMCTS(spec string, seed uint64, cfg mctsConfig) *mcts {
	return &mcts{name: spec, c: cfg.c, cutoff: cfg.cutoff, scale: cfg.scale, transpose: cfg.transpose,
		budget: newTreeBudget(cfg.treeMiB), rng: rand.New(rand.NewPCG(seed, 0x853c49e6748fea9b))}
}

func (e *mcts) Name() string { return e.name }

// mnode is a tree node. proven, when set, is the exact result of the
// position under best play (as reward shares).
type mnode struct {
	move     game.Move
	mover    game.Player
	hash     uint64
	children []*mnode
	untried  []game.Move
	visits   float64
	reward   [game.MaxPlayers]float64
	proven   *[game.MaxPlayers]float64
	shared   *pstats // with transpositions, the position's statistics
	// listed tells whether untried has been listed: a node lists its
	// moves when it is first expanded, not when it is made, since most
	// nodes stay leaves and their lists would be most of the tree.
	listed bool
}

// Search grows the tree until a limit (default 20,000 iterations) and
// plays the most visited move, or a proven win.
func (e *mcts) Search(ctx context.Context, s0 game.State, lim Limits, report func(Info)) Info {
	if err := checkEvaluation(e.eval, s0); err != nil {
		return Info{Err: err}
	}
	s := s0.Clone()
	e.tester, _ = s.(leafTester)
	stop := newStopper(ctx, lim)
	if lim.MoveTime == 0 && lim.Nodes == 0 && !lim.Clock.On() { // on a clock: the clock's plan
		stop.maxNodes = 20_000
	}
	players := s.Game().Players()
	root := e.reuse(s)
	e.root = root // what the old tree held besides is garbage from here
	e.indexPositions(root)
	e.budget.used = e.treeBytes(root)
	var buf []game.Move
	if !root.listed {
		e.list(root, s, &buf)
	}
	path := make([]*mnode, 0, 64)
	for root.proven == nil && !stop.tick() {
		path = append(path[:0], root)
		n := root
		// In a full tree, through the children a node has, since it will
		// get no more.
		full := e.budget.full()
		for (len(n.untried) == 0 || full) && len(n.children) > 0 && n.proven == nil {
			n = e.selectChild(n, s.ToMove())
			s.Play(n.move)
			path = append(path, n)
		}
		if n.proven == nil && !full {
			if !n.listed {
				e.list(n, s, &buf)
			}
			if len(n.untried) > 0 {
				n = e.expand(n, s, &buf, players)
				path = append(path, n)
			}
		}
		var r [game.MaxPlayers]float64
		if n.proven != nil {
			r = *n.proven
		} else {
			var plies int
			r, plies = e.playout(s, &buf, players)
			for ; plies > 0; plies-- {
				s.Undo()
			}
		}
		for i := len(path) - 1; i >= 0; i-- {
			nd := path[i]
			nd.visits++
			for p := 0; p < players; p++ {
				nd.reward[p] += r[p]
			}
			if nd.shared != nil {
				nd.shared.visits++
				for p := 0; p < players; p++ {
					nd.shared.reward[p] += r[p]
				}
			}
			if i > 0 {
				e.prove(path[i-1])
				s.Undo()
			}
		}
	}
	e.root = root
	best := e.bestChild(root, s.ToMove())
	score := 0
	if best.visits > 0 {
		score = int(1000*best.reward[s.ToMove()]/best.visits) - 1000/players
	}
	if best.proven != nil {
		score = int(1000*best.proven[s.ToMove()]) - 1000/players
		if best.proven[s.ToMove()] == 1 {
			score = Mate - 1
		}
	}
	info := Info{Move: best.move, Score: score, Depth: 1, Nodes: stop.nodes, PV: []game.Move{best.move}, Elapsed: time.Since(stop.start)}
	if report != nil {
		report(info)
	}
	return info
}

// expand adds to n, at position s, a child for one of its untried moves
// chosen at random, plays that move on s and returns the child.
func (e *mcts) expand(n *mnode, s game.State, buf *[]game.Move, players int) *mnode {
	if n.children == nil {
		// Made at its final size, so that its block is known.
		n.children = make([]*mnode, 0, len(n.untried))
		e.budget.add(pointersBytes(cap(n.children)))
	}
	i := e.rng.IntN(len(n.untried))
	m := n.untried[i]
	n.untried[i] = n.untried[len(n.untried)-1]
	n.untried = n.untried[:len(n.untried)-1]
	child := &mnode{move: m, mover: s.ToMove()}
	s.Play(m)
	child.hash = s.Hash()
	child.shared = e.statsOf(child.hash)
	if !e.hasMove(s, buf) {
		r := rewards(s.Result(), players)
		child.proven = &r
	}
	n.children = append(n.children, child)
	e.budget.add(e.nodeBytes(child))
	return child
}

// list gives n, at position s, its untried moves.
func (e *mcts) list(n *mnode, s game.State, buf *[]game.Move) {
	*buf = s.Moves((*buf)[:0]) // kept at its size, as in uct
	n.untried = slices.Clone(*buf)
	n.listed = true
	e.budget.add(movesBytes(cap(n.untried)))
}

// sharedBytes bounds what one position costs in the table of
// transpositions: its statistics, and its slot in the map (16 bytes of
// key and value and a control byte, in a table at most 7/8 full that
// doubles as it grows).
const sharedBytes = 48

// nodeBytes bounds what n holds besides its children: its block, its
// untried moves, its children's slice, its proven result and its share of
// the table. Results and statistics that nodes share are counted for
// each, so the sum over a tree is an upper bound.
func (e *mcts) nodeBytes(n *mnode) int64 {
	b := blockSize(int64(unsafe.Sizeof(*n))) + movesBytes(cap(n.untried)) + pointersBytes(cap(n.children))
	if n.proven != nil {
		b += blockSize(int64(unsafe.Sizeof(*n.proven)))
	}
	if e.transpose {
		b += blockSize(int64(unsafe.Sizeof(pstats{}))) + sharedBytes
	}
	return b
}

// treeBytes is what the tree under n holds (see nodeBytes).
func (e *mcts) treeBytes(n *mnode) int64 {
	b := e.nodeBytes(n)
	for _, c := range n.children {
		b += e.treeBytes(c)
	}
	return b
}

// reuse returns the node of the last search's tree that holds the current
// position (found by hash within a round of moves), or a new root.
func (e *mcts) reuse(s game.State) *mnode {
	h := s.Hash()
	if e.root != nil {
		var find func(n *mnode, depth int) *mnode
		find = func(n *mnode, depth int) *mnode {
			if n.hash == h && !n.terminal() {
				return n
			}
			if depth == 0 {
				return nil
			}
			for _, c := range n.children {
				if f := find(c, depth-1); f != nil {
					return f
				}
			}
			return nil
		}
		if n := find(e.root, s.Game().Players()+1); n != nil {
			n.move = game.Move{}
			return n
		}
	}
	return &mnode{hash: h}
}

// terminal tells whether n is a position with no move: listed with none,
// or proven when it was made (which only a position with no move is).
func (n *mnode) terminal() bool {
	if n.listed {
		return len(n.children)+len(n.untried) == 0
	}
	return n.proven != nil
}

// mean is the node's average reward for player p: over every visit of
// its position when positions are shared, else over its own.
func (n *mnode) mean(p game.Player) float64 {
	if n.shared != nil && n.shared.visits > 0 {
		return n.shared.reward[p] / n.shared.visits
	}
	return n.reward[p] / max(n.visits, 1)
}

// statsOf returns the shared statistics of a position, nil without
// transpositions.
func (e *mcts) statsOf(hash uint64) *pstats {
	if !e.transpose {
		return nil
	}
	st := e.table[hash]
	if st == nil {
		st = &pstats{}
		e.table[hash] = st
	}
	return st
}

// indexPositions rebuilds the table from the (reused) tree, so that it
// holds no position the tree has dropped.
func (e *mcts) indexPositions(root *mnode) {
	if !e.transpose {
		return
	}
	e.table = map[uint64]*pstats{} // sized by the kept tree, not the last one
	var walk func(n *mnode)
	walk = func(n *mnode) {
		if n.shared == nil {
			n.shared = &pstats{visits: n.visits, reward: n.reward}
		}
		if st, ok := e.table[n.hash]; ok && st != n.shared {
			n.shared = st // the same position twice in the kept tree
		} else {
			e.table[n.hash] = n.shared
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(root)
}

// selectChild: a proven win for the player to move is taken at once;
// otherwise UCB1 on the mover's reward, a proven draw or shared win at its
// exact value, proven losses last.
func (e *mcts) selectChild(n *mnode, me game.Player) *mnode {
	logN := math.Log(n.visits + 1)
	var best *mnode
	bestV := math.Inf(-1)
	for _, c := range n.children {
		var v float64
		switch {
		case c.proven == nil:
			v = c.mean(me) + e.c*math.Sqrt(logN/max(c.visits, 1))
		case c.proven[me] == 1:
			v = math.Inf(1)
		case c.proven[me] == 0:
			v = -1 // below every unproven child
		default:
			// A proven draw or shared win is worth exactly its share: no
			// exploration bonus, since there is nothing left to learn.
			v = c.proven[me]
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// prove marks n proven when a child is a proven win for the player to move
// at n, or when every child is proven (n then takes the best of them for
// that player). The player to move at n is its children's mover.
func (e *mcts) prove(n *mnode) {
	if n.proven != nil || len(n.children) == 0 {
		return
	}
	me := n.children[0].mover
	var best *[game.MaxPlayers]float64
	all := len(n.untried) == 0
	for _, c := range n.children {
		if c.proven == nil {
			all = false
			continue
		}
		if c.proven[me] == 1 {
			n.proven = c.proven
			return
		}
		if best == nil || c.proven[me] > best[me] {
			best = c.proven
		}
	}
	if all && best != nil {
		n.proven = best
	}
}

// bestChild: a proven win, else the most visited child that is not a
// proven loss when another is available.
func (e *mcts) bestChild(root *mnode, me game.Player) *mnode {
	if len(root.children) == 0 {
		return &mnode{move: root.untried[0]}
	}
	var best *mnode
	for _, c := range root.children {
		if c.proven != nil && c.proven[me] == 1 {
			return c
		}
		lost := c.proven != nil && c.proven[me] == 0
		if best == nil || !lost && (best.proven != nil && best.proven[me] == 0 || c.visits > best.visits) {
			best = c
		}
	}
	return best
}

// playout plays random moves for at most cutoff plies, then turns the
// evaluation into each player's share of the point.
func (e *mcts) playout(s game.State, buf *[]game.Move, players int) ([game.MaxPlayers]float64, int) {
	plies := 0
	for ; plies < e.cutoff; plies++ {
		*buf = s.Moves((*buf)[:0])
		if len(*buf) == 0 {
			return rewards(s.Result(), players), plies
		}
		s.Play((*buf)[e.rng.IntN(len(*buf))])
	}
	if !e.hasMove(s, buf) {
		return rewards(s.Result(), players), plies
	}
	return e.shares(s, players), plies
}

// hasMove tells whether the player to move in s has a move: by the
// tester when there is one, else by listing the moves into buf.
func (e *mcts) hasMove(s game.State, buf *[]game.Move) bool {
	if e.tester != nil {
		return e.tester.HasMove()
	}
	*buf = s.Moves((*buf)[:0])
	return len(*buf) > 0
}

// shares turns scores into expected shares of the point (a softmax).
func (e *mcts) shares(s game.State, players int) [game.MaxPlayers]float64 {
	ev := scores(s, e.eval)
	var out [game.MaxPlayers]float64
	top := ev[0]
	for p := 1; p < players; p++ {
		top = max(top, ev[p])
	}
	sum := 0.0
	for p := 0; p < players; p++ {
		out[p] = math.Exp(float64(ev[p]-top) / e.scale)
		sum += out[p]
	}
	for p := 0; p < players; p++ {
		out[p] /= sum
	}
	return out
}
