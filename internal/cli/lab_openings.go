package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/lab"
	"github.com/arbiter-games/arbiter/match"
)

// openingsAllowed is what --openings accepts.
var openingsAllowed = fmt.Sprintf("a file of at most %d openings (%d bytes), one a line: a FEN or moves from the start; # comments",
	match.MaxOpenings, match.MaxBookBytes)

// addOpenings defines --openings on a command that plays games.
func (f *gamesFlags) addOpenings(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.openings, "openings", "", "start the games from this openings book, each opening from every seat in turn ("+openingsAllowed+")")
	allow(cmd, "openings", openingsAllowed)
}

// book reads --openings, when given, for games of g from start ("" for
// the game's start): the book, and the random plies that follow each
// line (--opening, 0 unless given with the book).
func (f *gamesFlags) book(g game.Game, from string) ([]match.Opening, int, error) {
	if !f.p.cmd.Flags().Changed("openings") {
		return nil, f.opening, nil
	}
	text, err := readBook(f.bookFlagName(), f.openings)
	if err != nil {
		return nil, 0, err
	}
	start, err := match.Config{Game: g, From: from}.Start()
	if err != nil {
		return nil, 0, err
	}
	book, err := match.ParseOpenings(start, text)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", f.bookFlagName(), clip.Quote(f.openings), err)
	}
	plies := f.opening
	if !f.p.cmd.Flags().Changed("opening") {
		plies = 0 // the book replaces the random plies
	}
	return book, plies, nil
}

// readBook reads a book file given by flag, refusing a missing,
// empty-named or too large one before reading it whole.
func readBook(flag, path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", fmt.Errorf("%s is empty: give a file of openings, or leave %s out", flag, flag)
	}
	fh, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s %s: no such file", flag, clip.Quote(path))
	}
	if err != nil {
		// The path as given, cut: the system's message repeats it whole.
		return "", fmt.Errorf("%s %s: cannot be read", flag, clip.Quote(path))
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, match.MaxBookBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s %s: cannot be read (a folder?)", flag, clip.Quote(path))
	}
	if len(data) > match.MaxBookBytes {
		return "", fmt.Errorf("%s %s: more than %d bytes: split the book", flag, clip.Quote(path), match.MaxBookBytes)
	}
	return string(data), nil
}

// bookFlags are the settings of 'lab openings'.
type bookFlags struct {
	p                              position
	plies, count, depth, positions int
	seed                           uint64
	out                            string
	quiet                          bool
	checks                         checks
}

func labOpeningsCmd() *cobra.Command {
	var bf bookFlags
	cmd := &cobra.Command{
		Use:   "openings GAME --plies K --count N --depth D --out FILE",
		Short: "Build a balanced openings book for --openings",
		Long: `openings finds every position that the legal moves reach after --plies plies
from the start (or --from), or, when there are more than --positions, a
sample of --positions of them drawn by random games (the same for the same
--seed). It evaluates each with an alpha-beta search of --depth plies and
writes the --count nearest level (the smallest |evaluation|) to --out, one
a line as move prefixes, each with its evaluation in a comment: a book for
'arbiter lab --openings' and 'arbiter match --openings'.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return bf.run(cmd, args[0])
		},
	}
	bf.p.addFlags(cmd)
	bf.checks.intVar(cmd, &bf.plies, "plies", 4, intRange{lo: 1, hi: lab.MaxBookPlies}, "plies from the start to each opening's position")
	bf.checks.intVar(cmd, &bf.count, "count", 20, intRange{lo: 1, hi: lab.MaxBookPositions}, "openings to keep")
	bf.checks.intVar(cmd, &bf.depth, "depth", 6, intRange{lo: 1, hi: ai.MaxDepth}, "depth of the evaluating search")
	bf.checks.intVar(cmd, &bf.positions, "positions", 1000, intRange{lo: 1, hi: lab.MaxBookPositions}, "positions to evaluate at most (more are sampled)")
	seedVar(cmd, &bf.seed, "seed for the sample")
	cmd.Flags().StringVar(&bf.out, "out", "", "the book file to write")
	allow(cmd, "out", "a file name")
	cmd.Flags().BoolVarP(&bf.quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

// run builds the book and writes it.
func (bf *bookFlags) run(cmd *cobra.Command, id string) error {
	if err := bf.checks.run(); err != nil {
		return err
	}
	if bf.count > bf.positions {
		return fmt.Errorf("--count %d: want at most --positions (%d)", bf.count, bf.positions)
	}
	if strings.TrimSpace(bf.out) == "" {
		return fmt.Errorf("--out is missing: give the book's file")
	}
	g, err := bf.p.newGame(id)
	if err != nil {
		return err
	}
	from := ""
	if bf.p.cmd.Flags().Changed("from") {
		from = bf.p.from
	}
	start, err := match.Config{Game: g, From: from}.Start()
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	bc := lab.BookConfig{Game: g, Start: start, Plies: bf.plies, Count: bf.count, Depth: bf.depth, Positions: bf.positions, Seed: bf.seed}
	var bar *progressbar.ProgressBar
	lines, err := lab.BuildBook(cmd.Context(), bc, func(done, total int) {
		if bf.quiet {
			return
		}
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(cmd.ErrOrStderr()), progressbar.OptionSetDescription(id+" positions"),
				progressbar.OptionShowCount(), progressbar.OptionOnCompletion(func() { fmt.Fprintln(cmd.ErrOrStderr()) }))
		}
		bar.Set(done)
	})
	if err != nil {
		return err
	}
	plies := "plies"
	if bf.plies == 1 {
		plies = "ply"
	}
	head := []string{fmt.Sprintf("arbiter lab openings %s: %d %s, the %d of the positions nearest level by ab depth %d (seed %d)",
		g.ID(), bf.plies, plies, len(lines), bf.depth, bf.seed)}
	if from != "" {
		head = append(head, "moves from "+start.FEN())
	}
	text := lab.BookText(head, lines, bf.depth)
	if err := savefile.WriteAtomic(bf.out, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d openings written to %s\n", len(lines), bf.out)
	return nil
}
