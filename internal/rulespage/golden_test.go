package rulespage

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/docs"
	_ "github.com/arbiter-games/arbiter/games/all" // the games the pages' diagrams show
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/ from the output")

// testPaths are the server's routes, so that the golden files read as
// the pages do.
var testPaths = Paths{Pages: "/rules/", Images: "/rules/img/"}

// TestRulesPagesGolden renders each page of docs/rules and compares it
// with testdata/NAME.golden; go test -update rewrites those after a
// change to a page or to the renderer, for the diff to be read.
func TestRulesPagesGolden(t *testing.T) {
	files, err := fs.Glob(docs.Rules(), "*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rules pages: %v", err)
	}
	r := New(testPaths)
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			src, err := fs.ReadFile(docs.Rules(), file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.HTML(src)
			if err != nil {
				t.Fatal(err)
			}
			checkSafe(t, got)
			compareGolden(t, filepath.Join("testdata", strings.TrimSuffix(file, ".md")+".golden"), got)
		})
	}
}

// checkSafe fails on what the server's Content-Security-Policy would
// block or what would lead off the site.
func checkSafe(t *testing.T, page string) {
	t.Helper()
	for _, bad := range []string{"<script", "style=", "http://", "https://", "javascript:", "raw HTML omitted"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (go test -update rewrites it; git diff shows how):\n%s", path, firstDifference(got, string(want)))
	}
}

// firstDifference shows the first line where got and want part.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d", i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return ""
}
