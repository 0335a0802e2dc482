package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestNotFoundPages: an unknown game, an unknown game to analyse, an
// unknown rules page and any unknown path answer 404 with the site's
// not-found page: its header, a sentence naming what was not found, the
// way home and to the rules, and no shell of a page the script would
// draw (no move box, no engine).
func TestNotFoundPages(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, tc := range []struct{ path, what string }{
		{"/games/nope", `There is no game &#34;nope&#34; here`},
		{"/play/nope?seat=0", `There is no game &#34;nope&#34; here`},
		{"/analysis/chess", `There is no game &#34;chess&#34; to analyse.`},
		{"/rules/chess", `There is no rules page for &#34;chess&#34;; the games are checkers-2011, eximo`},
		{"/nowhere", `There is no page at &#34;/nowhere&#34;.`},
		{"/rules/pommel/more", `There is no page at &#34;/rules/pommel/more&#34;.`},
		{"/games/<b>" + strings.Repeat("x", 200), `There is no game &#34;&lt;b&gt;xxx`},
	} {
		code, body := ts.do("GET", tc.path, "", nil)
		page := string(body)
		if code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", tc.path, code)
		}
		for _, want := range []string{`<header class="site">`, `<h1 id="not-found-title">Not found</h1>`, tc.what,
			`href="/" class="not-found-home play"`, `href="/rules/pommel">Pommel</a>`, `href="/rules/punt-heks-match-3p">`} {
			if !strings.Contains(page, want) {
				t.Errorf("GET %s: the page lacks %s", tc.path, want)
			}
		}
		for _, bad := range []string{`data-page="game"`, `data-page="analysis"`, `id="app"`, "<b>", strings.Repeat("x", 81)} {
			if strings.Contains(page, bad) {
				t.Errorf("GET %s: the page holds %s", tc.path, bad)
			}
		}
	}
	// The API keeps its JSON refusal; other methods a plain 404.
	if code, body := ts.do("GET", "/api/nowhere", "", nil); code != http.StatusNotFound || errorCode(body) != codeNotFound {
		t.Errorf("GET /api/nowhere: %d %s, want the API's JSON 404", code, body)
	}
	if code, body := ts.do("POST", "/nowhere", "", map[string]any{}); code != http.StatusNotFound || strings.Contains(string(body), "<html") {
		t.Errorf("POST /nowhere: %d %.80s, want a plain 404", code, body)
	}
}

// TestPageOfGameLookupIsARead: the look-up of the game behind a game page
// counts against the client's reads; over the limit the page is served
// without it, so that page loads cannot hammer the store.
func TestPageOfGameLookupIsARead(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{ReadsPerSecond: 0.001, ReadBurst: 1}})
	if code, _ := ts.do("GET", "/games/nope", "", nil); code != http.StatusNotFound {
		t.Fatalf("GET /games/nope within the limit: %d, want 404", code)
	}
	code, body := ts.do("GET", "/games/nope", "", nil)
	if code != http.StatusOK || !strings.Contains(string(body), `data-page="game"`) {
		t.Errorf("GET /games/nope over the limit: %d, want the page served without the look-up", code)
	}
}

// TestAnalysisPageOfEveryGame: each game's analysis page is served.
func TestAnalysisPageOfEveryGame(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, d := range game.All() {
		if code, body := ts.do("GET", "/analysis/"+d.ID, "", nil); code != http.StatusOK || !strings.Contains(string(body), `data-page="analysis"`) {
			t.Errorf("GET /analysis/%s: %d, want the analysis page", d.ID, code)
		}
	}
}

// TestCatalogNames: the catalog names every game for people and gives
// its card's line without the name.
func TestCatalogNames(t *testing.T) {
	want := map[string]string{"pommel": "Pommel", "pommel-76": "Pommel 76", "eximo": "Eximo", "checkers-2011": "Checkers 2011",
		"punt-match": "Punt-Match", "punt-heks-match": "Punt-Heks-Match", "punt-heks-match-3p": "Punt-Heks-Match (3 players)"}
	for _, d := range game.All() {
		if got := gameName(d.ID); got != want[d.ID] {
			t.Errorf("gameName(%s) = %q, want %q", d.ID, got, want[d.ID])
		}
		line := gameTagline(d)
		if line == "" || strings.HasPrefix(line, want[d.ID]+":") || strings.ToUpper(line[:1]) != line[:1] {
			t.Errorf("gameTagline(%s) = %q, want the summary without the name, capitalised", d.ID, line)
		}
	}
	if got := gameTagline(game.Descriptor{Summary: "Eximo: 8x8 checkers"}); got != "8x8 checkers" {
		t.Errorf("tagline %q", got)
	}
}
