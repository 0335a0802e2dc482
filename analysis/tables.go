package analysis

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// The endgame tables the service was given (serve --tables): the analysis
// answers a position they hold with its exact value and a move that
// keeps it, and the engines of its game and rules, the analysis's and
// the hall's AI seats', probe them.

// maxLoggedTableFailures bounds the distinct table failures logged, so
// that a damaged folder cannot fill the log: each is logged once.
const maxLoggedTableFailures = 64

// tableSet holds one table folder per game and rules.
type tableSet struct {
	byRules map[rulesKey]*endgame.Tables
	log     *slog.Logger
	mu      sync.Mutex
	logged  map[string]bool // the failures logged already, by folder and message
}

// rulesKey names a game and the rules its tables depend on.
type rulesKey struct{ game, rules string }

// TablesAnswer is what the tables say of a position: its exact value
// for the side to move, "win", "loss" or "draw", in plies (the fastest
// win, the slowest loss; 0 for a draw), and Move, a move that keeps it
// in the board's notation: to the child lost the soonest when winning,
// to a drawn child when drawing, to the child won the latest when
// losing.
type TablesAnswer struct {
	Value string
	Plies int
	Move  string
}

// newTableSet indexes the tables by game and rules, refusing two folders
// for the same ones.
func newTableSet(tables []*endgame.Tables, log *slog.Logger) (*tableSet, error) {
	ts := &tableSet{byRules: map[rulesKey]*endgame.Tables{}, log: log, logged: map[string]bool{}}
	for _, t := range tables {
		m := t.Manifest()
		key := rulesKey{m.Game, m.Rules}
		if other, ok := ts.byRules[key]; ok {
			return nil, fmt.Errorf("the tables in %s and in %s are both of %s (%s): give one folder for each game and rules",
				clip.Quote(other.Dir()), clip.Quote(t.Dir()), m.Game, m.Rules)
		}
		ts.byRules[key] = t
		log.Info("endgame tables", "game", m.Game, "rules", m.Rules, "pieces", m.Pieces, "materials", len(m.Materials), "dir", t.Dir())
	}
	return ts, nil
}

// forGame returns the tables of g's game and rules, or nil.
func (ts *tableSet) forGame(g game.Game) *endgame.Tables {
	return ts.byRules[rulesKey{g.ID(), endgame.RulesOf(g)}]
}

// engineOptions gives an engine of g the tables of g's game and rules,
// if the service has them: ab then plays table positions exactly.
func (ts *tableSet) engineOptions(g game.Game) []ai.Option {
	if t := ts.forGame(g); t != nil {
		return []ai.Option{ai.WithTables(t)}
	}
	return nil
}

// answer is what the tables say of st, or nil when they do not hold it:
// no tables for its game and rules, a game over, too many pieces, or a
// table that cannot be read (logged once; the analysis goes on without).
func (ts *tableSet) answer(st game.State) *TablesAnswer {
	t := ts.forGame(st.Game())
	if t == nil || st.Result().Over() || !holds(t, st) {
		return nil
	}
	v, err := t.Probe(st)
	if err != nil {
		ts.logOnce(t, err)
		return nil
	}
	move, err := keepingMove(t, st, v)
	if err != nil {
		ts.logOnce(t, err)
		return nil
	}
	return &TablesAnswer{Value: v.Kind.String(), Plies: v.Plies, Move: move}
}

// holds says whether st has few enough pieces for t, and some of each
// side's: the positions a probe answers unless a table fails.
func holds(t *endgame.Tables, st game.State) bool {
	pl, ok := st.(game.Placer)
	if !ok {
		return false
	}
	var count [2]int
	pieces := pl.Placement(nil)
	for _, p := range pieces {
		if p.Piece.Owner == 0 || p.Piece.Owner == 1 {
			count[p.Piece.Owner]++
		}
	}
	return count[0] > 0 && count[1] > 0 && len(pieces) <= t.Pieces()
}

// keepingMove is a move of st that keeps its value v (see TablesAnswer),
// in the board's notation; the first such in the order of the legal
// moves.
func keepingMove(t *endgame.Tables, st game.State, v endgame.Value) (string, error) {
	var best game.Move
	bestPlies, found := 0, false
	for _, m := range st.Moves(nil) {
		child := st.Clone()
		child.Play(m)
		cv, err := childValue(t, child)
		if err != nil {
			return "", err
		}
		better := false
		switch v.Kind {
		case endgame.Win:
			better = cv.Kind == endgame.Loss && (!found || cv.Plies < bestPlies)
		case endgame.Draw:
			better = cv.Kind == endgame.Draw && !found
		case endgame.Loss:
			better = cv.Kind == endgame.Win && (!found || cv.Plies > bestPlies)
		}
		if better {
			best, bestPlies, found = m, cv.Plies, true
		}
	}
	if !found {
		return "", fmt.Errorf("the tables in %s value %s as %v, but no move keeps that value", t.Dir(), st.FEN(), v)
	}
	return best.Text(st.Game().Board()), nil
}

// childValue is the value of a position reached by a move: a lost one
// when the move took the last pieces of the side now to move, which the
// tables hold no entry for.
func childValue(t *endgame.Tables, child game.State) (endgame.Value, error) {
	pl, ok := child.(game.Placer)
	if !ok {
		return endgame.Value{}, fmt.Errorf("%s has no tables", child.Game().ID())
	}
	for _, p := range pl.Placement(nil) {
		if p.Piece.Owner == child.ToMove() {
			return t.Probe(child)
		}
	}
	return endgame.Value{Kind: endgame.Loss}, nil
}

// logOnce logs a table's failure the first time it is met.
func (ts *tableSet) logOnce(t *endgame.Tables, err error) {
	key := t.Dir() + "\x00" + err.Error()
	ts.mu.Lock()
	first := !ts.logged[key] && len(ts.logged) < maxLoggedTableFailures
	if first {
		ts.logged[key] = true
	}
	ts.mu.Unlock()
	if first {
		ts.log.Error("endgame tables: a position they should hold is answered without them", "tables", t.Dir(), "err", err)
	}
}

// CheckTables refuses what New would refuse of Config.Tables: two
// folders for the same game and rules. A command line checks its flags
// with it before it opens anything else.
func CheckTables(tables []*endgame.Tables) error {
	_, err := newTableSet(tables, slog.New(slog.DiscardHandler))
	return err
}

// EngineOptions gives an engine of g what its spec cannot say: the
// service's endgame tables of g's game and rules, if it has them (nil
// otherwise). The hall gives them to its AI seats too.
func (s *Service) EngineOptions(g game.Game) []ai.Option { return s.tables.engineOptions(g) }

// Tables is what the service's endgame tables say of st, or nil when they
// do not hold it: no tables for its game and rules, a game over, too
// many pieces, or a table that cannot be read (logged once; the analysis
// goes on without).
func (s *Service) Tables(st game.State) *TablesAnswer { return s.tables.answer(st) }
