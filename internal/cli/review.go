package cli

import (
	"bytes"
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
	"github.com/arbiter-games/arbiter/review"
)

// reviewCmd is 'arbiter review': the computer review's tools.
func reviewCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "review",
		Short: "The computer review's tools: fit its win-chance curves",
		Args:  withUsage(cobra.NoArgs),
	}
	cmd.AddCommand(reviewFitCmd())
	return cmd
}

// reviewFitFlags are the settings of 'arbiter review fit'.
type reviewFitFlags struct {
	games       int
	seed        uint64
	nodes       int64
	playNodes   int64
	randomPlies int
	every       int
	workers     int
	out         string
	quiet       bool
}

func reviewFitCmd() *cobra.Command {
	f := reviewFitFlags{games: 100, nodes: review.DefaultNodes, playNodes: 2000, randomPlies: 8, every: 6, workers: runtime.NumCPU()}
	cmd := &cobra.Command{
		Use:   "fit GAME [--games 100] [--seed 1] [--out FILE]",
		Short: "Fit GAME's win-chance curve to self-play games scored by the review's search",
		Long: `fit plays --games self-play games of GAME (its default rules): --random-plies
random plies, then ab against itself at --play-nodes a move, game i from seed
(--seed, i). One position in --every of each game, from the first after the
random plies, is scored by the review's own search (--nodes, one thread), and
the scale k of the curve E(s) = 1/(1 + (players-1)·exp(-k·s)) is fitted to the
movers' points in those games by least squares, with a 95% interval from a
bootstrap over the games. The result is the same for the same flags whatever
--workers is.

The curve is printed as JSON; --out adds it to a curves file (such as
review/curves.json, which the binary embeds), replacing the game's entry.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return f.run(cmd, args[0]) },
	}
	gamesAllowed := fmt.Sprintf("a whole number from 1 to %d", review.MaxFitGames)
	cmd.Flags().IntVar(&f.games, "games", f.games, "self-play games to fit ("+gamesAllowed+")")
	allow(cmd, "games", gamesAllowed)
	seedVar(cmd, &f.seed, "the seed of the self-play games")
	nodesAllowed := fmt.Sprintf("a whole number from 1 to %d", review.MaxNodes)
	cmd.Flags().Int64Var(&f.nodes, "nodes", f.nodes, "the review's search of a position, in nodes ("+nodesAllowed+")")
	allow(cmd, "nodes", nodesAllowed)
	cmd.Flags().Int64Var(&f.playNodes, "play-nodes", f.playNodes, "ab's nodes a move in the self-play games ("+nodesAllowed+")")
	allow(cmd, "play-nodes", nodesAllowed)
	cmd.Flags().IntVar(&f.randomPlies, "random-plies", f.randomPlies, "random plies from the start of each game (a whole number from 0 to 200)")
	allow(cmd, "random-plies", "a whole number from 0 to 200")
	cmd.Flags().IntVar(&f.every, "every", f.every, "score one position in this many (a whole number from 1 to 1000)")
	allow(cmd, "every", "a whole number from 1 to 1000")
	cmd.Flags().IntVar(&f.workers, "workers", f.workers, "games played and scored at once (a whole number from 1 to 256; default: the cores)")
	allow(cmd, "workers", "a whole number from 1 to 256")
	cmd.Flags().StringVar(&f.out, "out", "", "add the curve to this curves file (default: print it)")
	allow(cmd, "out", "a file name")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "nothing on stderr: no progress and no report")
	return cmd
}

// run checks the flags, fits and prints or writes the curve.
func (f *reviewFitFlags) run(cmd *cobra.Command, id string) error {
	switch {
	case f.games < 1 || f.games > review.MaxFitGames:
		return fmt.Errorf("--games %d: want a whole number from 1 to %d", f.games, review.MaxFitGames)
	case f.nodes < 1 || f.nodes > review.MaxNodes:
		return fmt.Errorf("--nodes %d: want a whole number from 1 to %d", f.nodes, review.MaxNodes)
	case f.playNodes < 1 || f.playNodes > review.MaxNodes:
		return fmt.Errorf("--play-nodes %d: want a whole number from 1 to %d", f.playNodes, review.MaxNodes)
	case f.randomPlies < 0 || f.randomPlies > 200:
		return fmt.Errorf("--random-plies %d: want a whole number from 0 to 200", f.randomPlies)
	case f.every < 1 || f.every > 1000:
		return fmt.Errorf("--every %d: want a whole number from 1 to 1000", f.every)
	case f.workers < 1 || f.workers > 256:
		return fmt.Errorf("--workers %d: want a whole number from 1 to 256", f.workers)
	}
	g, err := game.New(id, nil)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	random := f.randomPlies
	if random == 0 {
		random = -1 // FitConfig's 0 is its default; none is negative
	}
	cfg := review.FitConfig{Game: g, Games: f.games, Seed: f.seed, Nodes: f.nodes, PlayNodes: f.playNodes,
		RandomPlies: random, Every: f.every, Workers: f.workers}
	errOut := cmd.ErrOrStderr()
	if !f.quiet {
		cfg.Progress = func(done int) { fmt.Fprintf(errOut, "\rgames %d of %d", done, f.games) }
	}
	command := fmt.Sprintf("arbiter review fit %s --games %d --seed %d --nodes %d --play-nodes %d --random-plies %d --every %d",
		id, f.games, f.seed, f.nodes, f.playNodes, f.randomPlies, f.every)
	curve, st, err := review.Fit(ctx, cfg, command)
	if !f.quiet {
		fmt.Fprintln(errOut)
	}
	if err != nil {
		return err
	}
	if !f.quiet {
		fmt.Fprintf(errOut, "%s: k %g [%g, %g], mean squared error %.6f; %d games (%d plies), %d positions fitted, %d decided left out; wins %v, draws %d\n",
			id, curve.K, curve.KLow, curve.KHigh, curve.Error, st.Games, st.Plies, st.Positions, st.Decided, st.Wins[:g.Players()], st.Draws)
	}
	if f.out == "" {
		data, err := json.MarshalIndent(curve, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", data)
		return err
	}
	return addCurve(f.out, curve)
}

// addCurve writes curve into the curves file path, replacing the entry
// of its game and keeping the others, sorted by id; a file that does not
// exist is made.
func addCurve(path string, curve review.Curve) error {
	var curves []review.Curve
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := json.Unmarshal(data, &curves); err != nil {
			return fmt.Errorf("%s: %v", clip.Quote(path), err)
		}
	}
	curves = slices.DeleteFunc(curves, func(c review.Curve) bool { return c.Game == curve.Game })
	curves = append(curves, curve)
	slices.SortFunc(curves, func(a, b review.Curve) int { return strings.Compare(a.Game, b.Game) })
	out, err := json.MarshalIndent(curves, "", "  ")
	if err != nil {
		return err
	}
	return savefile.WriteAtomic(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(append(out, '\n')))
		return err
	})
}
