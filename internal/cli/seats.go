package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// seatFlagNames are the seat flags, one for every seat name a game uses.
func seatFlagNames() []string { return []string{"white", "black", "red"} }

// seatFlags are the flags that say who plays each seat, and how long an
// engine may think.
type seatFlags struct {
	specs  map[string]*string // by lower-case seat name
	lim    ai.Limits
	seed   uint64
	checks checks
	flags  *pflag.FlagSet // to tell a seat flag given from its default
}

func (f *seatFlags) add(cmd *cobra.Command) {
	f.flags = cmd.Flags()
	f.specs = map[string]*string{}
	for _, seat := range seatFlagNames() {
		f.specs[seat] = cmd.Flags().String(seat, "human", "who plays "+seat+": human, or an engine such as ai:level=4, ab, uct, random")
		allow(cmd, seat, "human, or an engine such as ai:level=4, ab, uct, random")
	}
	f.checks.limitVars(cmd, &f.lim, 0, "the level's own time, or 1s", "time per engine move")
	seedVar(cmd, &f.seed, "seed for the engines' random choices")
}

// seats checks the flags against the game and builds an engine for every
// seat not played by a person, with the limits of their searches.
func (f *seatFlags) seats(g game.Game) ([]ai.Engine, ai.Limits, error) {
	if err := f.check(g); err != nil {
		return nil, ai.Limits{}, err
	}
	seats := make([]ai.Engine, g.Players())
	lim := f.lim
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

// check refuses limits out of range and a seat flag for a seat that g
// does not have (Pommel has no Red).
func (f *seatFlags) check(g game.Game) error {
	if err := f.checks.run(); err != nil {
		return err
	}
	names := seatNames(g)
	for _, flag := range seatFlagNames() {
		if f.flags == nil || !f.flags.Changed(flag) || hasSeat(names, flag) {
			continue
		}
		return fmt.Errorf("--%s: %s has no %s seat; its seats are %s (--%s)", flag, g.ID(),
			strings.ToUpper(flag[:1])+flag[1:], strings.Join(names, ", "), strings.ToLower(strings.Join(names, ", --")))
	}
	return nil
}

// hasSeat reports whether one of names is the seat flag's name.
func hasSeat(names []string, flag string) bool {
	for _, n := range names {
		if strings.EqualFold(n, flag) {
			return true
		}
	}
	return false
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
