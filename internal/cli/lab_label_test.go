package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabLabelAndCompare: --label is kept in summary.json (and through a
// continuation without it) and heads the run's column in lab compare;
// a run without one is headed by its whole folder, so that two folders
// named alike differ; the comparison has the drama, comebacks, decidedAt
// and signals rows, and n.
func TestLabLabelAndCompare(t *testing.T) {
	root := t.TempDir()
	base := []string{"lab", "pommel", "-o", "maxplies=30", "--player", "ab", "--player", "random", "--games", "2", "--depth", "1", "-q"}
	with := func(extra ...string) []string { return append(base[:len(base):len(base)], extra...) }
	a, b := filepath.Join(root, "runs", "survey", "pommel"), filepath.Join(root, "x", "pommel")
	runOK(t, with("--label", "deep ab", "--out", a)...)
	runOK(t, with("--games", "3", "--out", a)...) // continued: keeps the label
	runOK(t, with("--out", b)...)
	var sum struct{ Label string }
	data, err := os.ReadFile(filepath.Join(a, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil || sum.Label != "deep ab" {
		t.Errorf("summary.json's label %q (%v), want %q", sum.Label, err, "deep ab")
	}
	out := runOK(t, "lab", "compare", a, b)
	head := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(head, "deep ab") || !strings.Contains(head, b) {
		t.Errorf("compare's head %q, want the label and the whole folder %s", head, b)
	}
	for _, want := range []string{"\ndistinct games (n)", "\ndrama ", "\ncomebacks ", "\ndecided at: mean", "\nfolder "} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks the row %q:\n%s", strings.TrimSpace(want), out)
		}
	}
}

func TestLabLabelRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "never")
	long := strings.Repeat("x", 41)
	for _, label := range []string{"a\tb", "two\nlines", long, strings.Repeat("y", 200)} {
		args := []string{"lab", "pommel", "--player", "ab", "--depth", "1", "--label", label, "--out", out}
		r := run(t, "", args...)
		if r.code == 0 || !strings.Contains(r.errOut, "--label") || !strings.Contains(r.errOut, "1 to 40 characters") ||
			strings.Count(r.errOut, "\n") != 1 || strings.Contains(r.errOut, strings.Repeat("y", 81)) {
			t.Errorf("--label %.20q: exit %d, stderr %q; want one line refusing it", label, r.code, r.errOut)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused --label made %s", out)
	}
	// 40 characters are a label.
	runOK(t, "lab", "pommel", "-o", "maxplies=10", "--player", "random", "--depth", "1", "--games", "1", "-q",
		"--label", strings.Repeat("z", 40), "--out", out)
}
