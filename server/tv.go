package server

import (
	"math"
	"net/http"

	"github.com/arbiter-games/arbiter/watch"
)

// The top game is package watch's; this file is its HTTP: GET /api/tv,
// and the watching page, /tv, which the script draws from it and from the
// game's own API and socket.

func (s *Server) tvRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/tv", s.reads(s.handleTV))
	mux.HandleFunc("GET /tv", func(w http.ResponseWriter, r *http.Request) {
		sh := s.page(r)
		writeShell(w, sh, accountShell(sh.accounts, "tv", sh.loc.T("shell.tv.title")))
	})
}

// tvAnswer is GET /api/tv: the top game, null when no game may be shown.
type tvAnswer struct {
	Game *tvGame `json:"game"`
}

type tvGame struct {
	ID         string        `json:"id"`
	Game       string        `json:"game"`
	Seats      []tvSeat      `json:"seats"`
	Tournament *tvTournament `json:"tournament"`
}

// tvSeat is a player of the top game, with its rating in the game id now,
// rounded as the pages show ratings.
type tvSeat struct {
	Name   string `json:"name"`
	Rating int    `json:"rating"`
}

type tvTournament struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// handleTV answers GET /api/tv. A server without the watch service shows
// no top game.
func (s *Server) handleTV(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Watch == nil {
		writeJSON(w, http.StatusOK, tvAnswer{})
		return
	}
	top, err := s.cfg.Watch.Top(r.Context())
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, tvAnswer{Game: tvGameOf(top)})
}

func tvGameOf(g *watch.Game) *tvGame {
	if g == nil {
		return nil
	}
	out := &tvGame{ID: g.ID, Game: g.Game, Seats: make([]tvSeat, len(g.Seats))}
	for i, seat := range g.Seats {
		out.Seats[i] = tvSeat{Name: seat.Name, Rating: int(math.Round(seat.Rating))}
	}
	if t := g.Tournament; t != nil {
		out.Tournament = &tvTournament{ID: t.ID, Name: t.Name}
	}
	return out
}
