package savefile

import (
	"errors"
	"github.com/arbiter-games/arbiter/internal/testtext"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeText is a write function for WriteAtomic.
func writeText(text string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	}
}

// noTempLeft fails if a temporary file was left in dir.
func noTempLeft(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestWriteFileAtomicNewFile: a new file gets the permissions os.Create
// gives (0666 less the umask), not those of a temporary file.
func TestWriteFileAtomicNewFile(t *testing.T) {
	dir := t.TempDir()
	ref, err := os.Create(filepath.Join(dir, "reference"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	refInfo, _ := os.Stat(ref.Name())
	path := filepath.Join(dir, "new.pdn")
	if err := WriteAtomic(path, writeText(testtext.ARecord)); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != refInfo.Mode().Perm() {
		t.Errorf("new file mode %v, want %v as os.Create gives", info.Mode().Perm(), refInfo.Mode().Perm())
	}
	if got := testtext.ReadFile(t, path); got != testtext.ARecord {
		t.Errorf("file holds %q", got)
	}
	noTempLeft(t, dir)
}

// TestWriteFileAtomicKeepsMode: an existing file keeps its permissions.
func TestWriteFileAtomicKeepsMode(t *testing.T) {
	for _, perm := range []fs.FileMode{0o600, 0o640, 0o664, 0o604} {
		path := filepath.Join(t.TempDir(), "games.pdn")
		testtext.WriteFile(t, path, testtext.ARecord, perm)
		if err := WriteAtomic(path, writeText("new text\n")); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(path)
		if info.Mode().Perm() != perm {
			t.Errorf("mode %v became %v", perm, info.Mode().Perm())
		}
		if got := testtext.ReadFile(t, path); got != "new text\n" {
			t.Errorf("file holds %q", got)
		}
	}
}

// TestWriteFileAtomicKeepsLinks: writing through a symbolic link (also a
// relative one, and a link to a link) replaces the file it points to and
// leaves the link a link.
func TestWriteFileAtomicKeepsLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "games.pdn")
	testtext.WriteFile(t, target, testtext.ARecord, 0o640)
	abs := filepath.Join(dir, "abs.pdn")
	rel := filepath.Join(dir, "rel.pdn")
	chain := filepath.Join(dir, "chain.pdn")
	for link, to := range map[string]string{abs: target, rel: filepath.Join("real", "games.pdn"), chain: "rel.pdn"} {
		if err := os.Symlink(to, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	for _, link := range []string{abs, rel, chain} {
		text := "written through " + filepath.Base(link) + "\n"
		if err := WriteAtomic(link, writeText(text)); err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		if li, err := os.Lstat(link); err != nil || li.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", link)
		}
		if got := testtext.ReadFile(t, target); got != text {
			t.Errorf("after writing %s the target holds %q", link, got)
		}
		if info, _ := os.Stat(target); info.Mode().Perm() != 0o640 {
			t.Errorf("the target's mode became %v", info.Mode().Perm())
		}
	}
	noTempLeft(t, dir)
	noTempLeft(t, filepath.Join(dir, "real"))
}

// TestWriteFileAtomicRefuses: a read-only file, a directory, a missing
// directory, a dangling link and a failed write leave everything as it
// was, with an error naming the user's path and never a temporary file.
func TestWriteFileAtomicRefuses(t *testing.T) {
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "kept.pdn")
	testtext.WriteFile(t, readOnly, testtext.ARecord, 0o444)
	subdir := filepath.Join(dir, "sub")
	os.Mkdir(subdir, 0o755)
	dangling := filepath.Join(dir, "dangling.pdn")
	os.Symlink(filepath.Join(dir, "nowhere", "x.pdn"), dangling)
	existing := filepath.Join(dir, "existing.pdn")
	testtext.WriteFile(t, existing, testtext.ARecord, 0o644)
	tests := []struct {
		name, path string
		write      func(io.Writer) error
		want       string
	}{
		{"read-only", readOnly, writeText("x"), "read-only"},
		{"directory", subdir, writeText("x"), "is a directory"},
		{"missing directory", filepath.Join(dir, "nowhere", "x.pdn"), writeText("x"), "does not exist"},
		{"dangling link", dangling, writeText("x"), "link to a file that cannot be reached"},
		{"write fails", existing, func(io.Writer) error { return errors.New("disk on fire") }, "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteAtomic(tt.path, tt.write)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.path) || !strings.Contains(msg, tt.want) || strings.Contains(msg, ".tmp") {
				t.Errorf("error %q, want one naming %s and saying %q", msg, tt.path, tt.want)
			}
		})
	}
	if got := testtext.ReadFile(t, readOnly); got != testtext.ARecord {
		t.Errorf("the read-only file now holds %q", got)
	}
	if got := testtext.ReadFile(t, existing); got != testtext.ARecord {
		t.Errorf("a failed write changed the file to %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("the missing directory was made")
	}
	noTempLeft(t, dir)
}

// TestCheckDestination: what can be saved into before the first move or
// game, and what is refused with the user's path in the message.
func TestCheckDestination(t *testing.T) {
	dir := t.TempDir()
	files := map[string]struct {
		text string
		perm fs.FileMode
	}{
		"record.pdn":   {testtext.ARecord, 0o644},
		"empty.pdn":    {"", 0o644},
		"comments.pdn": {"{the club's games}\n", 0o644},
		"notes.txt":    {"my shopping list {milk\n", 0o644},
		"locked.pdn":   {testtext.ARecord, 0o444},
	}
	for name, f := range files {
		testtext.WriteFile(t, filepath.Join(dir, name), f.text, f.perm)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("record.pdn", filepath.Join(dir, "link.pdn"))
	os.Symlink("gone.pdn", filepath.Join(dir, "dangling.pdn"))
	tests := []struct {
		path string
		want string // "" for no error
	}{
		{"record.pdn", ""},
		{"empty.pdn", ""},
		{"comments.pdn", ""},
		{"new.pdn", ""},
		{"link.pdn", ""},
		{"notes.txt", "is not a record file"},
		{"locked.pdn", "read-only"},
		{"sub", "is a directory"},
		{"nowhere/x.pdn", "does not exist"},
		{"record.pdn/x.pdn", "is not a directory"},
		{"dangling.pdn", "cannot be reached"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			path := filepath.Join(dir, tt.path)
			err := CheckDestination(path)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && err == nil:
				t.Errorf("no error, want one saying %q", tt.want)
			case err != nil && (!strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %q, want one naming %s and saying %q", err, path, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "new.pdn")); err == nil {
		t.Error("checking a new file made it")
	}
	for name, f := range files {
		if got := testtext.ReadFile(t, filepath.Join(dir, name)); got != f.text {
			t.Errorf("checking %s changed it to %q", name, got)
		}
	}
	noTempLeft(t, dir)
	if err := CheckDestination(os.DevNull); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("%s: %v, want it refused as not a regular file", os.DevNull, err)
	}
}
