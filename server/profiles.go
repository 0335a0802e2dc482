package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/store"
)

// activeFor is how recently a player must have played rated to be on a
// leaderboard.
const activeFor = 30 * 24 * time.Hour

// ratingView is a rating as the API shows it.
type ratingView struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Volatility  float64 `json:"volatility"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
}

func viewRating(r store.Rating) ratingView {
	g := rating.Glicko{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
	return ratingView{Rating: round1(r.Rating), RD: round1(r.RD), Volatility: r.Volatility, Games: r.Games, Provisional: g.Provisional()}
}

// round1 keeps one decimal: ratings are shown, not computed on.
func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

// userView is GET /api/users/{name}.
type userView struct {
	Name    string                `json:"name"`
	Created time.Time             `json:"created"`
	Bot     bool                  `json:"bot"`
	Deleted bool                  `json:"deleted"`
	Ratings map[string]ratingView `json:"ratings"`
}

// user reads the account of the path's name, answering 404 itself.
func (s *Server) user(w http.ResponseWriter, r *http.Request) (store.Account, bool) {
	a, err := s.cfg.Store.AccountByName(r.Context(), r.PathValue("name"))
	if errors.Is(err, store.ErrNoAccount) || err == nil && a.Deleted {
		writeError(w, fail(codeNotFound, "no player is named %s", quote(r.PathValue("name"))))
		return a, false
	}
	if err != nil {
		s.writeFailure(w, err)
		return a, false
	}
	return a, true
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	a, ok := s.user(w, r)
	if !ok {
		return
	}
	list, err := s.cfg.Store.Ratings(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	v := userView{Name: a.Name, Created: a.Created, Bot: a.Bot, Ratings: map[string]ratingView{}}
	for _, x := range list {
		if x.Games > 0 || a.Bot {
			v.Ratings[x.Game] = viewRating(x)
		}
	}
	writeJSON(w, http.StatusOK, v)
}

// playedGame is one game of a player's list.
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
	OpponentAccounts []bool   `json:"opponentAccounts"`
	Before           *float64 `json:"ratingBefore,omitempty"`
	After            *float64 `json:"ratingAfter,omitempty"`
}

// gameFilter reads ?game=, ?before= and ?limit= of a games list.
func gameFilter(r *http.Request) (store.GameFilter, *apiError) {
	q := r.URL.Query()
	f := store.GameFilter{Game: q.Get("game"), Limit: 50}
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
	a, ok := s.user(w, r)
	if !ok {
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
	s.writeGames(w, r, a, store.GameFilter{Ongoing: true, Limit: 100})
}

func (s *Server) writeGames(w http.ResponseWriter, r *http.Request, a store.Account, f store.GameFilter) {
	headers, err := s.cfg.Store.PlayerGames(r.Context(), a.ID, f)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	list := []playedGame{}
	for _, h := range headers {
		pg := playedBy(h, a.ID)
		if h.Rated && h.Result != nil {
			s.addRatingChange(r, &pg)
		}
		list = append(list, pg)
	}
	writeJSON(w, http.StatusOK, list)
}

// playedBy is game h as account's list shows it.
func playedBy(h store.Header, account string) playedGame {
	pg := playedGame{ID: h.ID, Game: h.Game, Rated: h.Rated, Created: h.Created, Result: "ongoing", Opponents: []string{}, OpponentAccounts: []bool{}}
	for i, seat := range h.Seats {
		if seat.Account == account {
			pg.Seat = i
			continue
		}
		pg.Opponents = append(pg.Opponents, seatName(seat))
		pg.OpponentAccounts = append(pg.OpponentAccounts, seat.Account != "")
	}
	if h.Result == nil {
		return pg
	}
	pg.Ended, pg.Reason = true, h.Result.Reason
	switch {
	case h.Result.Reason == game.Aborted.String():
		pg.Result = "aborted"
	case len(h.Result.Winners) == 0:
		pg.Result = "draw"
	case slices.Contains(h.Result.Winners, pg.Seat):
		pg.Result = "win"
	default:
		pg.Result = "loss"
	}
	return pg
}

// seatName is how a seat is named in lists: its name, its account, or
// its engine.
func seatName(seat store.Seat) string {
	switch {
	case seat.Name != "":
		return seat.Name
	case seat.Account != "":
		return seat.Account
	case seat.Player == "human":
		return "anonymous"
	}
	return seat.Player
}

func (s *Server) addRatingChange(r *http.Request, pg *playedGame) {
	changes, err := s.cfg.Store.GameRatings(r.Context(), pg.ID)
	if err != nil {
		s.log.Warn("rating changes", "game", pg.ID, "err", err)
		return
	}
	for _, c := range changes {
		if c.Seat == pg.Seat {
			before, after := round1(c.Before), round1(c.Rating)
			pg.Before, pg.After = &before, &after
		}
	}
}

// historyPoint is one point of a rating history.
type historyPoint struct {
	At     time.Time `json:"at"`
	GameID string    `json:"game"`
	Before float64   `json:"before"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	a, ok := s.user(w, r)
	if !ok {
		return
	}
	id := r.URL.Query().Get("game")
	if _, ok := game.Lookup(id); !ok {
		writeError(w, fail(codeInvalid, "game %s: give ?game= one of %s", quote(id), gameIDs()))
		return
	}
	changes, err := s.cfg.Store.RatingHistory(r.Context(), a.ID, id, 1000)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	points := []historyPoint{}
	for _, c := range changes {
		points = append(points, historyPoint{At: c.At, GameID: c.GameID, Before: round1(c.Before), Rating: round1(c.Rating), RD: round1(c.RD)})
	}
	writeJSON(w, http.StatusOK, points)
}

// rankedView is one row of a leaderboard.
type rankedView struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	ratingView
}

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("game")
	if _, ok := game.Lookup(id); !ok {
		writeError(w, fail(codeNotFound, "no game %s; want one of %s", quote(id), gameIDs()))
		return
	}
	list, err := s.cfg.Store.Leaderboard(r.Context(), id, s.now().Add(-activeFor), 100)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	rows := []rankedView{}
	for i, x := range list {
		rows = append(rows, rankedView{Rank: i + 1, Name: x.Name, ratingView: viewRating(x.Rating)})
	}
	writeJSON(w, http.StatusOK, rows)
}

// maxExport bounds the games one export holds.
const maxExport = 5000

// exportGamesPerRead is how many games of an export cost one read of the
// client's read budget: an export of 1,200 games costs what 120 reads do
// (at most a whole burst), so that a loop of exports gets no more of the
// server than a loop of cheap reads.
const exportGamesPerRead = 10

// handleExport writes every game of the account as one record file,
// each game as it is read. An account runs one export at a time.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if !s.accounts.exports.take(a.ID) {
		w.Header().Set("Retry-After", "5")
		writeError(w, fail(codeRateLimited, "an export of this account is running already; wait for it to end"))
		return
	}
	defer s.accounts.exports.done(a.ID)
	headers, err := s.exportHeaders(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	if cost := len(headers) / exportGamesPerRead; cost > 0 && !s.clients.allowReadCost(clientKey(r), cost) {
		wait := time.Duration(float64(min(cost, s.limits.ReadBurst)) / s.limits.ReadsPerSecond * float64(time.Second))
		w.Header().Set("Retry-After", retryAfter(wait))
		writeError(w, fail(codeRateLimited, "an export of %d games costs %d reads, more than this client has left; try again in %s seconds",
			len(headers), cost, retryAfter(wait)))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="arbiter-`+a.Name+`.pdn"`)
	written := 0
	for _, h := range headers {
		rec, err := s.hall.Record(r.Context(), h.ID)
		if err != nil {
			s.log.Warn("export", "game", h.ID, "err", err)
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

// exportHeaders are the headers of the account's games, newest first, at
// most maxExport of them.
func (s *Server) exportHeaders(ctx context.Context, account string) ([]store.Header, error) {
	var all []store.Header
	f := store.GameFilter{Limit: 1000}
	for len(all) < maxExport {
		headers, err := s.cfg.Store.PlayerGames(ctx, account, f)
		if err != nil {
			return nil, err
		}
		all = append(all, headers...)
		if len(headers) < f.Limit {
			break
		}
		f.Before = headers[len(headers)-1].Created
	}
	return all[:min(len(all), maxExport)], nil
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
