package server

import (
	"bytes"
	_ "embed"
	"html"
	"net/http"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// accountsShell is the shell of the pages of accounts, profiles and the
// leaderboards: the script draws each from the JSON API, reading the
// player's name or the game from the page's own path. {{page}} becomes
// the body's data-page, {{title}} the window's title.
//
//go:embed accounts.html
var accountsShell []byte

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
