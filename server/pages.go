package server

import (
	_ "embed"
	"net/http"
)

// The index page lists the API; the board pages come with the browser
// client. Both are static HTML without script or style, as the CSP asks.
//
//go:embed index.html
var indexPage []byte

//go:embed page.html
var gamePage []byte

func (s *Server) handleIndex(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(indexPage)
}

// handlePage answers an invite or spectator link until the board pages
// exist: it says where the game's JSON is.
func (s *Server) handlePage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(gamePage)
}
