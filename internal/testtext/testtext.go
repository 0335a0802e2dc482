// Package testtext checks the text a command or a transport writes, for
// the tests of several packages: whole outputs against golden files, and
// parts of an output in their order.
package testtext

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

// Golden compares got with the file at path, or rewrites the file when
// update is set (each test package has its own -update flag).
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		gl, wl := lineAt(g, i), lineAt(w, i)
		if gl != wl || i >= len(g) || i >= len(w) {
			t.Fatalf("output differs from %s at line %d:\ngot:  %q\nwant: %q\nwhole output:\n%s", path, i+1, gl, wl, got)
		}
	}
}

// lineAt is line i of lines, or "" past their end.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// InOrder fails unless out holds every part, one after the other.
func InOrder(t testing.TB, out string, parts ...string) {
	t.Helper()
	rest := out
	for _, p := range parts {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Fatalf("output lacks %q after the parts before it; whole output:\n%s", p, out)
		}
		rest = rest[i+len(p):]
	}
}

// ARecord is a record file of one game, for the tests of record files.
const ARecord = "[Game \"pommel\"]\n[Result \"*\"]\n\n1. a1-a3 *\n"

// WriteFile makes a file with the given text and permissions, failing
// the test if it cannot.
func WriteFile(t testing.TB, path, text string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

// ReadFile reads a file, failing the test if it cannot.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
