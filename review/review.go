// Package review is the computer review of a finished game: for every
// position before a played move, a search at a fixed number of nodes
// gives the evaluation, the best move and its line, and the value of the
// move that was played; a win-chance curve fitted to the games' own
// results (curve.go) turns scores into the mover's expected score, and
// the drop of that expected score marks the move (an inaccuracy, a
// mistake or a blunder) and makes each seat's accuracy (marks.go).
// Positions the endgame tables hold get their exact value too
// (tables.go).
//
// A review runs engines and nothing else: no store, no network, no
// clock. It is deterministic: the same game, configuration and curves
// give the same Result in any process, on any machine, at any load,
// because every search is single-threaded, bounded by nodes and never
// by time, and starts from a fresh engine. The review service runs one
// review in two processes and compares them, and redoes a killed
// worker's job elsewhere, relying on this.
package review

import (
	"context"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
)

// DefaultNodes is the search of each position, in ab's nodes, when
// Config.Nodes is 0: chosen so that a review of a typical self-play game
// of every id costs seconds of one core, not minutes (docs/review.md has
// the figures). The curves (curves.json) are fitted at this budget.
const DefaultNodes = 100_000

// MaxNodes bounds Config.Nodes, so that a slip cannot make one review
// run for hours.
const MaxNodes = 10_000_000

// ttBits sizes each search's transposition table: 2^18 entries of 16
// bytes (4 MiB), more entries than a search of DefaultNodes visits
// nodes, and cheap to make afresh for every position (a
// millisecond, against a search's tens).
const ttBits = 18

// Config says how a review searches; the zero Config is the default
// review without tables.
type Config struct {
	// Nodes is the search of each position (0: DefaultNodes).
	Nodes int64
	// Tables are endgame tables of the game's id and rules (nil: none):
	// the search probes them, and the positions they hold get their exact
	// value (Move.Table). Tables of another game or rules are refused.
	Tables *endgame.Tables
	// Curve turns scores into expected scores (nil: the curve fitted for
	// the game's id, CurveFor; an id with none is refused).
	Curve *Curve
}

// Result is a finished game's review, ready for a transport to encode.
type Result struct {
	// Game is the game's id.
	Game string
	// Nodes is the search each position had.
	Nodes int64
	// Curve is the win-chance curve the marks and accuracies come from.
	Curve Curve
	// Moves has one entry for each played move, in order.
	Moves []Move
	// Seats has one entry for each player, in seat order.
	Seats []Seat
}

// Move is the review of one played move, judged in the position before it.
type Move struct {
	// Ply counts the moves played before this one (the position's
	// State.Ply), as the game's records and the moves API count them.
	Ply int
	// Seat is the player who moved.
	Seat game.Player
	// Move is the played move in the board's notation.
	Move string
	// Score is the position's evaluation from the point of view of the
	// seat to move (Seat), as the analysis API gives it: hundredths of a
	// piece, a forced win in n plies ai.Mate-n, a loss -(ai.Mate-n).
	// ScoreText writes it as ai.ScoreText does ("+35", "win7").
	Score     int
	ScoreText string
	// Best is the search's best move, and Line the line it expects, Best
	// first, in the board's notation.
	Best string
	Line []string
	// Played is the played move's score from the mover's point of view,
	// from the same search; Loss is Score less Played (0 for the best
	// move), in hundredths of a piece (between two forced results, the
	// difference of their scores: a win in 5 played as a win in 9 loses
	// 4).
	Played int
	Loss   int
	// WinChance is the mover's expected score (0 to 1) before the move,
	// by the curve, and After the same after the played move; Drop is
	// WinChance less After, never below 0.
	WinChance float64
	After     float64
	Drop      float64
	// Mark is "", Inaccuracy, Mistake or Blunder, by Drop (see Marks).
	Mark Mark
	// Forced is set when the move was the only legal one: never marked,
	// and left out of the seat's accuracy.
	Forced bool
	// Table is the exact value the endgame tables give the position and
	// the played move, from the mover's point of view ("win in 23 →
	// draw"; "draw" alone when the move keeps it), or "" when the tables
	// do not hold the position.
	Table string
}

// Seat is one player's figures over the moves they made.
type Seat struct {
	// Accuracy is 0 to 100 (see Accuracy).
	Accuracy float64
	// Moves counts the seat's moves, Forced those of them that had no
	// choice.
	Moves, Forced int
	// Inaccuracies, Mistakes and Blunders count the seat's marks.
	Inaccuracies, Mistakes, Blunders int
}

// Game reviews the game of g played from start by moves, which must all
// be legal: each position before a move is searched with ab for
// cfg.Nodes nodes on one thread, from a fresh engine, with the game's
// history before it (so that repetitions count as the game counts them).
// The search scores every legal move of the position exactly
// (ai.LineSearcher with as many lines as moves), so the best move's score
// and the played move's score come from one search at one depth: the
// played move's loss is never noise between two searches, the best move
// loses nothing, and with three players the played move is scored from
// its mover's point of view like any other. It stops early, with ctx's
// error, when ctx ends.
func Game(ctx context.Context, g game.Game, start game.State, moves []game.Move, cfg Config) (Result, error) {
	cfg, curve, err := cfg.resolve(g)
	if err != nil {
		return Result{}, err
	}
	if start.Game().ID() != g.ID() || start.Game().Options().String() != g.Options().String() {
		return Result{}, fmt.Errorf("review: the start position is of %s, not of %s", start.Game().ID(), g.ID())
	}
	res := Result{Game: g.ID(), Nodes: cfg.Nodes, Curve: curve, Moves: make([]Move, 0, len(moves)), Seats: make([]Seat, g.Players())}
	s := start.Clone()
	b := g.Board()
	var legal []game.Move
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if s.Result().Over() {
			return Result{}, fmt.Errorf("review: move %d (%s): the game was over", i+1, m.Text(b))
		}
		legal = s.Moves(legal[:0])
		if !contains(legal, m) {
			return Result{}, fmt.Errorf("review: move %d (%s) is not legal", i+1, m.Text(b))
		}
		mv, err := reviewMove(ctx, s, m, len(legal), cfg, curve)
		if err != nil {
			return Result{}, fmt.Errorf("review: move %d (%s): %w", i+1, m.Text(b), err)
		}
		res.Moves = append(res.Moves, mv)
		s.Play(m)
	}
	res.Seats = Seats(res.Moves, g.Players())
	return res, nil
}

// resolve fills in cfg's defaults for g and checks it.
func (cfg Config) resolve(g game.Game) (Config, Curve, error) {
	if cfg.Nodes == 0 {
		cfg.Nodes = DefaultNodes
	}
	if cfg.Nodes < 1 || cfg.Nodes > MaxNodes {
		return cfg, Curve{}, fmt.Errorf("review: %d nodes: give 1 to %d, or 0 for %d", cfg.Nodes, MaxNodes, DefaultNodes)
	}
	if cfg.Tables != nil {
		man := cfg.Tables.Manifest()
		if man.Game != g.ID() || man.Rules != endgame.RulesOf(g) {
			return cfg, Curve{}, fmt.Errorf("review: the endgame tables are of %s (%s), not of %s (%s)", man.Game, man.Rules, g.ID(), endgame.RulesOf(g))
		}
	}
	var curve Curve
	if cfg.Curve != nil {
		curve = *cfg.Curve
	} else {
		c, ok := CurveFor(g.ID())
		if !ok {
			return cfg, Curve{}, fmt.Errorf("review: no win-chance curve for %s", g.ID())
		}
		curve = c
	}
	if err := curve.check(g); err != nil {
		return cfg, Curve{}, err
	}
	return cfg, curve, nil
}

// contains tells whether m is one of moves.
func contains(moves []game.Move, m game.Move) bool {
	for _, l := range moves {
		if l == m {
			return true
		}
	}
	return false
}

// reviewMove judges the played move m of s, which has n legal moves.
func reviewMove(ctx context.Context, s game.State, m game.Move, n int, cfg Config, curve Curve) (Move, error) {
	b := s.Game().Board()
	info, err := search(ctx, s, n, cfg)
	if err != nil {
		return Move{}, err
	}
	mv := Move{Ply: s.Ply(), Seat: s.ToMove(), Move: m.Text(b), Score: info.Score, ScoreText: ai.ScoreText(info.Score),
		Best: info.Move.Text(b), Line: movesText(info.PV, b), Forced: n == 1}
	played, ok := playedScore(info, m)
	if !ok {
		// Every move is searched at every completed depth; a move missing
		// is a search stopped before its first depth, by ctx.
		if err := ctx.Err(); err != nil {
			return Move{}, err
		}
		return Move{}, errors.New("the search did not score the played move")
	}
	mv.Played = played
	mv.Loss = max(0, mv.Score-played)
	mv.WinChance = curve.Expected(mv.Score)
	mv.After = curve.Expected(played)
	mv.Drop = max(0, mv.WinChance-mv.After)
	if !mv.Forced {
		mv.Mark = MarkOf(mv.Drop)
	}
	if cfg.Tables != nil {
		mv.Table = tableText(cfg.Tables, s, m)
	}
	return mv, nil
}

// search scores every one of the n legal moves of s, best first.
func search(ctx context.Context, s game.State, n int, cfg Config) (ai.Info, error) {
	spec := fmt.Sprintf("ab:tt=%d", ttBits)
	var opts []ai.Option
	if cfg.Tables != nil {
		opts = append(opts, ai.WithTables(cfg.Tables))
	}
	// A fresh engine for each position: what a search learns (its table,
	// its history) never carries to the next, so a position's review
	// depends on the position and its history alone.
	e, err := ai.New(spec, 1, opts...)
	if err != nil {
		return ai.Info{}, err
	}
	ls, ok := e.(ai.LineSearcher)
	if !ok {
		return ai.Info{}, errors.New("ab gives no lines")
	}
	info := ls.SearchLines(ctx, s, ai.Limits{Nodes: cfg.Nodes}, n, nil)
	if info.Err != nil {
		return ai.Info{}, info.Err
	}
	if err := ctx.Err(); err != nil {
		return ai.Info{}, err
	}
	return info, nil
}

// playedScore finds m's score among the search's lines.
func playedScore(info ai.Info, m game.Move) (int, bool) {
	for _, l := range info.Lines {
		if len(l.PV) > 0 && l.PV[0] == m {
			return l.Score, true
		}
	}
	return 0, false
}

// movesText writes moves in the notation of board b, never nil, as the
// analysis writes its lines.
func movesText(moves []game.Move, b *board.Board) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		out = append(out, m.Text(b))
	}
	return out
}
