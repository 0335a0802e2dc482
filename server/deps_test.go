package server

import (
	"os/exec"
	"strings"
	"testing"
)

// TestServerImportsNoStoreEngineOrRating: the server is a transport. It
// reaches the store only through the hall, the lobby and the account
// service, the engines only through the hall and the analysis, and the
// ratings only through the accounts, so that each limit has one home. Its
// own imports (not its tests') name none of those packages.
func TestServerImportsNoStoreEngineOrRating(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/arbiter-games/arbiter/"
	banned := []string{"store", "ai", "endgame", "rating", "match", "tune", "uci", "play"}
	for _, imp := range strings.Fields(string(out)) {
		for _, b := range banned {
			if imp == module+b || strings.HasPrefix(imp, module+b+"/") {
				t.Errorf("server imports %s", imp)
			}
		}
	}
}
