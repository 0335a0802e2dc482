// Package cli is the arbiter command line: cobra commands over the game
// registry. cmd/arbiter only calls Execute; tests call the commands with
// their own input and output.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/game"
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
	root.AddCommand(gamesCmd(), movesCmd(), perftCmd(), fenCmd(), showCmd(), playCmd())
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
	return cmd
}

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

func playCmd() *cobra.Command {
	var p position
	cmd := &cobra.Command{
		Use:   "play GAME",
		Short: "Play a game at this terminal, people taking turns",
		Long: `play shows the board and the legal moves, and reads one move per line.
It also understands: undo, moves, board, fen, help, quit.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := p.state(args[0], nil, false)
			if err != nil {
				return err
			}
			return Play(s, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	p.addFlags(cmd)
	return cmd
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
