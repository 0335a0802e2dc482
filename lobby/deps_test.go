package lobby

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLobbyKnowsNoHTTP: the lobby serves any transport, so it imports no
// net/http, directly or through another package.
func TestLobbyKnowsNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Errorf("lobby depends on %s", dep)
		}
	}
}
