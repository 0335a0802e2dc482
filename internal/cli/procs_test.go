package cli

import (
	"runtime"
	"testing"
)

// TestOversubscribe: twice the processors Go would take, unless
// $GOMAXPROCS names a number, which is kept.
func TestOversubscribe(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "")
	runtime.GOMAXPROCS(3)
	if got := oversubscribe(); got != 6 || runtime.GOMAXPROCS(0) != 6 {
		t.Errorf("oversubscribe from 3 = %d (GOMAXPROCS %d), want 6", got, runtime.GOMAXPROCS(0))
	}
	t.Setenv("GOMAXPROCS", "3")
	runtime.GOMAXPROCS(3)
	if got := oversubscribe(); got != 3 || runtime.GOMAXPROCS(0) != 3 {
		t.Errorf("with GOMAXPROCS=3: %d (GOMAXPROCS %d), want 3 kept", got, runtime.GOMAXPROCS(0))
	}
}
