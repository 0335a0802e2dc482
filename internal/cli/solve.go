package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	// Named so: the tests of this package call a position endgame.
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// The ranges of solve's flags. More workers than this would only share
// the same few cores; a memory bound beyond a pebibyte is a typo.
const (
	maxSolveWorkers = 256
	maxMemory       = 1 << 50
)

// memoryAllowed is what --memory accepts.
const memoryAllowed = "a size above 0 such as 512MiB or 8GiB (B, KiB, MiB, GiB, TiB, or KB, MB, GB, TB), at most 1024TiB"

// solveFlags are the settings of 'arbiter solve'.
type solveFlags struct {
	options []string
	pieces  int
	out     string
	workers int
	memory  string
	quiet   bool
	check   bool
	checks  checks
}

func solveCmd() *cobra.Command {
	var sf solveFlags
	cmd := &cobra.Command{
		Use:   "solve GAME --pieces K --out DIR [--check]",
		Short: "Build endgame tables: every position of up to K pieces, won, drawn or lost",
		Long: `solve builds exact endgame tables of GAME (with its --option settings) by
retrograde analysis: for every position of 2 to --pieces pieces, whether the
side to move wins (in the fewest plies), loses (in the most) or draws with
best play. Repetition and the ply cap play no part in a value.

The tables go into DIR (manifest.json, and for each material such as KMvK,
a king and a man against a king, the files KMvK.wdl and KMvK.dtm; see
docs/tables.md). Each material is written as soon as it is done, so a
stopped build (Ctrl-C) keeps what it finished: the same command again reads
those materials and builds the rest. --memory refuses a build that would
need more; --workers solves that many slices at once. A progress bar runs
on standard error when it is a terminal (-q: none); then a table gives
each material's positions, wins, draws, losses and longest win (plies).

--check then checks every position of the tables against its moves: a win
in N has a move to a loss in N-1 and none to a shorter one, a loss has only
moves to wins, a draw a move to a draw and none to a loss. Without --pieces
it checks the tables already in DIR and builds nothing. It prints the
positions checked and the first failures; any failure is an error.

Only games of one piece a cell with men and kings have tables: Pommel on
both boards, and Eximo (up to 4 pieces), whose drops add men: its
materials are solved together, and a position whose value depends on
positions of more than --pieces men is not held (a column of the table
counts them; see docs/tables.md).`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sf.run(cmd, args[0])
		},
	}
	cmd.Flags().StringArrayVarP(&sf.options, "option", "o", nil, "a game option as key=value (repeatable); see 'arbiter games'")
	allow(cmd, "option", optionAllowed)
	piecesAllowed := fmt.Sprintf("a whole number from 2 to %d", endgame.MaxPieces)
	cmd.Flags().IntVar(&sf.pieces, "pieces", 0, "the most pieces a position of the tables has ("+piecesAllowed+")")
	allow(cmd, "pieces", piecesAllowed)
	cmd.Flags().StringVar(&sf.out, "out", "", "the tables' folder (new, or one of these tables to resume)")
	allow(cmd, "out", "a folder")
	sf.checks.intVar(cmd, &sf.workers, "workers", min(runtime.GOMAXPROCS(0), maxSolveWorkers),
		intRange{lo: 1, hi: maxSolveWorkers}, "slices solved at once")
	cmd.Flags().StringVar(&sf.memory, "memory", "", "refuse a build that needs more memory than this ("+memoryAllowed+"); the machine's memory by default")
	allow(cmd, "memory", memoryAllowed)
	cmd.Flags().BoolVarP(&sf.quiet, "quiet", "q", false, "no progress bar")
	cmd.Flags().BoolVar(&sf.check, "check", false, "check every position against its moves, after the build (without --pieces: the tables in --out)")
	return cmd
}

// config checks the flags and returns the build they describe.
func (sf *solveFlags) config(cmd *cobra.Command, id string) (endgame.Config, error) {
	if err := sf.checks.run(); err != nil {
		return endgame.Config{}, err
	}
	switch {
	case !cmd.Flags().Changed("pieces") && !sf.check:
		return endgame.Config{}, fmt.Errorf("--pieces is missing: give the most pieces a position holds, 2 to %d", endgame.MaxPieces)
	case cmd.Flags().Changed("pieces") && (sf.pieces < 2 || sf.pieces > endgame.MaxPieces):
		return endgame.Config{}, fmt.Errorf("--pieces %d: want a whole number from 2 to %d", sf.pieces, endgame.MaxPieces)
	}
	if strings.TrimSpace(sf.out) == "" {
		return endgame.Config{}, errors.New("--out is missing: give the tables' folder")
	}
	memory := machineMemory()
	if cmd.Flags().Changed("memory") {
		var err error
		if memory, err = parseSize(sf.memory); err != nil {
			return endgame.Config{}, fmt.Errorf("--memory %s: %w", clip.Quote(sf.memory), err)
		}
	}
	p := position{options: sf.options}
	g, err := p.newGame(id)
	if err != nil {
		return endgame.Config{}, err
	}
	return endgame.Config{Game: g, Pieces: sf.pieces, Dir: sf.out, Workers: sf.workers, Memory: memory}, nil
}

// run builds the tables, then prints each material's figures.
func (sf *solveFlags) run(cmd *cobra.Command, id string) error {
	cfg, err := sf.config(cmd, id)
	if err != nil {
		return err
	}
	return clipFolder(sf.tables(cmd, cfg), cfg.Dir)
}

// tables builds and checks what cfg and the flags ask.
func (sf *solveFlags) tables(cmd *cobra.Command, cfg endgame.Config) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var bar *buildBar
	if !sf.quiet && isTerminal(cmd.ErrOrStderr()) {
		bar = &buildBar{w: cmd.ErrOrStderr()}
		cfg.Progress = bar.show
	}
	if cmd.Flags().Changed("pieces") {
		if err := refuseFewer(cfg); err != nil {
			return err
		}
		if err := sf.build(ctx, cmd, cfg, bar); err != nil {
			return err
		}
	}
	if !sf.check {
		return nil
	}
	return sf.verify(ctx, cmd, cfg, bar != nil)
}

// clipFolder cuts a long folder name in err's message to what clip.Quote
// keeps: the endgame package and the system name the folder whole.
func clipFolder(err error, dir string) error {
	if err == nil || clip.Quote(dir) == strconv.Quote(dir) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), dir, clip.Quote(dir)))
}

// refuseFewer refuses a build of fewer pieces than the tables already in
// its folder: the manifest would be rewritten to list only the smaller
// materials, and the larger ones would drop out of the tables.
func refuseFewer(cfg endgame.Config) error {
	t, err := endgame.Open(cfg.Dir, cfg.Game)
	if err != nil || t.Pieces() <= cfg.Pieces {
		return nil // no tables of this game there yet: Build decides
	}
	return fmt.Errorf("--pieces %d: the tables in %s are of up to %d pieces; give --pieces %d or more to go on, or --check alone to check them",
		cfg.Pieces, cfg.Dir, t.Pieces(), t.Pieces())
}

// build builds the tables and prints their figures.
func (sf *solveFlags) build(ctx context.Context, cmd *cobra.Command, cfg endgame.Config, bar *buildBar) error {
	start := time.Now()
	man, err := endgame.Build(ctx, cfg)
	bar.finish()
	if _, drops := cfg.Game.(endgame.Dropper); drops && errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopped: %s's tables are solved whole, so nothing is kept; run the same command to solve them again", cfg.Game.ID())
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopped: the materials finished are kept in %s; run the same command to go on", sf.out)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(cmd.OutOrStdout(), materialTable(man.Materials))
	fmt.Fprintf(cmd.OutOrStdout(), "%s of %s, up to %d pieces, in %s: %s\n", plural(len(man.Materials), "material"),
		man.Game, man.Pieces, time.Since(start).Round(time.Millisecond), sf.out)
	return nil
}

// verify checks every position of the tables in cfg.Dir against its
// moves and prints what it found; a failure is an error.
func (sf *solveFlags) verify(ctx context.Context, cmd *cobra.Command, cfg endgame.Config, showBar bool) error {
	t, err := endgame.Open(cfg.Dir, cfg.Game)
	if err != nil {
		return err
	}
	var bar *progressbar.ProgressBar
	progress := func(done, total uint64) {
		if bar == nil {
			bar = progressbar.NewOptions64(int64(total), progressbar.OptionSetWriter(cmd.ErrOrStderr()), progressbar.OptionShowCount(),
				progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true), progressbar.OptionSetWidth(30),
				progressbar.OptionSetDescription("check"))
		}
		_ = bar.Set64(int64(done)) // the bar's writer failing is no reason to stop a check
	}
	if !showBar {
		progress = nil
	}
	start := time.Now()
	rep, err := endgame.Verify(ctx, t, cfg.Workers, progress)
	if bar != nil {
		fmt.Fprintln(cmd.ErrOrStderr())
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("stopped: the check did not finish")
	}
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "checked %d positions of %s in %s: %s\n", rep.Positions, plural(len(t.Manifest().Materials), "material"),
		time.Since(start).Round(time.Millisecond), plural(int(rep.Failures), "failure"))
	for _, e := range rep.Examples {
		fmt.Fprintln(out, "  "+e)
	}
	if rep.Failures > 0 {
		return fmt.Errorf("the tables in %s fail the check: %s do not follow from their moves", cfg.Dir, plural(int(rep.Failures), "position"))
	}
	return nil
}

// materialTable writes one line per material: its positions, the
// side to move's wins, draws and losses, and the longest win in plies;
// then the totals. Drop tables (Eximo) get a column of the positions
// they do not hold, whose values depend on positions of more pieces.
func materialTable(stats []endgame.MaterialStats) string {
	unknown := false
	for _, s := range stats {
		unknown = unknown || s.Unknown > 0
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(s endgame.MaterialStats) {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t", s.Material, s.Positions, s.Wins, s.Draws, s.Losses)
		if unknown {
			fmt.Fprintf(w, "%d\t", s.Unknown)
		}
		fmt.Fprintf(w, "%d\t\n", s.LongestWin)
	}
	head := "material\tpositions\twins\tdraws\tlosses\t"
	if unknown {
		head += "not held\t"
	}
	fmt.Fprintln(w, head+"longest win\t")
	total := endgame.MaterialStats{Material: "total"}
	for _, s := range stats {
		row(s)
		total.Positions += s.Positions
		total.Wins += s.Wins
		total.Draws += s.Draws
		total.Losses += s.Losses
		total.Unknown += s.Unknown
		total.LongestWin = max(total.LongestWin, s.LongestWin)
	}
	row(total)
	w.Flush()
	return b.String()
}

// buildBar is a build's progress bar: the material being built (or
// read), positions done of the whole build, percent and elapsed time.
// A nil buildBar shows nothing.
type buildBar struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

// show draws p; Build calls it from one goroutine at a time.
func (b *buildBar) show(p endgame.Progress) {
	if b.bar == nil {
		b.bar = progressbar.NewOptions64(int64(p.Total), progressbar.OptionSetWriter(b.w), progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true), progressbar.OptionSetWidth(30))
	}
	what := p.Material.String()
	if p.Loaded {
		what += " (read)"
	}
	b.bar.Describe(fmt.Sprintf("%-8s", what))
	_ = b.bar.Set64(int64(p.Done)) // the bar's writer failing is no reason to stop a build
}

// finish ends the bar's line, so that what follows starts a line of its
// own.
func (b *buildBar) finish() {
	if b != nil && b.bar != nil {
		fmt.Fprintln(b.w)
	}
}

// sizeText matches a size: a number, perhaps with decimals, and a unit.
var sizeText = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?) ?([A-Za-z]*)$`)

// parseSize reads a byte count such as 512MiB, 8GiB or 1.5GB: above 0
// and at most maxMemory.
func parseSize(s string) (int64, error) {
	m := sizeText.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, errors.New("want " + memoryAllowed)
	}
	unit, ok := sizeUnit(m[2])
	if !ok {
		return 0, fmt.Errorf("unit %s: want B, KiB, MiB, GiB, TiB, KB, MB, GB or TB", clip.Quote(m[2]))
	}
	// Only digits and a point reach here: no sign, NaN or infinity.
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil || n*unit > maxMemory {
		return 0, errors.New("more than 1024TiB: want " + memoryAllowed)
	}
	bytes := int64(math.Floor(n * unit))
	if bytes < 1 {
		return 0, errors.New("no memory at all: want " + memoryAllowed)
	}
	return bytes, nil
}

// sizeUnit is the bytes of a unit ("" is bytes).
func sizeUnit(u string) (float64, bool) {
	switch u {
	case "", "B":
		return 1, true
	case "KiB":
		return 1 << 10, true
	case "MiB":
		return 1 << 20, true
	case "GiB":
		return 1 << 30, true
	case "TiB":
		return 1 << 40, true
	case "KB", "kB":
		return 1e3, true
	case "MB":
		return 1e6, true
	case "GB":
		return 1e9, true
	case "TB":
		return 1e12, true
	}
	return 0, false
}

// machineMemory is the machine's memory in bytes (MemTotal of
// /proc/meminfo), the bound of a build without --memory: a build that
// needs more would be killed hours in, so it is refused at once. 0 (no
// bound) where the system does not say.
func machineMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		fields := strings.Fields(line)
		if len(fields) == 3 && fields[0] == "MemTotal:" && fields[2] == "kB" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb > 0 && kb < 1<<40 {
				return kb << 10
			}
		}
	}
	return 0
}
