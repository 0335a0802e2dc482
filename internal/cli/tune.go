package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/tune"
)

// tuneFlags are the settings of 'arbiter tune'.
type tuneFlags struct {
	p           position
	data        string
	out         string
	positions   int
	nodes       int64
	randomPlies int
	seed        uint64
	workers     int
	hold        []string
	quiet       bool
}

func tuneCmd() *cobra.Command {
	tf := tuneFlags{positions: 1_000_000, nodes: 2000, randomPlies: 8, seed: 1, workers: runtime.NumCPU()}
	cmd := &cobra.Command{
		Use:   "tune GAME --data FILE [--out FILE]",
		Short: "Fit the evaluation's weights to self-play games (Texel's method)",
		Long: `tune fits GAME's evaluation weights to the results of self-play games.

If the --data file does not exist, tune first plays games to fill it: ab
against itself at --nodes a move, after --random-plies random plies from the
start, each game from its own seed (--seed and its number). Every quiet
position (the side to move cannot capture) that no earlier game had is
written with the game's result, one FEN a line, until --positions are
written. The file, and so the whole run, is the same for the same flags
whatever --workers is. If the file exists, its positions are used (they
must be of GAME with the same --option rules), and the generation flags are
refused.

Then the weights, starting from the ones the game plays with, are fitted as
Texel's method does: each position's evaluation predicts the result through
a logistic curve (a softmax with three players), and each weight is moved up
and down by 32, 16, ... 1 while the mean squared error of the predictions
falls. The first weight (a piece's 100, the unit) stays. One position in ten
is held out: its error shows whether the fit generalises.

The weights are printed as a weights file, the form the games embed
(games/GAME/weights/ID.json); --out writes it there instead.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return tf.run(cmd, args[0]) },
	}
	tf.p.cmd = cmd
	cmd.Flags().StringArrayVarP(&tf.p.options, "option", "o", nil, "a game option as key=value (repeatable); see 'arbiter games'")
	allow(cmd, "option", optionAllowed)
	cmd.Flags().StringVar(&tf.data, "data", "", "the position file: read if it exists, else made by self-play")
	allow(cmd, "data", "a file name")
	cmd.Flags().StringVar(&tf.out, "out", "", "write the weights file here (default: print it)")
	allow(cmd, "out", "a file name")
	posAllowed := fmt.Sprintf("a whole number from 1 to %d", tune.MaxPositions)
	cmd.Flags().IntVar(&tf.positions, "positions", tf.positions, "quiet positions to collect ("+posAllowed+")")
	allow(cmd, "positions", posAllowed)
	nodesAllowed := fmt.Sprintf("a whole number from 1 to %d", tune.MaxNodes)
	cmd.Flags().Int64Var(&tf.nodes, "nodes", tf.nodes, "ab's nodes a move in the self-play games ("+nodesAllowed+")")
	allow(cmd, "nodes", nodesAllowed)
	pliesAllowed := fmt.Sprintf("a whole number from 0 to %d", tune.MaxRandomPlies)
	cmd.Flags().IntVar(&tf.randomPlies, "random-plies", tf.randomPlies, "random plies from the start of each game ("+pliesAllowed+")")
	allow(cmd, "random-plies", pliesAllowed)
	seedVar(cmd, &tf.seed, "the seed of the self-play games")
	workersAllowed := fmt.Sprintf("a whole number from 1 to %d", tune.MaxWorkers)
	cmd.Flags().IntVar(&tf.workers, "workers", tf.workers, "goroutines that play and fit ("+workersAllowed+"; default: the cores)")
	allow(cmd, "workers", workersAllowed)
	cmd.Flags().StringSliceVar(&tf.hold, "hold", nil, "weights to keep as they are, by name (such as Advance[3]; repeatable, or comma-separated); the first weight is always kept")
	allow(cmd, "hold", "names of the game's weights, as the weights file and the report write them")
	cmd.Flags().BoolVarP(&tf.quiet, "quiet", "q", false, "nothing on stderr: no progress and no report")
	return cmd
}

// run checks the flags, makes or reads the positions and fits.
func (tf *tuneFlags) run(cmd *cobra.Command, id string) error {
	if strings.TrimSpace(tf.data) == "" {
		return errors.New("--data is missing: give the position file to read, or to write")
	}
	if tf.workers < 1 || tf.workers > tune.MaxWorkers {
		return fmt.Errorf("--workers %d: want a whole number from 1 to %d", tf.workers, tune.MaxWorkers)
	}
	g, err := tf.p.newGame(id)
	if err != nil {
		return err
	}
	tg, ok := g.(game.Tunable)
	if !ok {
		return fmt.Errorf("%s has no evaluation weights to tune", g.ID())
	}
	names := game.WeightNames(tg.Weights())
	for _, h := range tf.hold {
		if !slices.Contains(names, h) {
			return fmt.Errorf("--hold %s: %s has no such weight (it has %s)", clip.Quote(h), g.ID(), strings.Join(names, ", "))
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	if err := tf.ensureData(ctx, cmd, g); err != nil {
		return err
	}
	set, err := tf.load(g)
	if err != nil {
		return err
	}
	return tf.fit(ctx, cmd, tg, set)
}

// ensureData plays the self-play games into --data unless it exists.
func (tf *tuneFlags) ensureData(ctx context.Context, cmd *cobra.Command, g game.Game) error {
	if _, err := os.Stat(tf.data); err == nil {
		for _, name := range []string{"positions", "nodes", "random-plies", "seed"} {
			if cmd.Flags().Changed(name) {
				return fmt.Errorf("--%s: %s exists, and its positions are used as they are (remove it to make new ones)", name, clip.Quote(tf.data))
			}
		}
		return nil
	}
	cfg := tune.GenConfig{Game: g, Positions: tf.positions, Nodes: tf.nodes, RandomPlies: tf.randomPlies,
		Seed: tf.seed, Workers: tf.workers}
	if err := cfg.Check(); err != nil {
		return fmt.Errorf("--%v", err)
	}
	if !tf.quiet {
		cfg.Progress = func(positions, games int) {
			if games%100 == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "\rgames %d, positions %d of %d", games, positions, tf.positions)
			}
		}
	}
	var st tune.GenStats
	err := savefile.WriteAtomic(tf.data, func(w io.Writer) error {
		var err error
		st, err = tune.Generate(ctx, cfg, w)
		return err
	})
	if !tf.quiet {
		fmt.Fprintln(cmd.ErrOrStderr())
	}
	if err != nil {
		return err
	}
	if !tf.quiet {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d positions from %d games (%d repeated and %d with a capture to make left out)\n",
			st.Positions, st.Games, st.Repeated, st.Noisy)
	}
	return nil
}

// load reads the positions of --data.
func (tf *tuneFlags) load(g game.Game) (*tune.Set, error) {
	f, err := os.Open(tf.data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set, err := tune.Load(f, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", clip.Quote(tf.data), err)
	}
	return set, nil
}

// fit tunes the weights and prints or writes them.
func (tf *tuneFlags) fit(ctx context.Context, cmd *cobra.Command, g game.Tunable, set *tune.Set) error {
	names := game.WeightNames(g.Weights())
	cfg := tune.Config{Workers: tf.workers, Steps: tune.DefaultSteps(), Fixed: append(names[:1:1], tf.hold...)}
	if !tf.quiet {
		cfg.Progress = func(s tune.Step) {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s %d -> %d: error %.6f (held out %.6f)\n", s.Name, s.From, s.To,
				s.Errors.Train, s.Errors.Validation)
		}
		cfg.Note = func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), s) }
	}
	start := game.WeightValues(g.Weights())
	res, err := tune.Tune(ctx, set, g, cfg)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	if !tf.quiet {
		tf.report(cmd, set, res, names, start)
	}
	return tf.writeWeights(cmd, set, res)
}

// report prints what the fit did.
func (tf *tuneFlags) report(cmd *cobra.Command, set *tune.Set, res tune.Result, names []string, start []int) {
	e := cmd.ErrOrStderr()
	fmt.Fprintf(e, "%d positions (%d held out), k %.5f, %d trials through %d linear models, %d judged again in full\n",
		len(set.States), len(set.States)/10, res.K, res.Evaluations, res.Models, res.Confirmations)
	fmt.Fprintf(e, "error %.6f -> %.6f, held out %.6f -> %.6f\n", res.Before.Train, res.After.Train, res.Before.Validation, res.After.Validation)
	for i, v := range game.WeightValues(res.Weights) {
		if v != start[i] {
			fmt.Fprintf(e, "  %s %d -> %d\n", names[i], start[i], v)
		}
	}
}

// writeWeights writes the weights file, naming the command that makes it
// again.
func (tf *tuneFlags) writeWeights(cmd *cobra.Command, set *tune.Set, res tune.Result) error {
	raw, err := json.Marshal(res.Weights)
	if err != nil {
		return err
	}
	h := set.Header
	opts := ""
	for _, o := range strings.Fields(h.Options) {
		opts += " -o " + o
	}
	wf := game.WeightsFile{ID: h.Game, Weights: raw,
		Command: fmt.Sprintf("arbiter tune %s%s --data FILE --positions %d --nodes %d --random-plies %d --seed %d%s",
			h.Game, opts, len(set.States), h.Nodes, h.RandomPlies, h.Seed, holdFlags(tf.hold)),
		Note: fmt.Sprintf("k %.5f; mean squared error %.6f -> %.6f, held-out %.6f -> %.6f",
			res.K, res.Before.Train, res.After.Train, res.Before.Validation, res.After.Validation)}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the note's arrows stay arrows
	enc.SetIndent("", "  ")
	if err := enc.Encode(wf); err != nil {
		return err
	}
	data := buf.Bytes()
	if tf.out == "" {
		_, err = cmd.OutOrStdout().Write(data)
		return err
	}
	return savefile.WriteAtomic(tf.out, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// holdFlags writes --hold as the command line had it.
func holdFlags(hold []string) string {
	if len(hold) == 0 {
		return ""
	}
	return " --hold " + strings.Join(hold, ",")
}
