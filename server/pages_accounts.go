package server

import "net/http"

// accountPageRoutes adds the pages of accounts, profiles, the
// leaderboards and the lobby.
func (s *Server) accountPageRoutes(mux *http.ServeMux) {}
