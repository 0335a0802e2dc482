package review

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/internal/depstest"
)

// TestReviewKnowsNoHTTP: a review runs engines and nothing else, for any
// service and transport, so it imports no net/http, directly or through
// another package.
func TestReviewKnowsNoHTTP(t *testing.T) { depstest.NoHTTP(t) }

// TestReviewHasNoStructTags: the wire types live in the server; the
// review's are plain.
func TestReviewHasNoStructTags(t *testing.T) { depstest.NoStructTags(t) }

// TestReviewKeepsNothing: no store, no analysis service, no server: the
// review is given its game and tables and returns plain data.
func TestReviewKeepsNothing(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/arbiter-games/arbiter/"
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"store", "analysis", "hall", "server", "database/sql"} {
			if dep == banned || strings.HasPrefix(dep, module+banned) {
				t.Errorf("depends on %s", dep)
			}
		}
	}
}
