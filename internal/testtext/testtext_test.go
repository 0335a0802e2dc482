package testtext

import (
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that notes a failure instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestInOrder(t *testing.T) {
	tests := []struct {
		out   string
		parts []string
		fails bool
	}{
		{"a b c", []string{"a", "c"}, false},
		{"a b c", []string{"c", "a"}, true},
		{"a b c", []string{"d"}, true},
		{"aa", []string{"a", "a"}, false},
	}
	for _, tt := range tests {
		r := &recorder{TB: t}
		InOrder(r, tt.out, tt.parts...)
		if r.failed != tt.fails {
			t.Errorf("InOrder(%q, %q) failed %v, want %v", tt.out, tt.parts, r.failed, tt.fails)
		}
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	Golden(t, path, "one\ntwo\n", true)
	tests := []struct {
		got   string
		fails bool
	}{{"one\ntwo\n", false}, {"one\nthree\n", true}, {"one\ntwo\nthree\n", true}, {"one\n", true}}
	for _, tt := range tests {
		r := &recorder{TB: t}
		Golden(r, path, tt.got, false)
		if r.failed != tt.fails {
			t.Errorf("Golden(%q) failed %v, want %v", tt.got, r.failed, tt.fails)
		}
	}
}
