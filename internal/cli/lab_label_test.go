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
