package rulespage

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNoNetworkDependency keeps the package, and all it imports, free of
// net/http: it turns Markdown into HTML, and serving that is the server's.
func TestNoNetworkDependency(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the imports with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	if deps := strings.Fields(string(out)); slices.Contains(deps, "net/http") {
		t.Error("rulespage imports net/http")
	}
}
