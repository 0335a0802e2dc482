package cli

import (
	"fmt"
	"os"

	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// openTables opens each --tables folder for the game and rules its
// manifest names, refusing a path that is empty or over-long, a folder
// that is not there or holds no tables, and two folders for the same
// game and rules.
func (sf *serveFlags) openTables() error {
	sf.tables = nil
	for _, dir := range sf.tableDirs {
		t, err := openTableFolder(dir)
		if err != nil {
			return err
		}
		sf.tables = append(sf.tables, t)
	}
	if err := analysis.CheckTables(sf.tables); err != nil {
		return fmt.Errorf("--tables: %w", err)
	}
	return nil
}

// openTableFolder opens one --tables folder.
func openTableFolder(dir string) (*endgame.Tables, error) {
	if err := checkTablesPath(dir); err != nil {
		return nil, err
	}
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return nil, fmt.Errorf("--tables %s: no such folder", clip.Quote(dir))
	case !info.IsDir():
		return nil, fmt.Errorf("--tables %s: not a folder", clip.Quote(dir))
	}
	t, err := endgame.OpenFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("--tables: %w", clipFolder(err, dir))
	}
	if len(t.Manifest().Materials) == 0 {
		return nil, fmt.Errorf("--tables %s: the folder holds no table yet (its build stopped before the first): build them with arbiter solve", clip.Quote(dir))
	}
	return t, nil
}
