package analysis

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAnalysisKnowsNoHTTP: the analysis serves any transport, so it
// imports no net/http, directly or through another package.
func TestAnalysisKnowsNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Errorf("analysis depends on %s", dep)
		}
	}
}
