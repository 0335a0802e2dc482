package puzzles_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/puzzle"
)

// The shipped sets, checked as they are on disk (sets/ID.jsonl, what the
// package embeds): their size, that every puzzle replays, and, for a
// sample, that a deeper search than the one that found them, and the
// endgame tables where they hold a position, still confirm every move of
// the solution (docs/puzzles.md, "The shipped sets").

// minSet is the least size of a shipped set.
const minSet = 300

// readSet reads the shipped set of id.
func readSet(t *testing.T, id string) []puzzle.Puzzle {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("sets", id+".jsonl"))
	if err != nil {
		t.Fatalf("%s: no shipped set: %v", id, err)
	}
	var ps []puzzle.Puzzle
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var p puzzle.Puzzle
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("%s line %d: %v", id, line, err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestShippedSets: every id has a set of at least minSet puzzles, each
// of its game, replayable move by move, odd in length, with themes and a
// starting rating; no id and no position (or its mirror) twice.
func TestShippedSets(t *testing.T) {
	for _, d := range game.All() {
		ps := readSet(t, d.ID)
		if len(ps) < minSet {
			t.Errorf("%s: %d puzzles, want at least %d", d.ID, len(ps), minSet)
		}
		ids, keys := map[string]bool{}, map[string]bool{}
		for _, p := range ps {
			start, moves, err := puzzle.Replay(p)
			if err != nil {
				t.Errorf("%s: %v", d.ID, err)
				continue
			}
			key := puzzle.Key(start)
			switch {
			case p.Game != d.ID:
				t.Errorf("%s: puzzle %s is of %s", d.ID, p.ID, p.Game)
			case ids[p.ID] || keys[key]:
				t.Errorf("%s: puzzle %s twice (by id or position)", d.ID, p.ID)
			case len(moves)%2 != 1 || len(p.Themes) == 0 || p.Rating < 800 || p.Rating > 2800:
				t.Errorf("%s: puzzle %s: %d moves, themes %v, rating %d", d.ID, p.ID, len(moves), p.Themes, p.Rating)
			}
			ids[p.ID], keys[key] = true, true
		}
	}
}

// sampleTables are the endgame tables the sample is rechecked with: Pommel's
// of three pieces (a few seconds to build), in the long run only.
func sampleTables(t *testing.T, id string) *endgame.Tables {
	if testing.Short() || id != "pommel" {
		return nil
	}
	_, tables := endgametest.Build(t, id, nil, 3)
	return tables
}

// TestShippedSampleRechecked: a sample of every set (every 60th puzzle;
// in -short the first alone), each solution move judged again by a
// search sixteen times the puzzle's verifying one (four times in
// -short), and by the tables where they hold the position: each solver
// move must still be the best with every other move at least a mistake
// worse, each reply within an inaccuracy of the best. The build rechecked
// every puzzle so (build.sh), so a fault here is an engine that now
// tells players another answer than the one shipped.
func TestShippedSampleRechecked(t *testing.T) {
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			ps := readSet(t, d.ID)
			step, factor := 60, int64(16)
			if testing.Short() {
				step, factor = len(ps), int64(puzzle.DefaultRecheckFactor)
			}
			tables := sampleTables(t, d.ID)
			for i := 0; i < len(ps); i += step {
				p := ps[i]
				rc := puzzle.Recheck{Nodes: min(puzzle.MaxNodes, factor*p.VerifyNodes), Tables: tables}
				faults, err := puzzle.RecheckPuzzle(context.Background(), p, rc)
				if err != nil {
					t.Fatalf("%s: %v", p.ID, err)
				}
				for _, f := range faults {
					t.Errorf("%s (%s): %s", p.ID, p.FEN, f)
				}
			}
		})
	}
}
