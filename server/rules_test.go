package server

import (
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/docs"
	"github.com/arbiter-games/arbiter/game"
)

// TestRulesPages: every game id has its rules page, titled with its
// family's heading, with no script but the bundle, no outside URL and
// every in-page link resolving to a heading of the page.
func TestRulesPages(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	titles := map[string]string{"pommel": "Pommel", "pommel-76": "Pommel", "eximo": "Eximo",
		"checkers-2011": "Checkers 2011", "punt-match": "Punt", "punt-heks-match": "Punt", "punt-heks-match-3p": "Punt"}
	if len(titles) != len(game.All()) {
		t.Fatalf("the test knows %d games, the program %d", len(titles), len(game.All()))
	}
	anchor := regexp.MustCompile(`href="#([^"]*)"`)
	for _, d := range game.All() {
		code, body := ts.do("GET", "/rules/"+d.ID, "", nil)
		page := strings.Replace(string(body), `<script defer src="`+hashedAsset(t, "app.js")+`"></script>`, "", 1)
		page = strings.Replace(page, `<script defer src="`+catalogAsset(t, ts, "en")+`"></script>`, "", 1)
		if code != http.StatusOK {
			t.Errorf("GET /rules/%s: %d", d.ID, code)
			continue
		}
		if !strings.Contains(page, "<h1") || !strings.Contains(page, "<title>"+titles[d.ID]) {
			t.Errorf("/rules/%s: no title %q", d.ID, titles[d.ID])
		}
		for _, bad := range []string{"http://", "https://", "<script", "style="} {
			if strings.Contains(page, bad) {
				t.Errorf("/rules/%s holds %q", d.ID, bad)
			}
		}
		if !strings.Contains(page, `<figure class="diagram"`) || !strings.Contains(page, `href="/analysis/`+d.ID+`"`) {
			t.Errorf("/rules/%s: no diagram or no link to the analysis page", d.ID)
		}
		// The app's screenshots (a spectator's page, its address) are
		// the README's, not the rules' (issue 36).
		if strings.Contains(page, "<img") {
			t.Errorf("/rules/%s shows an image: the rules' diagrams are drawn, the app's screenshots are not theirs", d.ID)
		}
		for _, m := range anchor.FindAllStringSubmatch(page, -1) {
			if !strings.Contains(page, `id="`+m[1]+`"`) {
				t.Errorf("/rules/%s: link #%s leads to no heading", d.ID, m[1])
			}
		}
	}
}

func TestRulesPageRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, path := range []string{"/rules/chess", "/rules/pommel-99x", "/rules/%3Cb%3E"} {
		code, body := ts.do("GET", path, "", nil)
		if code != http.StatusNotFound || !strings.Contains(string(body), "the games are checkers-2011, eximo") || strings.Contains(string(body), "<b>") {
			t.Errorf("GET %s: %d %.80s, want 404 naming the games", path, code, body)
		}
	}
	// A page name reached by the pages' links to each other.
	if code, _ := ts.do("GET", "/rules/punt", "", nil); code != http.StatusOK {
		t.Errorf("GET /rules/punt: %d, want the Punt page", code)
	}
}

// TestRulesFilesAreServed: each file under docs/rules is some game's page.
func TestRulesFilesAreServed(t *testing.T) {
	served := map[string]bool{}
	for _, d := range game.All() {
		file, ok := rulesFile(d.ID)
		if !ok {
			t.Errorf("%s has no rules page", d.ID)
		}
		served[file] = true
	}
	files, err := fs.Glob(docs.Rules(), "*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !served[f] {
			t.Errorf("docs/rules/%s is the page of no game", f)
		}
	}
}
