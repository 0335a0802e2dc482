package puzzles

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/depstest"
)

// TestPuzzlesKnowNoHTTP: the service serves any transport (the server
// today, a command tomorrow), so it depends on no net/http, directly or
// through another package.
func TestPuzzlesKnowNoHTTP(t *testing.T) { depstest.NoHTTP(t) }
