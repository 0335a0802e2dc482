package pgtest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMissingBinariesSkip(t *testing.T) {
	t.Setenv("ARBITER_PGBIN", t.TempDir())
	if _, err := Start(); !errors.Is(err, ErrNoPostgres) {
		t.Fatalf("Start without binaries = %v, want %v", err, ErrNoPostgres)
	}
}

func TestShortSkipsUnlessAsked(t *testing.T) {
	if !testing.Short() {
		t.Skip("the full run always starts PostgreSQL")
	}
	t.Setenv("ARBITER_PGBIN", t.TempDir()) // never start one here
	t.Setenv("ARBITER_TEST_STORE", "")
	if _, err := StartIfWanted(); !errors.Is(err, ErrShort) || !Skip(err) {
		t.Errorf("StartIfWanted under -short = %v, want %v", err, ErrShort)
	}
	t.Setenv("ARBITER_TEST_STORE", "postgres")
	if _, err := StartIfWanted(); !errors.Is(err, ErrNoPostgres) || !Skip(err) {
		t.Errorf("StartIfWanted under -short with ARBITER_TEST_STORE=postgres = %v, want a start (here %v)", err, ErrNoPostgres)
	}
}

func TestStartServeStop(t *testing.T) {
	s, err := StartIfWanted()
	if Skip(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	url := s.NewDatabase(t)
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	var fsync string
	if err := conn.QueryRow(context.Background(), "SHOW fsync").Scan(&fsync); err != nil || fsync != "off" {
		t.Errorf("fsync = %q (%v), want off", fsync, err)
	}
	conn.Close(context.Background())
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cluster's folder is still there after Stop: %v", err)
	}
}
