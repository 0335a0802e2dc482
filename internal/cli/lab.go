package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/lab"
	"github.com/arbiter-games/arbiter/match"
)

// labFlags are the settings of a lab run as the command line gives them.
type labFlags struct {
	gamesFlags
	out, shard, label string
	queue             string // a queue's URL or SQLite file: the run is played by 'lab work'
	mix               bool   // let the run hold games of other engines' signatures
}

// mixUsage is what --mix does.
const mixUsage = "let the run hold games played by engines of another signature (its report says so on its first line)"

// shardAllowed is what --shard accepts.
const shardAllowed = "I/N with 0 <= I < N, such as 0/4: game i belongs to shard i mod N"

func labCmd() *cobra.Command {
	var lf labFlags
	cmd := &cobra.Command{
		Use:   "lab GAME --player SPEC [--player SPEC]... --games N --out DIR",
		Short: "Play many games and measure the game: edge, draws, length, branching, plots",
		Long: `lab plays --games games of GAME (with its --option settings) and measures
them. One --player plays every seat (self-play); else give one per seat,
and the seats rotate from game to game. Each group of games starts from the
same --opening random plies, with the seats rotated. The engines need a
limit: --movetime, --depth or --nodes. --from FEN starts every game from
that position (it must leave a move to play), so that an endgame can be
measured. --openings FILE starts the games from a book instead (see
'arbiter lab openings'): group g starts from line g mod the book's length,
each line from every seat in turn. Games that repeat an earlier one move for move count once in
every rate and interval: the summary gives n, the distinct games, and
warns when games repeat. --label names the run in 'lab compare'.

Every game is added to DIR/games.jsonl as it ends: running the same command
again continues the run (a larger --games extends it), and another command
on the same DIR is refused. run.json names the builds (revisions) that
played the run, and each game its engines' signatures (a fingerprint of
what each engine plays, from fixed searches): a run is continued only by
engines of the same signatures, unless --mix is given, and then its report
says on its first line that it mixes engines. --shard I/N plays only the games i with
i mod N = I, so that many machines share a run; 'arbiter lab merge' joins
their folders into one that equals the run played in one go. --queue URL
(a postgres:// URL or an SQLite file) puts the games on a queue instead,
for 'arbiter lab work' to play on any number of machines, and collects them
into DIR as they finish.

DIR gets games.pdn (every game, for 'arbiter replay'), summary.json, games.csv
and plies.csv (one line per game, per move), and report.html, one page with
its plots. See docs/lab/README.md for what each number means.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return lf.run(cmd, args[0])
		},
	}
	lf.add(cmd, 100, "an engine spec (ab, uct, random, ai:level=N, cmd:PATH): once for self-play, or once per seat",
		"an engine spec such as ab, random or ai:level=3")
	cmd.Flags().StringVar(&lf.out, "out", "", "the run's folder (new, empty, or this run's to continue it)")
	allow(cmd, "out", "a folder")
	cmd.Flags().StringVar(&lf.shard, "shard", "", "play only this share of the games ("+shardAllowed+")")
	allow(cmd, "shard", shardAllowed)
	cmd.Flags().StringVar(&lf.label, "label", "", "the run's name in 'lab compare' (default: the folder as compare is given it)")
	allow(cmd, "label", labelAllowed)
	cmd.Flags().StringVar(&lf.queue, "queue", "", "put the games on this queue ("+queueAllowed+") for 'lab work' to play")
	allow(cmd, "queue", queueAllowed)
	cmd.Flags().BoolVar(&lf.mix, "mix", false, mixUsage)
	cmd.AddCommand(labCompareCmd(), labMergeCmd(), labSkillCmd(), labOpeningsCmd(), labWorkCmd())
	return cmd
}

func labSkillCmd() *cobra.Command {
	var lf labFlags
	var steps int
	cmd := &cobra.Command{
		Use:   "skill GAME --player SPEC --games N --steps K (--depth D | --nodes N | --movetime T) --out DIR",
		Short: "Does skill pay? The same engine against itself with twice the thinking, step by step",
		Long: `skill plays --steps steps: at step k the engine (one --player) with the
limit doubled k times plays itself with the limit doubled k-1 times (one ply
deeper for --depth, twice the nodes or the time otherwise), --games games a
step, the stronger engine in every seat in turn. Each step is a lab run of
its own in DIR/step-K (resumable like every run); DIR/skill.json and
DIR/skill.html give the stronger engine's score at each step with its 95%
interval. A score that stays well above a fair share says skill keeps
paying; one near it says more thought buys little at that strength. Each
step is also compared with the step before (draw rate, first player's
score, mean length; paired game by game, 95% bootstrap interval), and a
line says from which strength on each stops changing.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return lf.skill(cmd, args[0], steps)
		},
	}
	lf.add(cmd, 100, "the engine spec (ab, uct, ai:level=N, ...): once", "an engine spec such as ab or uct")
	cmd.Flags().StringVar(&lf.out, "out", "", "the trace's folder (new, empty, or this trace's to continue it)")
	allow(cmd, "out", "a folder")
	cmd.Flags().BoolVar(&lf.mix, "mix", false, mixUsage)
	cmd.Flags().IntVar(&steps, "steps", 3, fmt.Sprintf("how many doublings of the thinking to measure (1 to %d)", lab.MaxSkillSteps))
	allow(cmd, "steps", fmt.Sprintf("1 to %d", lab.MaxSkillSteps))
	return cmd
}

// skill plays a skill trace with a progress bar, then prints its table.
func (lf *labFlags) skill(cmd *cobra.Command, id string, steps int) error {
	if steps < 1 || steps > lab.MaxSkillSteps {
		return fmt.Errorf("--steps %d: want 1 to %d (each step doubles the thinking)", steps, lab.MaxSkillSteps)
	}
	if len(lf.players) != 1 {
		return fmt.Errorf("give --player once: a skill trace plays one engine against itself, not %s", plural(len(lf.players), "engine"))
	}
	cfg, err := lf.config(id)
	if err != nil {
		return err
	}
	var bar *progressbar.ProgressBar
	progress := func(step, steps, played, total int) {
		if lf.quiet || total == 0 {
			return
		}
		if played == 0 || bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(cmd.ErrOrStderr()),
				progressbar.OptionSetDescription(fmt.Sprintf("%s step %d/%d", id, step, steps)), progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true), progressbar.OptionOnCompletion(func() { fmt.Fprintf(cmd.ErrOrStderr(), "\n%s\n", writingNote) }))
		}
		bar.Set(played)
	}
	tr, err := lab.Skill(cmd.Context(), lab.SkillConfig{Run: cfg, Steps: steps}, lf.out, progress)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if w := tr.MixWarning(); w != "" {
		fmt.Fprintln(out, w)
	}
	fmt.Fprintln(out, tr.EnginesText())
	for _, st := range tr.Steps {
		fmt.Fprintf(out, "step %d: %s vs %s: the stronger scores %s over n = %d distinct games (%d played), edge %+.1f points [%+.1f, %+.1f]\n",
			st.Step, st.Stronger, st.Weaker, strings.TrimSpace(lab.RateText(st.Score)), st.Distinct, st.Games, 100*st.Edge, 100*st.Lo, 100*st.Hi)
	}
	for _, line := range tr.Plateaus {
		fmt.Fprintln(out, line)
	}
	fmt.Fprintf(out, "written to %s: skill.json, skill.html and a lab run per step (step-1 ...)\n", lf.out)
	return nil
}

func labCompareCmd() *cobra.Command {
	var html, svgDir string
	cmd := &cobra.Command{
		Use:   "compare DIR DIR...",
		Short: "Show lab runs side by side",
		Long: `compare reads the summary.json of each run folder and prints the runs side by
side, one column each, headed by the run's --label or else its folder as
given: every number of the summary, from the games and n (the distinct
games) to results with their 95% intervals, draws by reason, length,
branching, what the moves did, drama, comebacks, decidedAt and the
telling events. With --html it also writes one self-contained page with
the table and plots; with --svg DIR each plot as an SVG file of its own
(first-player.svg, draws.svg, branching.svg), for a paper or a web page.
The last rows give each run's difference from the first (B − A) in the
first player's score, the draws, the mean length and each engine's score,
with a 95% bootstrap interval: paired game by game when the runs share
seed, openings, start and games, else unpaired, and the table says which.`,
		Args: withUsage(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			runs, err := lab.ReadSummaries(dirs)
			if err != nil {
				return err
			}
			if svgDir != "" {
				if err := plotFolder(svgDir); err != nil {
					return err
				}
			}
			fmt.Fprint(cmd.OutOrStdout(), lab.CompareTable(runs))
			if html != "" {
				page, err := lab.CompareHTML(runs)
				if err != nil {
					return err
				}
				if err := savefile.WriteAtomic(html, func(w io.Writer) error { _, err := w.Write(page); return err }); err != nil {
					return err
				}
			}
			if svgDir == "" {
				return nil
			}
			files, err := lab.ComparePlotFiles(runs)
			if err != nil {
				return err
			}
			for name, data := range files {
				path := filepath.Join(svgDir, name)
				if err := savefile.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&html, "html", "", "also write the comparison as an HTML page to this file")
	allow(cmd, "html", "a file name")
	cmd.Flags().StringVar(&svgDir, "svg", "", "also write each plot as an SVG file into this folder")
	allow(cmd, "svg", "a folder")
	return cmd
}

func labMergeCmd() *cobra.Command {
	var mix bool
	cmd := &cobra.Command{
		Use:   "merge OUT DIR...",
		Short: "Join the folders of a run's shards into one",
		Long: `merge joins the folders that 'arbiter lab --shard I/N' filled, for the same
run, into OUT (a new or empty folder), and writes its games.pdn,
summary.json, CSV files and report.html: the same as the run played in one
go, as far as the shards got. Shards whose games were played by engines of
different signatures (another arbiter's engine) are refused unless --mix
is given; the merged report then says so on its first line.`,
		Args: withUsage(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			sum, total, err := lab.Merge(args[0], args[1:], mix)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), lab.Text(sum))
			fmt.Fprintf(cmd.OutOrStdout(), "merged %d of the run's %d games into %s\n", sum.Games, total, args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&mix, "mix", false, "merge shards whose games were played by engines of another signature (the report says so on its first line)")
	return cmd
}

// config checks the flags and builds the run they describe.
func (lf *labFlags) config(id string) (lab.Config, error) {
	if err := lf.checks.run(); err != nil {
		return lab.Config{}, err
	}
	g, err := lf.p.newGame(id)
	if err != nil {
		return lab.Config{}, err
	}
	if maxPlies := g.Options().Int("maxplies"); lf.opening < 0 || lf.opening >= maxPlies {
		return lab.Config{}, fmt.Errorf("--opening %d: want a whole number from 0 to %d (below maxplies=%d)", lf.opening, maxPlies-1, maxPlies)
	}
	if n := len(lf.players); n != 1 && n != g.Players() {
		return lab.Config{}, fmt.Errorf("%s has %s: give --player once (it plays every seat) or %s, not %s", g.ID(),
			plural(g.Players(), "seat"), plural(g.Players(), "time"), plural(n, "time"))
	}
	t, err := lf.tables.open(g)
	if err != nil {
		return lab.Config{}, err
	}
	var players []lab.Player
	for _, spec := range lf.players {
		newEngine, err := engineMaker(spec, spec, engineOptions(t)...)
		if err != nil {
			return lab.Config{}, fmt.Errorf("--player %s: %w", spec, err)
		}
		single, err := engineMaker(spec, spec, append(engineOptions(t), ai.WithThreads(1))...)
		if err != nil {
			return lab.Config{}, fmt.Errorf("--player %s: %w", spec, err)
		}
		players = append(players, lab.Player{Spec: spec, New: newEngine, Single: single})
	}
	if lf.lim == (ai.Limits{}) {
		return lab.Config{}, errors.New("give the engines a limit: --movetime, --depth or --nodes")
	}
	if lf.out == "" {
		return lab.Config{}, errors.New("--out is missing: give the run's folder")
	}
	if err := checkLabel(lf.label); err != nil {
		return lab.Config{}, err
	}
	cfg := lab.Config{Game: g, Players: players, Games: lf.games, Concurrency: lf.concurrency, Limits: lf.lim,
		Seed: lf.seed, OpeningPlies: lf.opening, Label: lf.label, Date: time.Now().Format("2006.01.02"),
		Mix: lf.mix, Signatures: &lab.Signatures{}}
	if t != nil {
		cfg.Tables = t.Identity()
	}
	if cfg.From, err = lf.startFEN(match.Config{Game: g}); err != nil {
		return lab.Config{}, err
	}
	if cfg.Openings, cfg.OpeningPlies, err = lf.book(g, cfg.From); err != nil {
		return lab.Config{}, err
	}
	if lf.shard != "" {
		if cfg.Shard, err = lab.ParseShard(lf.shard); err != nil {
			return lab.Config{}, fmt.Errorf("--%w", err)
		}
	}
	return cfg, nil
}

// maxLabel bounds --label, a column's heading in lab compare.
const maxLabel = 40

// labelAllowed is what --label accepts.
var labelAllowed = fmt.Sprintf("a name for the run of 1 to %d characters, on one line", maxLabel)

// checkLabel refuses a --label that would not head a column: too long,
// or with a tab, a line break or another control character in it.
func checkLabel(label string) error {
	if utf8.RuneCountInString(label) > maxLabel || strings.ContainsFunc(label, unicode.IsControl) ||
		!utf8.ValidString(label) {
		return fmt.Errorf("--label %s: want %s", clip.Quote(label), labelAllowed)
	}
	return nil
}

// startFEN checks --from, when given, as the start of cfg's games (a
// position of the game where it goes on) and returns it, "" without it.
func (f *gamesFlags) startFEN(cfg match.Config) (string, error) {
	if !f.p.cmd.Flags().Changed("from") {
		return "", nil
	}
	if strings.TrimSpace(f.p.from) == "" {
		return "", errors.New("--from is empty: give a position as FEN (see the fen command), or leave --from out")
	}
	cfg.From = f.p.from
	if _, err := cfg.Start(); err != nil {
		return "", fmt.Errorf("--from: %w", err)
	}
	return f.p.from, nil
}

// run plays the run with a progress bar, then prints where its results are.
func (lf *labFlags) run(cmd *cobra.Command, id string) error {
	if cmd.Flags().Changed("queue") {
		return lf.runQueued(cmd, id)
	}
	cfg, err := lf.config(id)
	if err != nil {
		return err
	}
	sum, err := lab.Run(cmd.Context(), cfg, lf.out, labProgress(cmd.ErrOrStderr(), id, lf.quiet))
	if err != nil {
		return err
	}
	fmt.Fprint(cmd.OutOrStdout(), lab.Text(sum))
	fmt.Fprintf(cmd.OutOrStdout(), "written to %s: games.pdn, summary.json, games.csv, plies.csv, report.html\n", lf.out)
	return nil
}
