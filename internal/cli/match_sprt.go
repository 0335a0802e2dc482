package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/match"
	"github.com/arbiter-games/arbiter/record"
)

// sprtAllowed is what --sprt accepts.
const sprtAllowed = "elo0=E,elo1=E,alpha=A,beta=B, any of them (defaults elo0=0,elo1=5,alpha=0.05,beta=0.05); |E| <= 1000, elo0 < elo1, 0 < A, B <= 0.5"

// addSPRT defines --sprt and --book on the match command.
func (mf *matchFlags) addSPRT(cmd *cobra.Command) {
	cmd.Flags().StringVar(&mf.sprt, "sprt", "", "play game pairs (rotations of three games for three players) until a sequential test decides: "+sprtAllowed)
	allow(cmd, "sprt", sprtAllowed)
	// The book already plays every line from every seat (group g of
	// Config.Openings is one line with the seats rotated), which is what
	// --book promises, so --book is --openings under the name SPRT users
	// expect.
	cmd.Flags().StringVar(&mf.bookFile, "book", "", "the same as --openings: each line is played once from each seat (twice, the seats swapped, for two players)")
	allow(cmd, "book", openingsAllowed)
}

// bookAlias passes --book on as --openings, refusing both at once.
func (mf *matchFlags) bookAlias(cmd *cobra.Command) error {
	if !cmd.Flags().Changed("book") {
		return nil
	}
	if cmd.Flags().Changed("openings") {
		return errors.New("--book and --openings are the same flag: give one")
	}
	return cmd.Flags().Set("openings", mf.bookFile)
}

// bookFlagName is the flag the openings book came by, for its errors:
// --book when the user typed that (match passes it on as --openings),
// else --openings.
func (f *gamesFlags) bookFlagName() string {
	if b := f.p.cmd.Flags().Lookup("book"); b != nil && b.Changed {
		return "--book"
	}
	return "--openings"
}

// runSPRT plays the match as a sequential test of the first player
// against the others: units of n games, one opening with the seats
// rotated (pairs for two players), until the test decides or --games are
// played, the games already in the --out file counted and not played
// again.
func (mf *matchFlags) runSPRT(cmd *cobra.Command, id string) error {
	test, err := match.ParseSPRT(mf.sprt)
	if err != nil {
		return fmt.Errorf("--sprt: %w", err)
	}
	if g, err := mf.p.newGame(id); err == nil && mf.games%g.Players() != 0 {
		return fmt.Errorf("--games %d: %s", mf.games, sprtUnitsWanted(g.Players()))
	}
	cfg, err := mf.config(id)
	if err != nil {
		return err
	}
	kept, prior, err := mf.resume(cfg)
	if err != nil {
		return err
	}
	bar := mf.sprtBar(cmd, cfg.Games, len(prior))
	var saveErr error
	out, err := match.RunSPRT(cmd.Context(), cfg, test, prior, mf.afterGame(bar, kept, &saveErr))
	if err != nil {
		return err
	}
	writeSPRT(cmd.OutOrStdout(), out, cfg)
	if saveErr != nil {
		return fmt.Errorf("--out: %w", saveErr)
	}
	return nil
}

// resume reads the --out file, if any: its text, kept in front of the new
// games, and the first player's scores in the games of this match it
// already holds.
func (mf *matchFlags) resume(cfg match.Config) ([]byte, map[int]float64, error) {
	if mf.out == "" {
		return nil, nil, nil
	}
	old, err := savefile.DestinationText(mf.out)
	if err != nil {
		return nil, nil, fmt.Errorf("--out: %w", err)
	}
	recs, err := record.Read(bytes.NewReader(old))
	if err != nil {
		return nil, nil, fmt.Errorf("--out: %w", err)
	}
	prior, err := match.ResumeScores(cfg, recs)
	if err != nil {
		return nil, nil, fmt.Errorf("--out %s: %w", mf.out, err)
	}
	return keptText(old), prior, nil
}

// sprtBar is the progress bar over the games, those resumed already done;
// nil with --quiet.
func (mf *matchFlags) sprtBar(cmd *cobra.Command, games, resumed int) *progressbar.ProgressBar {
	if mf.quiet {
		return nil
	}
	bar := progressbar.NewOptions(games, progressbar.OptionSetWriter(cmd.ErrOrStderr()),
		progressbar.OptionSetDescription(cmd.Name()+" --sprt"), progressbar.OptionShowCount(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(cmd.ErrOrStderr()) }))
	bar.Add(resumed)
	return bar
}

// sprtUnitsWanted says what --games must be with --sprt for a game of n
// players.
func sprtUnitsWanted(n int) string {
	if n == 2 {
		return "--sprt plays pairs, give an even number"
	}
	return fmt.Sprintf("--sprt plays rotations of %d games, give a multiple of %d", n, n)
}

// writeSPRT prints where the test stopped; the last line is the verdict.
func writeSPRT(w io.Writer, out match.SPRTOutcome, cfg match.Config) {
	names := make([]string, len(cfg.Players))
	for k, p := range cfg.Players {
		names[k] = p.Name
	}
	fmt.Fprintf(w, "sprt %s: %s against %s\n", out.Test, names[0], strings.Join(names[1:], ", "))
	fmt.Fprintf(w, "LLR %.2f (%.2f, %.2f)\n", out.LLR, out.Test.LowerBound(), out.Test.UpperBound())
	if len(names) == 2 {
		writePairs(w, out, names[0])
	} else {
		writeRotations(w, out, names[0])
	}
	fmt.Fprint(w, match.ClockReport(names, out.Games))
	if out.Verdict != "" {
		fmt.Fprintln(w, out.Verdict)
		return
	}
	fmt.Fprintf(w, "neither bound reached within %d games\n", cfg.Games)
}

// writePairs prints the Elo estimate and the counts of a test of two
// players: pairs, in the pentanomial.
func writePairs(w io.Writer, out match.SPRTOutcome, first string) {
	fmt.Fprintf(w, "Elo %s (%s, 95%% interval over pairs)\n", out.Counts.EloText(), first)
	fmt.Fprintf(w, "pentanomial %s (pairs by %s's points: 0, 0.5, 1, 1.5, 2)\n", out.Counts, first)
	fmt.Fprintf(w, "games %d, pairs %d (%d from the record file)\n", out.Played(), out.Counts.Pairs(), out.Resumed)
}

// writeRotations prints the Elo estimate and the counts of a test of
// more players: rotations, by the first player's points over one, only
// the scores some rotation had, since most of the cells stay empty.
func writeRotations(w io.Writer, out match.SPRTOutcome, first string) {
	n := out.Units.Players
	fmt.Fprintf(w, "Elo %s (%s over each of the %d others, 95%% interval over rotations)\n", out.Units.EloText(), first, n-1)
	fmt.Fprintf(w, "rotations %s (points:count, by %s's points over the %d games of a rotation)\n", out.Units, first, n)
	fmt.Fprintf(w, "games %d, rotations %d (%d from the record file)\n", out.Played(), out.Units.Total(), out.Resumed)
}
