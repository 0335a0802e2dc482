package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// The ranges of the numeric flags. A search must end: the largest limits
// still end within hours, and zero means "no limit" only where the help
// says so.
const (
	maxPerftDepth = 32
	maxNodes      = 1_000_000_000
	maxMoveTime   = 24 * time.Hour
	maxGames      = 100_000
	maxWorkers    = 64
)

// allowedKey is the flag annotation that says what a flag accepts, so that
// pflag's own complaints about a malformed value can say it too.
const allowedKey = "arbiter-allowed"

// checks are the range checks of one command's numeric flags, run before
// the command does anything.
type checks []func() error

// run returns the first failed check.
func (c checks) run() error {
	for _, check := range c {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// intRange is what an integer flag accepts: lo to hi, and 0 too when zero
// says what 0 means.
type intRange struct {
	lo, hi int64
	zero   string
}

func (r intRange) allowed() string {
	text := fmt.Sprintf("a whole number from %d to %d", r.lo, r.hi)
	if r.zero != "" {
		text += ", or 0 for " + r.zero
	}
	return text
}

func (r intRange) check(name string, v int64) error {
	if v == 0 && r.zero != "" || v >= r.lo && v <= r.hi {
		return nil
	}
	return fmt.Errorf("--%s %d: want %s", name, v, r.allowed())
}

// durationRange is what a duration flag accepts: min to max, and 0 too
// when zero says what 0 means. A min of 0 stands for minDuration: no
// duration flag takes 1ns, which only a typo asks for and which can make
// a ticker spin or panic.
type durationRange struct {
	min, max time.Duration
	zero     string
}

// minDuration is the least duration a flag takes when its range names
// none.
const minDuration = time.Millisecond

func (r durationRange) least() time.Duration { return max(r.min, minDuration) }

func (r durationRange) allowed() string {
	examples := "500ms or 2s"
	if r.least() > 500*time.Millisecond {
		examples = "30s or 5m"
	}
	text := "a duration from " + shortDuration(r.least()) + " to " + shortDuration(r.max) + ", such as " + examples
	if r.zero != "" {
		text += ", or 0 for " + r.zero
	}
	return text
}

func (r durationRange) check(name string, v time.Duration) error {
	if v == 0 && r.zero != "" || v >= r.least() && v <= r.max {
		return nil
	}
	return fmt.Errorf("--%s %s: want %s", name, v, r.allowed())
}

// shortDuration writes 24h rather than 24h0m0s, and 10m rather than
// 10m0s.
func shortDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d < time.Hour && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return d.String()
}

// intVar defines an int flag whose value must lie in r; the help says so.
func (c *checks) intVar(cmd *cobra.Command, p *int, name string, value int, r intRange, usage string) {
	cmd.Flags().IntVar(p, name, value, usage+" ("+r.allowed()+")")
	allow(cmd, name, r.allowed())
	*c = append(*c, func() error { return r.check(name, int64(*p)) })
}

// int64Var defines an int64 flag whose value must lie in r.
func (c *checks) int64Var(cmd *cobra.Command, p *int64, name string, value int64, r intRange, usage string) {
	cmd.Flags().Int64Var(p, name, value, usage+" ("+r.allowed()+")")
	allow(cmd, name, r.allowed())
	*c = append(*c, func() error { return r.check(name, *p) })
}

// durationVar defines a duration flag whose value must lie in r.
func (c *checks) durationVar(cmd *cobra.Command, p *time.Duration, name string, value time.Duration, r durationRange, usage string) {
	cmd.Flags().DurationVar(p, name, value, usage+" ("+r.allowed()+")")
	allow(cmd, name, r.allowed())
	*c = append(*c, func() error { return r.check(name, *p) })
}

// limitVars defines --movetime, --depth and --nodes, the limits of a
// search, with what 0 means for each.
func (c *checks) limitVars(cmd *cobra.Command, lim *ai.Limits, movetime time.Duration, noTime, usageTime string) {
	c.durationVar(cmd, &lim.MoveTime, "movetime", movetime, durationRange{max: maxMoveTime, zero: noTime}, usageTime)
	c.intVar(cmd, &lim.Depth, "depth", 0, intRange{lo: 1, hi: ai.MaxDepth, zero: "no depth limit"},
		"depth limit in plies, for ab and the levels")
	c.int64Var(cmd, &lim.Nodes, "nodes", 0, intRange{lo: 1, hi: maxNodes, zero: "no node limit"},
		"node limit per move: positions for ab, iterations for uct and mcts")
}

// seedVar defines --seed; every value is a seed.
func seedVar(cmd *cobra.Command, p *uint64, usage string) {
	cmd.Flags().Uint64Var(p, "seed", 1, usage)
	allow(cmd, "seed", "a whole number, 0 or more")
}

// allow records what the flag name accepts, for flagError.
func allow(cmd *cobra.Command, name, allowed string) {
	// The flag was just defined, so the annotation cannot fail.
	_ = cmd.Flags().SetAnnotation(name, allowedKey, []string{allowed})
}

// flagError rewrites pflag's complaints about flag values, which quote Go's
// number parsers, as one line naming the flag and what it accepts. Other
// errors (unknown flags) pass unchanged.
func flagError(_ *cobra.Command, err error) error {
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) {
		f := invalid.GetFlag()
		return fmt.Errorf("--%s %s: want %s", f.Name, clip.Quote(invalid.GetValue()), allowedValues(f))
	}
	// pflag names an unknown flag whole, however long.
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		return fmt.Errorf("unknown flag: --%s", clip.Bare(name))
	}
	var missing *pflag.ValueRequiredError
	if errors.As(err, &missing) {
		f := missing.GetFlag()
		return fmt.Errorf("--%s needs a value: %s", f.Name, allowedValues(f))
	}
	return err
}

// allowedValues says what a flag accepts: its annotation, or what its type
// can hold.
func allowedValues(f *pflag.Flag) string {
	if a := f.Annotations[allowedKey]; len(a) == 1 {
		return a[0]
	}
	switch f.Value.Type() {
	case "bool":
		return "true or false"
	case "int", "int64":
		return "a whole number"
	case "uint64":
		return "a whole number, 0 or more"
	case "duration":
		return "a duration such as 500ms or 2s"
	}
	return "a value"
}

// plural writes a count with its noun: "1 game", "3 games".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
