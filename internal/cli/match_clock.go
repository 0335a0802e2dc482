package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// clockAllowed is what --clock accepts.
const clockAllowed = timecontrol.Allowed + "; " + timecontrol.Bounds

// addClock defines --clock on the match command.
func (mf *matchFlags) addClock(cmd *cobra.Command) {
	cmd.Flags().StringVar(&mf.clock, "clock", "", "play on Fischer clocks, each engine given its own clock and losing on time when it runs out ("+
		clockAllowed+"); not with --movetime")
	allow(cmd, "clock", clockAllowed)
}

// matchClock reads --clock, when given. With a clock the engines plan
// their own time, so --movetime, a second rule for it, is refused; --depth
// and --nodes still cap each search.
func (mf *matchFlags) matchClock() (timecontrol.Control, error) {
	if !mf.gamesFlags.p.cmd.Flags().Changed("clock") {
		return timecontrol.Control{}, nil
	}
	if mf.lim.MoveTime != 0 {
		return timecontrol.Control{}, errors.New("--clock and --movetime: give one; on a clock the engines plan their own time")
	}
	c, err := timecontrol.Parse(mf.clock)
	if err != nil {
		return timecontrol.Control{}, fmt.Errorf("--clock %w", err)
	}
	return c, nil
}
