package pommel

import (
	"os/exec"
	"testing"
)

// TestNarrowGenerated checks that movegen_narrow.go is movegen.go on
// one-word sets, as narrowgen.go writes it. It builds the generator, a
// second or so: the short tests rely on the mask tests instead, which
// compare the two generators' moves at every position they visit.
func TestNarrowGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs narrowgen.go")
	}
	out, err := exec.Command("go", "run", "narrowgen.go", "-check").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}
