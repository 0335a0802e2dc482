package puzzles

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all" // the games the sets are of
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/puzzle"
)

// The shipped sets: sets/ID.jsonl, one file per game id, each line a
// puzzle.Puzzle as 'arbiter puzzles' writes it.
//
//go:embed sets/*.jsonl
var shipped embed.FS

// Shipped is the embedded sets, for Config.Sets.
func Shipped() fs.FS {
	sub, err := fs.Sub(shipped, "sets")
	if err != nil {
		panic(err) // the embed pattern names the folder
	}
	return sub
}

// The bounds of what a set may hold and a client may name: ids and
// themes are short words, so that a quoted one is short too.
const (
	maxIDLen    = 80
	maxThemeLen = 32
	maxSolution = 2*puzzle.MaxMaxMoves - 1
	maxPerSet   = 100_000
	maxLine     = 64 << 10
)

var (
	idPattern    = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	themePattern = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9]*$`)
)

// set is one game's puzzles, in the file's order.
type set struct {
	game    game.Descriptor
	puzzles []puzzle.Puzzle
	themes  map[string]int
}

// loadSets reads and checks every ID.jsonl of fsys: a broken set is an
// error naming its file and line, never a puzzle skipped.
func loadSets(fsys fs.FS) (map[string]*set, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("puzzles: the sets: %w", err)
	}
	sets := map[string]*set{}
	ids := map[string]string{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if e.IsDir() || !ok {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("puzzles: %w", err)
		}
		st, err := parseSet(id, data, ids)
		if err != nil {
			return nil, fmt.Errorf("puzzles: %s: %w", path.Join("sets", e.Name()), err)
		}
		sets[id] = st
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("puzzles: no sets (ID.jsonl) found")
	}
	return sets, nil
}

// parseSet reads one game's file; ids holds every puzzle id seen so far,
// across sets (a puzzle's id is its key in the store).
func parseSet(id string, data []byte, ids map[string]string) (*set, error) {
	d, ok := game.Lookup(id)
	if !ok {
		return nil, fmt.Errorf("no game has the id %s", clip.Quote(id))
	}
	st := &set{game: d, themes: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxLine)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		p, err := parsePuzzle(id, sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if prev, dup := ids[p.ID]; dup {
			return nil, fmt.Errorf("line %d: the id %s is %s's too", n, p.ID, prev)
		}
		if len(st.puzzles) == maxPerSet {
			return nil, fmt.Errorf("more than %d puzzles", maxPerSet)
		}
		ids[p.ID] = fmt.Sprintf("%s line %d", id, n)
		st.puzzles = append(st.puzzles, p)
		for _, t := range p.Themes {
			st.themes[t]++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return st, nil
}

// parsePuzzle reads one line and checks it against the game's rules:
// the position parses, and every move of the solution is legal in turn.
func parsePuzzle(id string, line []byte) (puzzle.Puzzle, error) {
	var p puzzle.Puzzle
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, err
	}
	if err := checkFields(id, p); err != nil {
		return p, fmt.Errorf("puzzle %s: %w", clip.Quote(p.ID), err)
	}
	g, err := game.New(id, nil)
	if err != nil {
		return p, err
	}
	s, err := g.ParseFEN(p.FEN)
	if err != nil {
		return p, fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	if s.Result().Over() {
		return p, fmt.Errorf("puzzle %s: the game is over in its position", p.ID)
	}
	if err := game.PlayMoves(s, p.Solution); err != nil {
		return p, fmt.Errorf("puzzle %s: the solution: %w", p.ID, err)
	}
	return p, nil
}

// checkFields checks what needs no rules: the id, the game, the themes,
// the solution's length and the rating.
func checkFields(id string, p puzzle.Puzzle) error {
	switch {
	case len(p.ID) > maxIDLen || !idPattern.MatchString(p.ID):
		return fmt.Errorf("the id is not a word of at most %d lower-case letters, digits and dashes", maxIDLen)
	case p.Game != id:
		return fmt.Errorf("the game is %s, not the set's %s", clip.Quote(p.Game), id)
	case len(p.Solution)%2 != 1 || len(p.Solution) > maxSolution:
		return fmt.Errorf("the solution has %d moves; want an odd number up to %d", len(p.Solution), maxSolution)
	case p.Rating < 0 || p.Rating > maxRating:
		return fmt.Errorf("the rating %d is not within 0 to %d", p.Rating, maxRating)
	}
	for _, t := range p.Themes {
		if len(t) > maxThemeLen || !themePattern.MatchString(t) {
			return fmt.Errorf("the theme %s is not a word of at most %d letters and digits", clip.Quote(t), maxThemeLen)
		}
	}
	if slices.Contains(p.Solution, "") {
		return fmt.Errorf("the solution has an empty move")
	}
	return nil
}
