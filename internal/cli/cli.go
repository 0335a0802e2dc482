// Package cli is the arbiter command line: cobra commands over the game
// registry. cmd/arbiter only calls Execute; tests call the commands with
// their own input and output.
package cli

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
	"github.com/arbiter-games/arbiter/record"
)

// Execute runs the command line with args (without the program name) and
// returns the exit status. Errors are written to errOut as "arbiter: ...".
func Execute(args []string, in io.Reader, out, errOut io.Writer) int {
	root := NewRoot(in, out, errOut)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(errOut, "arbiter:", err)
		return 1
	}
	return 0
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
	root.AddCommand(gamesCmd(), movesCmd(), perftCmd(), fenCmd(), showCmd(), playCmd(), replayCmd(), bestCmd(), matchCmd(), engineCmd())
	return root
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
}

// newGame builds the game named id with the --option flags.
func (p *position) newGame(id string) (game.Game, error) {
	opts := map[string]string{}
	for _, o := range p.options {
		k, v, err := game.ParseOption(o)
		if err != nil {
			return nil, err
		}
		if _, dup := opts[k]; dup {
			return nil, fmt.Errorf("option %s is given twice", k)
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
The draw safeguards (repetition, maxplies) do not apply.`,
		Args: withUsage(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			depth, err := strconv.Atoi(args[1])
			if err != nil || depth < 0 {
				return fmt.Errorf("depth %q: want a whole number, 0 or more", args[1])
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
			return fmt.Errorf("%q is not a flag, and a depth must be a whole number, 0 or more", m[1])
		}
		return err
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
	text := s.String()
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
			recs, err := readRecords(args[0])
			if err != nil {
				return err
			}
			if gameNo < 0 || gameNo > len(recs) {
				return fmt.Errorf("%s holds %d games; there is no game %d", args[0], len(recs), gameNo)
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
				fmt.Fprintf(w, "Game %d: %s (%s), %s; %d moves; result %s\n", i+1, g.ID(), g.Options(),
					strings.Join(seats, " vs "), len(r.Moves), r.Get("Result"))
				fmt.Fprint(w, describe(s))
				if i+1 < len(recs) && gameNo == 0 {
					fmt.Fprintln(w)
				}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&gameNo, "game", 0, "show only this game (1 is the first); every game is still checked")
	return cmd
}

func bestCmd() *cobra.Command {
	var p position
	var player string
	var movetime time.Duration
	var depth int
	var nodes int64
	var seed uint64
	cmd := &cobra.Command{
		Use:   "best GAME [MOVE...]",
		Short: "Search the position after the given moves and print the best move",
		Long: `best searches the position reached (from the start or --from, then the
moves) and prints one line per completed iteration (depth, score from the
mover's point of view in hundredths of a piece, nodes, time, principal
variation), then "bestmove MOVE" alone on the last line.`,
		Args: withUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := p.state(args[0], args[1:], false)
			if err != nil {
				return err
			}
			if r := s.Result(); r.Over() {
				return fmt.Errorf("the game is over (%s)", r.Describe(s.Game()))
			}
			e, err := ai.New(player, seed)
			if err != nil {
				return err
			}
			lim := ai.Limits{MoveTime: movetime, Depth: depth, Nodes: nodes}
			w, b := cmd.OutOrStdout(), s.Game().Board()
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
	cmd.Flags().DurationVar(&movetime, "movetime", 2*time.Second, "time to think (0: no time limit)")
	cmd.Flags().IntVar(&depth, "depth", 0, "depth limit")
	cmd.Flags().Int64Var(&nodes, "nodes", 0, "node limit (positions for ab, iterations for uct and mcts)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed for the engine's random choices")
	return cmd
}

func matchCmd() *cobra.Command {
	var p position
	var players []string
	var games, concurrency, opening int
	var movetime time.Duration
	var depth int
	var nodes int64
	var seed uint64
	var out string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "match GAME --player NAME=SPEC --player NAME=SPEC ...",
		Short: "Play engines against each other and measure the result",
		Long: `match plays --games games between the players, one --player per seat of the
game (SPEC: random, uct, ab, ai:level=N, with parameters such as
ab:depth=4, or cmd:PATH ARGS for an external engine that speaks the engine
protocol of docs/protocol.md). Seats rotate from game to game; each group of games starts
from the same few random plies (--opening) with the seats rotated. A
progress bar runs on standard error; then a table gives each player's wins,
draws, losses, score and (two players) Elo difference with its 95%
interval. With --out every game is written to a record file.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := p.newGame(args[0])
			if err != nil {
				return err
			}
			cfg := match.Config{Game: g, Games: games, Concurrency: concurrency, Seed: seed, OpeningPlies: opening,
				Limits: ai.Limits{MoveTime: movetime, Depth: depth, Nodes: nodes}, Date: time.Now().Format("2006.01.02")}
			for _, ps := range players {
				name, spec, ok := strings.Cut(ps, "=")
				if !ok || name == "" || spec == "" {
					return fmt.Errorf("--player %q: write NAME=SPEC, e.g. mine=ab", ps)
				}
				newEngine, err := engineMaker(name, spec)
				if err != nil {
					return fmt.Errorf("--player %s: %w", name, err)
				}
				cfg.Players = append(cfg.Players, match.Player{Name: name, New: newEngine})
			}
			if cfg.Limits == (ai.Limits{}) {
				return fmt.Errorf("give the engines a limit: --movetime, --depth or --nodes")
			}
			var bar *progressbar.ProgressBar
			if !quiet {
				bar = progressbar.NewOptions(games, progressbar.OptionSetWriter(cmd.ErrOrStderr()),
					progressbar.OptionSetDescription(g.ID()), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
					progressbar.OptionOnCompletion(func() { fmt.Fprintln(cmd.ErrOrStderr()) }))
			}
			var saveErr error
			sum, err := match.Run(cmd.Context(), cfg, func(recs []*record.Record) {
				if bar != nil {
					bar.Add(1)
				}
				// Rewrite the record file after every game, so that an
				// interrupted match keeps the games it played.
				if out != "" && saveErr == nil {
					saveErr = writeFileAtomic(out, func(w io.Writer) error { return record.Write(w, finished(recs)...) })
				}
			})
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), sum.Table())
			return saveErr
		},
	}
	p.options = nil
	cmd.Flags().StringArrayVarP(&p.options, "option", "o", nil, "a game option as key=value (repeatable)")
	cmd.Flags().StringArrayVar(&players, "player", nil, "NAME=SPEC, once per seat")
	cmd.Flags().IntVar(&games, "games", 10, "number of games")
	cmd.Flags().IntVar(&concurrency, "concurrency", 1, "games played at once")
	cmd.Flags().IntVar(&opening, "opening", 4, "random plies that start each group of games")
	cmd.Flags().DurationVar(&movetime, "movetime", 0, "time per move")
	cmd.Flags().IntVar(&depth, "depth", 0, "depth limit per move")
	cmd.Flags().Int64Var(&nodes, "nodes", 0, "node limit per move (positions for ab, iterations for uct and mcts)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed for openings and engines")
	cmd.Flags().StringVar(&out, "out", "", "write every game to this record file")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

// finished keeps the records of the games that are over.
func finished(recs []*record.Record) []*record.Record {
	var out []*record.Record
	for _, r := range recs {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// engineMaker returns how to make a player's engine for each game: one of
// ours from an ai spec, or an external program for "cmd:PATH ARGS".
func engineMaker(name, spec string) (func(uint64) (ai.Engine, error), error) {
	if cmdline, ok := strings.CutPrefix(spec, "cmd:"); ok {
		argv := strings.Fields(cmdline)
		if len(argv) == 0 {
			return nil, fmt.Errorf("cmd: names no program")
		}
		return func(uint64) (ai.Engine, error) { return engine.Start(name, argv[0], argv[1:]...) }, nil
	}
	if _, err := ai.New(spec, 0); err != nil {
		return nil, err
	}
	return func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed) }, nil
}

func engineCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "engine",
		Short: "Speak the engine protocol (UCI style) on standard input and output",
		Long:  "engine reads protocol commands on standard input and answers on standard output; see docs/protocol.md.",
		Args:  withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return engine.Serve(cmd.InOrStdin(), cmd.OutOrStdout())
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

// errQuit ends the play loop.
var errQuit = errors.New("quit")
