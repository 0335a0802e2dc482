package uci

import (
	"fmt"
	"os"
	"strings"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// noTables is the Tables option's value for none, as UCI writes an empty
// string option.
const noTables = "<empty>"

// maxTablesPath bounds the Tables option: longer than any folder a system
// opens.
const maxTablesPath = 4096

// setTables handles "setoption name Tables value DIR": the endgame tables
// that 'arbiter solve' wrote, which the engine probes in the games they
// are of (ab, and ai:level=6; ab:tables=off declines them). "<empty>"
// removes them. With a game set, the tables must be of it; before
// newgame the folder must exist, and newgame opens it. A refused value
// leaves the tables before. A new value makes a new engine.
func (sv *server) setTables(dir string) error {
	switch {
	case dir == noTables:
		sv.tablesDir, sv.tables, sv.eng = "", nil, nil
		return nil
	case len(dir) > maxTablesPath:
		return fmt.Errorf("tables %s: a path of %d bytes; want at most %d", clip.Quote(dir), len(dir), maxTablesPath)
	}
	if sv.g == nil {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("tables %s: no such folder", clip.Quote(dir))
		}
		sv.tablesDir, sv.tables, sv.eng = dir, nil, nil
		return nil
	}
	t, err := endgame.Open(dir, sv.g)
	if err != nil {
		return tablesError(dir, err)
	}
	sv.tablesDir, sv.tables, sv.eng = dir, t, nil
	return nil
}

// openTables opens the Tables option for a new game. Tables of another
// game are not an error of newgame (one folder serves one game, and an
// engine plays many): the engine says so and plays without them.
func (sv *server) openTables() {
	sv.tables = nil
	if sv.tablesDir == "" {
		return
	}
	t, err := endgame.Open(sv.tablesDir, sv.g)
	if err != nil {
		sv.say("info string no endgame tables for this game: %v", tablesError(sv.tablesDir, err))
		return
	}
	sv.tables = t
}

// tablesError quotes the folder of err by its start only.
func tablesError(dir string, err error) error {
	return fmt.Errorf("tables %s: %s", clip.Quote(dir), strings.ReplaceAll(err.Error(), dir, "the folder"))
}

// engineOptions are the options of the engines the server makes.
func (sv *server) engineOptions() []ai.Option {
	opts := []ai.Option{ai.WithThreads(sv.threads)}
	if sv.tables != nil {
		opts = append(opts, ai.WithTables(sv.tables))
	}
	return opts
}
