package postgres

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
	"github.com/arbiter-games/arbiter/store/postgres/pgtest"
	"github.com/arbiter-games/arbiter/store/storetest"
)

// server is the test binary's PostgreSQL, set once by TestMain; nil when
// the binaries are missing or under -short (unless ARBITER_TEST_STORE=
// postgres), and noServer then says why.
var (
	server   *pgtest.Server
	noServer error
)

func TestMain(m *testing.M) {
	flag.Parse() // for testing.Short
	server, noServer = pgtest.StartIfWanted()
	if noServer != nil && !pgtest.Skip(noServer) {
		fmt.Fprintln(os.Stderr, noServer)
		os.Exit(1)
	}
	code := m.Run()
	if server != nil {
		if err := server.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// newDatabase gives the URL of an empty database, or skips the test.
func newDatabase(t *testing.T) string {
	t.Helper()
	if server == nil {
		t.Skip(noServer)
	}
	return server.NewDatabase(t)
}

// open opens a store on url and closes it when the test ends.
func open(t *testing.T, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
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
	if server == nil {
		t.Skip(noServer)
	}
	urls := map[store.Store]string{} // written by the test goroutine only
	storetest.Run(t,
		func(t *testing.T) store.Store {
			url := newDatabase(t)
			s := open(t, url)
			urls[s] = url
			return s
		},
		func(t *testing.T, s store.Store) store.Store { return open(t, urls[s]) },
	)
}

// TestListenerReconnects cuts the LISTEN connection from the server side:
// the store reconnects, reports the change made while it was away, and
// keeps reporting later ones.
func TestListenerReconnects(t *testing.T) {
	url := newDatabase(t)
	s := open(t, url)
	other := open(t, url)
	ch, err := s.Subscribe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s.mu.Lock()
	pid := s.listener.PgConn().PID()
	s.mu.Unlock()
	var killed bool
	if err := other.pool.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, pid).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminating the listener: %v, %v", killed, err)
	}
	h := store.Header{ID: "g", Game: "pommel", Version: 1, DrawOffer: -1, Updated: time.Now()}
	if err := other.Create(ctx, h); err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, ch); e != (store.Event{Game: "g", Version: 1}) {
		t.Fatalf("after the drop got %+v, want g version 1", e)
	}
	h.Version = 2
	if err := other.Update(ctx, h); err != nil {
		t.Fatal(err)
	}
	for {
		if e := nextEvent(t, ch); e.Version == 2 {
			break // catching up may have repeated version 1 first
		}
	}
}

func nextEvent(t *testing.T, ch <-chan store.Event) store.Event {
	t.Helper()
	select {
	case e := <-ch:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return store.Event{}
}

// TestOpenTogetherMigratesOnce opens several stores on a new database at
// once: the advisory lock lets one migrate and the others find it done.
func TestOpenTogetherMigratesOnce(t *testing.T) {
	url := newDatabase(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := Open(context.Background(), url)
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatalf("Open at the same time: %v", err)
		}
	}
	s := open(t, url)
	var n int
	all, err := store.Pending(store.Postgres, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.pool.QueryRow(context.Background(), `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(all) {
		t.Fatalf("schema_migrations has %d rows (%v), want %d", n, err, len(all))
	}
}

func TestOpenRefuses(t *testing.T) {
	if server == nil {
		t.Skip(noServer)
	}
	newer := newDatabase(t)
	s := open(t, newer)
	if _, err := s.pool.Exec(context.Background(), `INSERT INTO schema_migrations VALUES (99, 'future', 0)`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tests := []struct{ url, want, secret string }{
		{"postgres://ada:hunter2@127.0.0.1:notaport/db", "want postgres://user:password@host:port/database", "hunter2"},
		{"mysql://x", "the database URL", ""},
		{server.URL("nosuchdb"), "nosuchdb", ""},
		{newer, "schema is at version 99, newer than this arbiter knows", ""},
	}
	for _, tt := range tests {
		s, err := Open(ctx, tt.url)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", tt.url)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || tt.secret != "" && strings.Contains(err.Error(), tt.secret) {
			t.Errorf("Open(%q) = %v; want an error containing %q and no password", tt.url, err, tt.want)
		}
	}
}

func BenchmarkAddMove(b *testing.B) {
	if server == nil {
		b.Skip(noServer)
	}
	s, err := Open(context.Background(), server.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.SetParallelism(8)
	storetest.BenchmarkAddMove(b, s)
}

// TestMoveGroupAnswersEachMove commits a group of moves as the move
// writers do: each move gets its own answer, whether the group commits
// (a stale move among them answers 0 and changes nothing) or fails (a
// move whose row is there already rolls the group back, and each is then
// stored alone). A group that commits sends one notification, naming the
// games its moves changed and no other; moves stored alone send one each.
func TestMoveGroupAnswersEachMove(t *testing.T) {
	if server == nil {
		t.Skip(noServer)
	}
	ctx := context.Background()
	url := newDatabase(t)
	s := open(t, url)
	listener, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	if _, err := listener.Exec(ctx, "LISTEN "+Channel); err != nil {
		t.Fatal(err)
	}
	notified := func(want ...string) {
		t.Helper()
		for _, w := range want {
			wait, cancel := context.WithTimeout(ctx, 10*time.Second)
			n, err := listener.WaitForNotification(wait)
			cancel()
			if err != nil || n.Payload != w {
				t.Fatalf("notified %v %v, want %q", n, err, w)
			}
		}
		wait, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if n, err := listener.WaitForNotification(wait); err == nil {
			t.Fatalf("notified %q too", n.Payload)
		}
	}
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	header := func(id string) store.Header {
		return store.Header{ID: id, Game: "pommel", Seats: []store.Seat{{Player: "human"}, {Player: "human"}},
			Version: 1, DrawOffer: -1, Created: at, Updated: at}
	}
	group := func(ids []string, stale string) []*moveWrite {
		var g []*moveWrite
		for _, id := range ids {
			next := header(id)
			next.Ply, next.Version, next.Updated = 1, 2, at.Add(time.Second)
			if id == stale {
				next.Version = 7 // written for a version the game is not at
			}
			c, err := row.FromHeader(next)
			if err != nil {
				t.Fatal(err)
			}
			g = append(g, &moveWrite{game: id, args: moveArgs(store.Move{Ply: 0, Text: "a1-a2", At: next.Updated}, next, c),
				done: make(chan moveAnswer, 1)})
		}
		return g
	}
	check := func(g []*moveWrite, want map[string]string) {
		t.Helper()
		for _, w := range g {
			a := <-w.done
			got := "stored"
			switch {
			case isUnique(a.err):
				got = "duplicate"
			case a.err != nil:
				got = "error " + a.err.Error()
			case a.matched == 0:
				got = "not matched"
			}
			stored, err := s.Get(ctx, w.game)
			if err != nil {
				t.Fatal(err)
			}
			if got != want[w.game] || (got == "stored") != (stored.Version == 2 && len(stored.Moves) == 1) {
				t.Errorf("game %s: answered %s, version %d with %d moves; want %s", w.game, got, stored.Version, len(stored.Moves), want[w.game])
			}
		}
	}
	ids := []string{"a", "b", "c", "d", "e", "f"}
	for _, id := range ids {
		if err := s.Create(ctx, header(id)); err != nil {
			t.Fatal(err)
		}
	}
	notified("a:1", "b:1", "c:1", "d:1", "e:1", "f:1") // the games' creation
	commits := group(ids[:3], "b")
	s.commitMoves(commits)
	check(commits, map[string]string{"a": "stored", "b": "not matched", "c": "stored"})
	notified("a:2\nc:2")

	if _, err := s.pool.Exec(ctx, `INSERT INTO moves (game, ply, text, at) VALUES ('e', 0, 'b1-b2', 0)`); err != nil {
		t.Fatal(err)
	}
	fails := group(ids[3:], "")
	s.commitMoves(fails)
	check(fails, map[string]string{"d": "stored", "e": "duplicate", "f": "stored"})
	notified("d:2", "f:2")
}

// TestGroupNoticesFitAPayload: the games a group's moves change are
// named by as many notifications as keep each under PostgreSQL's 8000
// bytes, each game once, in the group's order.
func TestGroupNoticesFitAPayload(t *testing.T) {
	var group []*moveWrite
	var want []string
	for i := range 128 {
		id := fmt.Sprintf("%0100d", i) // ids far longer than the hall's
		group = append(group, &moveWrite{game: id, args: []any{Channel, notice(id, int64(i+1))}})
		want = append(want, notice(id, int64(i+1)))
	}
	var got []string
	for _, n := range groupNotices(group) {
		size := 0
		for i, id := range n.ids {
			got = append(got, notice(id, n.versions[i]))
			size += len(got[len(got)-1]) + 1
		}
		if size > maxNotice || size > 8000 {
			t.Errorf("a notification of %d bytes", size)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the notices name %d games, not the group's %d in order", len(got), len(want))
	}
	if n := len(groupNotices(group[:3])); n != 1 {
		t.Errorf("three moves make %d notifications", n)
	}
	if n := len(groupNotices(nil)); n != 0 {
		t.Errorf("no move makes %d notifications", n)
	}
}
