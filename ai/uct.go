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

// uct is plain UCT as general game systems ship it: UCB1 selection with
// exploration c (sqrt 2 by default), one node added per iteration, uniform
// random playouts cut at a ply cap and scored as a draw, rewards as a
// vector with one share per player. It is the yardstick the other
// players are measured against, so it stays plain.
type uct struct {
	name    string
	c       float64
	plies   int
	treeMiB int
	rng     *rand.Rand
}

// uctConfig is what a uct spec says (see New for the ranges).
type uctConfig struct {
	c       float64
	playout int
	treeMiB int
}

func parseUCT(p *params) uctConfig {
	return uctConfig{
		c:       p.float("c", math.Sqrt2, 0, 100),
		playout: p.int("playout", 200, 1, 100_000),
		treeMiB: p.int("tree", defaultTreeMiB, 1, maxTreeMiB),
	}
}

func newUCT(spec string, seed uint64, cfg uctConfig) *uct {
	return &uct{name: spec, c: cfg.c, plies: cfg.playout, treeMiB: cfg.treeMiB,
		rng: rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))}
}

func (u *uct) Name() string { return u.name }

// node is a position in the tree, reached by move from its parent; mover
// is the player who made that move, whose reward the node's value counts.
type node struct {
	move     game.Move
	mover    game.Player
	children []*node
	untried  []game.Move
	visits   float64
	reward   float64
	// listed tells whether untried has been listed: a node lists its
	// moves when it is first expanded, not when it is made, since most
	// nodes stay leaves and their lists would be most of the tree.
	listed bool
}

// Search runs iterations until a limit (default 10,000 iterations) and
// returns the most visited move. Score is the expected reward ×1000.
func (u *uct) Search(ctx context.Context, s0 game.State, lim Limits, report func(Info)) Info {
	s := s0.Clone()
	stop := newStopper(ctx, lim)
	if lim.MoveTime == 0 && lim.Nodes == 0 && !lim.Clock.On() { // on a clock: the clock's plan
		stop.maxNodes = 10_000
	}
	players := s.Game().Players()
	budget := newTreeBudget(u.treeMiB)
	var buf []game.Move
	root := &node{}
	budget.add(root.bytes())
	root.list(s, &buf, &budget)
	path := make([]*node, 0, 64)
	for !stop.tick() {
		path = append(path[:0], root)
		n := root
		// Selection; in a full tree, through the children a node has,
		// since it will get no more.
		full := budget.full()
		for (len(n.untried) == 0 || full) && len(n.children) > 0 {
			n = u.select_(n)
			s.Play(n.move)
			path = append(path, n)
		}
		// Expansion, while the tree has room.
		if !full {
			if !n.listed {
				n.list(s, &buf, &budget)
			}
			if len(n.untried) > 0 {
				n = u.expand(n, s, &budget)
				path = append(path, n)
			}
		}
		// Playout.
		rewards, plies := u.playout(s, &buf, players)
		for ; plies > 0; plies-- {
			s.Undo()
		}
		// Backpropagation.
		for i := len(path) - 1; i >= 1; i-- {
			path[i].visits++
			path[i].reward += rewards[path[i].mover]
			s.Undo()
		}
		root.visits++
	}
	if len(root.children) == 0 { // no iteration ran
		root.children = append(root.children, &node{move: root.untried[0]})
	}
	best := root.children[0]
	for _, c := range root.children {
		if c.visits > best.visits {
			best = c
		}
	}
	info := Info{Move: best.move, Score: int(1000 * best.reward / max(best.visits, 1)), Depth: 1,
		Nodes: stop.nodes, PV: []game.Move{best.move}, Elapsed: time.Since(stop.start)}
	if report != nil {
		report(info)
	}
	return info
}

// expand adds to n, at position s, a child for one of its untried moves
// chosen at random, plays that move on s and returns the child.
func (u *uct) expand(n *node, s game.State, budget *treeBudget) *node {
	if n.children == nil {
		// Made at its final size, so that its block is known.
		n.children = make([]*node, 0, len(n.untried))
		budget.add(pointersBytes(cap(n.children)))
	}
	i := u.rng.IntN(len(n.untried))
	m := n.untried[i]
	n.untried[i] = n.untried[len(n.untried)-1]
	n.untried = n.untried[:len(n.untried)-1]
	child := &node{move: m, mover: s.ToMove()}
	s.Play(m)
	n.children = append(n.children, child)
	budget.add(child.bytes())
	return child
}

// list gives n, at position s, its untried moves.
func (n *node) list(s game.State, buf *[]game.Move, budget *treeBudget) {
	// Listed into the playouts' buffer and kept at their size: one
	// allocation, not the generator's growing appends.
	*buf = s.Moves((*buf)[:0])
	n.untried = slices.Clone(*buf)
	n.listed = true
	budget.add(movesBytes(cap(n.untried)))
}

// bytes is the block of a node alone (list and expand count the rest).
func (n *node) bytes() int64 { return blockSize(int64(unsafe.Sizeof(*n))) }

// select_ picks the child with the highest UCB1 value.
func (u *uct) select_(n *node) *node {
	logN := math.Log(n.visits)
	var best *node
	bestV := math.Inf(-1)
	for _, c := range n.children {
		v := c.reward/c.visits + u.c*math.Sqrt(logN/c.visits)
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// playout plays uniformly random moves until the game ends or the ply cap,
// and returns each player's reward and how many plies it played.
func (u *uct) playout(s game.State, buf *[]game.Move, players int) ([game.MaxPlayers]float64, int) {
	plies := 0
	for ; plies < u.plies; plies++ {
		*buf = s.Moves((*buf)[:0])
		if len(*buf) == 0 {
			break
		}
		s.Play((*buf)[u.rng.IntN(len(*buf))])
	}
	var r game.Result
	if plies < u.plies {
		r = s.Result()
	}
	return rewards(r, players), plies
}

// rewards shares one point among the winners, or among all players when
// there is none (a draw or an unfinished playout).
func rewards(r game.Result, players int) [game.MaxPlayers]float64 {
	var out [game.MaxPlayers]float64
	n := r.Winners.Len()
	for p := 0; p < players; p++ {
		switch {
		case n == 0:
			out[p] = 1 / float64(players)
		case r.Winners.Has(game.Player(p)):
			out[p] = 1 / float64(n)
		}
	}
	return out
}
