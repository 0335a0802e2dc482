package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpeningsBookRoundTrip: 'lab openings' writes a book that lab and
// match then play from, game i of a self-play run from line i.
func TestOpeningsBookRoundTrip(t *testing.T) {
	root := t.TempDir()
	book := filepath.Join(root, "book.txt")
	out := runOK(t, "lab", "openings", "pommel", "--plies", "1", "--count", "3", "--depth", "1", "--out", book, "-q")
	if !strings.Contains(out, "3 openings written") {
		t.Errorf("lab openings: %s", out)
	}
	text, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for _, l := range strings.Split(string(text), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			first, _, _ = strings.Cut(l, " ")
			break
		}
	}
	dir := filepath.Join(root, "run")
	runOK(t, "lab", "pommel", "-o", "maxplies=6", "--player", "ab", "--games", "3", "--depth", "1", "--openings", book, "--out", dir, "-q")
	pdn, _ := os.ReadFile(filepath.Join(dir, "games.pdn"))
	if !strings.Contains(string(pdn), "1. "+first) {
		t.Errorf("the run's first game does not start with the book's first line %q:\n%s", first, pdn)
	}
	out = runOK(t, "match", "pommel", "-o", "maxplies=6", "--player", "a=ab", "--player", "b=ab", "--games", "2", "--depth", "1",
		"--openings", book, "-q")
	if !strings.Contains(out, "score and Elo over n") {
		t.Errorf("match --openings: %s", out)
	}
}

// TestOpeningsRefused: a missing, empty-named, too large or bad book is
// refused, in lab and match alike, with one line.
func TestOpeningsRefused(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(root, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	big := write("big.txt", strings.Repeat("#", 1<<20+1))
	bad := write("bad.txt", "a1-a3\n\n# fine so far\nb1-b3 z9\n")
	tests := []struct {
		name, file, want string
	}{
		{"missing", filepath.Join(root, "none.txt"), "none.txt\": no such file"},
		{"a folder", root, "cannot be read"},
		{"long name", filepath.Join(root, strings.Repeat("x", 300)), "\"…: cannot be read"},
		{"empty name", " ", "--openings is empty"},
		{"too big", big, "more than 1048576 bytes"},
		{"bad line", bad, `bad.txt": line 4: move 2 "z9" is illegal`},
	}
	for _, tt := range tests {
		for _, cmd := range [][]string{
			{"lab", "pommel", "--player", "ab", "--depth", "1", "--out", filepath.Join(root, "run")},
			{"match", "pommel", "--player", "a=ab", "--player", "b=ab", "--depth", "1"},
		} {
			r := run(t, "", append(cmd, "--openings", tt.file, "-q")...)
			if r.code == 0 || !strings.Contains(r.errOut, tt.want) || strings.Count(strings.TrimSpace(r.errOut), "\n") > 0 {
				t.Errorf("%s %s: exit %d, stderr %q, want one line with %q", cmd[0], tt.name, r.code, r.errOut, tt.want)
			}
		}
	}
	r := run(t, "", "lab", "openings", "pommel", "--count", "5", "--positions", "2", "--out", filepath.Join(root, "b"))
	if r.code == 0 || !strings.Contains(r.errOut, "--count 5: want at most --positions (2)") {
		t.Errorf("lab openings --count above --positions: %q", r.errOut)
	}
	for _, flag := range []string{"--plies", "--count", "--depth", "--positions"} {
		r := run(t, "", "lab", "openings", "pommel", flag, "0", "--out", filepath.Join(root, "b"))
		if r.code == 0 || !strings.Contains(r.errOut, flag+" 0: want") {
			t.Errorf("lab openings %s 0: %q", flag, r.errOut)
		}
	}
}
