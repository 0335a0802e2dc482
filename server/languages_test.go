package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/i18n"
)

// getPage asks for path with the headers given (name, value, ...).
func getPage(t *testing.T, ts *testServer, path string, header ...string) (*http.Response, string) {
	t.Helper()
	resp, body := getAsset(t, ts, "GET", path, header...)
	return resp, string(body)
}

// TestPagesInTheReadersLanguage: every page is written in the language
// the lang cookie names, else the best of Accept-Language's, else
// English: its <html lang>, its shell's words, the script of its
// language's messages, and the headers that say so.
func TestPagesInTheReadersLanguage(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	id := ts.twoHumans().ID
	en, nl := catalogAsset(t, ts, "en"), catalogAsset(t, ts, "nl")
	for _, tc := range []struct {
		name   string
		header []string
		lang   string
	}{
		{"no preference", nil, "en"},
		{"Dutch", []string{"Accept-Language", "nl"}, "nl"},
		{"Belgian Dutch before English", []string{"Accept-Language", "nl-BE,nl;q=0.9,en;q=0.8"}, "nl"},
		{"English before Dutch", []string{"Accept-Language", "en-GB,en;q=0.9,nl;q=0.8"}, "en"},
		{"a language the site has not", []string{"Accept-Language", "de-DE,de;q=0.9"}, "en"},
		{"German, then Dutch", []string{"Accept-Language", "de,nl;q=0.5"}, "nl"},
		{"a choice made beats the browser", []string{"Accept-Language", "nl", "Cookie", "lang=en"}, "en"},
		{"a choice of Dutch", []string{"Accept-Language", "en-US", "Cookie", "lang=nl"}, "nl"},
		{"a cookie naming no language", []string{"Accept-Language", "nl", "Cookie", "lang=xx"}, "nl"},
	} {
		for _, path := range []string{"/", "/play/" + id, "/analysis/pommel", "/learn", "/puzzles", "/account", "/@/ann", "/rules/pommel", "/no/such/page"} {
			resp, page := getPage(t, ts, path, tc.header...)
			script := map[string]string{"en": en, "nl": nl}[tc.lang]
			if !strings.Contains(page, `<html lang="`+tc.lang+`">`) || !strings.Contains(page, `<script defer src="`+script+`"></script>`) {
				t.Errorf("%s: GET %s is not in %s (html lang, catalog script):\n%.400s", tc.name, path, tc.lang, page)
			}
			if got := resp.Header.Get("Content-Language"); got != tc.lang {
				t.Errorf("%s: GET %s: Content-Language %q, want %q", tc.name, path, got, tc.lang)
			}
			if vary := resp.Header.Get("Vary"); !strings.Contains(vary, "Accept-Language") || !strings.Contains(vary, "Cookie") {
				t.Errorf("%s: GET %s: Vary %q, want Accept-Language and Cookie", tc.name, path, vary)
			}
			if strings.Contains(page, "{{") {
				t.Errorf("%s: GET %s: a placeholder left", tc.name, path)
			}
		}
	}
}

// TestShellsInDutch: the shells' titles and the lines shown without
// JavaScript are the catalog's, in Dutch for a Dutch reader; a title the
// request writes (a player's name) is the name.
func TestShellsInDutch(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for path, want := range map[string]string{
		"/":                "Deze server speelt Pommel, Eximo, Checkers 2011 en de Punt-spellen.",
		"/analysis/pommel": "<title>arbiter-analyse</title>",
		"/learn":           "<title>Leer de spellen (arbiter)</title>",
		"/puzzles":         "De puzzels hebben JavaScript nodig.",
		"/signup":          "<title>Account aanmaken (arbiter)</title>",
		"/account":         "<title>Je account (arbiter)</title>",
		"/leaderboard":     "<title>Ranglijst (arbiter)</title>",
		"/@/ann":           "<title>ann (arbiter)</title>",
	} {
		if _, page := getPage(t, ts, path, "Accept-Language", "nl"); !strings.Contains(page, want) {
			t.Errorf("GET %s in Dutch: no %q in\n%.600s", path, want, page)
		}
	}
}

// TestRulesPagesStayEnglish: a rules page is the project's English text
// in any language, marked lang="en"; in another language the page says
// so in one line at its top, in that language, and its own frame (the
// title, the ways to play) is in it.
func TestRulesPagesStayEnglish(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	_, nl := getPage(t, ts, "/rules/pommel", "Accept-Language", "nl")
	for _, want := range []string{`<html lang="nl">`, `<title>Spelregels van Pommel (arbiter)</title>`,
		`<p class="in-english">De spelregels zijn alleen in het Engels beschikbaar.</p>`,
		`<article class="rules" lang="en">`, `>Pommel spelen</a>`, `>Een stelling van Pommel analyseren</a>`} {
		if !strings.Contains(nl, want) {
			t.Errorf("the Dutch rules page has no %q", want)
		}
	}
	if strings.Index(nl, `class="in-english"`) > strings.Index(nl, `<article`) {
		t.Error("the line saying the rules are English comes after them")
	}
	_, en := getPage(t, ts, "/rules/pommel")
	if strings.Contains(en, "in-english") || !strings.Contains(en, `<article class="rules" lang="en">`) || !strings.Contains(en, "<title>Pommel rules (arbiter)</title>") {
		t.Error("the English rules page says its rules are English, or lost its lang or title")
	}
}

// TestNotFoundInDutch: the server's own pages say what was not found in
// the reader's language.
func TestNotFoundInDutch(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for path, want := range map[string]string{
		"/no/such/page":     "Er is geen pagina op",
		"/games/nosuch":     "Hier is geen partij",
		"/analysis/chess":   "Er is geen spel",
		"/rules/chess":      "Er zijn geen spelregels voor",
		"/learn/nosuch":     "Geen les",
		"/puzzles/nosuch":   "Geen spel",
		"/no/such/page?x=1": "Naar de startpagina",
	} {
		resp, page := getPage(t, ts, path, "Accept-Language", "nl")
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(page, want) || !strings.Contains(page, `<html lang="nl">`) {
			t.Errorf("GET %s in Dutch: %d, want 404 saying %q:\n%.500s", path, resp.StatusCode, want, page)
		}
	}
}

// TestCatalogScripts: each language's messages are a script of the
// server's own making, under a hashed name kept a year, gzipped; a name
// of no language is a 404.
func TestCatalogScripts(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, lang := range []string{"en", "nl"} {
		path := catalogAsset(t, ts, lang)
		resp, body := getAsset(t, ts, "GET", path)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != immutable || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
			t.Errorf("GET %s: %d, %s, %s", path, resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Type"))
		}
		if !strings.HasPrefix(string(body), `self.arbiterI18n={"lang":"`+lang+`"`) {
			t.Errorf("GET %s: %.80s", path, body)
		}
		if resp, _ := getAsset(t, ts, "GET", path, "Accept-Encoding", "gzip"); resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s taking gzip: not gzipped", path)
		}
	}
	if resp, _ := getAsset(t, ts, "GET", "/assets/i18n-xx.js"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a catalog of no language: %d", resp.StatusCode)
	}
}

// TestTaglinesMatchTheGames: the catalog's English line of each game's
// card is the game's own (its descriptor's summary, as the API gives
// it), so that the English page says what the game says, and every game
// has its line in the catalogs.
func TestTaglinesMatchTheGames(t *testing.T) {
	langs, err := siteCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	en := langs.Messages(i18n.Default)
	for _, d := range game.All() {
		id := "tagline." + strings.ReplaceAll(d.ID, "-", "_")
		if got := en[id]["other"]; got != gameTagline(d) {
			t.Errorf("%s: en.toml says %q, the game %q", id, got, gameTagline(d))
		}
	}
}
