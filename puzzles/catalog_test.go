package puzzles

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// TestAddFoundPuzzles: puzzles found in the site's games join their
// game's pool, named by id and counted in the list, with the game they
// came from; one already there (the same position), one of a game with
// no set and a second copy are skipped; a malformed one is skipped and
// reported.
func TestAddFoundPuzzles(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	lines := shippedLines(t, "pommel-76")
	list := lines[:5]
	var b bytes.Buffer
	for _, p := range list {
		line, _ := json.Marshal(p)
		b.Write(append(line, '\n'))
	}
	s, err := New(Config{Store: st, Sets: fstest.MapFS{"pommel-76.jsonl": {Data: b.Bytes()}}, Random: middle})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	found := lines[5] // not among the five of the set
	found.SourceGame, found.Source = "g-1", "game g-1"
	other := shippedLines(t, "pommel")[0] // a game with no set here
	n, err := s.Add([]puzzle.Puzzle{found, found, list[0], other})
	if err != nil || n != 1 {
		t.Fatalf("added %d (%v), want 1", n, err)
	}
	p, _, err := s.Next(ctx, Query{Game: "pommel-76", ID: found.ID})
	if err != nil || p.SourceGame != "g-1" || p.Rating != float64(found.Rating) {
		t.Fatalf("the found puzzle: %+v (%v)", p, err)
	}
	sets, err := s.Sets(ctx, "")
	if err != nil || len(sets) != 1 || sets[0].Count != 6 {
		t.Fatalf("sets %+v (%v), want pommel-76's six", sets, err)
	}
	bad := lines[6]
	bad.Solution = []string{"a1-a2"}
	good := lines[7]
	if n, err := s.Add([]puzzle.Puzzle{bad, good}); err == nil || n != 1 || !strings.Contains(err.Error(), "solution") {
		t.Fatalf("a malformed puzzle: added %d (%v), want an error and the good one added", n, err)
	}
	if _, _, err := s.Next(ctx, Query{Game: "pommel-76", ID: bad.ID}); ErrorCode(err) != NotFound {
		t.Fatalf("the malformed puzzle: %v, want not found", err)
	}
}

// TestRunFeeds: Run adds what the feed gives, at once and then at every
// tick, until its context ends.
func TestRunFeeds(t *testing.T) {
	lines := shippedLines(t, "pommel-76")
	var b bytes.Buffer
	line, _ := json.Marshal(lines[0])
	b.Write(append(line, '\n'))
	calls := make(chan int, 100)
	n := 0
	feed := func(context.Context) ([]puzzle.Puzzle, error) {
		n++
		calls <- n
		if n <= 3 {
			return lines[n : n+1], nil // one new puzzle each of the first three times
		}
		return nil, nil
	}
	s, err := New(Config{Sets: fstest.MapFS{"pommel-76.jsonl": {Data: b.Bytes()}}, Feed: feed, FeedEvery: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	for <-calls < 5 { // the fourth call has added the third
	}
	cancel()
	<-done
	if got := len(s.cat.Load().sets["pommel-76"].puzzles); got != 4 {
		t.Fatalf("%d puzzles after the feed, want 4", got)
	}
}
