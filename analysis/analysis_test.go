package analysis

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// fakeNow is a service's time that the test moves by hand.
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

func newService(t *testing.T, cfg Config) *Service {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// code is the refusal code of err, "" for none.
func code(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return "not a refusal: " + Code(err.Error())
	}
	return ""
}

// TestConfigRefused: every field out of range is refused, naming it.
func TestConfigRefused(t *testing.T) {
	for _, cfg := range []Config{
		{Workers: -1}, {Threads: -1}, {Threads: 65}, {Workers: 2, Threads: 3}, {Waiting: -1},
		{Wait: -time.Second}, {Burst: -time.Second}, {Share: -0.5}, {Share: 1e9},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// TestBudgetPerClient: a client is charged each search's time, refused
// with the wait that would suffice once it has too little left, and
// earns its share again as time goes; another client is not affected;
// a client named by several keys (an address and an account) is charged
// on each, so a second address of the account is refused too.
func TestBudgetPerClient(t *testing.T) {
	ft := &fakeNow{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	s := newService(t, Config{Workers: 4, Share: 0.25, Burst: 10 * time.Second, Now: ft.Now})
	admit := func(cost time.Duration, keys ...string) error {
		tk, err := s.Admit(t.Context(), cost, keys...)
		if err == nil {
			tk.Release()
		}
		return err
	}
	for i := range 2 {
		if err := admit(5*time.Second, "addr:a", "account:x"); err != nil {
			t.Fatalf("search %d within the burst: %v", i, err)
		}
	}
	err := admit(time.Second, "addr:a")
	var e *Error
	if !errors.As(err, &e) || e.Code != RateLimited || e.RetryAfter != 4*time.Second {
		t.Fatalf("a search past the budget: %v, want rate_limited after 4s", err)
	}
	if got := code(admit(time.Second, "addr:b", "account:x")); got != RateLimited {
		t.Errorf("the account from another address: %q, want rate_limited", got)
	}
	if err := admit(5*time.Second, "addr:b"); err != nil {
		t.Errorf("another client: %v", err)
	}
	ft.advance(4 * time.Second)
	if err := admit(time.Second, "addr:a"); err != nil {
		t.Errorf("after the wait it was told: %v", err)
	}
}

// TestOneSearchPerClient: a key with a search admitted and not released
// is refused another until the first is released.
func TestOneSearchPerClient(t *testing.T) {
	s := newService(t, Config{Workers: 4})
	first, err := s.Admit(t.Context(), time.Second, "addr:a")
	if err != nil {
		t.Fatal(err)
	}
	if got := code(func() error { _, err := s.Admit(t.Context(), time.Second, "addr:a"); return err }()); got != RateLimited {
		t.Errorf("a second search at once: %q, want rate_limited", got)
	}
	first.Release()
	first.Release() // twice is once
	second, err := s.Admit(t.Context(), time.Second, "addr:a")
	if err != nil {
		t.Fatalf("after the first ended: %v", err)
	}
	second.Release()
}

// TestWaitingBounded: with every worker taken, searches wait up to the
// bound, one more is refused Busy at once, a wait that runs out is Busy,
// and a waiter gets the worker its turn comes.
func TestWaitingBounded(t *testing.T) {
	s := newService(t, Config{Workers: 1, Waiting: 1, Wait: time.Hour})
	holder, err := s.Admit(t.Context(), time.Second, "addr:holder")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		tk, err := s.Admit(context.Background(), time.Second, "addr:waiter")
		if err == nil {
			tk.Release()
		}
		got <- err
	}()
	for waiting, _ := s.Load(); waiting == 0; waiting, _ = s.Load() {
		time.Sleep(time.Millisecond)
	}
	if c := code(func() error { _, err := s.Admit(t.Context(), time.Second, "addr:third"); return err }()); c != Busy {
		t.Errorf("one over the waiting bound: %q, want busy", c)
	}
	holder.Release()
	if err := <-got; err != nil {
		t.Errorf("the waiter: %v", err)
	}
	short := newService(t, Config{Workers: 1, Wait: 20 * time.Millisecond})
	hold, _ := short.Admit(t.Context(), time.Second, "addr:holder")
	defer hold.Release()
	if c := code(func() error { _, err := short.Admit(t.Context(), time.Second, "addr:late"); return err }()); c != Busy {
		t.Errorf("a wait that ran out: %q, want busy", c)
	}
	short.Close()
	if c := code(func() error { _, err := short.Admit(t.Context(), time.Second, "addr:after"); return err }()); c != ShuttingDown {
		t.Errorf("after Close: %q, want shutting_down", c)
	}
}

// TestExtraThreadsFromFreeWorkers: a search takes extra threads only from
// workers free now, none for several lines, and gives them back.
func TestExtraThreadsFromFreeWorkers(t *testing.T) {
	tests := []struct {
		name                      string
		workers, threads, holding int
		lines, want               int
	}{
		{"default", 4, 0, 0, 1, 1},
		{"all it asks", 4, 3, 0, 1, 3},
		{"the free ones", 4, 4, 2, 1, 2},
		{"none free", 2, 2, 1, 1, 1},
		{"several lines", 4, 3, 0, 3, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newService(t, Config{Workers: tc.workers, Threads: tc.threads})
			for i := range tc.holding {
				tk, err := s.Admit(t.Context(), time.Second, "addr:holder"+string(rune('a'+i)))
				if err != nil {
					t.Fatal(err)
				}
				defer tk.Release()
			}
			tk, err := s.Admit(t.Context(), time.Second, "addr:me")
			if err != nil {
				t.Fatal(err)
			}
			got, release := tk.threads(tc.lines)
			if got != tc.want {
				t.Errorf("%d threads, want %d", got, tc.want)
			}
			release()
			tk.Release()
			if _, running := s.Load(); running != tc.holding {
				t.Errorf("%d running after the search, want %d", running, tc.holding)
			}
		})
	}
}

// TestClientTableBounded: past its bound the table forgets the client
// seen longest ago, never one with a search running.
func TestClientTableBounded(t *testing.T) {
	b := newBudgets(1, time.Minute, time.Now)
	b.limit = 3
	busy, err := b.enter(time.Second, []string{"busy"})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"a", "b", "c", "d", "e"} {
		leave, err := b.enter(time.Second, []string{key})
		if err != nil {
			t.Fatal(err)
		}
		leave()
	}
	if n := b.size(); n != 3 {
		t.Errorf("%d clients kept, want the bound 3", n)
	}
	b.mu.Lock()
	_, kept := b.byKey["busy"]
	_, newest := b.byKey["e"]
	_, oldest := b.byKey["a"]
	b.mu.Unlock()
	if !kept || !newest || oldest {
		t.Errorf("busy kept %v, newest kept %v, oldest kept %v: want true, true, false", kept, newest, oldest)
	}
	busy()
}

// TestSearch: a ticket's search answers a legal move of the position.
func TestSearch(t *testing.T) {
	s := newService(t, Config{})
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start()
	tk, err := s.Admit(t.Context(), 100*time.Millisecond, "addr:a")
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Release()
	best, err := tk.Search(t.Context(), st, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	legal := slices.Contains(game.MoveTexts(st), best.Move)
	if !legal || best.Depth < 1 || len(best.Lines) != 1 || best.Lines[0].Move != best.Move || best.ScoreText == "" {
		t.Errorf("search %+v: want a legal move, listed as the one line", best)
	}
}
