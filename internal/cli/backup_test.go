package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// serverData makes a data folder holding one game, as arbiter serve
// leaves it.
func serverData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := store.Header{ID: "g1", Game: "pommel", Version: 1, DrawOffer: -1}
	if err := s.Create(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBackup(t *testing.T) {
	dir := serverData(t)
	dest := filepath.Join(t.TempDir(), "copy.db")
	out := runOK(t, "backup", "--data", dir, dest)
	if want := "backed up " + filepath.Join(dir, "arbiter.db") + " to " + dest + "\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	// The copy, put in a data folder, is the same database.
	restored := t.TempDir()
	data, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, "arbiter.db"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(context.Background(), restored)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if g, err := s.Get(context.Background(), "g1"); err != nil || g.Game != "pommel" {
		t.Errorf("the restored copy: %+v, %v; want game g1", g, err)
	}
}

func TestBackupDefaultData(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	dir, err := sqlite.DefaultDir()
	if err != nil || !strings.HasPrefix(dir, xdg) {
		t.Skipf("the default data folder %q (%v) is not under XDG_DATA_HOME here", dir, err)
	}
	if err := os.CopyFS(dir, os.DirFS(serverData(t))); err != nil {
		t.Fatal(err)
	}
	runOK(t, "backup", filepath.Join(t.TempDir(), "copy.db"))
}

func TestBackupRefuses(t *testing.T) {
	dir := serverData(t)
	existing := filepath.Join(t.TempDir(), "existing.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"backup", "--data", dir, existing}, "exists; give a new file name"},
		{[]string{"backup", "--data", empty, filepath.Join(t.TempDir(), "b.db")}, "no database in " + empty},
		{[]string{"backup", "--data", dir}, "backup: accepts 1 arg(s), received 0 (usage: arbiter backup [--data DIR] FILE"},
		{[]string{"backup", "--data", dir, "a.db", "b.db"}, "accepts 1 arg(s), received 2"},
		{[]string{"backup", "--data", dir, filepath.Join(t.TempDir(), "missing", "b.db")}, "backup to"},
	}
	for _, tt := range tests {
		r := run(t, "", tt.args...)
		if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("arbiter %s: exit %d, stderr %q; want one line containing %q", strings.Join(tt.args, " "), r.code, r.errOut, tt.want)
		}
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep me" {
		t.Errorf("the existing file now holds %q", data)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("backup from an empty folder created %d files in it", len(entries))
	}
}
