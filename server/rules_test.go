package server

import (
	"bytes"
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
	ts := newTestServer(t, Config{})
	titles := map[string]string{"pommel": "Pommel", "pommel-76": "Pommel", "eximo": "Eximo",
		"checkers-2011": "Checkers 2011", "punt-match": "Punt", "punt-heks-match": "Punt", "punt-heks-match-3p": "Punt"}
	if len(titles) != len(game.All()) {
		t.Fatalf("the test knows %d games, the program %d", len(titles), len(game.All()))
	}
	anchor := regexp.MustCompile(`href="#([^"]*)"`)
	for _, d := range game.All() {
		code, body := ts.do("GET", "/rules/"+d.ID, "", nil)
		page := strings.Replace(string(body), `<script defer src="/assets/app.js"></script>`, "", 1)
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
		if !strings.Contains(page, "<pre><code>") || !strings.Contains(page, `href="/analysis/`+d.ID+`"`) {
			t.Errorf("/rules/%s: no diagram or no link to the analysis page", d.ID)
		}
		for _, shot := range []string{d.ID + "-start.png", d.ID + "-middle.png"} {
			code, img := ts.do("GET", "/rules/img/"+shot, "", nil)
			if !strings.Contains(page, `<img src="/rules/img/`+shot+`"`) || code != http.StatusOK || !bytes.HasPrefix(img, []byte("\x89PNG")) {
				t.Errorf("/rules/%s: the screenshot %s is not shown (GET: %d)", d.ID, shot, code)
			}
		}
		for _, m := range anchor.FindAllStringSubmatch(page, -1) {
			if !strings.Contains(page, `id="`+m[1]+`"`) {
				t.Errorf("/rules/%s: link #%s leads to no heading", d.ID, m[1])
			}
		}
	}
}

func TestRulesPageRefusals(t *testing.T) {
	ts := newTestServer(t, Config{})
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

func TestMarkdownHTML(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"heading with anchor", "## 5.2 Liberation: `x`", `<h2 id="52-liberation-x">5.2 Liberation: <code>x</code></h2>` + "\n"},
		{"paragraph joins lines", "one\ntwo", "<p>one two</p>\n"},
		{"html is escaped", `<script>alert("x")</script> & <b>`, "<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;</p>\n"},
		{"html in a code block is escaped", "```\n<i>w</i>  b\n```", "<pre><code>&lt;i&gt;w&lt;/i&gt;  b\n</code></pre>\n"},
		{"code block keeps spacing", "```text\n 8  .  w\n    a  b\n```", "<pre><code> 8  .  w\n    a  b\n</code></pre>\n"},
		{"strong and emphasis", "**bold** and *it* and _us_ but snake_case_word", "<p><strong>bold</strong> and <em>it</em> and <em>us</em> but snake_case_word</p>\n"},
		{"anchor link", "[Example 1](#example-1)", `<p><a href="#example-1">Example 1</a></p>` + "\n"},
		{"rules page link", "[Eximo](eximo.md#6-notation)", `<p><a href="/rules/eximo#6-notation">Eximo</a></p>` + "\n"},
		{"outside link keeps only its text", "[site](https://example.com/x)", "<p>site</p>\n"},
		{"script link keeps only its text", `[x](javascript:alert(1))`, "<p>x)</p>\n"},
		{"bullet list", "- a\n- b\n  more", "<ul>\n<li>a</li>\n<li>b more</li>\n</ul>\n"},
		{"nested list", "- a\n  - b\n- c", "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ul>\n"},
		{"ordered list with continuation", "1. **A.** one\n   two\n2. three", "<ol>\n<li><strong>A.</strong> one two</li>\n<li>three</li>\n</ol>\n"},
		{"table", "| a | `b|c` |\n|:-:|---|\n| <x> | 2 |", "<table>\n<thead><tr><th>a</th><th><code>b|c</code></th></tr></thead>\n<tbody>\n<tr><td>&lt;x&gt;</td><td>2</td></tr>\n</tbody>\n</table>\n"},
		{"quote", "> said\n> twice", "<blockquote>\n<p>said twice</p>\n</blockquote>\n"},
		{"unclosed marks stay text", "a * b ` c [d", "<p>a * b ` c [d</p>\n"},
		{"a screenshot of docs/img", "![the start](../img/pommel-start.png)", `<p><img src="/rules/img/pommel-start.png" alt="the start"></p>` + "\n"},
		{"another image keeps only its text", "![x <y>](https://example.com/a.png) ![z](../img/../../a.png)", "<p>x &lt;y&gt; z</p>\n"},
	} {
		if got := markdownHTML(tc.src); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
