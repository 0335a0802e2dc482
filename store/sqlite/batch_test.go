package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// header is a two-seat game at its start.
func header(id string) store.Header {
	return store.Header{ID: id, Game: "pommel", Seats: []store.Seat{{Player: "human"}, {Player: "human"}}, Version: 1, DrawOffer: -1}
}

// game creates a game at its start and gives its header.
func game(t *testing.T, s *Store, id string) store.Header {
	t.Helper()
	h := header(id)
	if err := s.Create(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	return h
}

// after is h after one more move.
func after(h store.Header) store.Header {
	h.Ply++
	h.Version++
	return h
}

// plug holds the writer goroutine inside a batch of its own (a write that
// waits), so that the writes submitted meanwhile queue up and go together
// into the next batch. release lets the plug's batch commit.
func plug(t *testing.T, s *Store) (release func()) {
	t.Helper()
	started, unblock, answered := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		answered <- s.submit(context.Background(), &write{apply: func(context.Context, conn) error {
			close(started)
			<-unblock
			return nil
		}})
	}()
	<-started
	var once sync.Once
	release = func() {
		once.Do(func() {
			close(unblock)
			if err := <-answered; err != nil {
				t.Errorf("the plug's write: %v", err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// waitQueued waits until n writes wait in the writer's queue.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(s.queue) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued after 5 s, want %d", len(s.queue), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// queue submits each call in turn from a goroutine of its own, each once
// the one before is queued (so their order in the batch is theirs), and
// gives a function that waits for and returns their answers.
func queue(t *testing.T, s *Store, calls ...func() error) (answers func() []error) {
	t.Helper()
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Go(func() { errs[i] = call() })
		waitQueued(t, s, i+1)
	}
	return func() []error {
		wg.Wait()
		return errs
	}
}

func mustGet(t *testing.T, s *Store, id string) store.Game {
	t.Helper()
	g, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return g
}

func TestManyGamesAtOnceAllStoredInOrder(t *testing.T) {
	s := open(t, t.TempDir())
	const games, moves = 32, 25
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, games)
	for i := range games {
		wg.Go(func() {
			h := header(fmt.Sprintf("g%d", i))
			if errs[i] = s.Create(ctx, h); errs[i] != nil {
				return
			}
			for ply := range moves {
				h = after(h)
				m := store.Move{Ply: ply, Text: fmt.Sprintf("m%d-%d", i, ply)}
				if errs[i] = s.AddMove(ctx, m, h); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range games {
		if errs[i] != nil {
			t.Fatalf("game %d: %v", i, errs[i])
		}
		g := mustGet(t, s, fmt.Sprintf("g%d", i))
		if g.Ply != moves || g.Version != moves+1 || len(g.Moves) != moves {
			t.Fatalf("game %d: ply %d, version %d, %d moves; want %d, %d, %d", i, g.Ply, g.Version, len(g.Moves), moves, moves+1, moves)
		}
		for ply, m := range g.Moves {
			if want := fmt.Sprintf("m%d-%d", i, ply); m.Ply != ply || m.Text != want {
				t.Fatalf("game %d, move %d: %d %q, want %d %q", i, ply, m.Ply, m.Text, ply, want)
			}
		}
	}
}

func TestMovesRacedInOneBatchStoreOne(t *testing.T) {
	s := open(t, t.TempDir())
	h := game(t, s, "g")
	release := plug(t, s)
	const n = 10
	calls := make([]func() error, n)
	for i := range calls {
		m := store.Move{Ply: 0, Text: fmt.Sprintf("move-%d", i)}
		calls[i] = func() error { return s.AddMove(context.Background(), m, after(h)) }
	}
	answers := queue(t, s, calls...)
	release()
	winner := -1
	for i, err := range answers() {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("moves %d and %d were both stored for ply 0", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("move %d: %v, want %v", i, err, store.ErrConflict)
		}
	}
	if winner < 0 {
		t.Fatal("no move was stored")
	}
	g := mustGet(t, s, "g")
	if len(g.Moves) != 1 || g.Moves[0].Text != fmt.Sprintf("move-%d", winner) || g.Version != 2 {
		t.Errorf("after the race: %+v at version %d; want move-%d alone at version 2", g.Moves, g.Version, winner)
	}
}

func TestRefusalInBatchFailsAlone(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	a, b, c := game(t, s, "a"), game(t, s, "b"), game(t, s, "c")
	// Two updates of c written from version 1: the first one queued wins.
	newC, staleC := c, c
	newC.Version, newC.DrawOffer = 2, 1
	staleC.Version, staleC.DrawOffer = 2, 0
	release := plug(t, s)
	calls := []struct {
		name string
		call func() error
		want error
	}{
		{"a: ply 0", func() error { return s.AddMove(ctx, store.Move{Ply: 0, Text: "a0"}, after(a)) }, nil},
		{"a: ply 0 again", func() error { return s.AddMove(ctx, store.Move{Ply: 0, Text: "x"}, after(a)) }, store.ErrConflict},
		{"a: ply 1, after ply 0 in the same batch", func() error {
			return s.AddMove(ctx, store.Move{Ply: 1, Text: "a1"}, after(after(a)))
		}, nil},
		{"b: ply 1 of a game at ply 0", func() error { return s.AddMove(ctx, store.Move{Ply: 1, Text: "x"}, after(after(b))) }, store.ErrConflict},
		{"c: update to version 2", func() error { return s.Update(ctx, newC) }, nil},
		{"c: stale update", func() error { return s.Update(ctx, staleC) }, store.ErrConflict},
		{"no such game", func() error {
			return s.AddMove(ctx, store.Move{Ply: 0, Text: "x"}, after(header("none")))
		}, store.ErrNotFound},
		{"create a game that exists", func() error { return s.Create(ctx, b) }, store.ErrDuplicate},
		{"create d", func() error { return s.Create(ctx, header("d")) }, nil},
		{"a write to b refused after it changed b", func() error {
			return s.submit(ctx, &write{game: "b", version: 2, apply: func(ctx context.Context, tx conn) error {
				if _, err := tx.ExecContext(ctx, `UPDATE games SET version = 99 WHERE id = 'b'`); err != nil {
					return err
				}
				return store.ErrConflict
			}})
		}, store.ErrConflict},
		{"b: ply 0", func() error { return s.AddMove(ctx, store.Move{Ply: 0, Text: "b0"}, after(b)) }, nil},
	}
	funcs := make([]func() error, len(calls))
	for i, c := range calls {
		funcs[i] = c.call
	}
	answers := queue(t, s, funcs...)
	release()
	for i, err := range answers() {
		if !errors.Is(err, calls[i].want) {
			t.Errorf("%s: %v, want %v", calls[i].name, err, calls[i].want)
		}
	}
	if g := mustGet(t, s, "a"); len(g.Moves) != 2 || g.Moves[0].Text != "a0" || g.Moves[1].Text != "a1" || g.Version != 3 {
		t.Errorf("game a: %+v at version %d; want a0 a1 at version 3", g.Moves, g.Version)
	}
	if g := mustGet(t, s, "b"); len(g.Moves) != 1 || g.Moves[0].Text != "b0" || g.Version != 2 {
		t.Errorf("game b: %+v at version %d; want b0 at version 2 (the refused writes undone)", g.Moves, g.Version)
	}
	if g := mustGet(t, s, "c"); g.Version != 2 || g.DrawOffer != 1 {
		t.Errorf("game c: version %d, draw offer %d; want 2, 1", g.Version, g.DrawOffer)
	}
	mustGet(t, s, "d")
	if _, err := s.Get(ctx, "none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get(none) = %v, want %v", err, store.ErrNotFound)
	}
}

func TestFailedCommitFailsWholeBatch(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	a := game(t, s, "a")
	release := plug(t, s)
	// A write that goes through but breaks a foreign key checked only at
	// COMMIT: the transaction, not the write, fails.
	poison := func() error {
		return s.submit(ctx, &write{game: "nowhere", version: 2, apply: func(ctx context.Context, tx conn) error {
			if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO moves (game, ply, text, at) VALUES ('nowhere', 0, 'x', 0)`)
			return err
		}})
	}
	answers := queue(t, s,
		func() error { return s.AddMove(ctx, store.Move{Ply: 0, Text: "a0"}, after(a)) },
		func() error { return s.Create(ctx, header("b")) },
		poison,
		func() error { // refused, but in the failed batch
			late := a
			late.Ply, late.Version = 6, 7
			return s.AddMove(ctx, store.Move{Ply: 5, Text: "x"}, late)
		},
	)
	release()
	for i, err := range answers() {
		if err == nil || !strings.Contains(err.Error(), "commit") || !strings.Contains(err.Error(), "FOREIGN KEY") {
			t.Errorf("write %d of the failed batch: %v, want the commit's error", i, err)
		}
	}
	if g := mustGet(t, s, "a"); len(g.Moves) != 0 || g.Version != 1 {
		t.Errorf("game a after the failed batch: %+v at version %d; want unchanged", g.Moves, g.Version)
	}
	if _, err := s.Get(ctx, "b"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the game created in the failed batch: %v, want %v", err, store.ErrNotFound)
	}
	// The writer goes on with the next batch.
	if err := s.AddMove(ctx, store.Move{Ply: 0, Text: "a0"}, after(a)); err != nil {
		t.Errorf("a move after the failed batch: %v", err)
	}
}

func TestContextEndingWhileQueuedIsAnsweredAtOnce(t *testing.T) {
	s := open(t, t.TempDir())
	h := game(t, s, "g")
	release := plug(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	answer := make(chan error, 1)
	go func() { answer <- s.AddMove(ctx, store.Move{Ply: 0, Text: "late"}, after(h)) }()
	waitQueued(t, s, 1)
	cancel()
	select {
	case err := <-answer:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("AddMove cancelled while queued = %v, want %v", err, context.Canceled)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("AddMove cancelled while queued waited for the writer")
	}
	release()
	if g := mustGet(t, s, "g"); len(g.Moves) != 0 || g.Version != 1 {
		t.Errorf("the cancelled move was stored: %+v at version %d", g.Moves, g.Version)
	}
	if err := s.AddMove(context.Background(), store.Move{Ply: 0, Text: "c3-d4"}, after(h)); err != nil {
		t.Errorf("the move after the cancelled one: %v", err)
	}
}

func TestCloseAnswersEveryQueuedWrite(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	ctx := context.Background()
	const n = 20
	heads := make([]store.Header, n+1)
	for i := range heads {
		heads[i] = game(t, s, fmt.Sprintf("g%d", i))
	}
	release := plug(t, s)
	calls := make([]func() error, n)
	for i := range calls {
		calls[i] = func() error { return s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4"}, after(heads[i])) }
	}
	answers := queue(t, s, calls...)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	for !s.closed.Load() {
		time.Sleep(time.Millisecond)
	}
	if err := s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4"}, after(heads[n])); !errors.Is(err, store.ErrClosed) {
		t.Errorf("AddMove once Close began = %v, want %v", err, store.ErrClosed)
	}
	release()
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	for i, err := range answers() {
		if err != nil {
			t.Errorf("move %d, queued before Close: %v, want it stored", i, err)
		}
	}
	again := open(t, dir)
	for i := range heads {
		g := mustGet(t, again, fmt.Sprintf("g%d", i))
		if stored, want := len(g.Moves), min(1, n-i); stored != want {
			t.Errorf("game %d after Close: %d moves, want %d", i, stored, want)
		}
	}
}

func TestReadsDoNotWaitForTheWriter(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	game(t, s, "g")
	started, unblock := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		// A write that changes g, then holds the transaction open.
		done <- s.submit(ctx, &write{apply: func(ctx context.Context, tx conn) error {
			if _, err := tx.ExecContext(ctx, `UPDATE games SET version = 9 WHERE id = 'g'`); err != nil {
				return err
			}
			close(started)
			<-unblock
			return nil
		}})
	}()
	<-started
	read := make(chan error, 1)
	go func() {
		g, err := s.Get(ctx, "g")
		if err == nil && g.Version != 1 {
			err = fmt.Errorf("Get saw version %d, not yet committed", g.Version)
		}
		if err == nil {
			_, err = s.List(ctx, store.Filter{})
		}
		read <- err
	}()
	select {
	case err := <-read:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Get and List waited for the writer's transaction")
	}
	close(unblock)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if g := mustGet(t, s, "g"); g.Version != 9 {
		t.Errorf("after the commit Get sees version %d, want 9", g.Version)
	}
}

func TestCheckpointRunsInTheBackground(t *testing.T) {
	s := open(t, t.TempDir())
	var every int
	if err := s.w.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&every); err != nil {
		t.Fatal(err)
	}
	if every != 0 {
		t.Errorf("the writer's wal_autocheckpoint is %d, want 0 (no checkpoint on the commit path)", every)
	}
	size := func() int64 {
		info, err := os.Stat(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	before := size()
	var wg sync.WaitGroup
	for i := range 8 {
		h := game(t, s, fmt.Sprintf("g%d", i))
		wg.Go(func() {
			for ply := range checkpointWrites / 8 {
				h = after(h)
				if err := s.AddMove(context.Background(), store.Move{Ply: ply, Text: "c3-d4"}, h); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for size() <= before {
		if time.Now().After(deadline) {
			t.Fatalf("the database file stayed at %d bytes: no checkpoint copied the WAL into it", before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCloseEmptiesTheWAL(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	// Another Store keeps the file open, so that SQLite's own checkpoint
	// on its last connection's close does not run.
	open(t, dir)
	h := game(t, s, "g")
	if err := s.AddMove(context.Background(), store.Move{Ply: 0, Text: "c3-d4"}, after(h)); err != nil {
		t.Fatal(err)
	}
	wal := filepath.Join(dir, FileName+"-wal")
	walSize := func() int64 {
		info, err := os.Stat(wal)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	if walSize() == 0 {
		t.Fatal("the WAL is empty before Close")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := walSize(); n != 0 {
		t.Errorf("the WAL after Close has %d bytes, want none", n)
	}
}
