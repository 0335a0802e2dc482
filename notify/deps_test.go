package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoHTTPServer: the service is an HTTP client of the push services,
// never a server: it imports no transport of the site's and serves
// nothing (no handler, no listener in its code).
func TestNoHTTPServer(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if imp == "github.com/arbiter-games/arbiter/server" || strings.HasPrefix(imp, "net/http/") {
			t.Errorf("notify imports %s", imp)
		}
	}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, server := range []string{"http.Handler", "http.ServeMux", "ListenAndServe", "http.Server{", "net.Listen("} {
			if strings.Contains(string(src), server) {
				t.Errorf("%s serves: %s", name, server)
			}
		}
	}
}
