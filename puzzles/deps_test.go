package puzzles

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPuzzlesKnowNoHTTP: the service serves any transport (the server
// today, a command tomorrow), so no package of this module that it
// depends on, itself included, imports net/http.
func TestPuzzlesKnowNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(pkg, "github.com/arbiter-games/arbiter/") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if imp == "net/http" || strings.HasPrefix(imp, "net/http/") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}
