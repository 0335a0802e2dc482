package server

import (
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/record"
)

// ratingView is a rating as the API shows it.
type ratingView struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Volatility  float64 `json:"volatility"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
}

func viewRating(r accounts.Rating) ratingView {
	return ratingView{Rating: round1(r.Rating), RD: round1(r.RD), Volatility: r.Volatility, Games: r.Games, Provisional: r.Provisional}
}

// round1 keeps one decimal: ratings are shown, not computed on.
func round1(x float64) float64 { return accounts.Shown(x) }

// userView is GET /api/users/{name}. Level marks the site's own AI
// levels (which "bot" named before bot accounts were); Bot an engine's
// account, played through the bot API.
type userView struct {
	Name    string                `json:"name"`
	Created time.Time             `json:"created"`
	Level   bool                  `json:"level"`
	Bot     bool                  `json:"bot"`
	Deleted bool                  `json:"deleted"`
	Ratings map[string]ratingView `json:"ratings"`
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	p, err := s.accounts.Profile(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	v := userView{Name: p.Account.Name, Created: p.Account.Created, Level: p.Account.IsLevel(), Bot: p.Account.IsBot(), Ratings: map[string]ratingView{}}
	for _, x := range p.Ratings {
		v.Ratings[x.Game] = viewRating(x)
	}
	writeJSON(w, http.StatusOK, v)
}

// playedGame is one game of a player's list (accounts.PlayedGame, whose
// fields it has, in JSON).
type playedGame struct {
	ID        string    `json:"id"`
	Game      string    `json:"game"`
	Rated     bool      `json:"rated"`
	Created   time.Time `json:"created"`
	Ended     bool      `json:"ended"`
	Result    string    `json:"result"` // win, loss, draw, ongoing, aborted
	Reason    string    `json:"reason,omitempty"`
	Seat      int       `json:"seat"`
	Opponents []string  `json:"opponents"`
	// OpponentAccounts says of each opponent whether an account plays
	// it: only those link to a profile (an anonymous name is a name).
	OpponentAccounts []bool `json:"opponentAccounts"`
	// OpponentBots says of each opponent whether it is a bot's account.
	OpponentBots []bool   `json:"opponentBots"`
	Before       *float64 `json:"ratingBefore,omitempty"`
	After        *float64 `json:"ratingAfter,omitempty"`
}

// gameFilter reads ?game=, ?before= and ?limit= of a games list.
func gameFilter(r *http.Request) (accounts.GameFilter, *apiError) {
	q := r.URL.Query()
	f := accounts.GameFilter{Game: q.Get("game"), Limit: 50}
	if f.Game != "" {
		if _, ok := game.Lookup(f.Game); !ok {
			return f, fail(codeInvalid, "unknown game %s", quote(f.Game))
		}
	}
	if b := q.Get("before"); b != "" {
		t, err := time.Parse(time.RFC3339Nano, b)
		if err != nil {
			return f, fail(codeInvalid, "before %s: want a time such as 2026-11-26T10:00:00Z", quote(b))
		}
		f.Before = t
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 100 {
			return f, fail(codeInvalid, "limit %s: want 1 to 100", quote(l))
		}
		f.Limit = n
	}
	return f, nil
}

func (s *Server) handleUserGames(w http.ResponseWriter, r *http.Request) {
	a, err := s.accounts.User(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	f, aerr := gameFilter(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	s.writeGames(w, r, a, f)
}

func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	s.writeGames(w, r, a, accounts.GameFilter{Ongoing: true, Limit: 100})
}

func (s *Server) writeGames(w http.ResponseWriter, r *http.Request, a accounts.Account, f accounts.GameFilter) {
	games, err := s.accounts.Games(r.Context(), a.ID, f)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	list := make([]playedGame, 0, len(games))
	for _, g := range games {
		list = append(list, playedGame(g))
	}
	writeJSON(w, http.StatusOK, list)
}

// historyPoint is one point of a rating history (accounts.HistoryPoint
// in JSON).
type historyPoint struct {
	At     time.Time `json:"at"`
	GameID string    `json:"game"`
	Before float64   `json:"before"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	a, err := s.accounts.User(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	id := r.URL.Query().Get("game")
	if _, ok := game.Lookup(id); !ok {
		writeError(w, fail(codeInvalid, "game %s: give ?game= one of %s", quote(id), gameIDs()))
		return
	}
	changes, err := s.accounts.History(r.Context(), a.ID, id)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	points := make([]historyPoint, 0, len(changes))
	for _, c := range changes {
		points = append(points, historyPoint(c))
	}
	writeJSON(w, http.StatusOK, points)
}

// rankedView is one row of a leaderboard.
type rankedView struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
	ratingView
}

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("game")
	if _, ok := game.Lookup(id); !ok {
		writeError(w, fail(codeNotFound, "no game %s; want one of %s", quote(id), gameIDs()))
		return
	}
	list, err := s.accounts.Leaderboard(r.Context(), id)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	rows := []rankedView{}
	for i, x := range list {
		rows = append(rows, rankedView{Rank: i + 1, Name: x.Name, Bot: x.Bot, ratingView: viewRating(x.Rating)})
	}
	writeJSON(w, http.StatusOK, rows)
}

// exportGamesPerRead is how many games of an export cost one read of the
// client's read budget: an export of 1,200 games costs what 120 reads do
// (at most a whole burst), so that a loop of exports gets no more of the
// server than a loop of cheap reads.
const exportGamesPerRead = 10

// handleExport writes every game of the account as one record file,
// each game as it is read. An account runs one export at a time. An API
// token stands for the cookie (a bot's games are exported so).
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	export, err := s.accounts.StartExport(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	defer export.Done()
	if !s.payExport(w, r, len(export.Games)) {
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="arbiter-`+a.Name+`.pdn"`)
	written := 0
	for _, id := range export.Games {
		rec, err := s.hall.Record(r.Context(), id)
		if err != nil {
			s.log.Warn("export", "game", id, "err", err)
			continue
		}
		if written > 0 {
			io.WriteString(w, "\n") // a blank line between two games
		}
		if err := record.Write(w, rec); err != nil {
			return
		}
		written++
	}
}

// payExport takes an export of n games from the client's read budget, or
// answers 429 with Retry-After itself.
func (s *Server) payExport(w http.ResponseWriter, r *http.Request, n int) bool {
	cost := n / exportGamesPerRead
	if cost == 0 || s.clients.allowReadCost(clientKey(r), cost) {
		return true
	}
	wait := time.Duration(float64(min(cost, s.limits.ReadBurst)) / s.limits.ReadsPerSecond * float64(time.Second))
	w.Header().Set("Retry-After", retryAfter(wait))
	writeError(w, fail(codeRateLimited, "an export of %d games costs %d reads, more than this client has left; try again in %s seconds",
		n, cost, retryAfter(wait)))
	return false
}

// turnView is a game waiting for my move.
type turnView struct {
	ID        string   `json:"id"`
	Game      string   `json:"game"`
	Opponents []string `json:"opponents"`
	// OpponentAccounts: as playedGame's.
	OpponentAccounts []bool     `json:"opponentAccounts"`
	Since            time.Time  `json:"since"`
	Clock            *clockView `json:"clock,omitempty"`
}

func (s *Server) handleTurn(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	turns, err := s.hall.Turns(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	list := []turnView{}
	for _, t := range turns {
		tv := turnView{ID: t.ID, Game: t.Game, Since: t.Updated, Clock: clockViewOf(t.Clock), Opponents: []string{}, OpponentAccounts: []bool{}}
		for i, seat := range t.Seats {
			if i != t.Seat {
				tv.Opponents = append(tv.Opponents, cmpName(seat))
				tv.OpponentAccounts = append(tv.OpponentAccounts, seat.Account != "")
			}
		}
		list = append(list, tv)
	}
	writeJSON(w, http.StatusOK, list)
}

func cmpName(seat hall.SeatView) string {
	switch {
	case seat.Account != "":
		return seat.Account
	case seat.Name != "":
		return seat.Name
	}
	return seat.Player
}
