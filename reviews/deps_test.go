package reviews

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/depstest"
)

// TestReviewsKnowNoHTTP: the reviews serve any transport (the server,
// "arbiter work"), so they import no net/http, directly or through
// another package.
func TestReviewsKnowNoHTTP(t *testing.T) { depstest.NoHTTP(t) }
