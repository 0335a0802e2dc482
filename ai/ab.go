package ai

import (
	"context"
	"time"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// ab is alpha-beta (negamax) for two players: iterative deepening, a
// transposition table on the Zobrist hash, move ordering (hash move,
// captures by length, killers, history) and quiescence over captures.
//
// With three players it searches paranoid: the player at the root
// maximises its score over the best of the others, and every other player
// is assumed to minimise that same number, as if they played together.
// Scores are kept from the point of view of the side to move (the root's
// side or the coalition), so negamax negates only where the side changes.
type ab struct {
	name       string
	depthLimit int
	root       game.Player
	paranoid   bool // three or more players
	tt         []ttEntry
	clk        *clock
	s          game.State
	bufs       [2*MaxDepth + 2][]game.Move
	scores     [2*MaxDepth + 2][]int64
	killers    [2*MaxDepth + 2][2]game.Move
	history    [board.MaxCells][board.MaxCells]int32
	pv         [2*MaxDepth + 2][2*MaxDepth + 2]game.Move
	pvLen      [2*MaxDepth + 2]int
	path       [2*MaxDepth + 2]uint64
	// eval, when set, judges positions instead of the game's own
	// evaluation (WithEvaluation).
	eval game.Evaluation
	// played holds the positions of the game before the root: reaching
	// one again in the search is scored as a draw, as a repetition in the
	// search is, so that a side ahead does not walk into the threefold
	// repetition its opponent is steering for.
	played map[uint64]struct{}
}

// ttEntry remembers a searched position: the index of its best move in
// the (deterministic) move list, so that moves need not be stored.
type ttEntry struct {
	key   uint64
	score int32
	depth int8
	bound uint8
	best  uint16
}

const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

const infinity = 2 * Mate

func newAB(spec string, _ uint64, params map[string]string) (*ab, error) {
	depth, err := intParam(params, "depth", 0, 1, MaxDepth)
	if err != nil {
		return nil, err
	}
	bits, err := intParam(params, "tt", 20, 10, 26)
	if err != nil {
		return nil, err
	}
	if err := noneLeft(spec, params); err != nil {
		return nil, err
	}
	return &ab{name: spec, depthLimit: depth, tt: make([]ttEntry, 1<<bits)}, nil
}

func (e *ab) Name() string { return e.name }

// Search runs iterative deepening until a limit is reached and returns the
// best move of the last completed iteration.
func (e *ab) Search(ctx context.Context, s0 game.State, lim Limits, report func(Info)) Info {
	if err := checkEvaluation(e.eval, s0); err != nil {
		return Info{Err: err}
	}
	e.s = s0.Clone()
	e.root = s0.ToMove()
	e.paranoid = s0.Game().Players() > 2
	e.played = playedPositions(s0, e.played)
	e.clk = newClock(ctx, lim)
	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = min(maxDepth, lim.Depth)
	}
	if e.depthLimit > 0 {
		maxDepth = min(maxDepth, e.depthLimit) // ab:depth=N caps every search
	}
	for i := range e.killers {
		e.killers[i] = [2]game.Move{}
	}
	for i := range e.history {
		for j := range e.history[i] {
			e.history[i][j] /= 8
		}
	}
	root := e.s.Moves(nil)
	best := Info{Move: root[0]}
	for depth := 1; depth <= maxDepth; depth++ {
		score := e.negamax(depth, -infinity, infinity, 0)
		if e.clk.stopped && depth > 1 {
			break
		}
		best = Info{Score: score, Depth: depth, Nodes: e.clk.nodes, Elapsed: time.Since(e.clk.start)}
		best.PV = append([]game.Move(nil), e.pv[0][:e.pvLen[0]]...)
		if len(best.PV) > 0 {
			best.Move = best.PV[0]
		}
		if report != nil {
			report(best)
		}
		if e.clk.stopped || len(root) == 1 && lim.Depth == 0 || score > Mate-MaxDepth || score < -Mate+MaxDepth {
			break
		}
	}
	best.Nodes, best.Elapsed = e.clk.nodes, time.Since(e.clk.start)
	return best
}

// negamax returns the score of the position for the player to move.
func (e *ab) negamax(depth, alpha, beta, ply int) int {
	e.pvLen[ply] = ply
	if e.clk.tick() {
		return 0
	}
	s := e.s
	hash := s.Hash()
	e.path[ply] = hash
	for i := ply - 2; i >= 0; i -= 1 {
		if e.path[i] == hash {
			return 0 // a repetition inside the search is a draw
		}
	}
	if _, ok := e.played[hash]; ok && ply > 0 {
		return 0
	}
	moves := s.Moves(e.bufs[ply][:0])
	e.bufs[ply] = moves
	if len(moves) == 0 {
		return e.resultScore(s, ply)
	}
	if depth <= 0 || ply >= len(e.bufs)-2 {
		return e.quiesce(alpha, beta, ply, moves)
	}
	key := e.ttKey(hash)
	entry := &e.tt[key&uint64(len(e.tt)-1)]
	hashMove := -1
	if entry.key == key {
		hashMove = int(entry.best)
		if ply > 0 && int(entry.depth) >= depth {
			score := fromTT(int(entry.score), ply)
			switch {
			case entry.bound == boundExact,
				entry.bound == boundLower && score >= beta,
				entry.bound == boundUpper && score <= alpha:
				if hashMove < len(moves) {
					e.pv[ply][ply] = moves[hashMove]
					e.pvLen[ply] = ply + 1
				}
				return score
			}
		}
	}
	e.order(ply, moves, hashMove)
	alpha0, best, bestIdx := alpha, -infinity, 0
	side := e.rootSide(s)
	for i := range moves {
		e.pick(ply, moves, i)
		m := moves[i]
		s.Play(m)
		var score int
		if e.sameSide(s, side) {
			score = e.negamax(depth-1, alpha, beta, ply+1)
		} else {
			score = -e.negamax(depth-1, -beta, -alpha, ply+1)
		}
		s.Undo()
		if e.clk.stopped {
			return 0
		}
		if score > best {
			best, bestIdx = score, i
			if score > alpha {
				alpha = score
				e.pv[ply][ply] = m
				copy(e.pv[ply][ply+1:], e.pv[ply+1][ply+1:e.pvLen[ply+1]])
				e.pvLen[ply] = max(e.pvLen[ply+1], ply+1)
			}
			if alpha >= beta {
				if !m.IsCapture() {
					if e.killers[ply][0] != m {
						e.killers[ply][1] = e.killers[ply][0]
						e.killers[ply][0] = m
					}
					e.history[m.From()][m.To()] = min(e.history[m.From()][m.To()]+int32(depth*depth), 1<<24)
				}
				break
			}
		}
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= alpha0:
		bound = boundUpper
	}
	// The table stores the move's index in the generator's order, which is
	// the same every time the position is generated; ordering moved it, so
	// find where it came from.
	idx := e.originalIndex(ply, moves, bestIdx)
	*entry = ttEntry{key: key, score: int32(toTT(best, ply)), depth: int8(depth), bound: bound, best: uint16(idx)}
	return best
}

// quiesce resolves the compulsory captures before judging a position:
// with captures to make the player must make one; without, the position
// is quiet and is evaluated.
func (e *ab) quiesce(alpha, beta, ply int, moves []game.Move) int {
	s := e.s
	if !moves[0].IsCapture() || ply >= len(e.bufs)-2 {
		return e.evaluate(s)
	}
	e.order(ply, moves, -1)
	best := -infinity
	side := e.rootSide(s)
	for i := range moves {
		e.pick(ply, moves, i)
		s.Play(moves[i])
		var score int
		if e.clk.tick() {
			score = 0
		} else {
			next := s.Moves(e.bufs[ply+1][:0])
			e.bufs[ply+1] = next
			same := e.sameSide(s, side)
			switch {
			case len(next) == 0:
				score = e.resultScore(s, ply+1)
			case same:
				score = e.quiesce(alpha, beta, ply+1, next)
			default:
				score = e.quiesce(-beta, -alpha, ply+1, next)
			}
			if !same {
				score = -score
			}
		}
		s.Undo()
		if e.clk.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
			}
			if alpha >= beta {
				break
			}
		}
	}
	return best
}

// playedPositions collects the hashes of the positions of s's game before
// its current one, reusing the map m.
func playedPositions(s game.State, m map[uint64]struct{}) map[uint64]struct{} {
	if m == nil {
		m = map[uint64]struct{}{}
	}
	clear(m)
	back := s.Clone()
	for back.Undo() {
		m[back.Hash()] = struct{}{}
	}
	return m
}

// rootSide tells whether the player to move in s is the root's side.
func (e *ab) rootSide(s game.State) bool { return s.ToMove() == e.root }

// sameSide tells whether the player to move in s, just after a move, is on
// the side that made it: never with two players, who alternate.
func (e *ab) sameSide(s game.State, moverSide bool) bool {
	return e.paranoid && e.rootSide(s) == moverSide
}

// perspective turns a score for the root player into one for the side to
// move in s.
func (e *ab) perspective(s game.State, rootScore int) int {
	if e.rootSide(s) {
		return rootScore
	}
	return -rootScore
}

// evaluate scores a quiet position for the side to move: the root
// player's evaluation less the best of the others'.
func (e *ab) evaluate(s game.State) int {
	return e.perspective(s, evaluateFor(s, e.root, e.eval))
}

// resultScore scores a finished game for the side to move in s.
func (e *ab) resultScore(s game.State, ply int) int {
	return e.perspective(s, resultScore(s.Result(), e.root, ply))
}

// ttKey is the table's key for a position. With three players a score
// depends on who stands at the root, so the root is part of the key.
func (e *ab) ttKey(hash uint64) uint64 {
	if e.s.Game().Players() == 2 {
		return hash
	}
	return hash ^ rootSalt[e.root]
}

// rootSalt separates the table's entries of searches from different roots.
var rootSalt = [game.MaxPlayers]uint64{0, 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb}

// order scores the moves for ordering; pick then brings the best remaining
// one forward. The generator's order is kept in the scores' low bits so
// that originalIndex can recover it.
func (e *ab) order(ply int, moves []game.Move, hashMove int) {
	scores := e.scores[ply][:0]
	for i, m := range moves {
		var v int64
		switch {
		case i == hashMove:
			v = 1 << 40
		case m.IsCapture():
			v = 1<<39 + int64(m.Len())<<20
		case m == e.killers[ply][0]:
			v = 1<<38 + 1
		case m == e.killers[ply][1]:
			v = 1 << 38
		default:
			v = int64(e.history[m.From()][m.To()])
		}
		scores = append(scores, v<<16|int64(i&0xffff))
	}
	e.scores[ply] = scores
}

func (e *ab) pick(ply int, moves []game.Move, i int) {
	scores := e.scores[ply]
	best := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j]>>16 > scores[best]>>16 {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	scores[i], scores[best] = scores[best], scores[i]
}

// originalIndex returns where the move now at i stood in the generator's
// order.
func (e *ab) originalIndex(ply int, _ []game.Move, i int) int {
	return int(e.scores[ply][i] & 0xffff)
}

// Mate scores are stored relative to the position, not the root.
func toTT(score, ply int) int {
	switch {
	case score > Mate-2*MaxDepth-10:
		return score + ply
	case score < -Mate+2*MaxDepth+10:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > Mate-2*MaxDepth-10:
		return score - ply
	case score < -Mate+2*MaxDepth+10:
		return score + ply
	}
	return score
}
