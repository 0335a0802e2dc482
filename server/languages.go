package server

import (
	"html"
	"net/http"
	"regexp"
	"strings"

	"github.com/arbiter-games/arbiter/internal/i18n"
)

// The pages' languages (docs/server.md, "Languages"): each page is
// written in the reader's language, the one the cookie lang names once
// they chose one, else the best of the catalogs' for the browser's
// Accept-Language, else English. The server writes the shells' words and
// <html lang>, and names the script of the language's messages, which
// the bundle reads for its own words. The API speaks English: its
// refusals' messages are the server's, shown as they are.

// pageLang is the language of the page r asks for.
func (s *Server) pageLang(r *http.Request) string {
	cookie := ""
	if c, err := r.Cookie(i18n.Cookie); err == nil {
		cookie = c.Value
	}
	return s.langs.Choose(cookie, r.Header.Get("Accept-Language"))
}

// page is the shells of r's language.
func (s *Server) page(r *http.Request) *shells {
	if sh := s.shells[s.pageLang(r)]; sh != nil {
		return sh
	}
	return s.shells[i18n.Default]
}

// shellWord is a shell's {{t "id"}}: the message id, written escaped in
// the shell's language.
var shellWord = regexp.MustCompile(`\{\{t "([a-z0-9_.]+)"\}\}`)

// translate writes loc's language into a shell: {{lang}} becomes its tag
// (<html lang>, the catalog script's name), each {{t "id"}} its message.
// What is left in braces ({{page}}, {{title}}) is the request's to fill.
func translate(page string, loc *i18n.Localizer) string {
	page = shellWord.ReplaceAllStringFunc(page, func(m string) string {
		return html.EscapeString(loc.T(shellWord.FindStringSubmatch(m)[1]))
	})
	return strings.ReplaceAll(page, "{{lang}}", loc.Lang())
}

// setPageLanguage says which language a page is in, and that it depends
// on the headers that choose it (for a cache between server and reader).
func setPageLanguage(w http.ResponseWriter, lang string) {
	w.Header().Set("Content-Language", lang)
	w.Header().Set("Vary", "Accept-Language, Cookie")
}
