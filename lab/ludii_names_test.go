package lab

import (
	"strings"
	"testing"
)

// TestLudiiNames: where a measure keeps one of Ludii's names, its label
// either is Ludii's definition or says how it differs; the two board
// coverages carry the right names (coverageOccupied is Ludii's
// BoardCoverageUsed; coverageUsed is this lab's own, and nothing here is
// Ludii's BoardCoverageFull).
func TestLudiiNames(t *testing.T) {
	m := &Measures{Evaluated: true}
	table := map[string]string{}
	for _, r := range measureTable(m) {
		table[r.Name] = r.Definition
	}
	for _, tt := range []struct {
		row          string
		want, refuse []string
	}{
		{"board occupied", []string{"Ludii's BoardCoverageUsed", "BoardCoverageFull also counts edges and vertices", "does not measure it"}, nil},
		{"board touched by moves", []string{"this lab's own; Ludii has no such measure"}, []string{"BoardCoverageUsed", "BoardCoverageFull"}},
		{"outcome uniformity", []string{"divides by n−1", "divides by n:", "1 − (1 − this)·n/(n−1)"}, nil},
		{"stability (static)", []string{"the mean over the players", "Ludii's Stability sums"}, nil},
		{"game-tree complexity", []string{"pooled", "Ludii's GameTreeComplexity takes each game's own d·log10 b, then the mean"}, nil},
	} {
		def, ok := table[tt.row]
		if !ok {
			t.Errorf("the report has no row %q", tt.row)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(def, w) {
				t.Errorf("row %q: %q does not say %q", tt.row, def, w)
			}
		}
		for _, r := range tt.refuse {
			if strings.Contains(def, r) {
				t.Errorf("row %q: %q names %q", tt.row, def, r)
			}
		}
	}
	// The rows of lab compare carry the same distinctions.
	var names []string
	for _, r := range compareRows([]Compared{{Label: "a", Dir: "a", Summary: comparedSummary(t)}}) {
		names = append(names, r[0])
	}
	all := strings.Join(names, "\n")
	for _, want := range []string{"board touched by moves (this lab's)", "board occupied (Ludii's BoardCoverageUsed)",
		"outcome uniformity (÷n; Ludii ÷(n−1))", "stability (pieces², mean over players; Ludii sums)",
		"game-tree complexity (log10, pooled; Ludii per game)", "branching (pooled; Ludii per game)",
		"drama (how often behind; Ludii: by how much)"} {
		if !strings.Contains(all, want+"\n") && !strings.HasSuffix(all, want) {
			t.Errorf("lab compare has no row %q", want)
		}
	}
	// The report's prose says how drama, lead changes and branching
	// differ from Ludii's.
	for name, note := range map[string]string{"drama": DramaNote, "lead changes": LeadChangeNote, "branching": BranchingNote} {
		if !strings.Contains(note, "Ludii's") {
			t.Errorf("the %s note %q does not say how Ludii's differs", name, note)
		}
	}
	if !strings.Contains(DramaNote, "how often") || !strings.Contains(DramaNote, "by how much") ||
		!strings.Contains(LeadChangeNote, "share of a game's moves") {
		t.Errorf("drama %q, lead changes %q: want frequency against severity, count against share", DramaNote, LeadChangeNote)
	}
}
