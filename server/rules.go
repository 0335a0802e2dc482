package server

import (
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/docs"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/i18n"
	"github.com/arbiter-games/arbiter/internal/rulespage"
)

// rulesRoutes adds the rules pages and the screenshots they show.
func (s *Server) rulesRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /rules/{game}", s.handleRules)
	mux.Handle("GET /rules/img/", http.StripPrefix("/rules/img/", http.FileServerFS(docs.Images())))
}

// rulesFile is the rules page of a game id: its own ("checkers-2011.md"),
// else its family's, the id up to its first hyphen ("pommel-76" reads
// pommel.md, "punt-heks-match" punt.md). A page name ("punt") names its
// own file too, so that the pages' links to each other resolve.
func rulesFile(name string) (string, bool) {
	pages := docs.Rules()
	for _, file := range []string{name + ".md", strings.SplitN(name, "-", 2)[0] + ".md"} {
		if _, err := fs.Stat(pages, file); err == nil && fs.ValidPath(file) {
			return file, true
		}
	}
	return "", false
}

// handleRules answers GET /rules/{game}: the game's rules page, rendered
// from the project's Markdown on the server (package rulespage). The page
// reads without a script (its sections open by a click); the bundle, when
// it runs, draws its diagrams.
func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	_, known := game.Lookup(name)
	file, ok := rulesFile(name)
	loc := s.page(r).loc
	if !ok || (!known && name+".md" != file) {
		s.writeNotFound(w, r, loc.T("notfound.rules", "Game", quote(name), "Games", gameIDs()))
		return
	}
	src, err := fs.ReadFile(docs.Rules(), file)
	if err != nil {
		s.writePlainPage(w, r, http.StatusInternalServerError, loc.T("rules.heading"), "<p>"+html.EscapeString(loc.T("rules.unread"))+"</p>")
		return
	}
	article, err := s.rulesPages.html(file, src)
	if err != nil {
		s.writePlainPage(w, r, http.StatusInternalServerError, loc.T("rules.heading"), "<p>"+html.EscapeString(loc.T("rules.unrendered"))+"</p>")
		return
	}
	title := strings.TrimPrefix(strings.SplitN(string(src), "\n", 2)[0], "# ")
	// The page's title stands in the header, as on every page; the ways
	// to play open the article.
	_, rest, found := strings.Cut(article, "</h1>\n")
	if !found {
		rest = article
	}
	heading := loc.T("rules.title", "Game", title)
	s.writePage(w, r, http.StatusOK, heading, heading, englishNotice(loc)+pageLinks(loc, name, known)+`<article class="rules" lang="en">`+foldSections(rest)+"</article>")
}

// englishNotice is the line that opens a rules page in a language other
// than English: the rules are written in English alone (the project's
// Markdown, docs/rules), and the reader is told so in their language
// before the text changes language under them.
func englishNotice(loc *i18n.Localizer) string {
	if loc.Lang() == "en" {
		return ""
	}
	return `<p class="in-english">` + html.EscapeString(loc.T("rules.in_english")) + "</p>"
}

// foldSections folds each section of a rules page but the first (the
// overview) under its heading, so that the page opens on its contents and
// its overview, some 3,000 px, not the 24,000 px of every diagram: a
// player opens the sections they want (a contents link opens its
// section, rules.ts; the browser's find opens them too). html is the
// page's HTML below its title; its level-2 headings are the Markdown's
// (the pages' raw HTML is written as text, rulespage).
func foldSections(html string) string {
	parts := strings.Split(html, "<h2 ")
	var out strings.Builder
	out.WriteString(parts[0])
	for i, part := range parts[1:] {
		heading, body, _ := strings.Cut(part, "</h2>\n")
		open := ""
		if i == 0 {
			open = " open"
		}
		fmt.Fprintf(&out, "<details class=\"rules-section\"%s><summary><h2 %s</h2></summary>\n%s</details>\n", open, heading, body)
	}
	return out.String()
}

// pageLinks are a rules page's ways to play: a new game of the page's
// game on the home page's form, and the analysis board; a family's page
// ("punt") offers the home page, where its games are.
func pageLinks(loc *i18n.Localizer, name string, known bool) string {
	if !known {
		return `<p class="page-links"><a href="/" class="play">` + html.EscapeString(loc.T("rules.play_any")) + `</a></p>`
	}
	id, shown := html.EscapeString(name), gameName(name)
	return fmt.Sprintf(`<p class="page-links"><a href="/?game=%s" class="play" data-game="%s">%s</a> `+
		`<a href="/analysis/%s" class="analyse">%s</a></p>`, id, id, html.EscapeString(loc.T("rules.play", "Game", shown)),
		id, html.EscapeString(loc.T("rules.analyse", "Game", shown)))
}

// rulesHTML is the HTML of a rules page's Markdown, its links led to the
// routes of rulesRoutes.
func rulesHTML(src []byte) (string, error) {
	return rulespage.New(rulespage.Paths{Pages: "/rules/", Images: "/rules/img/", Analysis: "/analysis/"}).HTML(src)
}

// rulesCache keeps each rules page's HTML once rendered: the pages are
// part of the binary, and a page costs some 10 ms of CPU to render (its
// diagrams), which a client asking again and again must not cost again.
type rulesCache struct {
	mu    sync.Mutex
	pages map[string]string
}

func (c *rulesCache) html(file string, src []byte) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if page, ok := c.pages[file]; ok {
		return page, nil
	}
	page, err := rulesHTML(src)
	if err != nil {
		return "", err
	}
	if c.pages == nil {
		c.pages = map[string]string{}
	}
	c.pages[file] = page
	return page, nil
}

// writePlainPage writes a page with the site's style and header, and the
// bundle only to draw the page's diagrams: body is HTML already escaped.
func (s *Server) writePlainPage(w http.ResponseWriter, r *http.Request, status int, title, body string) {
	s.writePage(w, r, status, title, "", body)
}

// writePage is writePlainPage with heading, the page's title in the
// header as the pages the script draws have it ("" for none), in r's
// language.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, status int, title, heading, body string) {
	sh := s.page(r)
	header := `<a href="/" class="home">arbiter</a>`
	if heading != "" {
		header += "<h1>" + html.EscapeString(heading) + "</h1>"
	}
	setPageLanguage(w, sh.loc.Lang())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	// One pass, so that a title or body holding "{{header}}" stays text.
	_, _ = strings.NewReplacer("{{title}}", html.EscapeString(title), "{{header}}", header, "{{body}}", body).WriteString(w, sh.plain)
}

// plainPage is the page of writePage: {{title}}, {{header}} and {{body}}
// are the page's, filled in by writePage; {{lang}} is the language's,
// filled in once by translate.
const plainPage = `<!doctype html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}} (arbiter)</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css">
<script defer src="/assets/i18n-{{lang}}.js"></script>
<script defer src="/assets/app.js"></script>
</head>
<body data-page="rules">
<header class="site">{{header}}</header>
<main class="text">
{{body}}
</main>
</body>
</html>
`
