package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// seatFlags are the flags that say who plays each seat, and how long an
// engine may think. There is a seat flag for the key of every seat of
// every registered game (--white, --black, --red); a game refuses those of
// seats it does not have.
type seatFlags struct {
	flagged []game.Seat        // the seats that have a flag, in flag order
	specs   map[string]*string // by seat key
	lim     ai.Limits
	seed    uint64
	checks  checks
	flags   *pflag.FlagSet // to tell a seat flag given from its default
	tables  tablesFlag
}

func (f *seatFlags) add(cmd *cobra.Command) {
	f.flags = cmd.Flags()
	f.specs = map[string]*string{}
	f.flagged = game.AllSeats()
	for _, seat := range f.flagged {
		f.specs[seat.Key] = cmd.Flags().String(seat.Key, "human", "who plays "+seat.Key+": human, or an engine such as ai:level=4, ab, uct, random")
		allow(cmd, seat.Key, "human, or an engine such as ai:level=4, ab, uct, random")
	}
	f.checks.limitVars(cmd, &f.lim, 0, "the level's own time, or 1s", "time per engine move")
	seedVar(cmd, &f.seed, "seed for the engines' random choices")
	f.tables.add(cmd)
}

// seats checks the flags against the game and builds an engine for every
// seat not played by a person, with the limits of their searches.
func (f *seatFlags) seats(g game.Game) ([]ai.Engine, ai.Limits, error) {
	if err := f.check(g); err != nil {
		return nil, ai.Limits{}, err
	}
	t, err := f.tables.open(g)
	if err != nil {
		return nil, ai.Limits{}, err
	}
	seats := make([]ai.Engine, g.Players())
	lim := f.lim
	for p := range seats {
		key := g.Seat(game.Player(p)).Key
		spec := "human"
		if v, ok := f.specs[key]; ok {
			spec = *v
		}
		if spec == "human" {
			continue
		}
		e, err := ai.New(spec, f.seed+uint64(p), engineOptions(t)...)
		if err != nil {
			return nil, lim, fmt.Errorf("--%s: %w", key, err)
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
	keys := game.SeatKeys(g)
	for _, seat := range f.flagged {
		if f.flags == nil || !f.flags.Changed(seat.Key) || slices.Contains(keys, seat.Key) {
			continue
		}
		return fmt.Errorf("--%s: %s has no %s seat; its seats are %s (--%s)", seat.Key, g.ID(),
			seat.Name, strings.Join(seatNames(g), ", "), strings.Join(keys, ", --"))
	}
	return nil
}
