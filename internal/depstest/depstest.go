// Package depstest holds the checks of the packages' dependency tests:
// what a package imports, as go list reports it, and what its own types
// carry, so that each layer's rule is tested the same way.
package depstest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// NoHTTP fails t when the package in the test's folder depends on
// net/http, directly or through another package.
func NoHTTP(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Errorf("depends on %s", dep)
		}
	}
}

// NoStructTags fails t when a type of the package in the test's folder
// (its files but its tests) carries a struct tag.
func NoStructTags(t *testing.T) {
	t.Helper()
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
