package hall

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// fakeNow is a hall's time that the test moves by hand.
type fakeNow struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeNow) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeNow) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// openStore is a fresh SQLite store in a folder of the test's.
func openStore(t testing.TB) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// newTestHall starts a hall over a fresh store (cfg.Store when given).
func newTestHall(t testing.TB, cfg Config) *Hall {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = openStore(t)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// create makes a game and fails the test on a refusal.
func create(t *testing.T, h *Hall, req NewGame) Created {
	t.Helper()
	c, err := h.Create(t.Context(), req)
	if err != nil {
		t.Fatalf("create %+v: %v", req, err)
	}
	return c
}

// get reads a game and fails the test on an error.
func get(t *testing.T, h *Hall, id string) View {
	t.Helper()
	v, err := h.Get(t.Context(), id)
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	return v
}

// playFirst plays the first legal move of the seat to move.
func playFirst(t *testing.T, h *Hall, c Created, seat int) View {
	t.Helper()
	v := get(t, h, c.ID)
	token := ""
	for _, inv := range c.Seats {
		if inv.Seat == seat {
			token = inv.Token
		}
	}
	after, err := h.Move(t.Context(), c.ID, Who{Token: token}, v.Legal[0], v.Ply)
	if err != nil {
		t.Fatalf("move %s at ply %d: %v", v.Legal[0], v.Ply, err)
	}
	return after
}

// waitFor polls until ok holds, failing after limit.
func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// holds reports whether the hall holds the game in memory.
func (h *Hall) holds(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.entries[id]
	return ok
}

func humans(game string) NewGame {
	return NewGame{Game: game, Seats: []string{"human", "human"}}
}

// TestIdleGamesLeaveMemoryAndComeBackIntact lets the sweep run every few
// milliseconds while the hall's time stands still, then moves the time
// past IdleAfter: the games nothing needs leave memory and come back from
// the store as they were; a game with a watcher, a pending AI turn or a
// running clock stays.
func TestIdleGamesLeaveMemoryAndComeBackIntact(t *testing.T) {
	ft := &fakeNow{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	h := newTestHall(t, Config{Now: ft.Now, IdleAfter: 20 * time.Millisecond, Workers: 1})
	ctx := t.Context()
	// Evicted: an AI game with moves and an offer on the table, a game
	// over with its clocks stopped, a game whose clock waits for its
	// first move (days).
	withAI := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "ai:level=1"}})
	playFirst(t, h, withAI, 0)
	waitFor(t, 30*time.Second, "the AI's reply", func() bool { return get(t, h, withAI.ID).Ply == 2 })
	if _, err := h.Draw(ctx, withAI.ID, Who{Token: withAI.Seats[0].Token}, Offer); err != nil {
		t.Fatal(err)
	}
	ended := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "human"}, Clock: "5m+3s"})
	playFirst(t, h, ended, 0)
	ft.advance(7 * time.Second)
	playFirst(t, h, ended, 1)
	ft.advance(2 * time.Second)
	if _, err := h.Resign(ctx, ended.ID, Who{Token: ended.Seats[0].Token}); err != nil {
		t.Fatal(err)
	}
	waiting := create(t, h, NewGame{Game: "eximo", Seats: []string{"human", "human"}, Days: 3})
	// An offer on the table between people (the AI answers one at once).
	if _, err := h.Draw(ctx, waiting.ID, Who{Token: waiting.Seats[0].Token}, Offer); err != nil {
		t.Fatal(err)
	}
	// Kept: a game watched, a game whose AI waits for a worker (the test
	// holds the only one), a game whose clock runs.
	watched := create(t, h, humans("pommel"))
	w, _, err := h.Watch(ctx, watched.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Stop(w)
	release, err := h.queue.acquire(ctx, Foreground)
	if err != nil {
		t.Fatal(err)
	}
	queued := create(t, h, NewGame{Game: "pommel", Seats: []string{"ai:level=1", "human"}})
	running := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "human"}, Clock: "5m+3s"})
	playFirst(t, h, running, 0)

	evicted := []string{withAI.ID, ended.ID, waiting.ID}
	kept := []string{watched.ID, queued.ID, running.ID}
	before := map[string]View{}
	for _, id := range evicted {
		before[id] = get(t, h, id)
	}
	time.Sleep(50 * time.Millisecond) // sweeps run; the hall's time stands still
	for _, id := range append(evicted, kept...) {
		if !h.holds(id) {
			t.Fatalf("game %s evicted before it was idle", id)
		}
	}
	if live := h.Stats().Live; live != 5 {
		t.Errorf("%d live games before the sweep, want 5 (every game but the one over)", live)
	}

	ft.advance(time.Minute)
	waitFor(t, 5*time.Second, "the sweep", func() bool {
		return !h.holds(withAI.ID) && !h.holds(ended.ID) && !h.holds(waiting.ID)
	})
	for _, id := range kept {
		if !h.holds(id) {
			t.Errorf("game %s was evicted: a watcher, a pending AI turn or a running clock keeps it", id)
		}
	}
	if live := h.Stats().Live; live != 3 {
		t.Errorf("%d live games after the sweep, want 3", live)
	}
	for _, id := range evicted {
		if after := get(t, h, id); !reflect.DeepEqual(after, before[id]) {
			t.Errorf("game %s came back changed:\n%+v\n%+v", id, before[id], after)
		}
	}
	if v := get(t, h, withAI.ID); v.DrawOffer != -1 || v.Ply != 2 || v.Seats[1].Player != "ai:level=1" {
		t.Errorf("the AI game came back with offer %d (the AI declined it), ply %d, seats %+v", v.DrawOffer, v.Ply, v.Seats)
	}
	if v := get(t, h, waiting.ID); v.DrawOffer != 0 {
		t.Errorf("the game between people came back with offer %d, want White's", v.DrawOffer)
	}
	// White's first move is free (the clock waits for it); Black thought
	// 7s and gained 3s; the resignation stopped the clocks.
	if v := get(t, h, ended.ID); v.Clock == nil || !reflect.DeepEqual(v.Clock.LeftMs, []int64{303000, 296000}) || v.Clock.Running {
		t.Errorf("the finished game's clock came back as %+v", v.Clock)
	}

	// The engine seat plays after the reload, and the queued AI turn
	// goes on once the worker is free.
	release()
	playFirst(t, h, withAI, 0)
	waitFor(t, 30*time.Second, "the reloaded AI's reply", func() bool { return get(t, h, withAI.ID).Ply == 4 })
	waitFor(t, 30*time.Second, "the queued AI's move", func() bool { return get(t, h, queued.ID).Ply == 1 })
}

// A request that waited for the lock of a game evicted meanwhile gets a
// fresh entry: one writer per game in a process, never two.
func TestLockAfterEvictionTakesAFreshEntry(t *testing.T) {
	h := newTestHall(t, Config{})
	g := create(t, h, humans("pommel"))
	e := h.lock(g.ID)
	got := make(chan *entry)
	go func() {
		fresh := h.lock(g.ID)
		fresh.mu.Unlock()
		got <- fresh
	}()
	time.Sleep(20 * time.Millisecond)
	h.forget(e)
	e.mu.Unlock()
	if fresh := <-got; fresh == e || !h.holds(g.ID) {
		t.Errorf("the waiting request got the evicted entry (%v), or no entry is held", fresh == e)
	}
	if v := get(t, h, g.ID); v.Ply != 0 || len(v.Legal) == 0 {
		t.Errorf("the game after its eviction: %+v", v)
	}
}

// TestAStoredSpecTheServerNowRefusesIsNotMade: a game stored with an
// engine the server no longer makes (a table of a GiB) is marked, and its
// engine never made.
func TestAStoredSpecTheServerNowRefusesIsNotMade(t *testing.T) {
	st := openStore(t)
	now := time.Now()
	h := store.Header{ID: "huge", Game: "pommel", Options: map[string]string{}, Version: 1, DrawOffer: -1,
		Seats: []store.Seat{{Player: "ab:tt=26"}, {Player: "human"}}, Created: now, Updated: now}
	if err := st.Create(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	hall := newTestHall(t, Config{Store: st})
	waitFor(t, 10*time.Second, "the mark", func() bool { return get(t, hall, "huge").Attention != "" })
	if st := hall.Stats(); st.EngineBytes != 0 || st.AIFailures != 1 {
		t.Errorf("engine bytes %d, AI failures %d; want 0 and 1", st.EngineBytes, st.AIFailures)
	}
}

// TestGamesOfEnginesOnlyArePaced: a game with no person in it moves no
// faster than the pace, however quick its engines.
func TestGamesOfEnginesOnlyArePaced(t *testing.T) {
	h := newTestHall(t, Config{AIGamePace: 150 * time.Millisecond})
	start := time.Now()
	g := create(t, h, NewGame{Game: "pommel", Options: map[string]string{"maxplies": "6"}, Seats: []string{"ai:level=1", "ai:level=1"}})
	waitFor(t, 30*time.Second, "the game's end", func() bool { return get(t, h, g.ID).Result != nil })
	if took := time.Since(start); took < 5*150*time.Millisecond {
		t.Errorf("six plies in %s at one move per 150ms", took)
	}
}

// TestCommittedHook: the hall tells Config.Committed of every move and
// resignation it stores, with the seat, the ply after it and whether it
// ended the game; a panicking hook costs nothing but a log line.
func TestCommittedHook(t *testing.T) {
	got := make(chan Committed, 8)
	h := newTestHall(t, Config{Committed: func(_ context.Context, c Committed) {
		got <- c
		if c.Resigned {
			panic("a hook that fails")
		}
	}})
	c := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "human"}})
	v := get(t, h, c.ID)
	if _, err := h.Move(t.Context(), c.ID, Who{Token: c.Seats[0].Token}, v.Legal[0], 0); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Draw(t.Context(), c.ID, Who{Token: c.Seats[0].Token}, Offer); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Resign(t.Context(), c.ID, Who{Token: c.Seats[1].Token}); err != nil {
		t.Fatal(err)
	}
	want := []Committed{{Game: c.ID, Seat: 0, Ply: 1}, {Game: c.ID, Resigned: true, Seat: 1, Ply: 1, Over: true}}
	for i, w := range want {
		select {
		case c := <-got:
			if c != w {
				t.Errorf("commit %d: %+v, want %+v", i, c, w)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("commit %d not told", i)
		}
	}
	select {
	case c := <-got:
		t.Errorf("told of %+v too: a draw offer is neither a move nor a resignation", c)
	default:
	}
	if v := get(t, h, c.ID); v.Result == nil {
		t.Error("the game did not end")
	}
}
