package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/record"
)

// The bounds of 'arbiter puzzles' flags that package puzzle does not
// bound itself.
const (
	maxPuzzleSelfPlay = 100_000
	maxRandomPlies    = 200
)

// puzzlesFlags are the settings of 'arbiter puzzles'.
type puzzlesFlags struct {
	selfPlay    int
	first       int
	games       string
	seed        uint64
	nodes       int64
	verify      int64
	playNodes   int64
	randomPlies int
	margin      float64
	maxMoves    int
	out         string
	tables      string
	recheck     string
	deeper      int64
	quiet       bool
}

func puzzlesCmd() *cobra.Command {
	f := puzzlesFlags{nodes: puzzle.DefaultNodes, verify: puzzle.DefaultVerify, playNodes: 2000, randomPlies: 8,
		margin: puzzle.DefaultMargin, maxMoves: puzzle.DefaultMaxMoves}
	cmd := &cobra.Command{
		Use:   "puzzles GAME (--selfplay N [--seed S] | --games FILE | --recheck FILE) [--out FILE]",
		Short: "Find puzzles in GAME's self-play games or in a PDN file of its games",
		Long: `puzzles judges every position of the games it reads (--games, a PDN file of
GAME's games) or plays (--selfplay N games: --random-plies random plies, then ab
against itself at --play-nodes a move, game i from seed (--seed, i)). A position
is a puzzle when its best move's expected score, by the review's win-chance
curve, leads every other move's by --margin at a search of --nodes and again at
the deeper --verify; the line is played on, the opponent answering with the
reply that loses least, while the solver's next move is forced the same way,
up to --max-moves solver moves. With --tables, the positions the tables hold are
judged by them alone: the only move that keeps the win. Duplicates (by position and by mirror image)
are written once. docs/puzzles.md says more.

--recheck FILE reads puzzles (this command's output) instead and judges every
move of each solution again, by a search of --deeper nodes (default four times
the puzzle's own --verify) and by --tables where they hold the position: the
puzzles whose solution holds are written, the others named on stderr.

Each puzzle is one JSON line on --out (default: standard output). The same
flags give the same puzzles.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return f.run(cmd, args[0]) },
	}
	nodesAllowed := fmt.Sprintf("a whole number from 1 to %d", puzzle.MaxNodes)
	cmd.Flags().IntVar(&f.selfPlay, "selfplay", 0, fmt.Sprintf("self-play games to find puzzles in (a whole number from 1 to %d)", maxPuzzleSelfPlay))
	allow(cmd, "selfplay", fmt.Sprintf("a whole number from 1 to %d", maxPuzzleSelfPlay))
	cmd.Flags().StringVar(&f.games, "games", "", "a PDN file of GAME's games to find puzzles in")
	allow(cmd, "games", "a file name")
	seedVar(cmd, &f.seed, "the seed of the self-play games")
	cmd.Flags().IntVar(&f.first, "first", 0, fmt.Sprintf("with --selfplay, the index of the first game (a whole number from 0 to %d): --first 100 --selfplay 50 plays games 100 to 149 of the seed, as --selfplay 150 does after its first 100", maxPuzzleSelfPlay))
	allow(cmd, "first", fmt.Sprintf("a whole number from 0 to %d", maxPuzzleSelfPlay))
	cmd.Flags().Int64Var(&f.nodes, "nodes", f.nodes, "the search that finds a candidate, in nodes ("+nodesAllowed+")")
	allow(cmd, "nodes", nodesAllowed)
	cmd.Flags().Int64Var(&f.verify, "verify", f.verify, "the deeper search that verifies it, in nodes (more than --nodes, up to "+fmt.Sprint(puzzle.MaxNodes)+")")
	allow(cmd, "verify", "a whole number above --nodes, up to "+fmt.Sprint(puzzle.MaxNodes))
	cmd.Flags().Int64Var(&f.playNodes, "play-nodes", f.playNodes, "ab's nodes a move in the self-play games ("+nodesAllowed+")")
	allow(cmd, "play-nodes", nodesAllowed)
	cmd.Flags().IntVar(&f.randomPlies, "random-plies", f.randomPlies, fmt.Sprintf("random plies from the start of each self-play game (a whole number from 0 to %d)", maxRandomPlies))
	allow(cmd, "random-plies", fmt.Sprintf("a whole number from 0 to %d", maxRandomPlies))
	cmd.Flags().Float64Var(&f.margin, "margin", f.margin, "the best move's least lead in expected score (above 0, up to 1)")
	allow(cmd, "margin", "a number above 0, up to 1")
	cmd.Flags().IntVar(&f.maxMoves, "max-moves", f.maxMoves, fmt.Sprintf("the most solver moves in a solution (a whole number from 1 to %d)", puzzle.MaxMaxMoves))
	allow(cmd, "max-moves", fmt.Sprintf("a whole number from 1 to %d", puzzle.MaxMaxMoves))
	cmd.Flags().StringVar(&f.out, "out", "", "write the puzzles to this file (default: standard output)")
	allow(cmd, "out", "a file name")
	cmd.Flags().StringVar(&f.tables, "tables", "", "a folder of GAME's endgame tables (arbiter solve): its positions make exact puzzles")
	allow(cmd, "tables", "a folder name")
	cmd.Flags().StringVar(&f.recheck, "recheck", "", "a file of GAME's puzzles to judge again, deeper, keeping those that hold")
	allow(cmd, "recheck", "a file name")
	cmd.Flags().Int64Var(&f.deeper, "deeper", 0, "with --recheck, the deeper search in nodes (default: 4 times each puzzle's verifying search; more than it, up to "+fmt.Sprint(puzzle.MaxNodes)+")")
	allow(cmd, "deeper", "a whole number up to "+fmt.Sprint(puzzle.MaxNodes))
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "nothing on stderr: no progress and no report")
	return cmd
}

// check refuses flags out of their bounds, one line each, naming the flag.
func (f *puzzlesFlags) check(cmd *cobra.Command) error {
	switch {
	case countTrue(cmd.Flags().Changed("selfplay"), f.games != "", f.recheck != "") != 1:
		return fmt.Errorf("give one of --selfplay N, --games FILE and --recheck FILE")
	case cmd.Flags().Changed("first") && !cmd.Flags().Changed("selfplay"):
		return fmt.Errorf("--first goes with --selfplay N")
	case f.first < 0 || f.first > maxPuzzleSelfPlay:
		return fmt.Errorf("--first %d: want a whole number from 0 to %d", f.first, maxPuzzleSelfPlay)
	case cmd.Flags().Changed("deeper") && f.recheck == "":
		return fmt.Errorf("--deeper goes with --recheck FILE")
	case f.deeper < 0 || f.deeper > puzzle.MaxNodes:
		return fmt.Errorf("--deeper %d: want a whole number up to %d", f.deeper, puzzle.MaxNodes)
	case cmd.Flags().Changed("selfplay") && (f.selfPlay < 1 || f.selfPlay > maxPuzzleSelfPlay):
		return fmt.Errorf("--selfplay %d: want a whole number from 1 to %d", f.selfPlay, maxPuzzleSelfPlay)
	case f.nodes < 1 || f.nodes > puzzle.MaxNodes:
		return fmt.Errorf("--nodes %d: want a whole number from 1 to %d", f.nodes, puzzle.MaxNodes)
	case f.verify <= f.nodes || f.verify > puzzle.MaxNodes:
		return fmt.Errorf("--verify %d: want a whole number above --nodes (%d), up to %d", f.verify, f.nodes, puzzle.MaxNodes)
	case f.playNodes < 1 || f.playNodes > puzzle.MaxNodes:
		return fmt.Errorf("--play-nodes %d: want a whole number from 1 to %d", f.playNodes, puzzle.MaxNodes)
	case f.randomPlies < 0 || f.randomPlies > maxRandomPlies:
		return fmt.Errorf("--random-plies %d: want a whole number from 0 to %d", f.randomPlies, maxRandomPlies)
	case !(f.margin > 0 && f.margin <= 1):
		return fmt.Errorf("--margin %g: want a number above 0, up to 1", f.margin)
	case f.maxMoves < 1 || f.maxMoves > puzzle.MaxMaxMoves:
		return fmt.Errorf("--max-moves %d: want a whole number from 1 to %d", f.maxMoves, puzzle.MaxMaxMoves)
	}
	return nil
}

// source is one game to find puzzles in.
type source struct {
	start game.State
	moves []game.Move
	name  string
}

// run checks the flags, reads or plays the games, finds and writes the
// puzzles.
func (f *puzzlesFlags) run(cmd *cobra.Command, id string) error {
	if err := f.check(cmd); err != nil {
		return err
	}
	g, err := game.New(id, nil)
	if err != nil {
		return err
	}
	if f.recheck != "" {
		return f.runRecheck(cmd, g)
	}
	var recs []*record.Record
	if f.games != "" {
		data, err := os.ReadFile(f.games)
		if err != nil {
			return fmt.Errorf("--games %s: %v", clip.Quote(f.games), pathless(err))
		}
		if recs, err = record.Read(bytes.NewReader(data)); err != nil {
			return fmt.Errorf("--games %s: %v", clip.Quote(f.games), err)
		}
		if len(recs) == 0 {
			return fmt.Errorf("--games %s: no games in the file", clip.Quote(f.games))
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	var st puzzle.Stats
	cfg := puzzle.Config{Nodes: f.nodes, VerifyNodes: f.verify, Margin: f.margin, MaxMoves: f.maxMoves, Stats: &st}
	if f.tables != "" {
		if cfg.Tables, err = openTableFolder(f.tables); err != nil {
			return err
		}
	}
	n := f.selfPlay
	if recs != nil {
		n = len(recs)
	}
	// next gives game i (0-based) of the source: read records are replayed
	// and checked before any search, so a bad record costs nothing.
	next := func(i int) (source, error) {
		if recs != nil {
			end, err := recs[i].Replay(i + 1)
			if err != nil {
				return source{}, fmt.Errorf("--games %s: %v", clip.Quote(f.games), err)
			}
			if end.Game().ID() != g.ID() || end.Game().Options().String() != g.Options().String() {
				return source{}, fmt.Errorf("--games %s: game %d is of %s, not of %s", clip.Quote(f.games), i+1, clip.Quote(end.Game().ID()), id)
			}
			start, moves, err := unwind(end, recs[i].Moves)
			if err != nil {
				return source{}, err
			}
			return source{start, moves, fmt.Sprintf("games %s #%d", f.games, i+1)}, nil
		}
		start, moves, err := puzzle.SelfPlay(ctx, g, f.seed, f.first+i, f.playNodes, f.randomPlies)
		return source{start, moves, fmt.Sprintf("selfplay seed %d game %d", f.seed, f.first+i)}, err
	}
	began := time.Now()
	var all []puzzle.Puzzle
	errOut := cmd.ErrOrStderr()
	for i := range n {
		src, err := next(i)
		if err != nil {
			return err
		}
		cfg.Source = src.name
		ps, err := puzzle.Find(ctx, g, src.start, src.moves, cfg)
		if err != nil {
			return err
		}
		all = puzzle.Dedup(append(all, ps...))
		if !f.quiet {
			fmt.Fprintf(errOut, "\rgames %d of %d, puzzles %d", i+1, n, len(all))
		}
	}
	if !f.quiet {
		fmt.Fprintf(errOut, "\n%s: %d puzzles in %d games, %.1f s; %d positions judged, %d by the tables, %d candidates, %d dropped by the verification\n",
			id, len(all), n, time.Since(began).Seconds(), st.Positions, st.Table, st.Candidates, st.Dropped)
	}
	return f.write(cmd, all)
}

// write writes puzzles as JSON lines on --out or standard output.
func (f *puzzlesFlags) write(cmd *cobra.Command, all []puzzle.Puzzle) error {
	write := func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, p := range all {
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
		return nil
	}
	if f.out == "" {
		return write(cmd.OutOrStdout())
	}
	if err := savefile.WriteAtomic(f.out, write); err != nil {
		return fmt.Errorf("--out %s: %v", clip.Quote(f.out), err)
	}
	return nil
}

// countTrue counts the true ones.
func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// unwind returns the start of end's game, from its history, and the
// moves of texts played from it.
func unwind(end game.State, texts []string) (game.State, []game.Move, error) {
	start := end.Clone()
	for start.Undo() {
	}
	s := start.Clone()
	moves := make([]game.Move, 0, len(texts))
	for _, t := range texts {
		m, err := game.ParseMove(s, t)
		if err != nil {
			return nil, nil, err // Replay played the same texts, so this is not reached
		}
		moves = append(moves, m)
		s.Play(m)
	}
	return start, moves, nil
}

// pathless is err without the path a PathError repeats: the callers
// name the file themselves, quoted and clipped.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
