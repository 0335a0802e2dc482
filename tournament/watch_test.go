package tournament

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// newWatched is a service over a fresh SQLite store with a hall, its
// watches polling every 10 ms, at most max of them; and the store, for a
// second service sharing it.
func newWatched(t *testing.T, max int) (*Service, store.Store, *hall.Hall) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := hall.New(hall.Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return New(Config{Store: st, Hall: h, WatchPoll: 10 * time.Millisecond, MaxWatches: max}), st, h
}

// addPlayer stores an account named name, whose id is "id"+name.
func addPlayer(t *testing.T, st store.Store, name string) string {
	t.Helper()
	a := store.Account{ID: "id" + name, Name: name, Kind: store.Person, Created: time.Now()}
	if err := st.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// newArena is ann's arena of Pommel, started by hand.
func newArena(t *testing.T, s *Service, st store.Store) (id, ann string) {
	t.Helper()
	ann = addPlayer(t, st, "ann")
	id, err := s.Create(context.Background(), ann, Request{Kind: Arena, Game: "pommel", Clock: &Clock{Initial: 60}, Minutes: 10})
	if err != nil {
		t.Fatal(err)
	}
	return id, ann
}

// nextView waits for the watch's next view, failing after a generous
// deadline (a busy machine is slow, never wrong).
func nextView(t *testing.T, w *Watch, what string) View {
	t.Helper()
	select {
	case v := <-w.Views():
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("no view after %s", what)
	}
	return View{}
}

// A change reaches the watch, made through the service (which reads the
// tournament at once) or by another process sharing the store (read at
// the next poll); a read that finds nothing new sends nothing.
func TestWatchDelivers(t *testing.T) {
	s, st, h := newWatched(t, 0)
	id, ann := newArena(t, s, st)
	ctx := context.Background()
	w, first, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Unwatch(w)
	if first.ID != id || len(first.Standings) != 0 {
		t.Fatalf("the first view: %+v", first)
	}
	if err := s.Join(ctx, id, ann); err != nil {
		t.Fatal(err)
	}
	if v := nextView(t, w, "ann joined here"); len(v.Standings) != 1 || v.Standings[0].Name != "ann" {
		t.Fatalf("after ann joined: %+v", v.Standings)
	}
	other := New(Config{Store: st, Hall: h})
	bob := addPlayer(t, st, "bob")
	if err := other.Join(ctx, id, bob); err != nil {
		t.Fatal(err)
	}
	if v := nextView(t, w, "bob joined on another server"); len(v.Standings) != 2 {
		t.Fatalf("after bob joined elsewhere: %+v", v.Standings)
	}
	// Nothing changes: ten polls send nothing.
	select {
	case v := <-w.Views():
		t.Fatalf("a view with nothing changed: %+v", v.Standings)
	case <-time.After(100 * time.Millisecond):
	}
}

// An unknown tournament is refused NotFound, and a watch over the
// service's bound TooMany; one closed makes room again.
func TestWatchRefusals(t *testing.T) {
	s, st, _ := newWatched(t, 2)
	id, _ := newArena(t, s, st)
	ctx := context.Background()
	if _, _, err := s.Watch(ctx, "nope"); codeOf(err) != NotFound {
		t.Fatalf("watching no tournament: %v, want not_found", err)
	}
	a, _, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Unwatch(b)
	if _, _, err := s.Watch(ctx, id); codeOf(err) != TooMany {
		t.Fatalf("a third watch of two allowed: %v, want too_many_tournaments", err)
	}
	s.Unwatch(a)
	s.Unwatch(a) // twice is harmless: it frees one place, once
	c, _, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatalf("a watch after one closed: %v", err)
	}
	defer s.Unwatch(c)
	if _, _, err := s.Watch(ctx, id); codeOf(err) != TooMany {
		t.Fatalf("a third watch after one was closed twice: %v, want too_many_tournaments", err)
	}
}

// The watches of one tournament share one watcher, which stops with the
// last of them.
func TestWatcherStopsWithItsLastWatch(t *testing.T) {
	s, st, _ := newWatched(t, 0)
	id, _ := newArena(t, s, st)
	ctx := context.Background()
	a, _, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.watching(); n != 1 {
		t.Fatalf("two watches of one tournament: %d watchers, want 1", n)
	}
	w := a.w
	s.Unwatch(a)
	if n := s.watching(); n != 1 {
		t.Fatalf("one watch left: %d watchers, want 1", n)
	}
	s.Unwatch(b)
	if n := s.watching(); n != 0 {
		t.Fatalf("no watch left: %d watchers, want 0", n)
	}
	select {
	case <-w.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the watcher still runs after its last watch ended")
	}
	// A new watch starts a new watcher.
	c, _, err := s.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Unwatch(c)
	if c.w == w || s.watching() != 1 {
		t.Fatal("a watch after the watcher stopped did not start another")
	}
}

// codeOf is the code of err, "" for one that is no refusal.
func codeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
