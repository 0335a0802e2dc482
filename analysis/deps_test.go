package analysis

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/depstest"
)

// TestAnalysisKnowsNoHTTP: the analysis serves any transport, so it
// imports no net/http, directly or through another package.
func TestAnalysisKnowsNoHTTP(t *testing.T) { depstest.NoHTTP(t) }
