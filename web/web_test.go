package web

import (
	"bytes"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestBundleIsFresh builds src/ as go generate does and compares the result
// with the committed static/app.js, so that a change to the sources
// without `go generate ./web/` fails here and not in a browser.
func TestBundleIsFresh(t *testing.T) {
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{"src/main.ts"},
		Bundle:      true,
		Format:      api.FormatIIFE,
		Target:      api.ES2020,
		Charset:     api.CharsetUTF8,
		Outfile:     "static/app.js",
		Write:       false,
		LogLevel:    api.LogLevelSilent,
	})
	for _, m := range res.Errors {
		t.Errorf("esbuild: %s", m.Text)
	}
	if len(res.OutputFiles) != 1 {
		t.Fatalf("esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	committed, err := os.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.OutputFiles[0].Contents, committed) {
		t.Fatal("static/app.js differs from a fresh build of src/; run go generate ./web/ and commit the result")
	}
}

// TestAssets checks that the embedded files are the ones the pages load,
// and that the bundle reads no outside URL (the CSP allows only 'self').
func TestAssets(t *testing.T) {
	for _, name := range []string{"app.js", "app.css"} {
		data, err := fs.ReadFile(Assets(), name)
		if err != nil {
			t.Fatalf("%s is not embedded: %v", name, err)
		}
		if len(data) == 0 {
			t.Errorf("%s is empty", name)
		}
		if strings.Contains(string(data), "https://") {
			t.Errorf("%s refers to an outside URL", name)
		}
	}
}
