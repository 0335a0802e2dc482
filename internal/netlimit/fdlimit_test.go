//go:build unix

package netlimit

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func TestFDLimit(t *testing.T) {
	soft, hard, err := FDLimit()
	if err != nil {
		t.Fatal(err)
	}
	if soft == 0 || soft > hard {
		t.Fatalf("FDLimit() = %d, %d", soft, hard)
	}
	t.Logf("RLIMIT_NOFILE soft %d hard %d", soft, hard)
}

// TestRuntimeRaisesFDLimit checks what FDLimit's comment says: started
// with a low soft limit, a Go process finds it raised to hard-1 before
// main (here, before the test runs).
func TestRuntimeRaisesFDLimit(t *testing.T) {
	if os.Getenv("NETLIMIT_CHILD") == "1" {
		soft, hard, err := FDLimit()
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("LIMITS " + strconv.FormatUint(soft, 10) + " " + strconv.FormatUint(hard, 10) + "\n")
		return
	}
	_, hard, err := FDLimit()
	if err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil || hard < 1000 {
		t.Skip("needs sh and a hard limit of 1000 or more")
	}
	// sh lowers its own soft limit, then runs this test binary again.
	cmd := exec.Command(sh, "-c", `ulimit -S -n 256 && exec "$0" -test.run='^TestRuntimeRaisesFDLimit$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "NETLIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("could not run the child: %v\n%s", err, out)
	}
	_, rest, ok := strings.Cut(string(out), "LIMITS ")
	if !ok {
		t.Fatalf("child said %s", out)
	}
	f := strings.Fields(rest)
	t.Logf("child started with soft limit 256 saw soft, hard = %v", f[:min(2, len(f))])
	if len(f) < 2 || f[0] != strconv.FormatUint(hard-1, 10) || f[1] != strconv.FormatUint(hard, 10) {
		t.Errorf("child started with soft 256 saw %q, want soft %d hard %d", f, hard-1, hard)
	}
}
