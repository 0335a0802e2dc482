package server

import (
	_ "embed"
	"html"
	"net/http"

	"github.com/arbiter-games/arbiter/game"
)

// The puzzle pages: /puzzles lists the games that have puzzles, and
// /puzzles/{game} is the trainer, one position at a time. Both are shells
// the script draws from the puzzle API (GET /api/puzzles and
// /api/puzzles/{game}, POST /api/puzzles/{id}/attempt); this file only
// serves them.

//go:embed puzzles.html
var puzzlesPage []byte

func (s *Server) puzzlePageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /puzzles", s.handlePuzzlesPage)
	mux.HandleFunc("GET /puzzles/{game}", s.handlePuzzlesPage)
}

// handlePuzzlesPage answers /puzzles and /puzzles/{game}: the shell, or
// for a game that does not exist a 404 page naming those that do, so that
// a mistyped link says what went wrong without the script.
func (s *Server) handlePuzzlesPage(w http.ResponseWriter, r *http.Request) {
	if id := r.PathValue("game"); id != "" {
		if _, ok := game.Lookup(id); !ok {
			loc := s.page(r).loc
			s.writePlainPage(w, r, http.StatusNotFound, loc.T("puzzles.notfound.title"),
				"<p>"+html.EscapeString(loc.T("puzzles.notfound.text", "Game", quote(id), "Games", gameIDs()))+
					` <a href="/puzzles">`+html.EscapeString(loc.T("puzzles.notfound.all"))+`</a></p>`)
			return
		}
	}
	sh := s.page(r)
	writeShell(w, sh, sh.puzzles)
}
