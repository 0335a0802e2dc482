package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/bench"
)

// The bounds of bench --seconds: long enough to measure, short enough to
// end the same day.
const (
	minBenchSeconds = 0.05
	maxBenchSeconds = 3600
)

func benchCmd() *cobra.Command {
	var seconds float64
	cmd := &cobra.Command{
		Use:   "bench [GAME...]",
		Short: "Measure the engine's speed: playouts, perft, search nodes per second",
		Long: `bench measures each game (every game id when none is given), one line per
figure, so that scripts can read it:

  GAME playouts/s N plies/game M   random games from the start to their end
  GAME perft/s N                   perft from the start, every leaf played
  GAME perft-bulk/s N              perft counting the moves at the leaves
  GAME ab-nodes/s N                alpha-beta on fixed positions, fixed depth
                                   (a node is a position a move is played
                                   into, as in perft)
  GAME mcts-iterations/s N         uct on the same positions, fixed iterations
  GAME signature N                 the nodes of those alpha-beta searches

and last "signature N", the sum over the games. The signature changes only
when the search's behaviour changes: a change meant as pure speed keeps it.
Each timed figure runs for about --seconds. Use one thread; compare runs
with benchstat-like care (a quiet machine, several runs).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !(seconds >= minBenchSeconds && seconds <= maxBenchSeconds) { // NaN too
				return fmt.Errorf("--seconds %g: want a number of seconds from %g to %g", seconds, minBenchSeconds, float64(maxBenchSeconds))
			}
			games, err := benchGames(args)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			var signature float64
			cfg := bench.Config{Time: time.Duration(seconds * float64(time.Second))}
			for _, g := range games {
				err := bench.Game(cmd.Context(), g, cfg, func(f bench.Figure) {
					fmt.Fprintln(out, f)
					if f.Name == "signature" {
						signature += f.Value
					}
				})
				if err != nil {
					return err
				}
			}
			fmt.Fprintf(out, "signature %.0f\n", signature)
			return nil
		},
	}
	cmd.Flags().Float64Var(&seconds, "seconds", 1, fmt.Sprintf("how long each timed figure runs (%g to %g)", minBenchSeconds, float64(maxBenchSeconds)))
	allow(cmd, "seconds", fmt.Sprintf("a number of seconds from %g to %g", minBenchSeconds, float64(maxBenchSeconds)))
	return cmd
}

// benchGames are the games named, or every game.
func benchGames(ids []string) ([]game.Game, error) {
	if len(ids) == 0 {
		for _, d := range game.All() {
			ids = append(ids, d.ID)
		}
	}
	var out []game.Game
	for _, id := range ids {
		g, err := game.New(id, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}
