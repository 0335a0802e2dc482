package puzzles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

var now = time.Date(2026, 12, 4, 1, 0, 0, 0, time.UTC)

// TestShippedSetsLoad: the embedded sets load, every puzzle checked by
// its game's rules (New refuses a broken one), and every game id has one.
func TestShippedSetsLoad(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatalf("the shipped sets: %v", err)
	}
	sets, err := s.Sets(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]int{}
	for _, x := range sets {
		have[x.Game] = x.Count
	}
	for _, d := range game.All() {
		if have[d.ID] == 0 {
			t.Errorf("no shipped puzzle of %s", d.ID)
		}
	}
}

// shippedLines are the shipped puzzles of a game, decoded.
func shippedLines(t *testing.T, id string) []puzzle.Puzzle {
	t.Helper()
	data, err := fs.ReadFile(Shipped(), id+".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var list []puzzle.Puzzle
	for line := range bytes.Lines(data) {
		var p puzzle.Puzzle
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatal(err)
		}
		list = append(list, p)
	}
	return list
}

// fiveSet is a set of five shipped eximo puzzles rated 1000, 1200, ...
// 1800, the first two themed "first", and the fs holding it.
func fiveSet(t *testing.T) ([]puzzle.Puzzle, fs.FS) {
	t.Helper()
	list := shippedLines(t, "eximo")
	if len(list) < 5 {
		t.Fatalf("the shipped eximo set has %d puzzles; the test needs 5", len(list))
	}
	list = list[:5]
	var b bytes.Buffer
	for i := range list {
		list[i].Rating = 1000 + 200*i
		if i < 2 {
			list[i].Themes = append(list[i].Themes, "first")
		}
		line, _ := json.Marshal(list[i])
		b.Write(append(line, '\n'))
	}
	return list, fstest.MapFS{"eximo.jsonl": {Data: b.Bytes()}}
}

// newTestService is a service over a fresh SQLite store and the five
// set, whose Random always answers r(n).
func newTestService(t *testing.T, r func(n int) int, perHour int) (*Service, store.Store, []puzzle.Puzzle) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	list, sets := fiveSet(t)
	s, err := New(Config{Store: st, Sets: sets, Random: r, AttemptsPerHour: perHour, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return s, st, list
}

func middle(n int) int  { return n / 2 } // no jitter
func lowest(int) int    { return 0 }     // the jitter's lowest
func highest(n int) int { return n - 1 } // the jitter's highest

func newAccount(t *testing.T, st store.Store, name string) string {
	t.Helper()
	if err := st.CreateAccount(context.Background(), store.Account{ID: "id-" + name, Name: name, Password: "x", Created: now}); err != nil {
		t.Fatal(err)
	}
	return "id-" + name
}

// TestBrokenSetsRefused: every kind of broken line stops New, naming
// the file and the line.
func TestBrokenSetsRefused(t *testing.T) {
	good := shippedLines(t, "eximo")[0]
	line := func(edit func(p *puzzle.Puzzle)) string {
		p := good
		p.Solution, p.Themes = append([]string(nil), p.Solution...), append([]string(nil), p.Themes...)
		edit(&p)
		b, _ := json.Marshal(p)
		return string(b)
	}
	ok := line(func(*puzzle.Puzzle) {})
	tests := []struct {
		name, file, data, want string
	}{
		{"unknown game id", "chess.jsonl", ok, "no game"},
		{"not JSON", "eximo.jsonl", "{", "line 1"},
		{"unknown field", "eximo.jsonl", strings.Replace(ok, `{"id"`, `{"extra":1,"id"`, 1), "unknown field"},
		{"another game", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.Game = "pommel" }), "not the set's"},
		{"bad id", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.ID = "Eximo 1" }), "the id"},
		{"bad FEN", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.FEN = "W:Wz99" }), "puzzle"},
		{"illegal move", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.Solution[0] = "a1-a2" }), "solution"},
		{"even solution", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.Solution = append(p.Solution, p.Solution[0]) }), "odd"},
		{"empty solution", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.Solution = nil }), "odd"},
		{"bad theme", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.Themes = []string{"two words"} }), "theme"},
		{"bad rating", "eximo.jsonl", line(func(p *puzzle.Puzzle) { p.Rating = 9000 }), "rating"},
		{"duplicate id", "eximo.jsonl", ok + "\n" + ok, "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Config{Sets: fstest.MapFS{tt.file: {Data: []byte(tt.data)}}})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.file) {
				t.Fatalf("New: %v; want an error naming %s and saying %q", err, tt.file, tt.want)
			}
		})
	}
	if _, err := New(Config{Sets: fstest.MapFS{}}); err == nil {
		t.Fatal("New with no sets: no error")
	}
}

func ptr[T any](x T) *T { return &x }

// TestNextNearestRating: the puzzle nearest the caller's rating moved by
// the jitter; an account gets one it has not attempted.
func TestNextNearestRating(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		random func(int) int
		rating float64
		want   int // the index of the puzzle, rated 1000 + 200·i
	}{
		{middle, 1390, 2},
		{middle, 1510, 3},
		{lowest, 1330, 1},  // 1255: nearer 1200
		{highest, 1330, 2}, // 1405
		{middle, 0, 0},
		{middle, 4000, 4},
	}
	for _, tt := range tests {
		s, _, list := newTestService(t, tt.random, 0)
		p, pl, err := s.Next(ctx, Query{Game: "eximo", Rating: ptr(tt.rating)})
		if err != nil || p.ID != list[tt.want].ID || pl != nil {
			t.Errorf("rating %g: %s (%g), %v, %v; want %s", tt.rating, p.ID, p.Rating, pl, err, list[tt.want].ID)
		}
	}
	s, st, list := newTestService(t, middle, 0)
	ada := newAccount(t, st, "Ada")
	seen := map[string]bool{}
	for range list {
		p, _, err := s.Next(ctx, Query{Game: "eximo", Account: ada, Rating: ptr(0.0)})
		if err != nil || seen[p.ID] {
			t.Fatalf("next for Ada: %s, %v; want one not attempted (attempted %v)", p.ID, err, seen)
		}
		seen[p.ID] = true
		if _, err := s.Attempt(ctx, Attempt{ID: p.ID, Account: ada, Solved: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Next(ctx, Query{Game: "eximo", Account: ada}); err != nil {
		t.Fatalf("next once every puzzle is attempted: %v; want one again", err)
	}
}

// TestNextByIDThemeStreak: a link's id, a theme, and streak mode's
// rising difficulty.
func TestNextByIDThemeStreak(t *testing.T) {
	ctx := context.Background()
	s, _, list := newTestService(t, middle, 0)
	if p, _, err := s.Next(ctx, Query{Game: "eximo", ID: list[3].ID}); err != nil || p.ID != list[3].ID || p.Rating != 1600 || p.RD != PuzzleStartRD {
		t.Fatalf("by id: %+v, %v; want %s at 1600 ± %d", p, err, list[3].ID, PuzzleStartRD)
	}
	if p, _, err := s.Next(ctx, Query{Game: "eximo", Theme: "first", Rating: ptr(4000.0)}); err != nil || p.ID != list[1].ID {
		t.Fatalf("theme first at 4000: %s, %v; want the higher of the two, %s", p.ID, err, list[1].ID)
	}
	for n, want := range []int{0, 1, 2, 3, 4, 4} {
		streak := n * (1 + n/5*100) // 0 … 4, then far past the top
		if p, _, err := s.Next(ctx, Query{Game: "eximo", Streak: ptr(streak)}); err != nil || p.ID != list[want].ID {
			t.Errorf("streak %d: %s, %v; want %s", streak, p.ID, err, list[want].ID)
		}
	}
}

// TestRefusals: each refusal of Next and Attempt, by its code.
func TestRefusals(t *testing.T) {
	ctx := context.Background()
	s, _, list := newTestService(t, middle, 0)
	id := list[0].ID
	nexts := []struct {
		name string
		q    Query
		code Code
	}{
		{"unknown game", Query{Game: "chess"}, NotFound},
		{"a game without a set", Query{Game: "pommel"}, NotFound},
		{"unknown id", Query{Game: "eximo", ID: "eximo-nope"}, NotFound},
		{"unknown theme", Query{Game: "eximo", Theme: "nosuch"}, Invalid},
		{"NaN rating", Query{Game: "eximo", Rating: ptr(math.NaN())}, Invalid},
		{"rating too high", Query{Game: "eximo", Rating: ptr(4000.5)}, Invalid},
		{"negative rating", Query{Game: "eximo", Rating: ptr(-0.5)}, Invalid},
		{"negative streak", Query{Game: "eximo", Streak: ptr(-1)}, Invalid},
		{"streak too long", Query{Game: "eximo", Streak: ptr(MaxStreak + 1)}, Invalid},
	}
	for _, tt := range nexts {
		if _, _, err := s.Next(ctx, tt.q); ErrorCode(err) != tt.code {
			t.Errorf("Next, %s: %v; want %s", tt.name, err, tt.code)
		}
	}
	attempts := []struct {
		name string
		a    Attempt
		code Code
	}{
		{"unknown puzzle", Attempt{ID: strings.Repeat("x", 500)}, NotFound},
		{"unknown mode", Attempt{ID: id, Mode: "blitz"}, Invalid},
		{"NaN rating", Attempt{ID: id, Rating: &Rating{math.NaN(), 100, 0.06}}, Invalid},
		{"infinite rd", Attempt{ID: id, Rating: &Rating{1500, math.Inf(1), 0.06}}, Invalid},
		{"rating too high", Attempt{ID: id, Rating: &Rating{4001, 100, 0.06}}, Invalid},
		{"rd too small", Attempt{ID: id, Rating: &Rating{1500, 29, 0.06}}, Invalid},
		{"rd too large", Attempt{ID: id, Rating: &Rating{1500, 351, 0.06}}, Invalid},
		{"volatility zero", Attempt{ID: id, Rating: &Rating{1500, 100, 0}}, Invalid},
		{"volatility too large", Attempt{ID: id, Rating: &Rating{1500, 100, 0.21}}, Invalid},
		{"no such account", Attempt{ID: id, Account: "id-nobody"}, NotFound},
	}
	for _, tt := range attempts {
		_, err := s.Attempt(ctx, tt.a)
		if ErrorCode(err) != tt.code {
			t.Errorf("Attempt, %s: %v; want %s", tt.name, err, tt.code)
		}
		if len(err.Error()) > 300 {
			t.Errorf("Attempt, %s: a refusal of %d bytes", tt.name, len(err.Error()))
		}
	}
}

// TestAttemptsPerHour: an account's attempts past the hour's bound are
// refused with the wait; another account's are not.
func TestAttemptsPerHour(t *testing.T) {
	ctx := context.Background()
	s, st, list := newTestService(t, middle, 3)
	ada, bob := newAccount(t, st, "Ada"), newAccount(t, st, "Bob")
	for i := range 3 {
		if _, err := s.Attempt(ctx, Attempt{ID: list[i].ID, Account: ada, Solved: true}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Attempt(ctx, Attempt{ID: list[3].ID, Account: ada, Solved: true})
	var e *Error
	if !errors.As(err, &e) || e.Code != TooMany || e.RetryAfter <= 0 {
		t.Fatalf("the 4th attempt in an hour of 3: %v; want %s with a wait", err, TooMany)
	}
	if _, err := s.Attempt(ctx, Attempt{ID: list[3].ID, Account: bob, Solved: true}); err != nil {
		t.Fatalf("another account's attempt: %v", err)
	}
}

// TestAttemptRatesBothWays: a solve raises the player and lowers the
// puzzle, a failure the opposite; a stored rating is the next start.
func TestAttemptRatesBothWays(t *testing.T) {
	ctx := context.Background()
	s, st, list := newTestService(t, middle, 0)
	ada := newAccount(t, st, "Ada")
	won, err := s.Attempt(ctx, Attempt{ID: list[2].ID, Account: ada, Solved: true})
	if err != nil || !won.Rated || won.Rating.Rating <= 1500 || won.PuzzleRating >= 1400 || won.Change != won.Rating.Rating-1500 {
		t.Fatalf("solving a 1400: %+v, %v; want rated, above 1500, the puzzle below 1400", won, err)
	}
	lost, err := s.Attempt(ctx, Attempt{ID: list[3].ID, Account: ada, Solved: false})
	if err != nil || !lost.Rated || lost.Rating.Rating >= won.Rating.Rating || lost.PuzzleRating <= 1600 {
		t.Fatalf("failing a 1600: %+v, %v; want rated, below %g, the puzzle above 1600", lost, err, won.Rating.Rating)
	}
	if lost.RD >= won.RD || won.RD >= 350 {
		t.Fatalf("RDs %g then %g; want each below the one before", won.RD, lost.RD)
	}
	out, _ := s.Attempt(ctx, Attempt{ID: list[4].ID, Solved: true, Rating: &lost.Rating})
	if out.Rated || out.Rating.Rating <= lost.Rating.Rating {
		t.Fatalf("a signed-out solve from %+v: %+v; want unrated, higher", lost.Rating, out)
	}
	if states, _ := st.PuzzleStates(ctx, "eximo"); len(states) != 2 {
		t.Fatalf("stored puzzles: %+v; want the two the account attempted", states)
	}
}

// TestConcurrentAttemptsRateOnce: eight attempts at once by one account
// at one puzzle rate once (run with -race too).
func TestConcurrentAttemptsRateOnce(t *testing.T) {
	ctx := context.Background()
	s, st, list := newTestService(t, middle, 0)
	ada := newAccount(t, st, "Ada")
	results := make([]Result, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			var err error
			if results[i], err = s.Attempt(ctx, Attempt{ID: list[0].ID, Account: ada, Solved: i%2 == 0}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	rated := 0
	for _, r := range results {
		if r.Rated {
			rated++
		}
	}
	if rated != 1 {
		t.Fatalf("%d of 8 concurrent attempts rated; want 1", rated)
	}
}
