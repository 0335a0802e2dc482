package lab

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/match"
)

// bookRun is a quick self-play run of Pommel from a book of two lines.
func bookRun(t *testing.T, book string) Config {
	t.Helper()
	cfg := Config{Game: newGameWith(t, "pommel", "maxplies", "8"), Players: []Player{engine("ab")}, Games: 3,
		Limits: ai.Limits{Depth: 1}, Seed: 3, Date: "2026.01.02"}
	var err error
	if cfg.Openings, err = match.ParseOpenings(cfg.Game.Start(), book); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestRunPlaysTheBook: self-play game i starts from line i mod the
// book's length, and the book is in run.json and summary.json.
func TestRunPlaysTheBook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := bookRun(t, "a1-a3 # one\nb1-b3\n")
	if _, err := Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatal(err)
	}
	games, err := readGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range games {
		if want := []string{"a1-a3", "b1-b3"}[i%2]; len(d.Opening) != 1 || d.Opening[0] != want {
			t.Errorf("game %d: opening %v, want [%s]", i+1, d.Opening, want)
		}
	}
	var sum struct{ Run Manifest }
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, SummaryFile)), &sum); err != nil {
		t.Fatal(err)
	}
	man, _, err := readManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Manifest{sum.Run, man} {
		if !slices.Equal(m.Openings, []string{"a1-a3", "b1-b3"}) || m.Book != match.BookHash(cfg.Openings) {
			t.Errorf("manifest keeps the book %v %q", m.Openings, m.Book)
		}
	}
}

// TestAnotherBookRefused: a run continued, or merged, with another book
// is refused; the same book spelt otherwise is the same run.
func TestAnotherBookRefused(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	if _, err := Run(context.Background(), bookRun(t, "a1-a3\nb1-b3\n"), a, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), bookRun(t, "# same\n a1-a3\nb1-b3  \n"), a, nil); err != nil {
		t.Errorf("the same book spelt otherwise: %v", err)
	}
	other := bookRun(t, "b1-b3\na1-a3\n")
	if _, err := Run(context.Background(), other, a, nil); err == nil || !strings.Contains(err.Error(), "openings book sha256:") {
		t.Errorf("continued with another book: %v", err)
	}
	noBook := bookRun(t, "a1-a3")
	noBook.Openings = nil
	if _, err := Run(context.Background(), noBook, a, nil); err == nil || !strings.Contains(err.Error(), "here") ||
		!strings.Contains(err.Error(), "none here") {
		t.Errorf("continued without the book: %v", err)
	}
	other.Shard = Shard{Index: 1, Count: 2}
	if _, err := Run(context.Background(), other, b, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Merge(filepath.Join(root, "m"), []string{a, b}, false); err == nil || !strings.Contains(err.Error(), "openings book") {
		t.Errorf("merged with another book: %v", err)
	}
}

// TestBuildBook: a book holds the positions nearest level, each line
// legal and evaluated as a fresh search of it says, and the same seed
// builds the same book.
func TestBuildBook(t *testing.T) {
	g := newGame(t, "pommel")
	bc := BookConfig{Game: g, Start: g.Start(), Plies: 1, Count: 4, Depth: 2, Positions: 1000, Seed: 5}
	lines, err := BuildBook(context.Background(), bc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4", len(lines))
	}
	all := reachable(g.Start(), 1, 1000)
	if len(all) < 4 {
		t.Fatalf("%d positions after 1 ply", len(all))
	}
	worst := 0
	for _, l := range lines {
		worst = max(worst, abs(l.Eval))
		again, err := evaluate(context.Background(), bc, l.Moves)
		if err != nil || again.Eval != l.Eval {
			t.Errorf("%v: eval %d, a fresh search says %d (%v)", l.Moves, l.Eval, again.Eval, err)
		}
	}
	// No position left out is nearer level than the farthest kept.
	for _, moves := range all {
		if e, _ := evaluate(context.Background(), bc, moves); abs(e.Eval) < worst && !slices.ContainsFunc(lines, func(l BookLine) bool { return slices.Equal(l.Moves, moves) }) {
			t.Errorf("%v (eval %d) left out, nearer level than a kept line (%d)", moves, e.Eval, worst)
		}
	}
	text := BookText([]string{"a test"}, lines, bc.Depth)
	book, err := match.ParseOpenings(g.Start(), text)
	if err != nil || len(book) != 4 {
		t.Errorf("the book does not read back: %v\n%s", err, text)
	}
	again, _ := BuildBook(context.Background(), bc, nil)
	if BookText(nil, again, 2) != BookText(nil, lines, 2) {
		t.Error("the same seed built another book")
	}
}

// TestBuildBookSamples: with more positions than --positions, a sample of
// distinct positions, the same for the same seed.
func TestBuildBookSamples(t *testing.T) {
	g := newGame(t, "pommel")
	if reachable(g.Start(), 3, 20) != nil {
		t.Fatal("fewer than 20 positions after 3 plies: pick a deeper test")
	}
	a, b := sampled(g.Start(), 3, 20, 1), sampled(g.Start(), 3, 20, 1)
	if len(a) != 20 || !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("samples %v and %v, want the same 20", a, b)
	}
}

func TestBuildBookRefuses(t *testing.T) {
	g := newGame(t, "pommel")
	ok := BookConfig{Game: g, Start: g.Start(), Plies: 2, Count: 4, Depth: 2, Positions: 100}
	tests := []struct {
		name string
		edit func(*BookConfig)
		want string
	}{
		{"no plies", func(b *BookConfig) { b.Plies = 0 }, "--plies 0: want 1 to 40"},
		{"too many plies", func(b *BookConfig) { b.Plies = MaxBookPlies + 1 }, "--plies 41"},
		{"no count", func(b *BookConfig) { b.Count = 0 }, "--count 0"},
		{"count above positions", func(b *BookConfig) { b.Count = 101 }, "--count 101: want 1 to --positions (100)"},
		{"negative depth", func(b *BookConfig) { b.Depth = -1 }, "--depth -1"},
		{"depth past the deepest", func(b *BookConfig) { b.Depth = ai.MaxDepth + 1 }, "--depth 65"},
		{"huge positions", func(b *BookConfig) { b.Positions = MaxBookPositions + 1 }, "--positions 100001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bc := ok
			tt.edit(&bc)
			if _, err := BuildBook(context.Background(), bc, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("BuildBook: %v, want %q", err, tt.want)
			}
		})
	}
}
