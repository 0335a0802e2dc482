package ai

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// uct is plain UCT as general game systems ship it: UCB1 selection with
// exploration c (sqrt 2 by default), one node added per iteration, uniform
// random playouts cut at a ply cap and scored as a draw, rewards as a
// vector with one share per player. It is the yardstick the other
// players are measured against, so it stays plain.
type uct struct {
	name  string
	c     float64
	plies int
	rng   *rand.Rand
}

func newUCT(spec string, seed uint64, params map[string]string) (*uct, error) {
	c, err := floatParam(params, "c", math.Sqrt2)
	if err != nil {
		return nil, err
	}
	playout, err := intParam(params, "playout", 200, 1, 100_000)
	if err != nil {
		return nil, err
	}
	if err := noneLeft(spec, params); err != nil {
		return nil, err
	}
	return &uct{name: spec, c: c, plies: playout, rng: rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))}, nil
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
	terminal bool
}

// Search runs iterations until a limit (default 10,000 iterations) and
// returns the most visited move. Score is the expected reward ×1000.
func (u *uct) Search(ctx context.Context, s0 game.State, lim Limits, report func(Info)) Info {
	s := s0.Clone()
	clk := newClock(ctx, lim)
	if lim.MoveTime == 0 && lim.Nodes == 0 {
		clk.maxNodes = 10_000
	}
	players := s.Game().Players()
	root := &node{untried: s.Moves(nil)}
	path := make([]*node, 0, 64)
	var buf []game.Move
	for !clk.tick() {
		path = append(path[:0], root)
		n := root
		// Selection.
		for len(n.untried) == 0 && len(n.children) > 0 {
			n = u.select_(n)
			s.Play(n.move)
			path = append(path, n)
		}
		// Expansion.
		if len(n.untried) > 0 {
			i := u.rng.IntN(len(n.untried))
			m := n.untried[i]
			n.untried[i] = n.untried[len(n.untried)-1]
			n.untried = n.untried[:len(n.untried)-1]
			child := &node{move: m, mover: s.ToMove()}
			s.Play(m)
			// Listed into the playouts' buffer and kept at their size:
			// one allocation, not the generator's growing appends.
			buf = s.Moves(buf[:0])
			child.untried = slices.Clone(buf)
			child.terminal = len(child.untried) == 0
			n.children = append(n.children, child)
			n = child
			path = append(path, n)
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
		Nodes: clk.nodes, PV: []game.Move{best.move}, Elapsed: time.Since(clk.start)}
	if report != nil {
		report(info)
	}
	return info
}

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
