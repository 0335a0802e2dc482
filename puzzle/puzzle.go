// Package puzzle finds puzzles in games: positions where the side to move
// has one clearly best move, by the review's win-chance curve, and whose
// solution stays forced move after move, the opponent's replies included;
// and, where endgame tables hold a position, exact puzzles: the only move
// that keeps the table win.
//
// It runs engines and nothing else: no files, no network. Its sources are
// any game's moves (Find) and self-play (SelfPlay); the command that
// writes puzzles to a file is 'arbiter puzzles' (internal/cli), and
// docs/puzzles.md gives the criteria, thresholds and measured cost.
package puzzle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/review"
)

// The thresholds, in the mover's expected score (a share of the point, 0
// to 1, by review.Curve). docs/puzzles.md says why each is what it is.
const (
	// DefaultMargin is how far the best move's expected score must stand
	// above every other move's: a quarter of the point is the review's
	// "mistake" drop and more (review.MarkOf), so every other move is at
	// least a mistake — a player who finds the move has found something.
	DefaultMargin = 0.25
	// DefaultNodes is the search that finds candidates; DefaultVerify
	// the deeper one that must agree. The verifying search has four times
	// the nodes: about one ply deeper for ab on these games.
	DefaultNodes  = 20_000
	DefaultVerify = 80_000
	// MaxNodes bounds both searches, as review.MaxNodes bounds a review.
	MaxNodes = review.MaxNodes
	// DefaultMaxMoves is the most solver moves a solution has (a solution
	// of 2·n-1 moves with the replies): a line still forced after four of
	// the solver's moves ends there, long enough for a combination and
	// short enough to be a puzzle and not a study.
	DefaultMaxMoves = 4
	// MaxMaxMoves bounds Config.MaxMoves.
	MaxMaxMoves = 20
	// decided is where a position no longer needs finding: when the
	// second-best move already expects this much, the mover wins whatever
	// they play (a review curve gives 1 only to forced wins).
	decided = 0.95
)

// Puzzle is one puzzle: the fields of RULINGS section 10, then what the
// generator knows of it.
type Puzzle struct {
	ID   string `json:"id"`
	Game string `json:"game"`
	FEN  string `json:"fen"`
	// Solution alternates from the side to move: the solver's moves with
	// the opponent's replies between them; its length is odd.
	Solution []string `json:"solution"`
	Themes   []string `json:"themes"`
	// Rating is the starting rating (Rating), before players rate it.
	Rating int `json:"rating"`
	// Margin is the least margin of the solver's moves at the verifying
	// search: the best's expected score less the second's.
	Margin float64 `json:"margin"`
	// Nodes and VerifyNodes are the two searches.
	Nodes       int64 `json:"nodes"`
	VerifyNodes int64 `json:"verifyNodes"`
	// Source says where the position came from (Config.Source), Ply at
	// which ply of that game.
	Source string `json:"source,omitempty"`
	Ply    int    `json:"ply"`
	// SourceGame is the id of the site's game the puzzle was found in,
	// "" for self-play and files (the game's page links to it).
	SourceGame string `json:"sourceGame,omitempty"`
	// Table is the tables' value of the position for the solver ("win in
	// 17") for an exact puzzle, found by the tables and not by a search.
	Table string `json:"table,omitempty"`
	// Key is the position's canonical key, the same for a position and
	// its mirror image (Key); Dedup compares it.
	Key string `json:"-"`
}

// Scorer scores every legal move of a position from its mover's point of
// view, best first, as ai.LineSearcher does with as many lines as moves.
// It is an interface so that tests can give positions any scores.
type Scorer interface {
	Lines(ctx context.Context, s game.State, nodes int64) ([]ai.Line, error)
}

// Config says how Find searches and judges; the zero Config is the
// default.
type Config struct {
	// Nodes finds candidates, VerifyNodes (more than Nodes) verifies them
	// and plays the line out (0: the defaults).
	Nodes, VerifyNodes int64
	// Margin is the least lead of the best move's expected score (0:
	// DefaultMargin); a margin is at most 1.
	Margin float64
	// MaxMoves is the most solver moves in a solution (0:
	// DefaultMaxMoves).
	MaxMoves int
	// Curve turns scores into expected scores (nil: review.CurveFor).
	Curve *review.Curve
	// Scorer scores positions (nil: ab on one thread, a fresh engine a
	// position, as the review searches).
	Scorer Scorer
	// Source is copied into every puzzle found.
	Source string
	// Tables are endgame tables of the game's id and rules (nil: none):
	// the default Scorer probes them, and the positions they hold are
	// judged by them alone (exact puzzles, tables.go).
	Tables *endgame.Tables
	// Stats, when not nil, is added to: what the judging did. It is the
	// caller's, so that a Find is not safe for concurrent use with
	// another Find given the same Stats.
	Stats *Stats
}

// Stats count what Find judged: positions with two moves or more,
// candidates the finding search found, those the verifying search
// dropped, and the positions the tables judged.
type Stats struct {
	Positions, Candidates, Dropped, Table int
}

// count adds to the Stats field f picks, when there are Stats.
func (j judge) count(f func(*Stats) *int) {
	if j.cfg.Stats != nil {
		*f(j.cfg.Stats)++
	}
}

// resolve fills in cfg's defaults for g and checks it.
func (cfg Config) resolve(g game.Game) (Config, review.Curve, error) {
	if cfg.Nodes == 0 {
		cfg.Nodes = DefaultNodes
	}
	if cfg.VerifyNodes == 0 {
		cfg.VerifyNodes = max(DefaultVerify, 4*cfg.Nodes)
	}
	if cfg.Margin == 0 {
		cfg.Margin = DefaultMargin
	}
	if cfg.MaxMoves == 0 {
		cfg.MaxMoves = DefaultMaxMoves
	}
	switch {
	case cfg.Nodes < 1 || cfg.Nodes > MaxNodes:
		return cfg, review.Curve{}, fmt.Errorf("puzzle: %d nodes: give 1 to %d", cfg.Nodes, MaxNodes)
	case cfg.VerifyNodes <= cfg.Nodes || cfg.VerifyNodes > MaxNodes:
		return cfg, review.Curve{}, fmt.Errorf("puzzle: %d verifying nodes: give more than the %d nodes, up to %d", cfg.VerifyNodes, cfg.Nodes, MaxNodes)
	case !(cfg.Margin > 0 && cfg.Margin <= 1):
		return cfg, review.Curve{}, fmt.Errorf("puzzle: margin %g: give more than 0, up to 1", cfg.Margin)
	case cfg.MaxMoves < 1 || cfg.MaxMoves > MaxMaxMoves:
		return cfg, review.Curve{}, fmt.Errorf("puzzle: %d moves: give 1 to %d", cfg.MaxMoves, MaxMaxMoves)
	}
	var curve review.Curve
	if cfg.Curve != nil {
		curve = *cfg.Curve
	} else {
		c, ok := review.CurveFor(g.ID())
		if !ok {
			return cfg, curve, fmt.Errorf("puzzle: no win-chance curve for %s", g.ID())
		}
		curve = c
	}
	if curve.Game != g.ID() || curve.Players != g.Players() {
		return cfg, curve, fmt.Errorf("puzzle: the curve is of %s, not of %s", curve.Game, g.ID())
	}
	if cfg.Tables != nil {
		man := cfg.Tables.Manifest()
		if man.Game != g.ID() || man.Rules != endgame.RulesOf(g) {
			return cfg, curve, fmt.Errorf("puzzle: the endgame tables are of %s (%s), not of %s (%s)", man.Game, man.Rules, g.ID(), endgame.RulesOf(g))
		}
	}
	if cfg.Scorer == nil {
		cfg.Scorer = abScorer{cfg.Tables}
	}
	return cfg, curve, nil
}

// abScorer is the default Scorer: ab with a fresh engine for each
// position, so that a position's score depends on it and its history
// alone, whatever was searched before (the review's rule too), which
// makes Find deterministic.
type abScorer struct{ tables *endgame.Tables }

func (a abScorer) Lines(ctx context.Context, s game.State, nodes int64) ([]ai.Line, error) {
	var opts []ai.Option
	if a.tables != nil {
		opts = append(opts, ai.WithTables(a.tables))
	}
	e, err := ai.New("ab:tt=18", 1, opts...)
	if err != nil {
		return nil, err
	}
	ls, ok := e.(ai.LineSearcher)
	if !ok {
		return nil, errors.New("puzzle: ab gives no lines")
	}
	n := len(s.Moves(nil))
	info := ls.SearchLines(ctx, s, ai.Limits{Nodes: nodes}, n, nil)
	if info.Err != nil {
		return nil, info.Err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return info.Lines, nil
}

// Find looks for puzzles in the game of g played from start by moves
// (all legal): the position before each move is judged, and each puzzle
// found is kept once (by Key, the first found). The moves played in the
// game play no part in the judging: a position is a puzzle or not
// whatever was played in it. It stops with ctx's error when ctx ends.
func Find(ctx context.Context, g game.Game, start game.State, moves []game.Move, cfg Config) ([]Puzzle, error) {
	cfg, curve, err := cfg.resolve(g)
	if err != nil {
		return nil, err
	}
	if start.Game().ID() != g.ID() || start.Game().Options().String() != g.Options().String() {
		return nil, fmt.Errorf("puzzle: the start position is of %s, not of %s", start.Game().ID(), g.ID())
	}
	j := judge{cfg: cfg, curve: curve}
	s := start.Clone()
	var out []Puzzle
	seen := map[string]bool{}
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.Result().Over() || !slices.Contains(s.Moves(nil), m) {
			return nil, fmt.Errorf("puzzle: move %d (%s) is not legal", i+1, m.Text(g.Board()))
		}
		key := Key(s)
		if !seen[key] {
			p, ok, err := j.position(ctx, s)
			if err != nil {
				return nil, err
			}
			if ok {
				seen[key] = true
				out = append(out, p)
			}
		}
		s.Play(m)
	}
	return out, nil
}

// FindIn judges the one position s: its puzzle, and whether it is one.
func FindIn(ctx context.Context, s game.State, cfg Config) (Puzzle, bool, error) {
	cfg, curve, err := cfg.resolve(s.Game())
	if err != nil {
		return Puzzle{}, false, err
	}
	return judge{cfg: cfg, curve: curve}.position(ctx, s)
}

// judge holds one Find's resolved configuration.
type judge struct {
	cfg   Config
	curve review.Curve
}

// unique scores s at nodes and reports its best move when that move's
// expected score leads every other's by the margin, with the lead; a
// position with one legal move has it as its unique move, with a lead
// of 1.
func (j judge) unique(ctx context.Context, s game.State, nodes int64) (game.Move, float64, bool, error) {
	legal := s.Moves(nil)
	if len(legal) == 1 {
		return legal[0], 1, true, nil
	}
	lines, err := j.cfg.Scorer.Lines(ctx, s, nodes)
	if err != nil {
		return game.Move{}, 0, false, err
	}
	if len(lines) < 2 || len(lines[0].PV) == 0 {
		return game.Move{}, 0, false, nil
	}
	best := j.curve.Expected(lines[0].Score)
	second := j.curve.Expected(lines[1].Score)
	for _, l := range lines[1:] {
		second = max(second, j.curve.Expected(l.Score))
	}
	lead := best - second
	// A lead short of the margin by a rounding error of the curve is
	// still short: the comparison is exact on purpose, so that the same
	// scores always decide the same way.
	if lead < j.cfg.Margin || second >= decided {
		return game.Move{}, lead, false, nil
	}
	return lines[0].PV[0], lead, true, nil
}

// bestReply is the opponent's reply that loses least: the only one, or
// the best by the verifying search.
func (j judge) bestReply(ctx context.Context, s game.State) (game.Move, bool, error) {
	legal := s.Moves(nil)
	if len(legal) == 1 {
		return legal[0], true, nil
	}
	lines, err := j.cfg.Scorer.Lines(ctx, s, j.cfg.VerifyNodes)
	if err != nil || len(lines) == 0 || len(lines[0].PV) == 0 {
		return game.Move{}, false, err
	}
	return lines[0].PV[0], true, nil
}

// position judges s: a position with two or more moves whose best move
// is unique at Nodes and again at VerifyNodes (the same move), then the
// line played out while the solver's every next move is unique the same
// way.
func (j judge) position(ctx context.Context, s0 game.State) (Puzzle, bool, error) {
	if s0.Result().Over() || len(s0.Moves(nil)) < 2 {
		return Puzzle{}, false, nil
	}
	j.count(func(st *Stats) *int { return &st.Positions })
	if _, held := review.TableValue(j.cfg.Tables, s0); held {
		// The tables know better than any search: a position they hold
		// is an exact puzzle or none.
		j.count(func(st *Stats) *int { return &st.Table })
		return j.tablePosition(s0)
	}
	found, _, ok, err := j.unique(ctx, s0, j.cfg.Nodes)
	if err != nil || !ok {
		return Puzzle{}, false, err
	}
	j.count(func(st *Stats) *int { return &st.Candidates })
	verified, margin, ok, err := j.unique(ctx, s0, j.cfg.VerifyNodes)
	if err != nil {
		return Puzzle{}, false, err
	}
	if !ok || verified != found {
		j.count(func(st *Stats) *int { return &st.Dropped })
		return Puzzle{}, false, nil
	}
	s := s0.Clone()
	solution := []game.Move{found}
	s.Play(found)
	for solverMoves := 1; solverMoves < j.cfg.MaxMoves && !s.Result().Over(); solverMoves++ {
		reply, ok, err := j.bestReply(ctx, s)
		if err != nil {
			return Puzzle{}, false, err
		}
		if !ok {
			break
		}
		s.Play(reply)
		if s.Result().Over() {
			s.Undo()
			break
		}
		// The solver's next move is forced the way the first was: unique
		// by the finding search and by the verifying one.
		next, _, ok, err := j.unique(ctx, s, j.cfg.Nodes)
		if err != nil {
			return Puzzle{}, false, err
		}
		var lead float64
		if ok {
			var again game.Move
			again, lead, ok, err = j.unique(ctx, s, j.cfg.VerifyNodes)
			if err != nil {
				return Puzzle{}, false, err
			}
			ok = ok && again == next
		}
		if !ok {
			s.Undo()
			break
		}
		margin = min(margin, lead)
		solution = append(solution, reply, next)
		s.Play(next)
	}
	return j.make(s0, solution, margin)
}

// make builds the puzzle of s0 with its solution.
func (j judge) make(s0 game.State, solution []game.Move, margin float64) (Puzzle, bool, error) {
	g := s0.Game()
	b := g.Board()
	themes, quietStart, err := Themes(s0, solution)
	if err != nil {
		return Puzzle{}, false, err
	}
	text := make([]string, len(solution))
	for i, m := range solution {
		text[i] = m.Text(b)
	}
	key := Key(s0)
	sum := sha256.Sum256([]byte(g.ID() + "\n" + key))
	p := Puzzle{
		ID: g.ID() + "-" + hex.EncodeToString(sum[:5]), Game: g.ID(), FEN: s0.FEN(),
		Solution: text, Themes: themes, Margin: round3(margin),
		Nodes: j.cfg.Nodes, VerifyNodes: j.cfg.VerifyNodes, Source: j.cfg.Source, Ply: s0.Ply(), Key: key,
	}
	p.Rating = Rating(len(solution), margin, quietStart)
	return p, true, nil
}

// round3 rounds a margin to three places, as much as a curve knows.
func round3(x float64) float64 {
	return float64(int(x*1000+0.5)) / 1000
}

// Key is s's canonical key for removing duplicates: its FEN, or, when the
// rules give the position a mirror image (game.Mirror: two players, a
// board with the half-turn symmetry), the smaller of its FEN and its
// image's, so that a position and its mirror share a key.
func Key(s game.State) string {
	fen := s.FEN()
	if m, err := game.Mirror(s); err == nil {
		if mf := m.FEN(); mf < fen {
			return mf
		}
	}
	return fen
}

// Dedup keeps the first puzzle of each Key, in order.
func Dedup(ps []Puzzle) []Puzzle {
	seen := map[string]bool{}
	out := ps[:0:0]
	for _, p := range ps {
		if seen[p.Key] {
			continue
		}
		seen[p.Key] = true
		out = append(out, p)
	}
	return out
}

// Rating is a puzzle's starting rating, before players rate it: 1200 for
// a one-move puzzle with the widest margin, and more for each further
// solver move (+200: a line to see), for a narrower margin (up to +300
// as the margin falls from 1 to the default 0.25 and below: the wrong
// moves look less wrong), and for a quiet first move (+150: no capture,
// promotion or drop to draw the eye). Kept within 800 to 2800.
func Rating(solutionLen int, margin float64, quietStart bool) int {
	solverMoves := (solutionLen + 1) / 2
	r := 1200.0 + 200*float64(solverMoves-1)
	r += 400 * (1 - min(1, max(margin, DefaultMargin)))
	if quietStart {
		r += 150
	}
	return int(min(2800, max(800, r)))
}

// SelfPlay plays game i of seed as the review's fit plays it
// (review.SelfPlay: randomPlies random plies, then ab against itself at
// playNodes a move) and returns its start and moves, for Find.
func SelfPlay(ctx context.Context, g game.Game, seed uint64, i int, playNodes int64, randomPlies int) (game.State, []game.Move, error) {
	start, moves, _, err := review.SelfPlay(ctx, g, seed, i, playNodes, randomPlies)
	return start, moves, err
}
