package botclient

import (
	"os/exec"
	"strings"
	"testing"
)

// TestClientKnowsOnlyTheAPI: the client speaks to a site through its
// HTTP API alone, so it imports none of the site's own packages (the
// server, the services, the store): a change inside the site cannot
// change the client unseen, and the client builds on its own.
func TestClientKnowsOnlyTheAPI(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/arbiter-games/arbiter/"
	for _, dep := range strings.Fields(string(out)) {
		for _, site := range []string{"server", "internal/site", "hall", "lobby", "accounts", "community", "store", "internal/cli"} {
			if dep == module+site || strings.HasPrefix(dep, module+site+"/") {
				t.Errorf("depends on %s", dep)
			}
		}
	}
}
