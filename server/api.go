package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/record"
)

func (s *Server) routes() (http.Handler, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("GET /api/games", s.reads(s.handleLobby))
	mux.HandleFunc("GET /api/games/{id}", s.reads(s.handleGet))
	mux.HandleFunc("POST /api/games/{id}/moves", s.handleMove)
	mux.HandleFunc("GET /api/games/{id}/record", s.reads(s.handleRecord))
	mux.HandleFunc("POST /api/games/{id}/review", s.handleRequestReview)
	mux.HandleFunc("GET /api/games/{id}/review", s.reads(s.handleReview))
	mux.HandleFunc("GET /api/games/{id}/effects", s.reads(s.handleEffects))
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.handleDraw)
	mux.HandleFunc("POST /api/games/{id}/arrive", s.handleArrive)
	mux.HandleFunc("POST /api/games/{id}/takeback", s.handleTakeback)
	mux.HandleFunc("POST /api/games/{id}/premove", s.handleSetPremove)
	mux.HandleFunc("GET /api/games/{id}/premove", s.reads(s.handlePremove))
	mux.HandleFunc("POST /api/games/{id}/conditional", s.handleSetConditional)
	mux.HandleFunc("GET /api/games/{id}/conditional", s.reads(s.handleConditional))
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("GET /api/games/{id}/ws", s.handleSocket)
	mux.HandleFunc("GET /api/boards/{board}", s.reads(s.handleBoard))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, fail(codeNotFound, "no endpoint %s %s; see / for the list", r.Method, quote(r.URL.Path)))
	})
	mux.HandleFunc("GET /healthz", s.handleHealth)
	s.accountRoutes(mux)
	s.communityRoutes(mux)
	s.notifyRoutes(mux)
	s.puzzleRoutes(mux)
	s.lobbyRoutes(mux)
	s.tournamentRoutes(mux)
	s.botRoutes(mux)
	s.tvRoutes(mux)
	s.pageRoutes(mux)
	cop, err := s.crossOrigin()
	if err != nil {
		return nil, err
	}
	return s.middleware(cop.Handler(mux)), nil
}

// crossOrigin refuses every state-changing request a browser sends from
// another site's page (Go's CrossOriginProtection, by Sec-Fetch-Site and
// Origin); requests without those headers (API clients) pass. The hosts
// of Config.Origins are trusted, over https and http; a host pattern
// (*.example.org) is trusted for websockets only.
func (s *Server) crossOrigin() (*http.CrossOriginProtection, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range s.cfg.Origins {
		if strings.ContainsAny(o, "*?[") {
			continue
		}
		for _, scheme := range []string{"https://", "http://"} {
			if err := cop.AddTrustedOrigin(scheme + o); err != nil {
				return nil, fmt.Errorf("server: origin %s: %w", quote(o), err)
			}
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, fail(codeForbidden, "a change sent from another site's page is refused; use this site's own pages or an API client"))
	}))
	return cop, nil
}

// reads bounds a client's API reads by its read limiter.
func (s *Server) reads(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.clients.allowRead(clientKey(r)) {
			writeError(w, fail(codeRateLimited, "too many reads from this client; slow down"))
			return
		}
		next(w, r)
	}
}

// decode reads a JSON body of at most the body limit into v, refusing
// unknown fields and anything after the value.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) *apiError {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return fail(codeUnsupported, "Content-Type %s: send the body as application/json", quote(r.Header.Get("Content-Type")))
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, s.limits.Body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more data after the JSON value")
	}
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("more data after the JSON value")
		}
	}
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tooLarge):
		return fail(codeTooLarge, "the body is over %d bytes", s.limits.Body)
	case errors.Is(err, io.EOF):
		return fail(codeBadRequest, "the body is empty; send a JSON object")
	case errors.As(err, &typeErr):
		return fail(codeBadRequest, "field %s: want %s, not %s", quote(typeErr.Field), typeErr.Type, typeErr.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if field, ok := strings.CutPrefix(msg, "unknown field "); ok {
		// The name is the client's, quoted whole.
		if name, uerr := strconv.Unquote(field); uerr == nil {
			msg = "unknown field " + quote(name)
		}
	}
	return fail(codeBadRequest, "the body is not the JSON object asked for: %s", msg)
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var body newGameRequest
	if !s.readRequest(w, r, &body, s.clients.allowGame) {
		return
	}
	req := body.game()
	req.Client = "addr:" + clientKey(r)
	if a, ok := s.session(r); ok {
		if err := bannedRefusal(a); err != nil {
			writeError(w, err)
			return
		}
		if body.Rated && a.Standing.Engine {
			writeError(w, fail(codeBanned, "your account is marked as playing with an engine's help: it plays casual games only"))
			return
		}
		req.Accounts = ownSeat(req.Seats, a)
	}
	resp, err := s.hall.Create(r.Context(), req)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusCreated, createdViewOf(resp))
}

// ownSeat gives a signed-in creator the game's one person's seat: the
// seat they play against the AI. With more people's seats (an invite),
// which one is theirs is not known: they may claim it.
func ownSeat(seats []string, a accounts.Account) []hall.SeatAccount {
	var mine []hall.SeatAccount
	for i, spec := range seats {
		if spec == "human" {
			mine = append(mine, hall.SeatAccount{Seat: i, ID: a.ID, Name: a.Name})
		}
	}
	if len(mine) != 1 {
		return nil
	}
	return mine
}

// readRequest decodes a command's body into v and admits it under
// allow's limit, answering the refusal itself; it reports whether the
// handler goes on.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request, v any, allow func(string) bool) bool {
	err := s.decode(w, r, v)
	if err == nil {
		err = s.admit(r, allow)
	}
	if err != nil {
		writeError(w, err)
		return false
	}
	return true
}

// admit refuses a request while the server stops or when the client is
// over its limit.
func (s *Server) admit(r *http.Request, allow func(string) bool) *apiError {
	if s.closing.Load() || s.hall.Closing() {
		return fail(codeShutdown, "the server is shutting down; try again in a moment")
	}
	if !allow(clientKey(r)) {
		return fail(codeRateLimited, "too many requests from this client; slow down")
	}
	return nil
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	v, err := s.hall.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	answer := s.withAccounts(r, v, s.sessionAccountID(r), true)
	if s.cfg.Tournaments != nil && slices.ContainsFunc(v.Accounts, func(a string) bool { return a != "" }) {
		// Only accounts play tournaments: a game of none costs no read.
		answer.Tournament, _ = s.cfg.Tournaments.OfGame(r.Context(), v.ID)
	}
	writeJSON(w, http.StatusOK, answer)
}

// gameAnswer is a game with what its accounts add: the seat the
// request's account holds, and once a rated game ended, its rating
// changes.
type gameAnswer struct {
	gameView
	You     *int               `json:"you,omitempty"`
	Ratings []ratingChangeView `json:"ratings,omitempty"`
	// Tournament is the id of the tournament that paired the game, when
	// one did (GET /api/games/{id} only).
	Tournament string `json:"tournament,omitempty"`
}

// ratingChangeView is what a rated game did to one seat's rating.
type ratingChangeView struct {
	Seat   int     `json:"seat"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	RD     float64 `json:"rd"`
}

// withAccounts adds to a game's view the seat of the account me (the
// request's; "" for none), and when ratings is set or the game has ended
// the ratings of its accounts' seats. A game without accounts costs
// nothing; a move's answer costs no read of the store until the end.
func (s *Server) withAccounts(r *http.Request, v hall.View, me string, ratings bool) gameAnswer {
	answer := gameAnswer{gameView: gameViewOf(v)}
	if !slices.ContainsFunc(v.Accounts, func(a string) bool { return a != "" }) {
		return answer
	}
	if me != "" {
		if i := slices.Index(v.Accounts, me); i >= 0 {
			answer.You = &i
		}
	}
	if !ratings && v.Result == nil {
		return answer
	}
	for i, id := range v.Accounts {
		if id == "" {
			continue
		}
		ratings, err := s.accounts.Ratings(r.Context(), id)
		if err != nil {
			continue
		}
		for _, x := range ratings {
			if x.Game == v.Game {
				rv := viewRating(x)
				answer.Seats[i].Rating, answer.Seats[i].Provisional = &rv.Rating, rv.Provisional
			}
		}
	}
	if v.Rated && v.Result != nil {
		changes, _ := s.accounts.GameRatings(r.Context(), v.ID)
		for _, c := range changes {
			answer.Ratings = append(answer.Ratings, ratingChangeView{Seat: c.Seat, Before: round1(c.Before), After: round1(c.After), RD: round1(c.RD)})
		}
	}
	return answer
}

// answerGame writes a game after a command of who, with its accounts'
// part (the seat of who's account, the ratings once the game ended), or
// the refusal err.
func (s *Server) answerGame(w http.ResponseWriter, r *http.Request, who hall.Who, v hall.View, err error) {
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.withAccounts(r, v, who.Account, false))
}

// answer writes v, or the refusal err.
func (s *Server) answer(w http.ResponseWriter, v any, err error) {
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// writeFailure writes err as a refusal, logging the failures that are
// not one (the store's, the server's own).
func (s *Server) writeFailure(w http.ResponseWriter, err error) {
	ae := asAPIError(err)
	if ae.Code == codeInternal {
		s.log.Error("request failed", "err", err)
	}
	retryHeader(w, err)
	writeError(w, ae)
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	rec, err := s.hall.Record(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.annotate(r.Context(), r.PathValue("id"), rec)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="`+r.PathValue("id")+`.pdn"`)
	_ = record.Write(w, rec)
}

// moveRequest is POST /api/games/{id}/moves.
type moveRequest struct {
	Move string `json:"move"`
	Ply  *int   `json:"ply"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	var req moveRequest
	who, ok := s.seatCommand(w, r, &req)
	if !ok {
		return
	}
	if req.Ply == nil {
		writeError(w, fail(codeInvalid, `no ply; send {"move": MOVE, "ply": N} with N the ply the move is for`))
		return
	}
	v, err := s.hall.Move(r.Context(), r.PathValue("id"), who, req.Move, *req.Ply)
	if err == nil {
		s.metrics.moveLatency.Observe(time.Since(start).Seconds())
	}
	s.answerGame(w, r, who, v, err)
}

// seatCommand reads who sends a command on a game (the seat's token, an
// API token's account, or else the account of the session cookie) and
// its body, and admits it under the client's move limit, answering a
// refusal itself.
func (s *Server) seatCommand(w http.ResponseWriter, r *http.Request, body any) (who hall.Who, ok bool) {
	who, a, ok := s.who(w, r)
	if !ok {
		return who, false
	}
	if err := bannedRefusal(a); err != nil {
		writeError(w, err)
		return who, false
	}
	if who == (hall.Who{}) {
		writeError(w, fail(codeUnauthorized, "no token; send the seat's token (or an API token) as Authorization: Bearer TOKEN, or sign in"))
		return who, false
	}
	if body != nil {
		if err := s.decode(w, r, body); err != nil {
			writeError(w, err)
			return who, false
		}
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return who, false
	}
	return who, true
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	who, ok := s.seatCommand(w, r, nil)
	if !ok {
		return
	}
	v, err := s.hall.Resign(r.Context(), r.PathValue("id"), who)
	s.answerGame(w, r, who, v, err)
}

// handleArrive marks the seat's player arrived: the page of a seat says
// so when it opens, so that the other players see an invite opened.
func (s *Server) handleArrive(w http.ResponseWriter, r *http.Request) {
	who, ok := s.seatCommand(w, r, nil)
	if !ok {
		return
	}
	v, err := s.hall.Arrive(r.Context(), r.PathValue("id"), who)
	s.answerGame(w, r, who, v, err)
}

// drawRequest is POST /api/games/{id}/draw.
type drawRequest struct {
	Action string `json:"action"` // offer, accept or decline
}

// handleDraw offers, accepts or declines a draw.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	var req drawRequest
	who, ok := s.seatCommand(w, r, &req)
	if !ok {
		return
	}
	v, err := s.hall.Draw(r.Context(), r.PathValue("id"), who, hall.DrawAction(req.Action))
	s.answerGame(w, r, who, v, err)
}

// handleTakeback asks for, accepts or declines a take-back.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	var req takebackRequest
	who, ok := s.seatCommand(w, r, &req)
	if !ok {
		return
	}
	v, err := s.hall.Takeback(r.Context(), r.PathValue("id"), who, hall.TakebackAction(req.Action))
	s.answerGame(w, r, who, v, err)
}

// handleSetPremove sets or clears the seat's premove, and answers the
// game.
func (s *Server) handleSetPremove(w http.ResponseWriter, r *http.Request) {
	var req premoveRequest
	who, ok := s.seatCommand(w, r, &req)
	if !ok {
		return
	}
	if req.Move == nil {
		writeError(w, fail(codeInvalid, `no move; send {"move": MOVE}, or {"move": ""} to clear the premove`))
		return
	}
	v, err := s.hall.SetPremove(r.Context(), r.PathValue("id"), who, *req.Move)
	s.answerGame(w, r, who, v, err)
}

// handlePremove tells a seat its premove: only its own seat may read it.
func (s *Server) handlePremove(w http.ResponseWriter, r *http.Request) {
	who, ok := s.seatReader(w, r)
	if !ok {
		return
	}
	v, err := s.hall.Premove(r.Context(), r.PathValue("id"), who)
	s.answer(w, premoveView{Premove: v.Move, Ply: v.Ply, Dropped: v.Dropped}, err)
}

// seatReader is who reads what only a seat is told (its premove, its
// conditional moves): the seat's token, an API token's account, or else
// the session's account; with none it answers the refusal itself.
func (s *Server) seatReader(w http.ResponseWriter, r *http.Request) (hall.Who, bool) {
	who, _, ok := s.who(w, r)
	if !ok {
		return who, false
	}
	if who == (hall.Who{}) {
		writeError(w, fail(codeUnauthorized, "no token; send the seat's token as Authorization: Bearer TOKEN, or sign in"))
		return who, false
	}
	return who, true
}

// handleSetConditional sets or clears the seat's conditional moves, and
// answers them as kept.
func (s *Server) handleSetConditional(w http.ResponseWriter, r *http.Request) {
	var req conditionalRequest
	who, ok := s.seatCommand(w, r, &req)
	if !ok {
		return
	}
	if req.Moves == nil {
		writeError(w, fail(codeInvalid, `no moves; send {"moves": [THEIR MOVE, YOUR REPLY, ...]}, or {"moves": []} to clear them`))
		return
	}
	v, err := s.hall.SetConditional(r.Context(), r.PathValue("id"), who, *req.Moves)
	s.answer(w, conditionalView{Moves: v.Moves, Ply: v.Ply}, err)
}

// handleConditional tells a seat its conditional moves: only its own seat
// may read them.
func (s *Server) handleConditional(w http.ResponseWriter, r *http.Request) {
	who, ok := s.seatReader(w, r)
	if !ok {
		return
	}
	v, err := s.hall.Conditional(r.Context(), r.PathValue("id"), who)
	s.answer(w, conditionalView{Moves: v.Moves, Ply: v.Ply}, err)
}

// joinRequest is POST /api/games/{id}/join.
type joinRequest struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	invite, err := s.hall.Join(r.Context(), r.PathValue("id"), req.Seat, req.Name)
	s.answer(w, inviteViewOf(invite), err)
}

func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	open, live, err := s.hall.Lobby(r.Context())
	s.answer(w, map[string][]lobbyGameView{"open": lobbyGameViews(open), "live": lobbyGameViews(live)}, err)
}

func (s *Server) handleEffects(w http.ResponseWriter, r *http.Request) {
	if move := r.URL.Query().Get("move"); move != "" {
		effects, err := s.hall.Preview(r.Context(), r.PathValue("id"), move)
		s.answer(w, effects, err)
		return
	}
	text := r.URL.Query().Get("ply")
	ply, err := strconv.Atoi(text)
	if err != nil {
		writeError(w, fail(codeInvalid, "ply %s: want the ply of a move played, a whole number from 0", quote(text)))
		return
	}
	effects, err := s.hall.Effects(r.Context(), r.PathValue("id"), ply)
	s.answer(w, effects, err)
}

func (s *Server) handleBoard(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("board")
	turn := 0
	if t := r.URL.Query().Get("turn"); t != "" {
		var err error
		if turn, err = strconv.Atoi(t); err != nil {
			writeError(w, fail(codeInvalid, "turn %s: want a rotation in degrees, such as 0 or 180", quote(t)))
			return
		}
	}
	var boards []string
	for _, d := range game.All() {
		rules, err := game.New(d.ID, nil)
		if err != nil {
			continue
		}
		b := rules.Board()
		if b.ID() != name {
			boards = append(boards, b.ID())
			continue
		}
		geo, err := b.Geometry(turn)
		if err != nil {
			writeError(w, fail(codeInvalid, "%s", err))
			return
		}
		writeJSON(w, http.StatusOK, geo)
		return
	}
	writeError(w, fail(codeNotFound, "no board %s; the boards are %s", quote(name), strings.Join(dedupe(boards), ", ")))
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// handleHealth answers whether the store can be read and written, by a
// check made at most once a second (see health).
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if err := s.health.check(r.Context(), s.now, s.checkStore); err != nil {
		writeError(w, fail(codeUnavailable, "the store cannot be read and written: %s", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func gameIDs() string {
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}
