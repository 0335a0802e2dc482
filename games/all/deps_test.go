package all_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// forbidden are the packages the rules must not depend on: presentation
// (drawing belongs to the callers, which draw any game.State through the
// core's interfaces) and the outside world.
var forbidden = []string{
	"github.com/arbiter-games/arbiter/textboard",
	"net/http",
	"os/exec",
	"database/sql",
}

// goList runs the go command's list with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the dependencies with: %v", err)
	}
	out, err := exec.Command(goCmd, append([]string{"list"}, args...)...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return strings.Fields(string(out))
}

// TestRulesDependOnNoPresentation: the core (game) and every game package
// depend, directly or not, on none of the forbidden packages: the rules
// import no drawing, no network, no processes and no database.
func TestRulesDependOnNoPresentation(t *testing.T) {
	const module = "github.com/arbiter-games/arbiter"
	pkgs := append([]string{module + "/game", module + "/board"}, goList(t, module+"/games/...")...)
	if !slices.Contains(pkgs, module+"/games/punt") {
		t.Fatalf("go list %s/games/... lists %v, not the games", module, pkgs)
	}
	for _, pkg := range pkgs {
		deps := goList(t, "-deps", pkg)
		if !slices.Contains(deps, pkg) {
			t.Fatalf("go list -deps %s does not list the package itself: %v", pkg, deps)
		}
		for _, f := range forbidden {
			if slices.Contains(deps, f) {
				t.Errorf("%s depends on %s", pkg, f)
			}
		}
	}
}
