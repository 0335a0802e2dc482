package cli

import (
	"io/fs"
	"os"
	"testing"
)

// aRecord is a record file of one game.
const aRecord = "[Game \"pommel\"]\n[Result \"*\"]\n\n1. a1-a3 *\n"

// mustWrite makes a file with the given text and permissions.
func mustWrite(t *testing.T, path, text string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		t.Fatal(err)
	}
}

// readText reads a file, failing the test if it cannot.
func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
