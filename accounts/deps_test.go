package accounts

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAccountsKnowNoHTTP: the service serves any transport, so no package
// of this module that it depends on (itself included) imports net/http.
// The WebAuthn library does (for its helpers that take a request, which
// the service does not call), so the check is of the module's packages.
func TestAccountsKnowNoHTTP(t *testing.T) {
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
