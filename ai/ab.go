package ai

import (
	"context"
	"time"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
)

// ab is alpha-beta (negamax) for two players: iterative deepening, a
// transposition table on the Zobrist hash, move ordering (hash move,
// captures by length, killers, history) and quiescence over captures.
//
// With three players the root player maximises its score over the best of
// the others, and the others are taken to minimise that same number, as if
// they played together. Scores are kept from the point of view of the side
// to move (the root's side or the coalition), so negamax negates only
// where the side changes. Two ways to search the coalition (nplayer=):
// paranoid (the default) lets every opponent search every move in turn;
// best-reply (brs, see brs.go) lets only one opponent of each round search
// its replies, the others playing their greedy moves.
type ab struct {
	name       string
	depthLimit int
	avoid      avoid // ab:avoid=...: moves it declines at its own turn
	root       game.Player
	paranoid   bool           // three or more players
	nplayer    nplayer        // how the coalition is searched (nplayer=)
	bestReply  bool           // paranoid, and nplayer is brs
	tt         transpositions // shared by the threads of a search (smp.go)
	threads    int            // ab:threads=N, 1 or more
	lazy       *lazySMP       // the helper threads, when threads > 1
	skew       int            // 0 for the main thread; helper k's k (skipsDepth)
	stop       *stopper       // when this search stops
	s          game.State
	bufs       [2*MaxDepth + 2][]game.Move
	scores     [2*MaxDepth + 2][]int64
	// ties[ply] holds where the moves that share the best score found by
	// pick's last scan stand, in order, from ties[ply].next on.
	ties    [2*MaxDepth + 2]ties
	killers [2*MaxDepth + 2][2]killer
	history [board.MaxCells][board.MaxCells]int32
	pv      [2*MaxDepth + 2][2*MaxDepth + 2]game.Move
	pvLen   [2*MaxDepth + 2]int
	// reply[ply] is, in a best-reply search, where the round of the
	// opponents stands at ply (brs.go).
	reply [2*MaxDepth + 2]replyState
	path  [2*MaxDepth + 2]uint64
	// eval, when set, judges positions instead of the game's own
	// evaluation (WithEvaluation); else evaluator, when the game has its
	// own, found once a search rather than at every leaf.
	eval      game.Evaluation
	evaluator game.Evaluator
	players   int
	// tester, when the game's states have one, tells at the horizon
	// whether the position is over or must capture without listing its
	// moves.
	tester leafTester
	// played holds the positions of the game before the root: reaching
	// one again in the search is scored as a draw, as a repetition in the
	// search is, so that a side ahead does not walk into the threefold
	// repetition its opponent is steering for.
	played map[uint64]struct{}
	// playedBits has a bit set for each played position's hash (its top
	// bits), so that most positions of the search are known not to be in
	// played without a map lookup.
	playedBits [playedWords]uint64
	// prober reads the endgame tables the engine was given (WithTables);
	// probing is prober during a search of the tables' game, else nil.
	// maxPlies is the game's ply cap, which a table's win must fit under.
	prober, probing *endgame.Prober
	maxPlies        int
}

// leafTester is a state that can tell, without listing its moves, what
// the search needs to know at its horizon (see game.LeafTester). Most
// positions at the horizon are quiet; for them the search then only
// evaluates. The answers are exact, so the search visits the same tree
// either way.
type leafTester = game.LeafTester

// playedWords sizes the filter in front of the played positions: 4096
// bits, a few percent of them set by a game of a hundred or two plies.
const playedWords = 64

// killer is a quiet move that refuted a sibling, with its start and end
// cells, so that ordering compares two bytes before the whole move.
type killer struct {
	move     game.Move
	from, to board.Cell
}

// noKiller is an empty killer slot: no move starts or ends where it does.
func noKiller() killer { return killer{from: 0xff, to: 0xff} }

const infinity = 2 * Mate

// abConfig is what an ab spec says (see New for the ranges).
type abConfig struct {
	depth  int // 0: no cap
	ttBits int
	avoid  avoid
	tables tablesUse
	// threads searching at once (smp.go); 1 unless threads=N or
	// WithThreads says more
	threads int
	nplayer nplayer
}

// Bounds of ab's table: 2^10 entries (16 KiB) is level 1's, 2^26 (1 GiB)
// the most a spec may ask.
const (
	defaultTTBits = 20
	minTTBits     = 10
	maxTTBits     = 26
)

func parseAB(p *params) abConfig {
	return abConfig{
		depth:   p.int("depth", 0, 1, MaxDepth),
		ttBits:  p.int("tt", defaultTTBits, minTTBits, maxTTBits),
		avoid:   p.avoid(),
		tables:  p.tablesUse(),
		threads: p.int("threads", 1, 1, MaxThreads),
		nplayer: p.nplayer(),
	}
}

func newAB(spec string, cfg abConfig) *ab {
	e := &ab{name: spec, depthLimit: cfg.depth, avoid: cfg.avoid, tt: newTranspositions(cfg.ttBits), nplayer: cfg.nplayer}
	e.setThreads(max(1, cfg.threads))
	return e
}

func (e *ab) Name() string { return e.name }

// Search runs iterative deepening until a limit is reached and returns the
// best move of the last completed iteration.
func (e *ab) Search(ctx context.Context, s0 game.State, lim Limits, report func(Info)) Info {
	if e.threads > 1 && !e.lazy.running {
		return e.searchSMP(ctx, s0, lim, report)
	}
	if e.avoid != avoidNothing {
		if info, ok := e.searchAvoiding(ctx, s0, lim, report); ok {
			return info
		}
	}
	maxDepth, err := e.prepare(ctx, s0, lim)
	if err != nil {
		return Info{Err: err}
	}
	if info, ok := e.rootFromTables(report); ok {
		return info
	}
	root := e.s.Moves(nil)
	best := Info{Move: root[0]}
	for depth := 1; depth <= maxDepth; depth++ {
		if e.skipsDepth(depth) {
			continue
		}
		score := e.negamax(depth, -infinity, infinity, 0)
		if e.stop.stopped && depth > 1 {
			break
		}
		// A first iteration stopped before it found a line keeps root[0].
		best = Info{Move: best.Move, Score: score, Depth: depth, Nodes: e.stop.nodes, Elapsed: time.Since(e.stop.start)}
		best.PV = append([]game.Move(nil), e.pv[0][:e.pvLen[0]]...)
		if len(best.PV) > 0 {
			best.Move = best.PV[0]
		}
		if report != nil {
			report(best)
		}
		if e.stop.stopped || len(root) == 1 && lim.Depth == 0 || score > Mate-MaxDepth || score < -Mate+MaxDepth ||
			e.probing != nil && decided(score) || e.stop.enough(len(root), best) {
			break
		}
	}
	best.Nodes, best.Elapsed = e.stop.nodes, time.Since(e.stop.start)
	return best
}

// prepare sets the engine up for a search of s0 within lim and returns
// the deepest iteration the search may run.
func (e *ab) prepare(ctx context.Context, s0 game.State, lim Limits) (int, error) {
	if err := checkEvaluation(e.eval, s0); err != nil {
		return 0, err
	}
	if err := e.prepareTables(s0); err != nil {
		return 0, err
	}
	e.s = s0.Clone()
	e.root = s0.ToMove()
	e.paranoid = s0.Game().Players() > 2
	e.bestReply = e.paranoid && e.nplayer == nplayerBRS
	e.reply[1] = replyOpen
	e.played = playedPositions(s0, e.played)
	e.playedBits = [playedWords]uint64{}
	for h := range e.played {
		e.playedBits[playedBit(h)/64] |= 1 << (playedBit(h) % 64)
	}
	e.players = s0.Game().Players()
	e.evaluator = nil
	if g, ok := e.s.(game.Evaluator); ok && e.eval == nil {
		e.evaluator = g
	}
	e.tester, _ = e.s.(leafTester)
	e.stop = newStopper(ctx, lim)
	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = min(maxDepth, lim.Depth)
	}
	if e.depthLimit > 0 {
		maxDepth = min(maxDepth, e.depthLimit) // ab:depth=N caps every search
	}
	for i := range e.killers {
		e.killers[i] = [2]killer{noKiller(), noKiller()}
	}
	for i := range e.history {
		for j := range e.history[i] {
			e.history[i][j] /= 8
		}
	}
	return maxDepth, nil
}

// negamax returns the score of the position for the player to move.
func (e *ab) negamax(depth, alpha, beta, ply int) int {
	e.pvLen[ply] = ply
	if e.stop.tick() {
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
	if ply > 0 && e.wasPlayed(hash) {
		return 0
	}
	if depth <= 0 || ply >= len(e.bufs)-2 {
		return e.leaf(alpha, beta, ply)
	}
	if e.bestReply && e.reply[ply] == replied && !e.rootSide(s) {
		return e.passReply(depth, alpha, beta, ply)
	}
	if e.probing != nil && ply > 0 {
		if score, ok := e.tableScore(ply); ok {
			return score
		}
	}
	moves := s.Moves(e.bufs[ply][:0])
	e.bufs[ply] = moves
	if len(moves) == 0 {
		return e.resultScore(s, ply)
	}
	side := e.rootSide(s)
	key := e.replyKey(e.ttKey(hash), side, ply)
	entry, found := e.tt.probe(key)
	hashMove := -1
	if found {
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
	childReply := e.childReply(side)
	for i := range moves {
		e.pick(ply, moves, i)
		m := moves[i]
		e.reply[ply+1] = childReply
		s.Play(m)
		var score int
		if e.sameSide(s, side) {
			score = e.negamax(depth-1, alpha, beta, ply+1)
		} else {
			score = -e.negamax(depth-1, -beta, -alpha, ply+1)
		}
		s.Undo()
		if e.stop.stopped {
			return 0
		}
		if score > best {
			best, bestIdx = score, i
			if score > alpha {
				alpha = score
				e.notePV(ply, m)
			}
			if alpha >= beta {
				if !m.IsCapture() {
					if e.killers[ply][0].move != m {
						e.killers[ply][1] = e.killers[ply][0]
						e.killers[ply][0] = killer{move: m, from: m.From(), to: m.To()}
					}
					h := &e.history[m.From()][m.To()]
					*h = min(*h+int32(depth*depth), 1<<24)
				}
				break
			}
		}
	}
	if e.bestReply && !side && depth > 1 && best < beta {
		// The greedy move, searched with the next opponent still to
		// reply: the reply may be another's.
		g := e.greedy(moves, ply, true)
		if score, ok := e.passedOn(moves[g], depth, alpha, beta, ply); ok && score > best {
			best, bestIdx = score, g
			if score > alpha {
				e.notePV(ply, moves[g])
			}
		}
		if e.stop.stopped {
			return 0
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
	idx := e.originalIndex(ply, bestIdx)
	e.tt.store(ttEntry{key: key, score: int32(toTT(best, ply)), depth: int8(depth), bound: bound, best: uint16(idx)})
	return best
}

// notePV makes m followed by the line below it the principal variation
// at ply.
func (e *ab) notePV(ply int, m game.Move) {
	e.pv[ply][ply] = m
	copy(e.pv[ply][ply+1:], e.pv[ply+1][ply+1:e.pvLen[ply+1]])
	e.pvLen[ply] = max(e.pvLen[ply+1], ply+1)
}

// leaf scores a position at the horizon: a finished game by its result,
// else by quiesce. With a tester the moves are listed only when there are
// captures to resolve.
func (e *ab) leaf(alpha, beta, ply int) int {
	s := e.s
	if e.probing != nil && ply > 0 {
		if score, ok := e.tableScore(ply); ok {
			return score
		}
	}
	if e.tester != nil {
		switch {
		case !e.tester.HasMove():
			return e.resultScore(s, ply)
		case !e.tester.HasCapture() || ply >= len(e.bufs)-2:
			return e.evaluate(s) // as quiesce judges a quiet position
		}
	}
	moves := s.Moves(e.bufs[ply][:0])
	e.bufs[ply] = moves
	if len(moves) == 0 {
		return e.resultScore(s, ply)
	}
	return e.quiesce(alpha, beta, ply, moves)
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
		switch {
		case e.stop.tick():
			score = 0
		case e.sameSide(s, side):
			score = e.leaf(alpha, beta, ply+1)
		default:
			score = -e.leaf(-beta, -alpha, ply+1)
		}
		s.Undo()
		if e.stop.stopped {
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

// playedBit is the filter bit of a hash: its top bits.
func playedBit(hash uint64) uint64 { return hash >> (64 - 12) }

// wasPlayed tells whether the position of hash was played before the root.
func (e *ab) wasPlayed(hash uint64) bool {
	if b := playedBit(hash); e.playedBits[b/64]&(1<<(b%64)) == 0 {
		return false
	}
	_, ok := e.played[hash]
	return ok
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
	var sc [game.MaxPlayers]int
	switch {
	case e.evaluator != nil:
		sc = e.evaluator.Evaluate()
	default:
		sc = scores(s, e.eval)
	}
	best := -1 << 60
	for p := 0; p < e.players; p++ {
		if game.Player(p) != e.root && sc[p] > best {
			best = sc[p]
		}
	}
	return e.perspective(s, sc[e.root]-best)
}

// resultScore scores a finished game for the side to move in s.
func (e *ab) resultScore(s game.State, ply int) int {
	return e.perspective(s, resultScore(s.Result(), e.root, ply))
}

// ttKey is the table's key for a position. With three players a score
// depends on who stands at the root, so the root is part of the key.
func (e *ab) ttKey(hash uint64) uint64 {
	if e.players == 2 {
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
	k0, k1 := &e.killers[ply][0], &e.killers[ply][1]
	for i := range moves {
		m := &moves[i]
		var v int64
		switch {
		case i == hashMove:
			v = 1 << 40
		case m.IsCapture():
			v = 1<<39 + int64(m.Len())<<20
		default:
			from, to := m.From(), m.To()
			switch {
			case from == k0.from && to == k0.to && *m == k0.move:
				v = 1<<38 + 1
			case from == k1.from && to == k1.to && *m == k1.move:
				v = 1 << 38
			default:
				v = int64(e.history[from][to])
			}
		}
		scores = append(scores, v<<16|int64(i&0xffff))
	}
	e.scores[ply] = scores
	e.ties[ply].at, e.ties[ply].next = e.ties[ply].at[:0], 0
}

// ties are the places of equally scored moves that pick hands out in turn.
type ties struct {
	at   []int32
	next int
}

// pick brings forward the first of the highest scored moves from i on
// (a selection sort, lazy, since a cutoff often comes at the first moves).
//
// A scan notes every move that has the best score, in order. Those are
// the next moves to pick, one after the other, with no scan: swapping
// the picked move to the front sends the move it displaces, scored lower,
// to where the picked one was, behind the places still to come. So many
// moves that score alike (quiet moves of one history value, captures of
// one length) cost one scan, not one each, and the order is the same.
func (e *ab) pick(ply int, moves []game.Move, i int) {
	scores, t := e.scores[ply], &e.ties[ply]
	if t.next == len(t.at) {
		t.at, t.next = append(t.at[:0], int32(i)), 0
		top := scores[i] >> 16
		for j := i + 1; j < len(moves); j++ {
			switch v := scores[j] >> 16; {
			case v > top:
				top, t.at = v, append(t.at[:0], int32(j))
			case v == top:
				t.at = append(t.at, int32(j))
			}
		}
	}
	best := int(t.at[t.next])
	t.next++
	if best != i {
		moves[i], moves[best] = moves[best], moves[i]
		scores[i], scores[best] = scores[best], scores[i]
	}
}

// originalIndex returns where the move now at i stood in the generator's
// order.
func (e *ab) originalIndex(ply, i int) int {
	return int(e.scores[ply][i] & 0xffff)
}

// Mate scores are stored relative to the position, not the root. The
// band is wide enough for a table's distances (see mateBand).
func toTT(score, ply int) int {
	switch {
	case score > Mate-mateBand:
		return score + ply
	case score < -Mate+mateBand:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > Mate-mateBand:
		return score - ply
	case score < -Mate+mateBand:
		return score + ply
	}
	return score
}
