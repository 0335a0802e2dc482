package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/postgres/pgtest"
	"github.com/arbiter-games/arbiter/store/storetest"
)

// server is the test binary's PostgreSQL, set once by TestMain; nil when
// the binaries are missing.
var server *pgtest.Server

func TestMain(m *testing.M) {
	var err error
	server, err = pgtest.Start()
	if err != nil && !errors.Is(err, pgtest.ErrNoPostgres) {
		fmt.Fprintln(os.Stderr, err)
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
		t.Skip(pgtest.ErrNoPostgres)
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
