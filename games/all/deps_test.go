package all_test

import (
	"maps"
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
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestRulesDependOnNoPresentation: the core (game) and every game package
// depend, directly or not, on none of the forbidden packages: the rules
// import no drawing, no network, no processes and no database. One go
// list names every package's dependencies (.Deps, all of them, direct or
// not): a go command for each package cost a second of CPU.
func TestRulesDependOnNoPresentation(t *testing.T) {
	const module = "github.com/arbiter-games/arbiter"
	deps := map[string][]string{}
	for _, line := range goList(t, "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"/game", module+"/board", module+"/games/...") {
		fields := strings.Fields(line)
		deps[fields[0]] = fields[1:]
	}
	for _, pkg := range []string{module + "/game", module + "/board", module + "/games/punt", module + "/games/pommel"} {
		if _, ok := deps[pkg]; !ok {
			t.Fatalf("go list lists %v, not %s", slices.Collect(maps.Keys(deps)), pkg)
		}
	}
	if !slices.Contains(deps[module+"/games/punt"], module+"/game") {
		t.Fatalf("go list's dependencies of games/punt are %v, without the core", deps[module+"/games/punt"])
	}
	for pkg, d := range deps {
		for _, f := range forbidden {
			if slices.Contains(d, f) {
				t.Errorf("%s depends on %s", pkg, f)
			}
		}
	}
}
