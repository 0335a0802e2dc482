package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/review"
)

// TestReviewFitWritesCurves: 'arbiter review fit' adds each game's curve
// to the curves file, replacing its own entry and keeping the others,
// and records the command that made it.
func TestReviewFitWritesCurves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curves.json")
	for _, id := range []string{"eximo", "pommel", "eximo"} {
		var out, errOut bytes.Buffer
		args := []string{"review", "fit", id, "--games", "2", "--nodes", "300", "--play-nodes", "100", "--every", "10", "--workers", "1", "-q", "--out", path}
		if code := Execute(args, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", id, code, errOut.String())
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var curves []review.Curve
	if err := json.Unmarshal(data, &curves); err != nil {
		t.Fatal(err)
	}
	if len(curves) != 2 || curves[0].Game != "eximo" || curves[1].Game != "pommel" {
		t.Fatalf("curves %+v, want eximo's and pommel's", curves)
	}
	want := "arbiter review fit eximo --games 2 --seed 1 --nodes 300 --play-nodes 100 --random-plies 8 --every 10"
	if c := curves[0]; c.Command != want || c.Games != 2 || c.Nodes != 300 || !(c.K > 0) {
		t.Errorf("eximo: %+v, want the command %q", c, want)
	}
}

// TestReviewFitRefusals: each bad flag is refused in one line naming it.
func TestReviewFitRefusals(t *testing.T) {
	for _, tc := range []struct{ flag, value string }{
		{"games", "0"},
		{"nodes", "0"},
		{"play-nodes", "-1"},
		{"random-plies", "201"},
		{"every", "0"},
		{"workers", "0"},
	} {
		var out, errOut bytes.Buffer
		code := Execute([]string{"review", "fit", "eximo", "--" + tc.flag, tc.value}, strings.NewReader(""), &out, &errOut)
		line := strings.TrimSpace(errOut.String())
		if code == 0 || !strings.Contains(line, "--"+tc.flag) || strings.Contains(line, "\n") {
			t.Errorf("--%s %s: exit %d, %q", tc.flag, tc.value, code, line)
		}
	}
	var out, errOut bytes.Buffer
	if code := Execute([]string{"review", "fit", "chess"}, strings.NewReader(""), &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "unknown game") {
		t.Errorf("an unknown game: exit %d, %q", code, errOut.String())
	}
}
