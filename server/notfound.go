package server

import (
	"fmt"
	"html"
	"net/http"

	"github.com/arbiter-games/arbiter/game"
)

// notFoundRoutes answers every path no other route takes with the site's
// not-found page; /api/ keeps its JSON refusal (api.go), being the more
// specific route.
func (s *Server) notFoundRoutes(mux *http.ServeMux) {
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "404 no such page", http.StatusNotFound)
			return
		}
		s.writeNotFound(w, r, s.page(r).loc.T("notfound.page", "Path", quote(r.URL.Path)))
	})
}

// writeNotFound writes the site's not-found page, status 404: what was
// not found in a sentence (plain text in the page's language, escaped
// here), and the ways on, the home page and each family's rules.
func (s *Server) writeNotFound(w http.ResponseWriter, r *http.Request, sentence string) {
	loc := s.page(r).loc
	body := `<section class="not-found" aria-labelledby="not-found-title">` +
		`<h1 id="not-found-title">` + html.EscapeString(loc.T("notfound.title")) + `</h1>` +
		`<p class="not-found-what">` + html.EscapeString(sentence) + `</p>` +
		`<p class="page-links"><a href="/" class="not-found-home play">` + html.EscapeString(loc.T("notfound.home")) + `</a></p>` +
		`<p>` + html.EscapeString(loc.T("notfound.ways")) + `</p>` +
		`<ul class="not-found-rules">` + rulesLinks() + `</ul></section>`
	s.writePlainPage(w, r, http.StatusNotFound, loc.T("notfound.title"), body)
}

// rulesLinks lists a link to each game's rules page, by the game's name.
func rulesLinks() string {
	var links string
	for _, d := range game.All() {
		links += fmt.Sprintf(`<li><a href="/rules/%s">%s</a></li>`, html.EscapeString(d.ID), html.EscapeString(gameName(d.ID)))
	}
	return links
}

// servePageOfGame serves shell, a page of the stored game the path's
// {id} names, or the not-found page when there is no such game. Looking
// the game up is a read, so it counts against the client's reads; over
// the limit the page is served without the look-up, and its own reads of
// the API meet the refusal and say so.
func (s *Server) servePageOfGame(w http.ResponseWriter, r *http.Request, shell func(*shells) []byte) {
	id := r.PathValue("id")
	sh := s.page(r)
	if s.clients.allowRead(clientKey(r)) {
		if _, err := s.hall.Get(r.Context(), id); err != nil && asAPIError(err).Code == codeNotFound {
			s.writeNotFound(w, r, sh.loc.T("notfound.game", "Game", quote(id)))
			return
		}
	}
	writeShell(w, sh, shell(sh))
}

// serveAnalysisPage serves the analysis page of a game the server plays,
// or the not-found page.
func (s *Server) serveAnalysisPage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	if _, known := game.Lookup(name); !known {
		s.writeNotFound(w, r, s.page(r).loc.T("notfound.analysis", "Game", quote(name)))
		return
	}
	sh := s.page(r)
	writeShell(w, sh, sh.analysis)
}

// writeShell writes page, one of sh's HTML shells, which the script
// draws. A page is asked for again each time ("no-cache"): it names the
// current bundle, whose hashed files are the ones a browser keeps.
func writeShell(w http.ResponseWriter, sh *shells, shell []byte) {
	setPageLanguage(w, sh.loc.Lang())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(shell)
}
