package server

import (
	"bytes"
	_ "embed"
	"html"
	"net/http"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// scriptedShell is the shell of the pages a script draws from the JSON
// API, reading the player's name, the game or the tournament from the
// page's own path: the pages of accounts, profiles and the leaderboards
// (app.js), the tournaments' (their own tournaments.js). {{script}} is
// the script, {{nojs}} what the page says without it; then {{page}}
// becomes the body's data-page, {{title}} the window's title.
//
//go:embed scripted.html
var scriptedShell string

// scripted is the shell of script's pages, nojs (plain text) what they
// say without it.
func scripted(script, nojs string) []byte {
	return []byte(strings.NewReplacer("{{script}}", script, "{{nojs}}", html.EscapeString(nojs)).Replace(scriptedShell))
}

// accountPageRoutes adds the pages of accounts, profiles and the
// leaderboards. The lobby is on the home page (index.html).
func (s *Server) accountPageRoutes(mux *http.ServeMux) {
	for path, p := range map[string]struct{ page, title string }{
		"GET /signup":             {"signup", "shell.signup.title"},
		"GET /login":              {"login", "shell.login.title"},
		"GET /account":            {"account", "shell.account.title"},
		"GET /leaderboard":        {"leaderboard", "shell.leaderboard.title"},
		"GET /leaderboard/{game}": {"leaderboard", "shell.leaderboard.title"},
		"GET /@/{name}":           {"profile", "shell.profile.title"},
		"GET /mod":                {"mod", "shell.mod.title"},
	} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			sh := s.page(r)
			title := sh.loc.T(p.title)
			if name := r.PathValue("name"); name != "" {
				title = clip.Bare(name)
			}
			writeShell(w, sh, accountShell(sh.accounts, p.page, title))
		})
	}
}

// accountShell is the shell with its page and title written in. A
// profile of a name nobody has is still the page: it says "no such
// player" itself, from the API's 404.
func accountShell(shell []byte, page, title string) []byte {
	out := bytes.ReplaceAll(shell, []byte("{{page}}"), []byte(page))
	return bytes.ReplaceAll(out, []byte("{{title}}"), []byte(html.EscapeString(title)))
}
