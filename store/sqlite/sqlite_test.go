package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/storetest"
)

// open opens a store in dir and closes it when the test ends.
func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, store.ErrClosed) {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t,
		func(t *testing.T) store.Store { return open(t, t.TempDir()) },
		func(t *testing.T, s store.Store) store.Store { return open(t, filepath.Dir(s.(*Store).Path())) },
	)
}

func TestOpenCreatesPrivateFolderAndDurableSettings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data ?#%")
	s := open(t, dir)
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("the data folder has mode %v, want 0700", perm)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		t.Errorf("no database file: %v", err)
	}
	ctx := context.Background()
	settings := []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
	}
	for _, db := range []*sql.DB{s.w, s.r} {
		for _, p := range settings {
			var got string
			if err := db.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != p.want {
				t.Errorf("PRAGMA %s = %s, want %s", p.pragma, got, p.want)
			}
		}
	}
	if _, err := s.r.ExecContext(ctx, `DELETE FROM games`); err == nil {
		t.Error("a reader connection could write")
	}
}

func TestOpenRefuses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	newer := t.TempDir()
	s := open(t, newer)
	if _, err := s.w.Exec(`INSERT INTO schema_migrations (version, name, applied) VALUES (99, 'future', 0)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	tests := []struct{ dir, want string }{
		{"", "no data folder given"},
		{filepath.Join(file, "sub"), "data folder"},
		{newer, "schema is at version 99, newer than this arbiter knows"},
	}
	for _, tt := range tests {
		s, err := Open(context.Background(), tt.dir)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", tt.dir)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q) = %v, want an error containing %q", tt.dir, err, tt.want)
		}
	}
}

func TestReopenKeepsGames(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	h := store.Header{ID: "g", Game: "pommel", Version: 1, DrawOffer: -1}
	if err := s.Create(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	next := h
	next.Ply, next.Version = 1, 2
	if err := s.AddMove(context.Background(), store.Move{Ply: 0, Text: "c3-d4"}, next); err != nil {
		t.Fatal(err)
	}
	s.Close()
	g, err := open(t, dir).Get(context.Background(), "g")
	if err != nil || len(g.Moves) != 1 || g.Version != 2 {
		t.Fatalf("after reopening: %+v, %v; want the game with its move", g, err)
	}
}

func TestForeignKeys(t *testing.T) {
	s := open(t, t.TempDir())
	_, err := s.w.Exec(`INSERT INTO moves (game, ply, text, at) VALUES ('none', 0, 'c3-d4', 0)`)
	if err == nil {
		t.Error("a move of no game was stored")
	}
}

func TestBackup(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	h := store.Header{ID: "g", Game: "pommel", Version: 1, DrawOffer: -1}
	if err := s.Create(ctx, h); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	if err := s.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("the backup has mode %v, want 0600", perm)
	}
	// The backup is a database Open takes, with the game in it.
	restored := t.TempDir()
	data, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if g, err := open(t, restored).Get(ctx, "g"); err != nil || g.Game != "pommel" {
		t.Errorf("the restored backup: %+v, %v; want game g", g, err)
	}

	before, _ := os.ReadFile(dest)
	refusals := []struct{ dest, want string }{
		{dest, "exists"},
		{"", "no file given"},
		{filepath.Join(t.TempDir(), "missing", "b.db"), "backup to"},
	}
	for _, r := range refusals {
		err := s.Backup(ctx, r.dest)
		if err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("Backup(%q) = %v, want an error containing %q", r.dest, err, r.want)
		}
	}
	if after, _ := os.ReadFile(dest); !bytes.Equal(before, after) {
		t.Error("a refused backup changed the existing file")
	}
	s.Close()
	if err := s.Backup(ctx, filepath.Join(t.TempDir(), "late.db")); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Backup after Close = %v, want %v", err, store.ErrClosed)
	}
}

func TestEventsArePruned(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	h := store.Header{ID: "g", Game: "pommel", Version: 1, DrawOffer: -1}
	if err := s.Create(ctx, h); err != nil {
		t.Fatal(err)
	}
	// Pretend many events went by, then write once more at a pruning
	// point (a multiple of 256).
	const next = 256 * 80
	for _, seq := range []int{5, next - keptEvents, next - keptEvents + 1, next - 1} {
		if _, err := s.w.Exec(`INSERT INTO events (seq, game, version) VALUES (?, 'old', 1)`, seq); err != nil {
			t.Fatal(err)
		}
	}
	h.Version = 2
	if err := s.Update(ctx, h); err != nil {
		t.Fatal(err)
	}
	var oldest, newest int64
	if err := s.w.QueryRow(`SELECT MIN(seq), MAX(seq) FROM events`).Scan(&oldest, &newest); err != nil {
		t.Fatal(err)
	}
	if oldest != next-keptEvents+1 || newest != next {
		t.Errorf("the events kept run from %d to %d, want %d to %d", oldest, newest, next-keptEvents+1, next)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/srv/data")
	t.Setenv("HOME", "/home/ada")
	want := "/srv/data/arbiter"
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("the data folder there is the configuration directory")
	}
	if got, err := DefaultDir(); err != nil || got != want {
		t.Errorf("DefaultDir() = %q, %v; want %q", got, err, want)
	}
	t.Setenv("XDG_DATA_HOME", "")
	if got, err := DefaultDir(); err != nil || got != "/home/ada/.local/share/arbiter" {
		t.Errorf("DefaultDir() without XDG_DATA_HOME = %q, %v; want /home/ada/.local/share/arbiter", got, err)
	}
}

// TestAMoveWritesEveryColumnItChanges plays moves that change only what a
// move changes (written by moveHeader) and moves that change more: a seat,
// the options, the end of the game (written by setHeader, when moveHeader
// matches no row). Each is read back whole, and the lists of ongoing and
// open games follow.
func TestAMoveWritesEveryColumnItChanges(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	h := store.Header{ID: "g", Game: "pommel", Seats: []store.Seat{{Player: "human", Name: "Ann"}, {Player: "human", Open: true}},
		Version: 1, DrawOffer: -1, Created: time.UnixMilli(1000), Updated: time.UnixMilli(1000)}
	if err := s.Create(ctx, h); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		change func(*store.Header)
	}{
		{"a move", func(h *store.Header) { h.DrawOffer = 1 }},
		{"a move seating a player", func(h *store.Header) { h.Seats[1] = store.Seat{Player: "human", Name: "Bo"} }},
		{"a move and new options", func(h *store.Header) { h.Options = map[string]string{"swap": "on"}; h.DrawOffer = -1 }},
		{"a move", func(h *store.Header) {}},
		{"the last move", func(h *store.Header) { h.Result = &store.Result{Winners: []int{0}, Reason: "no moves"} }},
	}
	for ply, step := range steps {
		next := h
		next.Seats = slices.Clone(h.Seats)
		next.Ply, next.Version, next.Updated = ply+1, h.Version+1, h.Updated.Add(time.Second)
		step.change(&next)
		if err := s.AddMove(ctx, store.Move{Ply: ply, Text: "a1-a3", At: next.Updated}, next); err != nil {
			t.Fatalf("%s (ply %d): %v", step.name, ply, err)
		}
		g, err := s.Get(ctx, "g")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g.Header.Seats, next.Seats) || g.Ply != next.Ply || g.Version != next.Version ||
			g.DrawOffer != next.DrawOffer || !reflect.DeepEqual(g.Result, next.Result) ||
			len(g.Options) != len(next.Options) || !g.Updated.Equal(next.Updated) || len(g.Moves) != ply+1 {
			t.Fatalf("after %s (ply %d): stored %+v, want %+v", step.name, ply, g.Header, next)
		}
		h = next
	}
	for _, f := range []store.Filter{{Ongoing: true}, {OpenSeats: true}} {
		if listed, err := s.List(ctx, f); err != nil || len(listed) != 0 {
			t.Errorf("List(%+v) = %+v, %v: the ended game, its seats taken, is still listed", f, listed, err)
		}
	}
}
