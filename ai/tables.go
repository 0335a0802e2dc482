package ai

import (
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Endgame tables in ab: a position the tables hold is not searched but
// scored by its exact value, wherever the search meets it (inside the
// tree, at the horizon, in quiescence). A win in N plies from a node at
// ply p scores Mate-(p+N), as a win the search found N plies further
// would; a loss likewise; a draw 0. At a root the tables hold, ab plays
// the tables' move without searching (see rootFromTables), so that it
// converts a win and holds a draw at any depth.
//
// The ply cap: a table's win in N is a win under the game's rules only
// if the game lasts N more plies. When it would not (Ply()+N > maxplies)
// the winner cannot force the win in time and the loser, lost in the
// tables, can force nothing either: the game ends at the cap, a draw, and
// the position scores 0. Repetition needs no such care: a table win
// converted move by move draws closer at every move and never repeats.
//
// Table scores are not stored in the transposition table: a lookup
// costs about what a table probe costs, and their entries would push out
// the search's own.

// WithTables gives an engine endgame tables to probe: ab uses them unless
// its spec says tables=off; of the levels for people only the strongest,
// level 6, uses them (the others keep their handicaps in the endgame
// too); random, uct and mcts ignore them, so that a command can give its
// tables to every player it makes. A search of a game or rules that the
// tables are not of fails with Info.Err.
func WithTables(t *endgame.Tables) Option {
	return func(o *options) { o.tables = t }
}

// tablesUse is what an ab spec says about tables.
type tablesUse uint8

const (
	tablesAuto tablesUse = iota // use them when given
	tablesOn                    // use them; refuse an engine without them
	tablesOff                   // never use them
)

// tablesUse reads "tables=on" or "tables=off".
func (p *params) tablesUse() tablesUse {
	v, ok := p.take("tables")
	switch {
	case !ok:
		return tablesAuto
	case v == "on":
		return tablesOn
	case v == "off":
		return tablesOff
	}
	p.fail(fmt.Errorf("tables=%s: want on or off", clip.Bare(v)))
	return tablesAuto
}

// errNoTables refuses tables=on when no tables were given.
var errNoTables = errors.New("tables=on, but the engine was given no endgame tables")

// useTables gives e the tables t as the spec's use says.
func (e *ab) useTables(use tablesUse, t *endgame.Tables) error {
	switch {
	case use == tablesOn && t == nil:
		return errNoTables
	case use == tablesOff || t == nil:
		e.prober = nil
		return nil
	}
	e.prober = t.NewProber()
	return nil
}

// prepareTables sets up the probing of one search of s: probing is the
// engine's prober when it has tables, nil otherwise. Tables of another
// game or other rules are an error: a search must not read values that
// belong to other positions.
func (e *ab) prepareTables(s game.State) error {
	e.probing = nil
	if e.prober == nil {
		return nil
	}
	t := e.prober.Tables()
	man := t.Manifest()
	g := s.Game()
	if man.Game != g.ID() || man.Rules != endgame.RulesOf(g) {
		return fmt.Errorf("the endgame tables in %s are of %s (%s), not of %s (%s)", clip.Quote(t.Dir()),
			man.Game, rulesName(man.Rules), g.ID(), rulesName(endgame.RulesOf(g)))
	}
	e.probing = e.prober
	e.maxPlies = g.Options().Int("maxplies")
	return nil
}

// rulesName is how an error names a game's rules.
func rulesName(rules string) string {
	if rules == "" {
		return "default rules"
	}
	return rules
}

// tableScore returns the exact score of the search's position at ply for
// the side to move, when the tables hold it.
func (e *ab) tableScore(ply int) (int, bool) {
	v, ok := e.probing.Lookup(e.s)
	if !ok {
		return 0, false
	}
	return e.scoreOf(v, e.s.Ply(), ply), true
}

// scoreOf turns a table value of a position at game ply gamePly and
// search ply ply into a score: a draw when the ply cap comes before the
// win (see the comment at the top of this file).
func (e *ab) scoreOf(v endgame.Value, gamePly, ply int) int {
	switch {
	case v.Kind == endgame.Draw:
		return 0
	case e.maxPlies > 0 && gamePly+v.Plies > e.maxPlies:
		return 0
	case v.Kind == endgame.Win:
		return Mate - ply - v.Plies
	}
	return -Mate + ply + v.Plies
}

// decided tells whether a score is a forced result, found by the search
// or read in the tables.
func decided(score int) bool { return score > Mate-mateBand || score < -Mate+mateBand }

// mateBand bounds how far from ±Mate a forced result may score: the
// search's deepest ply plus the longest table distance stay well inside
// it, and no evaluation comes near it.
const mateBand = 1000

// rootFromTables chooses the move at a root the tables hold, without a
// search (prepare has run): to the child the tables value best for the
// mover (win: the fastest; draw: a draw; loss: the slowest), ties going
// to the child the evaluation prefers. ok is false when the root or one
// of its children is not in the tables (a build that stopped early):
// then the search chooses.
func (e *ab) rootFromTables(report func(Info)) (Info, bool) {
	if e.probing == nil {
		return Info{}, false
	}
	if _, ok := e.probing.Lookup(e.s); !ok {
		return Info{}, false
	}
	m, score, ok := e.tableMove(e.s.Moves(nil))
	if !ok {
		return Info{}, false
	}
	info := Info{Move: m, Score: score, Depth: 1, Nodes: e.stop.nodes, PV: e.tableLine(m, score)}
	info.Elapsed = time.Since(e.stop.start)
	if report != nil {
		report(info)
	}
	return info, true
}

// tableMove returns the best of moves in e.s by the tables, with its
// score for the mover; ok is false when a child is not in the tables.
func (e *ab) tableMove(moves []game.Move) (best game.Move, bestScore int, ok bool) {
	bestScore, bestEval := -infinity, 0
	for _, m := range moves {
		e.stop.tick()
		e.s.Play(m)
		score, held := e.childScore()
		eval := -e.evaluate(e.s)
		e.s.Undo()
		if !held {
			return game.Move{}, 0, false
		}
		if score > bestScore || score == bestScore && eval > bestEval {
			best, bestScore, bestEval = m, score, eval
		}
	}
	return best, bestScore, true
}

// childScore scores the position just reached from the root, for the
// root's mover: by the game's result when it is over (the draw
// safeguards included), else by the tables.
func (e *ab) childScore() (int, bool) {
	if r := e.s.Result(); r.Over() {
		return -e.resultScore(e.s, 1), true
	}
	score, ok := e.tableScore(1)
	return -score, ok
}

// tableLine is the line the tables expect after m: both sides playing
// the tables' moves until the game ends, for a decided score; m alone for
// a draw, whose line goes on for ever.
func (e *ab) tableLine(m game.Move, score int) []game.Move {
	line := []game.Move{m}
	if !decided(score) {
		return line
	}
	e.s.Play(m)
	played := 1
	var buf []game.Move
	for len(line) < 2*MaxDepth && !e.s.Result().Over() {
		buf = e.s.Moves(buf[:0])
		next, _, ok := e.tableMove(buf)
		if !ok {
			break
		}
		line = append(line, next)
		e.s.Play(next)
		played++
	}
	for range played {
		e.s.Undo()
	}
	return line
}
