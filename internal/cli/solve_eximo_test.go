package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveEximo: Eximo's tables (drops) build, pass --check (both
// bounds of every position), count the positions they do not hold, and
// probe: a value where the bounds agree, one line on stderr where they
// do not.
func TestSolveEximo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "eximo")
	out := runOK(t, "solve", "eximo", "--pieces", "2", "--out", dir, "--check")
	for _, want := range []string{
		"material  positions  wins  draws  losses  not held  longest win",
		"MvM       6176   580      0      88      5508            5",
		"checked 12352 positions of 1 material",
		": 0 failures",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("solve eximo prints\n%s\nwant a line with %q", out, want)
		}
	}
	// Black's d4xd6 takes White's last man.
	if got := runOK(t, "probe", "eximo", "--tables", dir, "--from", "B:Wd5:Bd4"); got != "win 1\n" {
		t.Errorf("probe B:Wd5:Bd4 prints %q, want win 1", got)
	}
	for _, tt := range []struct{ fen, want string }{
		// Black's only moves leave on row 8 and drop two men.
		{"B:Wh5:Ba7", "its value depends on positions of more than 2 pieces (it is between loss 2 and win 1)"},
		{"B:Wh5:Ba6,b6", "the position has 3 pieces; the tables in " + dir + " hold at most 2"},
	} {
		r := run(t, "", "probe", "eximo", "--tables", dir, "--from", tt.fen)
		if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("probe %s: exit %d, stdout %q, stderr %q; want one line with %q", tt.fen, r.code, r.out, r.errOut, tt.want)
		}
	}
	sample := runOK(t, "probe", "eximo", "--tables", dir, "--sample", "5", "--value", "loss")
	if n := strings.Count(sample, "# loss"); n != 5 {
		t.Errorf("a sample of 5 losses prints\n%s", sample)
	}
}
