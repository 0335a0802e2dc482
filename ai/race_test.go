package ai

import "testing"

// skipUnderRace skips a test of one goroutine's search under the race
// detector: it has no race to find, the full and -short runs check what
// it checks, and the detector makes its searches ten times slower. The
// tests of threads sharing a table (smp_test.go) and of engines shared
// between goroutines still run under it.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceOn {
		t.Skip("one goroutine's search: checked without the race detector")
	}
}
