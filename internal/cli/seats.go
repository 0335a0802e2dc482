package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/spf13/cobra"
)

// seatFlags are the flags that say who plays each seat, and how long an
// engine may think.
type seatFlags struct {
	specs    map[string]*string // by lower-case seat name
	movetime time.Duration
	depth    int
	nodes    int64
	seed     uint64
}

func (f *seatFlags) add(cmd *cobra.Command) {
	f.specs = map[string]*string{}
	for _, seat := range []string{"white", "black", "red"} {
		f.specs[seat] = cmd.Flags().String(seat, "human", "who plays "+seat+": human, or an engine such as ai:level=4, ab, uct, random")
	}
	cmd.Flags().DurationVar(&f.movetime, "movetime", 0, "time per engine move (default: the level's own, or 1s)")
	cmd.Flags().IntVar(&f.depth, "depth", 0, "search depth limit for engines")
	cmd.Flags().Int64Var(&f.nodes, "nodes", 0, "node limit per engine move (positions for ab, iterations for uct and mcts)")
	cmd.Flags().Uint64Var(&f.seed, "seed", 1, "seed for the engines' random choices")
}

// seats builds an engine for every seat not played by a person.
func (f *seatFlags) seats(g game.Game) ([]ai.Engine, ai.Limits, error) {
	seats := make([]ai.Engine, g.Players())
	lim := ai.Limits{MoveTime: f.movetime, Depth: f.depth, Nodes: f.nodes}
	for p := range seats {
		name := strings.ToLower(g.PlayerName(game.Player(p)))
		spec := "human"
		if v, ok := f.specs[name]; ok {
			spec = *v
		}
		if spec == "human" {
			continue
		}
		e, err := ai.New(spec, f.seed+uint64(p))
		if err != nil {
			return nil, lim, fmt.Errorf("--%s: %w", name, err)
		}
		seats[p] = e
		if !strings.Contains(spec, "level") && lim == (ai.Limits{}) {
			lim.MoveTime = time.Second
		}
	}
	return seats, lim, nil
}

// names are the players' names for a record: the engine specs, or "?".
func (f *seatFlags) names(g game.Game) []string {
	names := make([]string, g.Players())
	for p := range names {
		names[p] = "?"
		if v, ok := f.specs[strings.ToLower(g.PlayerName(game.Player(p)))]; ok && *v != "human" {
			names[p] = *v
		}
	}
	return names
}
