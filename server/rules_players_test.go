package server

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// developerPhrases are what a rules page for players must not hold: the
// ways to build and run the program, shell prompts and talk of its
// output. docs/rules-dev.md holds that material.
var developerPhrases = []string{"go build", "go run", "$ ", "output line", "is cut here", "exit status", "arbiter show", "arbiter moves"}

// TestRulesPagesForPlayers: every rules page, as served, reads without
// any developer phrase, and each diagram of a position still in play
// offers to try it on the analysis board.
func TestRulesPagesForPlayers(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	pages := []string{"punt"}
	for _, d := range game.All() {
		pages = append(pages, d.ID)
	}
	for _, name := range pages {
		code, body := ts.do("GET", "/rules/"+name, "", nil)
		page := string(body)
		if code != 200 {
			t.Fatalf("GET /rules/%s: %d", name, code)
		}
		for _, bad := range developerPhrases {
			if strings.Contains(page, bad) {
				i := strings.Index(page, bad)
				t.Errorf("/rules/%s holds %q: …%s…", name, bad, page[max(0, i-60):min(len(page), i+60)])
			}
		}
		if !strings.Contains(page, `<a class="try" href="/analysis/`) {
			t.Errorf("/rules/%s: no diagram offers to try its position", name)
		}
	}
}
