package puzzle

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPuzzleKnowsNoHTTP: the generator runs engines and nothing else; a
// transport or a store is wired around it, never inside it.
func TestPuzzleKnowsNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") || dep == "database/sql" || strings.HasSuffix(dep, "/store") {
			t.Errorf("package puzzle depends on %s", dep)
		}
	}
}
