package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestDatabaseFilesArePrivate: the database and its -wal and -shm files
// hold password hashes and sessions, so nobody but the owner may read
// them, whether Open creates them or finds them left readable by an older
// version.
func TestDatabaseFilesArePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix file modes")
	}
	for _, tc := range []struct {
		name     string
		existing os.FileMode // 0: no file before Open
	}{
		{"created", 0},
		{"found readable by all", 0o644},
		{"found writable by all", 0o666},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if tc.existing != 0 {
				s := open(t, dir)
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				for _, name := range []string{path, path + "-wal", path + "-shm"} {
					if err := os.WriteFile(name, nil, tc.existing); err != nil && name == path {
						t.Fatal(err)
					}
					if err := os.Chmod(name, tc.existing); err != nil && name == path {
						t.Fatal(err)
					}
				}
			}
			s := open(t, dir)
			// A write makes SQLite create the -wal and -shm files.
			if err := s.Create(context.Background(), header("g1")); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{path, path + "-wal", path + "-shm"} {
				info, err := os.Stat(name)
				if err != nil {
					t.Fatal(err)
				}
				if perm := info.Mode().Perm(); perm != 0o600 {
					t.Errorf("%s has mode %v, want 0600", filepath.Base(name), perm)
				}
			}
		})
	}
}
