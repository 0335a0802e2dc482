package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/match"
)

// clockAllowed is what --clock accepts.
const clockAllowed = match.ClockAllowed + "; base from 1ms to 24h, increment 0 to 24h"

// addClock defines --clock on the match command.
func (mf *matchFlags) addClock(cmd *cobra.Command) {
	cmd.Flags().StringVar(&mf.clock, "clock", "", "play on Fischer clocks, each engine given its own clock and losing on time when it runs out ("+
		clockAllowed+"); not with --movetime")
	allow(cmd, "clock", clockAllowed)
}

// matchClock reads --clock, when given. With a clock the engines plan
// their own time, so --movetime, a second rule for it, is refused; --depth
// and --nodes still cap each search.
func (mf *matchFlags) matchClock() (match.Clock, error) {
	if !mf.gamesFlags.p.cmd.Flags().Changed("clock") {
		return match.Clock{}, nil
	}
	if mf.lim.MoveTime != 0 {
		return match.Clock{}, errors.New("--clock and --movetime: give one; on a clock the engines plan their own time")
	}
	c, err := match.ParseClock(mf.clock)
	if err != nil {
		return match.Clock{}, fmt.Errorf("--clock %w", err)
	}
	return c, nil
}
