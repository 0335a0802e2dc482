package watch

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/depstest"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// TestWatchKnowsNoHTTP: the choice is a service any transport asks.
func TestWatchKnowsNoHTTP(t *testing.T) { depstest.NoHTTP(t) }

// TestWatchTagsNoWire: the wire's shapes are the server's.
func TestWatchTagsNoWire(t *testing.T) { depstest.NoStructTags(t) }

var base = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// ratings are the accounts of the tests, by name, with their ratings in
// pommel (0: none, a new player's start). "Lev" holds an AI level's seat,
// "Zed" a bot's.
var ratings = map[string]float64{"Ada": 2300, "Bea": 2100, "Cas": 1900, "Dan": 1300, "Eve": 1200, "Fay": 1700, "Gus": 0, "Lev": 2400, "Zed": 2000}

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	for name, r := range ratings {
		if err := s.CreateAccount(ctx, store.Account{ID: "id-" + name, Name: name, Created: base}); err != nil {
			t.Fatal(err)
		}
		if r == 0 {
			continue
		}
		if err := s.SetRating(ctx, "id-"+name, store.Rating{Game: "pommel", Rating: r, RD: 80, Volatility: 0.06, Updated: base}); err != nil {
			t.Fatal(err)
		}
	}
	tr := store.Tournament{ID: "cup", Creator: "id-Ada", Name: "Spring Cup", Kind: "arena", Game: "pommel", Options: map[string]string{},
		Clock: &timecontrol.Control{Base: 3 * time.Minute}, Minutes: 30, Created: base}
	if err := s.CreateTournament(ctx, tr, 10); err != nil {
		t.Fatal(err)
	}
	if err := s.StartTournament(ctx, "cup", base); err != nil {
		t.Fatal(err)
	}
	return s
}

// game is one game of a case: its seats' account names ("" for an
// anonymous seat, "Lev" for an AI level's), its clock ("fischer",
// "days" or "none"), minutes after base it was created, and whether it
// ended or is a board of the running tournament.
type game struct {
	id         string
	seats      []string
	clock      string
	minute     int
	ended, cup bool
}

func (g game) header() store.Header {
	h := store.Header{ID: g.id, Game: "pommel", Options: map[string]string{}, Ply: 0, Version: 1, DrawOffer: -1,
		Created: base.Add(time.Duration(g.minute) * time.Minute), Updated: base}
	for _, name := range g.seats {
		seat := store.Seat{Player: "human", Name: name, TokenHash: []byte(g.id + name)}
		switch name {
		case "":
			seat.Name = "someone"
		case "Lev":
			seat = store.Seat{Player: "ai:level=6", Account: "id-Lev"}
		case "Zed":
			seat.Account, seat.Bot = "id-Zed", true
		default:
			seat.Account = "id-" + name
		}
		h.Seats = append(h.Seats, seat)
	}
	left := []time.Duration{3 * time.Minute, 3 * time.Minute}
	switch g.clock {
	case "fischer":
		h.Clock = &store.Clock{Control: timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second}, Left: left}
	case "days":
		h.Clock = &store.Clock{Control: timecontrol.Control{PerMove: 24 * time.Hour}, Left: left}
	}
	return h
}

// put stores the games of a case, the tournament's boards paired in one
// wave.
func put(t *testing.T, s *sqlite.Store, games []game) {
	t.Helper()
	ctx := context.Background()
	var boards []store.TournamentGame
	for _, g := range games {
		h := g.header()
		if err := s.Create(ctx, h); err != nil {
			t.Fatalf("Create(%s): %v", g.id, err)
		}
		if g.ended {
			h.Version, h.Result, h.Updated = 2, &store.Result{Winners: []int{0}, Reason: "resignation"}, base.Add(time.Hour)
			if err := s.Update(ctx, h); err != nil {
				t.Fatal(err)
			}
		}
		if g.cup {
			var seats []string
			for _, seat := range h.Seats {
				seats = append(seats, seat.Account)
			}
			boards = append(boards, store.TournamentGame{Tournament: "cup", Board: len(boards) + 1, Game: g.id, Seats: seats,
				Berserk: make([]bool, len(seats)), Places: []int{}, Created: base})
		}
	}
	if len(boards) > 0 {
		if err := s.PairTournament(ctx, "cup", 1, boards, true); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTopChoice: the top game over a real store, one case a rule.
func TestTopChoice(t *testing.T) {
	tests := []struct {
		name  string
		games []game
		want  string // "" for none
	}{
		{"nothing in play", nil, ""},
		{"the higher mean rating", []game{
			{id: "mid", seats: []string{"Fay", "Gus"}, clock: "fischer"},  // 1600
			{id: "high", seats: []string{"Bea", "Cas"}, clock: "fischer"}, // 2000
			{id: "low", seats: []string{"Dan", "Eve"}, clock: "fischer"},  // 1250
		}, "high"},
		{"a tournament's game beats a higher-rated casual one", []game{
			{id: "casual", seats: []string{"Ada", "Bea"}, clock: "fischer", minute: 5},
			{id: "cup", seats: []string{"Dan", "Eve"}, clock: "fischer", cup: true},
		}, "cup"},
		{"anonymous seats are left out", []game{
			{id: "anon", seats: []string{"Ada", ""}, clock: "fischer"},
			{id: "people", seats: []string{"Dan", "Eve"}, clock: "fischer"},
		}, "people"},
		{"an AI level's seat is left out", []game{
			{id: "level", seats: []string{"Ada", "Lev"}, clock: "fischer"},
			{id: "people", seats: []string{"Dan", "Eve"}, clock: "fischer"},
		}, "people"},
		{"a bot's seat is shown", []game{
			{id: "bot", seats: []string{"Ada", "Zed"}, clock: "fischer"},
			{id: "people", seats: []string{"Dan", "Eve"}, clock: "fischer"},
		}, "bot"},
		{"correspondence is left out", []game{
			{id: "days", seats: []string{"Ada", "Bea"}, clock: "days", cup: true},
			{id: "fischer", seats: []string{"Dan", "Eve"}, clock: "fischer"},
		}, "fischer"},
		{"untimed games are left out", []game{
			{id: "untimed", seats: []string{"Ada", "Bea"}, clock: "none"},
			{id: "fischer", seats: []string{"Dan", "Eve"}, clock: "fischer"},
		}, "fischer"},
		{"ended games are left out", []game{
			{id: "over", seats: []string{"Ada", "Bea"}, clock: "fischer", ended: true, cup: true},
			{id: "on", seats: []string{"Dan", "Eve"}, clock: "fischer"},
		}, "on"},
		{"equal means go to the newer game", []game{
			{id: "older", seats: []string{"Fay", "Gus"}, clock: "fischer", minute: 1},
			{id: "newer", seats: []string{"Gus", "Fay"}, clock: "fischer", minute: 2},
			{id: "oldest", seats: []string{"Fay", "Gus"}, clock: "fischer"},
		}, "newer"},
		{"nothing that may be shown", []game{
			{id: "anon", seats: []string{"", ""}, clock: "fischer"},
			{id: "days", seats: []string{"Ada", "Bea"}, clock: "days"},
			{id: "over", seats: []string{"Ada", "Bea"}, clock: "fischer", ended: true},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t)
			put(t, s, tt.games)
			top, err := New(Config{Store: s}).Top(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if top != nil {
				got = top.ID
			}
			if got != tt.want {
				t.Fatalf("top game %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTopShows: the top game says its players, their ratings (a new
// player's start for none) and its tournament.
func TestTopShows(t *testing.T) {
	s := openStore(t)
	put(t, s, []game{{id: "g1", seats: []string{"Fay", "Gus"}, clock: "fischer", cup: true}})
	top, err := New(Config{Store: s}).Top(context.Background())
	if err != nil || top == nil {
		t.Fatalf("Top = %v, %v", top, err)
	}
	want := Game{ID: "g1", Game: "pommel", Seats: []Seat{{"Fay", 1700}, {"Gus", 1500}}, Tournament: &Tournament{ID: "cup", Name: "Spring Cup"}}
	if top.ID != want.ID || top.Game != want.Game || len(top.Seats) != 2 || top.Seats[0] != want.Seats[0] || top.Seats[1] != want.Seats[1] ||
		top.Tournament == nil || *top.Tournament != *want.Tournament {
		t.Fatalf("Top = %+v (tournament %+v), want %+v", top, top.Tournament, want)
	}
}

// counting counts the store's TopGames calls; while gate is not nil each
// waits for it, and fail makes the next one fail.
type counting struct {
	store.Live
	calls atomic.Int32
	gate  chan struct{}
	fail  atomic.Bool
}

func (c *counting) TopGames(ctx context.Context, limit int) ([]store.LiveGame, error) {
	c.calls.Add(1)
	if c.gate != nil {
		<-c.gate
	}
	if c.fail.CompareAndSwap(true, false) {
		return nil, errors.New("the database is down")
	}
	return c.Live.TopGames(ctx, limit)
}

// clock is a test's time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestTopCache: many callers at once cost one query, and so does every
// call within the second after it; then the store is asked again and a
// new game shows. A failure is not kept.
func TestTopCache(t *testing.T) {
	s := openStore(t)
	put(t, s, []game{{id: "first", seats: []string{"Dan", "Eve"}, clock: "fischer"}})
	c := &counting{Live: s, gate: make(chan struct{})}
	now := &clock{now: base}
	w := New(Config{Store: c, Now: now.Now})
	const callers = 50
	tops := make([]*Game, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { tops[i], errs[i] = w.Top(context.Background()) })
	}
	// A caller that leaves does not end the query the others wait for.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Top(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a caller gone: %v", err)
	}
	close(c.gate)
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || tops[i] == nil || tops[i].ID != "first" {
			t.Fatalf("caller %d: %v %v", i, tops[i], errs[i])
		}
	}
	if n := c.calls.Load(); n != 1 {
		t.Fatalf("%d callers at once made %d queries, want 1", callers, n)
	}
	put(t, s, []game{{id: "second", seats: []string{"Ada", "Bea"}, clock: "fischer"}})
	now.add(DefaultFresh - time.Millisecond)
	if top, _ := w.Top(context.Background()); top.ID != "first" || c.calls.Load() != 1 {
		t.Fatalf("within the second: %s after %d queries, want first after 1", top.ID, c.calls.Load())
	}
	now.add(time.Millisecond)
	if top, _ := w.Top(context.Background()); top.ID != "second" || c.calls.Load() != 2 {
		t.Fatalf("a second later: %s after %d queries, want second after 2", top.ID, c.calls.Load())
	}
	now.add(DefaultFresh)
	c.fail.Store(true)
	if _, err := w.Top(context.Background()); err == nil {
		t.Fatal("the store's failure was not said")
	}
	if top, err := w.Top(context.Background()); err != nil || top.ID != "second" || c.calls.Load() != 4 {
		t.Fatalf("after a failure: %v %v after %d queries, want second after 4", top, err, c.calls.Load())
	}
}
