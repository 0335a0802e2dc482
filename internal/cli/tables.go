package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// tablesFlag is --tables DIR on the commands that make engines (best,
// match, play, lab): the endgame tables that 'arbiter solve' wrote, which
// every ab engine of the command then probes (unless its spec says
// tables=off) and level 6 too (ai.WithTables).
type tablesFlag struct {
	dir string
	cmd *cobra.Command
}

// maxTablesPath bounds a --tables path, in bytes: Linux's PATH_MAX.
const maxTablesPath = 4096

// checkTablesPath refuses a --tables path that is empty, over-long or
// holds a control character, quoting at most its start.
func checkTablesPath(dir string) error {
	switch {
	case strings.TrimSpace(dir) == "":
		return errors.New("--tables is empty: give " + tablesAllowed + ", or leave --tables out")
	case len(dir) > maxTablesPath:
		return fmt.Errorf("--tables %s: a path of %d bytes; at most %d", clip.Quote(dir), len(dir), maxTablesPath)
	case strings.ContainsFunc(dir, func(r rune) bool { return r < ' ' }):
		return fmt.Errorf("--tables %s: a path with a control character in it", clip.Quote(dir))
	}
	return nil
}

// tablesAllowed is what --tables accepts.
const tablesAllowed = "the folder of endgame tables that 'arbiter solve' wrote for the game and its rules"

func (f *tablesFlag) add(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.dir, "tables", "", "endgame tables for the engines to probe (a folder 'arbiter solve' wrote)")
	allow(cmd, "tables", tablesAllowed)
}

// open opens the tables for g: nil without --tables. It refuses an empty
// or over-long path, a folder without tables, and tables of another game
// or other rules, on one line that quotes at most the path's start.
func (f *tablesFlag) open(g game.Game) (*endgame.Tables, error) {
	if f.cmd == nil || !f.cmd.Flags().Changed("tables") {
		return nil, nil
	}
	dir := f.dir
	if err := checkTablesPath(dir); err != nil {
		return nil, err
	}
	t, err := endgame.Open(dir, g)
	if err != nil {
		// endgame names the folder in full; the message quotes its start.
		return nil, fmt.Errorf("--tables %s: %s", clip.Quote(dir), strings.ReplaceAll(err.Error(), dir, "the folder"))
	}
	return t, nil
}

// engineOptions are the options of the engines of a command with
// tables t (nil: none).
func engineOptions(t *endgame.Tables) []ai.Option {
	if t == nil {
		return nil
	}
	return []ai.Option{ai.WithTables(t)}
}

// tablesLine is what best prints for a position the tables hold (see
// valueLine); "" without tables or when they do not hold it.
func tablesLine(t *endgame.Tables, s game.State) string {
	if t == nil {
		return ""
	}
	v, err := t.Probe(s)
	if err != nil {
		return ""
	}
	return valueLine(v)
}

// valueLine writes a table value as best prints it: "win in N (tables)",
// "loss in N (tables)" (N in plies, for the side to move) or "draw
// (tables)".
func valueLine(v endgame.Value) string { return v.Words() + " (tables)" }
