// Package cli is the arbiter command line: cobra commands over the game
// registry. cmd/arbiter only calls Execute; tests call the commands with
// their own input and output.
package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/match"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/textboard"
	"github.com/arbiter-games/arbiter/uci"
)

// Execute runs the command line with args (without the program name) and
// returns the exit status. Errors are written to errOut as "arbiter: ...".
func Execute(args []string, in io.Reader, out, errOut io.Writer) int {
	root := NewRoot(in, out, errOut)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(errOut, "arbiter:", unknownCommand(err))
		return 1
	}
	return 0
}

// unknownCommand rewrites cobra's refusal of an unknown command, which
// quotes the whole word, to quote at most 80 characters of it.
func unknownCommand(err error) error {
	before, rest, ok := strings.Cut(err.Error(), "unknown command ")
	if !ok {
		return err
	}
	quoted, qerr := strconv.QuotedPrefix(rest)
	word, uerr := strconv.Unquote(quoted)
	if qerr != nil || uerr != nil {
		return err
	}
	return fmt.Errorf("%sunknown command %s%s", before, clip.Quote(word), strings.TrimPrefix(rest, quoted))
}

// NewRoot builds the arbiter command and its subcommands.
func NewRoot(in io.Reader, out, errOut io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "arbiter",
		Short: "arbiter plays and analyses Pommel, Eximo, Checkers 2011 and the Punt games",
		Long: `arbiter is a rules engine, player and analysis tool for a family of
checkers-like abstract games. Run "arbiter games" to list them.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	root.SetFlagErrorFunc(flagError) // every subcommand inherits it
	root.Version = buildVersion(debug.ReadBuildInfo())
	root.SetVersionTemplate("arbiter {{.Version}}\n")
	root.AddCommand(gamesCmd(), movesCmd(), perftCmd(), fenCmd(), showCmd(), playCmd(), replayCmd(), bestCmd(), matchCmd(), engineCmd())
	root.AddCommand(serveCmd(), adminCmd(), backupCmd(), loadtestCmd(), labCmd(), benchCmd(), botCmd())
	root.AddCommand(rateLevelsCmd(), solveCmd(), probeCmd(), tuneCmd(), reviewCmd(), puzzlesCmd(), workCmd())
	root.SetHelpCommand(helpCmd())
	strictCompletion(root)
	return root
}

// buildVersion is the module version the binary was built from (go
// install ...@v1.2.0), else the commit it was built at, else "(devel)".
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "(devel)"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	switch {
	case revision == "":
		return "(devel)"
	case modified == "true":
		return revision + " (modified)"
	}
	return revision
}

// helpCmd is "help [COMMAND]", which, unlike cobra's own, fails on a
// command that does not exist.
func helpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			target, _, err := root.Find(args)
			if err != nil || target == root && len(args) > 0 {
				return fmt.Errorf("help: unknown command %q; run 'arbiter help' for the list", strings.Join(args, " "))
			}
			target.InitDefaultHelpFlag()
			target.InitDefaultVersionFlag()
			return target.Help()
		},
	}
}

// strictCompletion makes "completion SHELL" fail on a shell it does not
// know, where cobra would print the command's help and exit 0.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	comp, _, err := root.Find([]string{"completion"})
	if err != nil || comp == root {
		return
	}
	var shells []string
	for _, c := range comp.Commands() {
		shells = append(shells, c.Name())
	}
	comp.Args = cobra.ArbitraryArgs
	comp.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("completion: unknown shell %q; want one of %s", args[0], strings.Join(shells, ", "))
		}
		return cmd.Help()
	}
}

// position is the flags every command that sets up a position shares.
type position struct {
	options []string
	from    string
	cmd     *cobra.Command // to tell an empty --from from none
}

func (p *position) addFlags(cmd *cobra.Command) {
	p.cmd = cmd
	cmd.Flags().StringArrayVarP(&p.options, "option", "o", nil, "a game option as key=value (repeatable); see 'arbiter games'")
	cmd.Flags().StringVar(&p.from, "from", "", "start from this position (FEN) instead of the starting position")
	allow(cmd, "option", optionAllowed)
	allow(cmd, "from", "a position written as FEN (see the fen command)")
}

// optionAllowed is what --option accepts.
const optionAllowed = "a game option as key=value, such as maxplies=200 (see 'arbiter games')"

// newGame builds the game named id with the --option flags.
func (p *position) newGame(id string) (game.Game, error) {
	opts := map[string]string{}
	for _, o := range p.options {
		k, v, err := game.ParseOption(o)
		if err != nil {
			return nil, err
		}
		if _, dup := opts[k]; dup {
			return nil, fmt.Errorf("option %s is given twice", clip.Bare(k))
		}
		opts[k] = v
	}
	return game.New(id, opts)
}

// state sets up the position: the game, the start or --from position, and
// the moves played from there. ruleMoves ignores the draw safeguards, as
// perft does.
func (p *position) state(id string, moves []string, ruleMoves bool) (game.State, error) {
	g, err := p.newGame(id)
	if err != nil {
		return nil, err
	}
	s := g.Start()
	if p.cmd.Flags().Changed("from") {
		if s, err = g.ParseFEN(p.from); err != nil {
			return nil, err
		}
	}
	play := game.PlayMoves
	if ruleMoves {
		play = game.PlayRuleMoves
	}
	if err := play(s, moves); err != nil {
		return nil, err
	}
	return s, nil
}

func gamesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games with their options",
		Args:  withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			for _, d := range game.All() {
				fmt.Fprintf(w, "%-20s %s\n", d.ID, d.Summary)
				var opts []string
				for _, o := range d.AllOptions() {
					opts = append(opts, o.Describe())
				}
				fmt.Fprintf(w, "%-20s options: %s\n", "", strings.Join(opts, ", "))
			}
			return nil
		},
	}
}

func movesCmd() *cobra.Command {
	var p position
	cmd := &cobra.Command{
		Use:   "moves GAME [MOVE...]",
		Short: "Print the legal moves after the given moves, one per line, sorted",
		Long: `moves plays the given moves from the start (or --from) and prints the legal
moves of the position reached, one per line, in byte order. A finished game
has none. An illegal move is an error naming it and its index.`,
		Args: withUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := p.state(args[0], args[1:], false)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, m := range game.MoveTexts(s) {
				fmt.Fprintln(w, m)
			}
			return nil
		},
	}
	p.addFlags(cmd)
	return cmd
}

func perftCmd() *cobra.Command {
	var p position
	var divide bool
	cmd := &cobra.Command{
		Use:   "perft GAME DEPTH [MOVE...]",
		Short: "Count the move sequences of a given length",
		Long: `perft plays the given moves from the start (or --from), then counts every
sequence of DEPTH legal moves from there and prints the count alone on the
last line. With --divide it first prints each legal move with its count.
The draw safeguards (repetition, maxplies) do not apply. DEPTH is 0 to 32.`,
		Args: withUsage(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			depth, err := strconv.Atoi(args[1])
			if err != nil || depth < 0 || depth > maxPerftDepth {
				return fmt.Errorf("depth %s: want a whole number from 0 to %d", clip.Quote(args[1]), maxPerftDepth)
			}
			s, err := p.state(args[0], args[2:], true)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if divide && depth > 0 {
				var total uint64
				for _, e := range game.Divide(s, depth) {
					fmt.Fprintf(w, "%s %d\n", e.Move, e.Nodes)
					total += e.Nodes
				}
				fmt.Fprintln(w, total)
				return nil
			}
			fmt.Fprintln(w, game.Perft(s, depth))
			return nil
		},
	}
	cmd.Flags().BoolVar(&divide, "divide", false, "print the count below each first move before the total")
	p.addFlags(cmd)
	// A negative depth reads as a flag to the flag parser; say what is
	// wrong with it rather than "unknown shorthand flag".
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if m := negativeNumberFlag.FindStringSubmatch(err.Error()); m != nil {
			return fmt.Errorf("%s is not a flag, and a depth must be a whole number from 0 to %d", clip.Quote(m[1]), maxPerftDepth)
		}
		return flagError(cmd, err)
	})
	return cmd
}

// negativeNumberFlag matches pflag's complaint about "-1" taken as flags.
var negativeNumberFlag = regexp.MustCompile(`unknown shorthand flag: '[0-9]' in (-[0-9]+)$`)

func fenCmd() *cobra.Command {
	var p position
	cmd := &cobra.Command{
		Use:   "fen GAME [MOVE...]",
		Short: "Print the position after the given moves in one line (FEN)",
		Args:  withUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := p.state(args[0], args[1:], false)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), s.FEN())
			return nil
		},
	}
	p.addFlags(cmd)
	return cmd
}

func showCmd() *cobra.Command {
	var p position
	cmd := &cobra.Command{
		Use:   "show GAME [MOVE...]",
		Short: "Draw the board after the given moves",
		Args:  withUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := p.state(args[0], args[1:], false)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), describe(s))
			return nil
		},
	}
	p.addFlags(cmd)
	return cmd
}

// describe draws the board and says whether and how the game ended.
func describe(s game.State) string {
	text := textboard.String(s)
	if r := s.Result(); r.Over() {
		text += "Game over: " + r.Describe(s.Game()) + "\n"
	}
	return text
}

func replayCmd() *cobra.Command {
	var gameNo int
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Check every game of a record file and show how each ends",
		Long: `replay reads a record file (PDN style), plays every move of every game
against the rules, and prints each game's players, length, result and final
board. A malformed file or an illegal move is an error naming the game, the
move and why.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if gameNo < 0 {
				return fmt.Errorf("--game %d: want %s", gameNo, replayGames)
			}
			recs, err := savefile.ReadRecords(args[0])
			if err != nil {
				return err
			}
			if len(recs) == 0 {
				return fmt.Errorf("%s holds no game", args[0])
			}
			if gameNo > len(recs) {
				return fmt.Errorf("--game %d: %s holds %s", gameNo, args[0], plural(len(recs), "game"))
			}
			w := cmd.OutOrStdout()
			for i, r := range recs {
				s, err := r.Replay(i + 1)
				if err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
				if gameNo != 0 && gameNo != i+1 {
					continue
				}
				g := s.Game()
				var seats []string
				for p := 0; p < g.Players(); p++ {
					name := g.PlayerName(game.Player(p))
					seats = append(seats, name+" "+r.Get(name))
				}
				fmt.Fprintf(w, "Game %d: %s (%s), %s; %s; result %s\n", i+1, g.ID(), g.Options(),
					strings.Join(seats, " vs "), plural(len(r.Moves), "move"), r.Get("Result"))
				fmt.Fprint(w, describe(s))
				if i+1 < len(recs) && gameNo == 0 {
					fmt.Fprintln(w)
				}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&gameNo, "game", 0, "show only this game ("+replayGames+"); every game is still checked")
	allow(cmd, "game", replayGames)
	return cmd
}

// replayGames is what replay's --game accepts.
const replayGames = "a whole number, 1 for the first game, or 0 for every game"

func bestCmd() *cobra.Command {
	var p position
	var player string
	var lim ai.Limits
	var seed uint64
	var flags checks
	var tables tablesFlag
	var threads int
	cmd := &cobra.Command{
		Use:   "best GAME [MOVE...]",
		Short: "Search the position after the given moves and print the best move",
		Long: `best searches the position reached (from the start or --from, then the
moves) and prints one line per completed iteration (depth, score from the
mover's point of view in hundredths of a piece, nodes, time, principal
variation), then "bestmove MOVE" alone on the last line.

The search stops at the first limit reached: --movetime (2s unless given),
--depth, --nodes. With --movetime 0 give --depth or --nodes, so that the
search ends.

--tables DIR gives the engine the endgame tables 'arbiter solve' wrote
(ab and ai:level=6 probe them; ab:tables=off declines them). When the
position is in the tables, a first line says its exact value for the side
to move: "win in N (tables)", "loss in N (tables)" (N in plies) or "draw
(tables)"; the engine then plays the tables' move.

--threads N searches with N threads sharing one transposition table
(lazy SMP, ab and the levels; see docs/strength.md). The nodes of each
line count every thread, and --nodes is the budget of all of them.`,
		Args: withUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := flags.run(); err != nil {
				return err
			}
			if lim == (ai.Limits{}) {
				return errors.New("--movetime 0 leaves the search without a limit: give --depth or --nodes as well")
			}
			s, err := p.state(args[0], args[1:], false)
			if err != nil {
				return err
			}
			if r := s.Result(); r.Over() {
				return fmt.Errorf("the game is over (%s)", r.Describe(s.Game()))
			}
			t, err := tables.open(s.Game())
			if err != nil {
				return err
			}
			e, err := ai.New(player, seed, append(engineOptions(t), ai.WithThreads(threads))...)
			if err != nil {
				return fmt.Errorf("--player: %w", err)
			}
			w, b := cmd.OutOrStdout(), s.Game().Board()
			if line := tablesLine(t, s); line != "" {
				fmt.Fprintln(w, line)
			}
			info := e.Search(cmd.Context(), s, lim, func(i ai.Info) {
				fmt.Fprintf(w, "depth %d score %s nodes %d time %s pv %s\n", i.Depth, ai.ScoreText(i.Score), i.Nodes,
					i.Elapsed.Round(time.Millisecond), moveList(i.PV, b))
			})
			fmt.Fprintf(w, "bestmove %s\n", info.Move.Text(b))
			return nil
		},
	}
	p.addFlags(cmd)
	cmd.Flags().StringVar(&player, "player", "ab", "the engine: ab, uct, random, ai:level=N")
	flags.limitVars(cmd, &lim, 2*time.Second, "no time limit; then give --depth or --nodes", "time to think")
	seedVar(cmd, &seed, "seed for the engine's random choices")
	flags.intVar(cmd, &threads, "threads", 1, intRange{lo: 1, hi: ai.MaxThreads},
		"threads searching at once, for ab and the levels (uct, mcts and random search with one)")
	tables.add(cmd)
	return cmd
}

// matchFlags are the settings of a match as the command line gives them.
type matchFlags struct {
	gamesFlags
	out            string
	sprt, bookFile string // --sprt and --book, see match_sprt.go
	clock          string // --clock, see match_clock.go
}

// gamesFlags are the flags of the commands that play engines against each
// other (match, lab): the game's options, the players, how many games and
// how, the engines' limits, the seed.
type gamesFlags struct {
	p                           position
	players                     []string
	games, concurrency, opening int
	openings                    string
	lim                         ai.Limits
	seed                        uint64
	quiet                       bool
	checks                      checks
	tables                      tablesFlag
}

// add defines the flags; games is --games' default, playerHelp and
// playerAllowed say what --player takes.
func (f *gamesFlags) add(cmd *cobra.Command, games int, playerHelp, playerAllowed string) {
	f.p.cmd = cmd
	cmd.Flags().StringArrayVarP(&f.p.options, "option", "o", nil, "a game option as key=value (repeatable)")
	allow(cmd, "option", optionAllowed)
	cmd.Flags().StringArrayVar(&f.players, "player", nil, playerHelp)
	allow(cmd, "player", playerAllowed)
	f.checks.intVar(cmd, &f.games, "games", games, intRange{lo: 1, hi: maxGames}, "number of games")
	f.checks.intVar(cmd, &f.concurrency, "concurrency", 1, intRange{lo: 1, hi: maxWorkers}, "games played at once")
	cmd.Flags().IntVar(&f.opening, "opening", 4, "random plies that start each group of games ("+openingAllowed+")")
	allow(cmd, "opening", openingAllowed)
	cmd.Flags().StringVar(&f.p.from, "from", "", "start every game from this position (FEN, see the fen command), not the game's start")
	allow(cmd, "from", "a position written as FEN (see the fen command) where the game goes on")
	f.checks.limitVars(cmd, &f.lim, 0, "no time limit", "time per move")
	seedVar(cmd, &f.seed, "seed for openings and engines")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar")
	f.addOpenings(cmd)
	f.tables.add(cmd)
}

// openingAllowed is what --opening accepts; the game's maxplies is only
// known once the game is built.
const openingAllowed = "a whole number, 0 or more, below the game's maxplies"

func matchCmd() *cobra.Command {
	var mf matchFlags
	cmd := &cobra.Command{
		Use:   "match GAME --player NAME=SPEC --player NAME=SPEC ...",
		Short: "Play engines against each other and measure the result",
		Long: `match plays --games games between the players, one --player per seat of the
game, each with its own name (SPEC: random, uct, ab, ai:level=N, with
parameters such as ab:depth=4, or cmd:PATH ARGS for an external engine that
speaks the engine protocol of docs/protocol.md). Seats rotate from game to
game; each group of games starts from the same few random plies (--opening)
with the seats rotated. The engines need a limit: --clock, --movetime,
--depth or --nodes. --from FEN starts every game from that position (it
must leave a move to play), for an endgame; --openings FILE starts them from a
book of openings instead, group g from line g mod the book's length with
the seats rotated. --tables DIR gives the endgame tables that 'arbiter
solve' wrote to every ab player (and ai:level=6); a player whose spec says
tables=off, such as ab:depth=4,tables=off, searches without them, so
that a match measures what the tables are worth. A progress bar runs on standard error;
then a table gives each player's wins, draws, losses, and, over n, the
distinct games (a game repeated move for move counts once), the score and
(two players) the Elo difference with its 95% interval. With --out every game is
written to a record file: a new file, or an existing record file that the
games are added to.

--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 plays game pairs, one opening
with the seats swapped (three players: rotations of three games, the seats
rotated), and stops as soon as the sequential test (pentanomial for two)
decides whether the first player is elo1 rather than elo0 stronger (than
each of the others); it prints the LLR with its bounds, the Elo estimate,
the pair (rotation) counts and, last, "H1 accepted", "H0 accepted" or that
neither bound was reached within --games (a multiple of the players). With
--out, a restart with the same flags counts the games the file holds and
plays only the rest. --book FILE is --openings FILE: every line is played
once from each seat.

--clock BASE+INCREMENT (such as 1s+10ms, or 10+0.1 in seconds) plays on
Fischer clocks: every seat starts each game with BASE and gains INCREMENT
after each move; each engine is given its own clock (external engines as
wtime/btime/winc/binc) and plans its time; a seat whose move has not come
when its time is up loses on time ("time forfeit" in the record). The table
and the --sprt report count the flag falls. --movetime is refused with a
clock; --depth and --nodes still cap each search.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return mf.run(cmd, args[0])
		},
	}
	mf.add(cmd, 10, "NAME=SPEC, once per seat", "NAME=SPEC, such as mine=ab")
	cmd.Flags().StringVar(&mf.out, "out", "", "add every game to this record file (new, or a record file)")
	mf.addSPRT(cmd)
	mf.addClock(cmd)
	return cmd
}

// run checks everything, the record file included, before the first game,
// then plays the match.
// afterGame is what a match does after each game: it moves the bar on
// and rewrites the record file (what it held before, kept, then the
// match's games), so that an interrupted match keeps the games it
// played. The first failure to write is kept in saveErr and ends the
// writing.
func (mf *matchFlags) afterGame(bar *progressbar.ProgressBar, kept []byte, saveErr *error) func([]*match.GameLog) {
	return func(games []*match.GameLog) {
		if bar != nil {
			bar.Add(1)
		}
		if mf.out != "" && *saveErr == nil {
			*saveErr = savefile.WriteAtomic(mf.out, func(w io.Writer) error {
				if _, err := w.Write(kept); err != nil {
					return err
				}
				return record.Write(w, match.Records(games)...)
			})
		}
	}
}

func (mf *matchFlags) run(cmd *cobra.Command, id string) error {
	if err := mf.bookAlias(cmd); err != nil {
		return err
	}
	if cmd.Flags().Changed("sprt") {
		return mf.runSPRT(cmd, id)
	}
	cfg, err := mf.config(id)
	if err != nil {
		return err
	}
	var kept []byte
	if mf.out != "" {
		old, err := savefile.DestinationText(mf.out)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		kept = keptText(old)
	}
	var bar *progressbar.ProgressBar
	if !mf.quiet {
		bar = progressbar.NewOptions(cfg.Games, progressbar.OptionSetWriter(cmd.ErrOrStderr()),
			progressbar.OptionSetDescription(id), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(cmd.ErrOrStderr()) }))
	}
	var saveErr error
	sum, err := match.Run(cmd.Context(), cfg, mf.afterGame(bar, kept, &saveErr))
	if err != nil {
		return err
	}
	fmt.Fprint(cmd.OutOrStdout(), sum.Table())
	if saveErr != nil {
		return fmt.Errorf("--out: %w", saveErr)
	}
	return nil
}

// config checks the flags and builds the match they describe.
func (mf *matchFlags) config(id string) (match.Config, error) {
	if err := mf.checks.run(); err != nil {
		return match.Config{}, err
	}
	g, err := mf.p.newGame(id)
	if err != nil {
		return match.Config{}, err
	}
	if maxPlies := g.Options().Int("maxplies"); mf.opening < 0 || mf.opening >= maxPlies {
		return match.Config{}, fmt.Errorf("--opening %d: want a whole number from 0 to %d (below maxplies=%d)", mf.opening, maxPlies-1, maxPlies)
	}
	t, err := mf.tables.open(g)
	if err != nil {
		return match.Config{}, err
	}
	players, err := matchPlayers(g, mf.players, engineOptions(t)...)
	if err != nil {
		return match.Config{}, err
	}
	clock, err := mf.matchClock()
	if err != nil {
		return match.Config{}, err
	}
	if mf.lim == (ai.Limits{}) && !clock.On() {
		return match.Config{}, errors.New("give the engines a limit: --clock, --movetime, --depth or --nodes")
	}
	cfg := match.Config{Game: g, Players: players, Games: mf.games, Concurrency: mf.concurrency, Seed: mf.seed,
		OpeningPlies: mf.opening, Limits: mf.lim, Clock: clock, Date: time.Now().Format("2006.01.02")}
	if cfg.From, err = mf.startFEN(cfg); err != nil {
		return match.Config{}, err
	}
	if cfg.Openings, cfg.OpeningPlies, err = mf.book(g, cfg.From); err != nil {
		return match.Config{}, err
	}
	return cfg, nil
}

// matchPlayers reads the --player flags: one per seat of g, each with a
// name of its own, since the table and the records tell them apart by it.
// opts go to every engine of ours.
func matchPlayers(g game.Game, specs []string, opts ...ai.Option) ([]match.Player, error) {
	if len(specs) != g.Players() {
		return nil, fmt.Errorf("%s has %s (%s): give --player NAME=SPEC once for each, not %s", g.ID(),
			plural(g.Players(), "seat"), strings.Join(seatNames(g), ", "), plural(len(specs), "time"))
	}
	var players []match.Player
	seen := map[string]bool{}
	for _, ps := range specs {
		name, spec, ok := strings.Cut(ps, "=")
		if !ok || name == "" || spec == "" {
			return nil, fmt.Errorf("--player %s: write NAME=SPEC, e.g. mine=ab", clip.Quote(ps))
		}
		if seen[name] {
			return nil, fmt.Errorf("--player %s is given twice: give each player a name of its own", clip.Bare(name))
		}
		seen[name] = true
		newEngine, err := engineMaker(name, spec, opts...)
		if err != nil {
			return nil, fmt.Errorf("--player %s: %w", clip.Bare(name), err)
		}
		players = append(players, match.Player{Name: name, New: newEngine})
	}
	return players, nil
}

// seatNames are the names of g's seats in turn order.
func seatNames(g game.Game) []string {
	names := make([]string, g.Players())
	for p := range names {
		names[p] = g.PlayerName(game.Player(p))
	}
	return names
}

// keptText is what an existing record file holds, ready for the new games
// to follow it: nothing for an empty file, else its text and a blank line.
func keptText(old []byte) []byte {
	old = bytes.TrimRight(old, " \t\r\n")
	if len(old) == 0 {
		return nil
	}
	return append(old, "\n\n"...)
}

// engineMaker returns how to make a player's engine for each game: one of
// ours from an ai spec, with opts, or an external program for "cmd:PATH
// ARGS".
func engineMaker(name, spec string, opts ...ai.Option) (func(uint64) (ai.Engine, error), error) {
	if cmdline, ok := strings.CutPrefix(spec, "cmd:"); ok {
		argv := strings.Fields(cmdline)
		if len(argv) == 0 {
			return nil, fmt.Errorf("cmd: names no program")
		}
		return func(uint64) (ai.Engine, error) { return uci.Start(name, argv[0], argv[1:]...) }, nil
	}
	if _, err := ai.New(spec, 0, opts...); err != nil {
		return nil, err
	}
	return func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed, opts...) }, nil
}

func engineCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "engine",
		Short: "Speak the engine protocol (UCI style) on standard input and output",
		Long:  "engine reads protocol commands on standard input and answers on standard output; see docs/protocol.md.",
		Args:  withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return uci.Serve(cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
}

func moveList(moves []game.Move, b *board.Board) string {
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Text(b)
	}
	return strings.Join(texts, " ")
}

// withUsage adds the command's usage line to check's errors, so that a
// wrong number of arguments says what the command wants.
func withUsage(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return fmt.Errorf("%s: %w (usage: %s)", cmd.Name(), err, cmd.UseLine())
		}
		return nil
	}
}
