package server

import "net/http"

// tournamentPageRoutes adds the tournaments' pages, drawn by a script of
// their own (web/src/tournaments.ts, static/tournaments.js), so that the
// other pages' bundle does not carry them. A tournament's page
// of an id nobody has is still the page: it says so itself, from the
// API's 404.
func (s *Server) tournamentPageRoutes(mux *http.ServeMux) {
	for path, page := range map[string]string{"GET /tournaments": "tournaments", "GET /tournaments/{id}": "tournament"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			sh := s.page(r)
			writeShell(w, sh, accountShell(sh.tournaments, page, sh.loc.T("chrome.nav.tournaments")))
		})
	}
}
