package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/puzzle"
)

// maxPuzzleLine bounds one line of a --recheck file: a puzzle is a FEN,
// a few moves and themes, far under it.
const maxPuzzleLine = 1 << 20

// runRecheck judges again every puzzle of --recheck, deeper, and writes
// those whose solution holds.
func (f *puzzlesFlags) runRecheck(cmd *cobra.Command, g game.Game) error {
	ps, err := readPuzzles(f.recheck, g.ID())
	if err != nil {
		return err
	}
	rc := puzzle.Recheck{Nodes: f.deeper}
	if f.tables != "" {
		if rc.Tables, err = openTableFolder(f.tables); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	began := time.Now()
	errOut := cmd.ErrOrStderr()
	var kept []puzzle.Puzzle
	for i, p := range ps {
		faults, err := puzzle.RecheckPuzzle(ctx, p, rc)
		if err != nil {
			return fmt.Errorf("--recheck %s: line %d: %v", clip.Quote(f.recheck), i+1, err)
		}
		if len(faults) == 0 {
			kept = append(kept, p)
		} else if !f.quiet {
			fmt.Fprintf(errOut, "\r%s dropped: %s\n", p.ID, faults[0])
		}
		if !f.quiet {
			fmt.Fprintf(errOut, "\rpuzzles %d of %d, kept %d", i+1, len(ps), len(kept))
		}
	}
	if !f.quiet {
		fmt.Fprintf(errOut, "\n%s: %d of %d puzzles hold, %.1f s\n", g.ID(), len(kept), len(ps), time.Since(began).Seconds())
	}
	return f.write(cmd, kept)
}

// readPuzzles reads a file of puzzle JSON lines, each of game id.
func readPuzzles(name, id string) ([]puzzle.Puzzle, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("--recheck %s: %v", clip.Quote(name), pathless(err))
	}
	var ps []puzzle.Puzzle
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxPuzzleLine)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var p puzzle.Puzzle
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("--recheck %s: line %d: %v", clip.Quote(name), line, err)
		}
		if p.Game != id {
			return nil, fmt.Errorf("--recheck %s: line %d: a puzzle of %s, not of %s", clip.Quote(name), line, clip.Quote(p.Game), id)
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--recheck %s: %v", clip.Quote(name), err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("--recheck %s: no puzzles in the file", clip.Quote(name))
	}
	return ps, nil
}
