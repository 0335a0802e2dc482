package lobby

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLobbyKnowsNoHTTP: the lobby serves any transport, so it imports no
// net/http, directly or through another package.
func TestLobbyKnowsNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Errorf("lobby depends on %s", dep)
		}
	}
}

// TestLobbyTagsNoWire: the wire's shapes are the transport's (the
// server's wire.go), so no type of the lobby's carries a struct tag.
func TestLobbyTagsNoWire(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if field, ok := n.(*ast.Field); ok && field.Tag != nil {
				t.Errorf("%s: the tag %s", fset.Position(field.Pos()), field.Tag.Value)
			}
			return true
		})
	}
}
