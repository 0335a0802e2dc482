package server

import (
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/arbiter-games/arbiter/puzzles"
)

// The puzzles (package puzzles has the sets, the choice and the
// ratings): GET /api/puzzles lists the sets, GET /api/puzzles/{game}
// gives the caller's next puzzle, POST /api/puzzles/{id}/attempt reports
// an attempt and answers the rating after it.

func (s *Server) puzzleRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/puzzles", s.reads(s.handlePuzzleSets))
	mux.HandleFunc("GET /api/puzzles/{game}", s.reads(s.handlePuzzle))
	mux.HandleFunc("POST /api/puzzles/{id}/attempt", s.handlePuzzleAttempt)
}

// puzzleCodes are the API's codes of the puzzles' refusals: a theme, a
// rating or a streak the rules refuse is a bad request, as a malformed
// one is.
var puzzleCodes = map[puzzles.Code]string{
	puzzles.NotFound: codeNotFound,
	puzzles.Invalid:  codeBadRequest,
	puzzles.TooMany:  codeRateLimited,
}

// puzzleSetView is one set of GET /api/puzzles.
type puzzleSetView struct {
	Game   string              `json:"game"`
	Name   string              `json:"name"`
	Count  int                 `json:"count"`
	Themes []puzzleThemeView   `json:"themes"`
	Rating *puzzlePlayerRating `json:"rating"`
}

type puzzleThemeView struct {
	Theme string `json:"theme"`
	Count int    `json:"count"`
}

// puzzlePlayerRating is a caller's puzzle rating in one game.
type puzzlePlayerRating struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Attempts    *int    `json:"attempts,omitempty"`
}

func playerRatingOf(p *puzzles.Player, attempts bool) *puzzlePlayerRating {
	if p == nil {
		return nil
	}
	v := &puzzlePlayerRating{Rating: round1(p.Rating.Rating), RD: round1(p.RD), Provisional: p.Provisional}
	if attempts {
		v.Attempts = &p.Attempts
	}
	return v
}

func (s *Server) handlePuzzleSets(w http.ResponseWriter, r *http.Request) {
	if !s.havePuzzles(w) {
		return
	}
	sets, err := s.puzzles.Sets(r.Context(), s.sessionAccountID(r))
	if err != nil {
		s.puzzleFailure(w, err)
		return
	}
	list := make([]puzzleSetView, 0, len(sets))
	for _, x := range sets {
		v := puzzleSetView{Game: x.Game, Name: x.Name, Count: x.Count, Themes: []puzzleThemeView{}, Rating: playerRatingOf(x.Player, true)}
		for _, t := range x.Themes {
			v.Themes = append(v.Themes, puzzleThemeView{Theme: t.Theme, Count: t.Count})
		}
		list = append(list, v)
	}
	writeJSON(w, http.StatusOK, map[string][]puzzleSetView{"games": list})
}

// puzzleView is GET /api/puzzles/{game}: the fields of RULINGS section
// 10 first.
type puzzleView struct {
	ID         string              `json:"id"`
	Game       string              `json:"game"`
	FEN        string              `json:"fen"`
	Solution   []string            `json:"solution"`
	Themes     []string            `json:"themes"`
	Rating     float64             `json:"rating"`
	Plays      int                 `json:"plays"`
	Source     string              `json:"source"`
	SourceGame string              `json:"sourceGame"`
	Ply        int                 `json:"ply"`
	Table      string              `json:"table"`
	Player     *puzzlePlayerRating `json:"player"`
}

func (s *Server) handlePuzzle(w http.ResponseWriter, r *http.Request) {
	if !s.havePuzzles(w) {
		return
	}
	q, aerr := puzzleQuery(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	q.Account = s.sessionAccountID(r)
	p, pl, err := s.puzzles.Next(r.Context(), q)
	if err != nil {
		s.puzzleFailure(w, err)
		return
	}
	if pl == nil && q.Account != "" {
		pl = &puzzles.Player{Rating: puzzles.NewPlayer(), Provisional: true}
	}
	writeJSON(w, http.StatusOK, puzzleView{ID: p.ID, Game: p.Game, FEN: p.FEN, Solution: p.Solution, Themes: p.Themes,
		Rating: round1(p.Rating), Plays: p.Plays, Source: p.Source, SourceGame: p.SourceGame, Ply: p.Ply, Table: p.Table,
		Player: playerRatingOf(pl, false)})
}

// puzzleQuery reads GET /api/puzzles/{game}'s parameters; the service
// checks their values.
func puzzleQuery(r *http.Request) (puzzles.Query, *apiError) {
	v := r.URL.Query()
	q := puzzles.Query{Game: r.PathValue("game"), ID: v.Get("id"), Theme: v.Get("theme")}
	if v.Has("theme") && q.Theme == "" {
		return q, fail(codeBadRequest, "theme is empty; leave it out for any theme")
	}
	if v.Has("rating") {
		x, err := strconv.ParseFloat(v.Get("rating"), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return q, fail(codeBadRequest, "rating %s: want a number", quote(v.Get("rating")))
		}
		q.Rating = &x
	}
	if v.Has("streak") {
		n, err := strconv.Atoi(v.Get("streak"))
		if err != nil {
			return q, fail(codeBadRequest, "streak %s: want a whole number, the puzzles solved in a row so far", quote(v.Get("streak")))
		}
		q.Streak = &n
	}
	return q, nil
}

// attemptRequest is POST /api/puzzles/{id}/attempt.
type attemptRequest struct {
	Solved *bool  `json:"solved"`
	Mode   string `json:"mode"`
	// Rating is the rating a signed-out browser keeps; ignored for an
	// account, whose rating is stored.
	Rating *keptRating `json:"rating"`
}

type keptRating struct {
	Rating     *float64 `json:"rating"`
	RD         *float64 `json:"rd"`
	Volatility *float64 `json:"volatility"`
}

// attemptView is the answer to an attempt.
type attemptView struct {
	Rating      float64         `json:"rating"`
	RD          float64         `json:"rd"`
	Volatility  float64         `json:"volatility"`
	Change      float64         `json:"change"`
	Provisional bool            `json:"provisional"`
	Rated       bool            `json:"rated"`
	Puzzle      attemptedPuzzle `json:"puzzle"`
}

type attemptedPuzzle struct {
	ID     string  `json:"id"`
	Rating float64 `json:"rating"`
}

func (s *Server) handlePuzzleAttempt(w http.ResponseWriter, r *http.Request) {
	if !s.havePuzzles(w) {
		return
	}
	var req attemptRequest
	if !s.readRequest(w, r, &req, s.clients.allowMove) {
		return
	}
	a, aerr := req.attempt(r.PathValue("id"))
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	a.Account = s.sessionAccountID(r)
	res, err := s.puzzles.Attempt(r.Context(), a)
	if err != nil {
		s.puzzleFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, attemptView{Rating: round1(res.Rating.Rating), RD: round1(res.RD), Volatility: res.Volatility,
		Change: round1(res.Change), Provisional: res.Provisional(), Rated: res.Rated,
		Puzzle: attemptedPuzzle{ID: res.PuzzleID, Rating: round1(res.PuzzleRating)}})
}

// attempt checks that the body says everything it must.
func (req attemptRequest) attempt(id string) (puzzles.Attempt, *apiError) {
	if req.Solved == nil {
		return puzzles.Attempt{}, fail(codeBadRequest, "solved is missing: send true or false")
	}
	a := puzzles.Attempt{ID: id, Solved: *req.Solved, Mode: req.Mode}
	if k := req.Rating; k != nil {
		if k.Rating == nil || k.RD == nil || k.Volatility == nil {
			return a, fail(codeBadRequest, "rating: send rating, rd and volatility, or leave rating out for a new player")
		}
		a.Rating = &puzzles.Rating{Rating: *k.Rating, RD: *k.RD, Volatility: *k.Volatility}
	}
	return a, nil
}

func (s *Server) havePuzzles(w http.ResponseWriter) bool {
	if s.puzzles == nil {
		writeError(w, fail(codeUnavailable, "this server has no puzzles"))
	}
	return s.puzzles != nil
}

// puzzleFailure answers a refusal of the puzzles, with Retry-After when
// it says how long to wait; any other error is the store's, logged.
func (s *Server) puzzleFailure(w http.ResponseWriter, err error) {
	var pe *puzzles.Error
	if !errors.As(err, &pe) {
		s.log.Error("puzzles", "err", err)
		writeError(w, fail(codeUnavailable, "the puzzles' store cannot be reached; try again in a moment"))
		return
	}
	if pe.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfter(pe.RetryAfter))
	}
	writeError(w, fail(puzzleCodes[pe.Code], "%s", pe.Message))
}
