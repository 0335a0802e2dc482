package server

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeNow is a server's time that the test moves by hand.
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

// holds reports whether the server holds the game in memory.
func (s *Server) holds(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.entries[id]
	return ok
}

// liveGauge reads arbiter_games_live from /metrics.
func (ts *testServer) liveGauge() string {
	ts.t.Helper()
	_, body := ts.do("GET", "/metrics", "", nil)
	for line := range strings.Lines(string(body)) {
		if v, ok := strings.CutPrefix(line, "arbiter_games_live "); ok {
			return strings.TrimSpace(v)
		}
	}
	ts.t.Fatal("no arbiter_games_live in /metrics")
	return ""
}

// TestIdleGamesLeaveMemoryAndComeBackIntact lets the sweep run every few
// milliseconds while the server's time stands still, then moves the time
// past IdleAfter: the games nothing needs leave memory and come back from
// the store as they were; a game with a viewer, a pending AI turn or a
// running clock stays.
func TestIdleGamesLeaveMemoryAndComeBackIntact(t *testing.T) {
	ft := &fakeNow{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	ts := newTestServer(t, Config{Now: ft.Now, IdleAfter: 20 * time.Millisecond, Workers: 1,
		Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	draw := func(g createResponse, seat int, action string) {
		t.Helper()
		if code, body := ts.do("POST", "/api/games/"+g.ID+"/draw", g.Seats[seat].Token, map[string]string{"action": action}); code != 200 {
			t.Fatalf("draw %s: %d %s", action, code, body)
		}
	}
	// Evicted: an AI game with moves and an offer on the table, a game
	// over with its clocks stopped, a game whose clock waits.
	withAI := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	ts.move(withAI.ID, withAI.Seats[0].Token, ts.game(withAI.ID).Legal[0], 0)
	waitFor(t, 30*time.Second, "the AI's reply", func() bool { return ts.game(withAI.ID).Ply == 2 })
	draw(withAI, 0, "offer")
	ended := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "5m+3s"})
	ts.move(ended.ID, ended.Seats[0].Token, ts.game(ended.ID).Legal[0], 0)
	ft.advance(7 * time.Second)
	ts.move(ended.ID, ended.Seats[1].Token, ts.game(ended.ID).Legal[0], 1)
	ft.advance(2 * time.Second)
	if code, body := ts.do("POST", "/api/games/"+ended.ID+"/resign", ended.Seats[0].Token, nil); code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}
	waiting := ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "human"}, "days": 3})
	// Kept: a game a socket watches, a game whose AI waits for a worker
	// (the test holds the only one), a game whose clock runs.
	watched := ts.twoHumans()
	conn, err := ts.dial(watched.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, conn)
	ts.srv.workers <- struct{}{}
	queued := ts.create(map[string]any{"game": "pommel", "seats": []string{"ai:level=1", "human"}})
	running := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "5m+3s"})
	ts.move(running.ID, running.Seats[0].Token, ts.game(running.ID).Legal[0], 0)

	evicted := []string{withAI.ID, ended.ID, waiting.ID}
	kept := []string{watched.ID, queued.ID, running.ID}
	before := map[string]gameView{}
	for _, id := range evicted {
		before[id] = ts.game(id)
	}
	time.Sleep(50 * time.Millisecond) // sweeps run; the server's time stands still
	for _, id := range append(evicted, kept...) {
		if !ts.srv.holds(id) {
			t.Fatalf("game %s evicted before it was idle", id)
		}
	}
	if got := ts.liveGauge(); got != "5" {
		t.Errorf("arbiter_games_live %s before the sweep, want 5 (every game but the one over)", got)
	}

	ft.advance(time.Minute)
	waitFor(t, 5*time.Second, "the sweep", func() bool {
		return !ts.srv.holds(withAI.ID) && !ts.srv.holds(ended.ID) && !ts.srv.holds(waiting.ID)
	})
	for _, id := range kept {
		if !ts.srv.holds(id) {
			t.Errorf("game %s was evicted: a viewer, a pending AI turn or a running clock keeps it", id)
		}
	}
	if got := ts.liveGauge(); got != "3" {
		t.Errorf("arbiter_games_live %s after the sweep, want 3", got)
	}
	for _, id := range evicted {
		if after := ts.game(id); !reflect.DeepEqual(after, before[id]) {
			t.Errorf("game %s came back changed:\n%+v\n%+v", id, before[id], after)
		}
	}
	if v := ts.game(withAI.ID); v.DrawOffer != 0 || v.Ply != 2 || v.Seats[1].Player != "ai:level=1" {
		t.Errorf("the AI game came back with offer %d, ply %d, seats %+v", v.DrawOffer, v.Ply, v.Seats)
	}
	// White's first move is free (the clock waits for it); Black thought
	// 7s and gained 3s; the resignation stopped the clocks.
	if v := ts.game(ended.ID); v.Clock == nil || !reflect.DeepEqual(v.Clock.LeftMs, []int64{303000, 296000}) || v.Clock.Running {
		t.Errorf("the finished game's clock came back as %+v", v.Clock)
	}

	// The engine seat plays after the reload, and the queued AI turn
	// goes on once the worker is free.
	<-ts.srv.workers
	ts.move(withAI.ID, withAI.Seats[0].Token, ts.game(withAI.ID).Legal[0], 2)
	waitFor(t, 30*time.Second, "the reloaded AI's reply", func() bool { return ts.game(withAI.ID).Ply == 4 })
	waitFor(t, 30*time.Second, "the queued AI's move", func() bool { return ts.game(queued.ID).Ply == 1 })
}

// A request that waited for the lock of a game evicted meanwhile gets a
// fresh entry: one writer per game in a process, never two.
func TestLockAfterEvictionTakesAFreshEntry(t *testing.T) {
	ts := newTestServer(t, Config{})
	g := ts.twoHumans()
	e := ts.srv.lock(g.ID)
	got := make(chan *entry)
	go func() {
		fresh := ts.srv.lock(g.ID)
		fresh.mu.Unlock()
		got <- fresh
	}()
	time.Sleep(20 * time.Millisecond)
	ts.srv.forget(e)
	e.mu.Unlock()
	if fresh := <-got; fresh == e || !ts.srv.holds(g.ID) {
		t.Errorf("the waiting request got the evicted entry (%v), or no entry is held", fresh == e)
	}
	if v := ts.game(g.ID); v.Ply != 0 || len(v.Legal) == 0 {
		t.Errorf("the game after its eviction: %+v", v)
	}
}
