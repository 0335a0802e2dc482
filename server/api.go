package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/session"
	"github.com/arbiter-games/arbiter/store"
)

// maxNameLength bounds a seat's name.
const maxNameLength = 40

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("GET /api/games", s.handleLobby)
	mux.HandleFunc("GET /api/games/{id}", s.handleGet)
	mux.HandleFunc("POST /api/games/{id}/moves", s.handleMove)
	mux.HandleFunc("GET /api/games/{id}/record", s.handleRecord)
	mux.HandleFunc("GET /api/games/{id}/effects", s.handleEffects)
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.handleDraw)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("GET /api/games/{id}/ws", s.handleSocket)
	mux.HandleFunc("GET /api/boards/{board}", s.handleBoard)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, fail(codeNotFound, "no endpoint %s %s; see / for the list", r.Method, r.URL.Path))
	})
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.Handle("GET /metrics", s.metrics.handler())
	s.pageRoutes(mux)
	return s.middleware(mux)
}

// decode reads a JSON body of at most the body limit into v, refusing
// unknown fields and anything after the value.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) *apiError {
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
		return fail(codeBadRequest, "field %q: want %s, not %s", typeErr.Field, typeErr.Type, typeErr.Value)
	}
	return fail(codeBadRequest, "the body is not the JSON object asked for: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// createRequest is POST /api/games.
type createRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	// Seats: "human", "open" (a human seat joined from the lobby) or an
	// AI spec, one per seat in turn order.
	Seats []string `json:"seats"`
	Names []string `json:"names"`
	// Clock is a real-time control, "5m+3s"; Days a correspondence one.
	Clock string `json:"clock"`
	Days  int    `json:"days"`
	// FEN, when given, is the position the game starts from instead of
	// the game's start (a lesson, a composed problem, a late position).
	FEN string `json:"fen"`
}

type seatInvite struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	URL   string `json:"url"`
}

type createResponse struct {
	ID    string       `json:"id"`
	Seats []seatInvite `json:"seats"`
	URL   string       `json:"url"`
	Game  gameView     `json:"game"`
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	resp, err := s.create(r.Context(), req)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusCreated, resp)
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
	if s.closing.Load() {
		return fail(codeShutdown, "the server is shutting down; try again in a moment")
	}
	if !allow(clientKey(r)) {
		return fail(codeRateLimited, "too many requests from this client; slow down")
	}
	return nil
}

// checkCreate checks a create request and makes its game, its time
// control and the engines of its AI seats.
func (s *Server) checkCreate(req createRequest) (game.Game, *session.TimeControl, []ai.Engine, error) {
	if req.Game == "" {
		return nil, nil, nil, fail(codeInvalid, "no game given; want one of %s", gameIDs())
	}
	if _, ok := game.Lookup(req.Game); !ok {
		return nil, nil, nil, fail(codeInvalid, "unknown game %q; want one of %s", req.Game, gameIDs())
	}
	rules, err := game.New(req.Game, req.Options)
	if err != nil {
		return nil, nil, nil, fail(codeInvalid, "%s", err)
	}
	if len(req.Seats) != rules.Players() {
		return nil, nil, nil, fail(codeInvalid, "%s has %d seats, %d given; give one per seat: human, open or an AI spec such as ai:level=3", req.Game, rules.Players(), len(req.Seats))
	}
	if len(req.Names) > len(req.Seats) {
		return nil, nil, nil, fail(codeInvalid, "%d names for %d seats", len(req.Names), len(req.Seats))
	}
	for p, name := range req.Names {
		if len(name) > maxNameLength || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' }) {
			return nil, nil, nil, fail(codeInvalid, "name of seat %d: at most %d characters, no control characters", p, maxNameLength)
		}
	}
	clock, err := newClock(req.Clock, req.Days)
	if err != nil {
		return nil, nil, nil, err
	}
	engines := make([]ai.Engine, len(req.Seats))
	for p, spec := range req.Seats {
		if spec == "human" || spec == "open" {
			continue
		}
		if engines[p], err = ai.New(spec, seedFor(p)); err != nil {
			return nil, nil, nil, fail(codeInvalid, "seat %d: %s; want human, open or an AI spec such as ai:level=3", p, err)
		}
	}
	return rules, clock, engines, nil
}

// seedFor seeds a seat's engine: engines differ between seats, and a
// game's play depends on its moves, not on the server.
func seedFor(seat int) uint64 { return uint64(seat) + 1 }

func gameIDs() string {
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}

func (s *Server) create(ctx context.Context, req createRequest) (createResponse, error) {
	rules, clock, engines, err := s.checkCreate(req)
	if err != nil {
		return createResponse{}, err
	}
	startFEN, err := startPosition(rules, req.FEN)
	if err != nil {
		return createResponse{}, err
	}
	now := s.now()
	h := store.Header{Game: rules.ID(), Options: req.Options, StartFEN: startFEN, Clock: storedClock(clock, rules.Players()),
		Ply: 0, Version: 1,
		DrawOffer: -1, Created: now, Updated: now}
	if h.Options == nil {
		h.Options = map[string]string{}
	}
	var invites []seatInvite
	tokens := make([]string, len(req.Seats))
	for p, spec := range req.Seats {
		seat := store.Seat{Player: spec}
		if p < len(req.Names) {
			seat.Name = req.Names[p]
		}
		switch spec {
		case "open":
			seat.Player, seat.Open = "human", true
		case "human":
			tokens[p], seat.TokenHash = newToken()
		}
		h.Seats = append(h.Seats, seat)
	}
	for attempt := 0; ; attempt++ {
		h.ID = newGameID()
		err = s.store.Create(ctx, h)
		if !errors.Is(err, store.ErrDuplicate) || attempt == 3 {
			break
		}
	}
	if err != nil {
		return createResponse{}, fmt.Errorf("creating a game: %w", err)
	}
	for p, token := range tokens {
		if token != "" {
			invites = append(invites, seatInvite{Seat: p, Token: token, URL: inviteURL(h.ID, p, token)})
		}
	}
	if invites == nil {
		invites = []seatInvite{}
	}
	e := s.lock(h.ID)
	defer e.mu.Unlock()
	e.g, e.engines = store.Game{Header: h}, engines
	if err := s.rebuild(e); err != nil {
		return createResponse{}, err
	}
	s.metrics.gamesCreated.Inc()
	s.log.Info("game created", "game", h.ID, "rules", h.Game, "seats", req.Seats)
	s.afterChange(e)
	return createResponse{ID: h.ID, Seats: invites, URL: spectatorURL(h.ID), Game: s.view(e)}, nil
}

// startPosition checks a create request's FEN and returns it as the game
// writes it ("" for the game's start); it must be a position where the
// game goes on. The FEN stored is the one the game writes, so that the record
// and a replay read the same text.
func startPosition(rules game.Game, fen string) (string, error) {
	if fen == "" {
		return "", nil
	}
	st, err := rules.ParseFEN(fen)
	if err != nil {
		return "", fail(codeInvalid, "%s; send a position of %s, or no fen to start from the game's start", err, rules.ID())
	}
	if r := st.Result(); r.Over() {
		return "", fail(codeInvalid, "fen %q: the game is over in that position (%s); send a position where it goes on", fen, r.Describe(rules))
	}
	return st.FEN(), nil
}

// withGame runs f on the game named in the path, loaded and locked.
func (s *Server) withGame(r *http.Request, f func(e *entry) error) error {
	e := s.lock(r.PathValue("id"))
	defer e.mu.Unlock()
	if err := s.refresh(r.Context(), e); err != nil {
		return err
	}
	return f(e)
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	var v gameView
	err := s.withGame(r, func(e *entry) error {
		v = s.view(e)
		return nil
	})
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	var rec *record.Record
	err := s.withGame(r, func(e *entry) error {
		rec = e.record()
		return nil
	})
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
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
	token := bearer(r)
	if token == "" {
		writeError(w, fail(codeUnauthorized, "no token; send the seat's token as Authorization: Bearer TOKEN"))
		return
	}
	var req moveRequest
	if !s.readRequest(w, r, &req, s.clients.allowMove) {
		return
	}
	if req.Ply == nil {
		writeError(w, fail(codeInvalid, `no ply; send {"move": MOVE, "ply": N} with N the ply the move is for`))
		return
	}
	v, err := s.move(r.Context(), r.PathValue("id"), token, req.Move, *req.Ply)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	s.metrics.moveLatency.Observe(time.Since(start).Seconds())
	writeJSON(w, http.StatusOK, v)
}

// move plays a person's move for the seat of token, and answers the game
// after it. Used by the API and by players' websockets.
func (s *Server) move(ctx context.Context, id, token, text string, ply int) (gameView, error) {
	if s.closing.Load() {
		return gameView{}, fail(codeShutdown, "the server is shutting down; try again in a moment")
	}
	e := s.lock(id)
	defer e.mu.Unlock()
	if err := s.load(ctx, e); err != nil {
		return gameView{}, err
	}
	seat := seatOf(e.g.Seats, token)
	if seat < 0 {
		return gameView{}, fail(codeForbidden, "that token is not one of this game's seats")
	}
	if err := s.decide(ctx, e, func() error { return s.playMove(e, seat, text, ply) }); err != nil {
		return gameView{}, asRefusal(err)
	}
	s.afterChange(e)
	return s.view(e), nil
}

// playMove plays seat's move for ply. A move already stored for that ply
// by that seat is a resend and answers as stored. e.mu is held.
func (s *Server) playMove(e *entry, seat int, text string, ply int) error {
	switch {
	case ply < 0:
		return fail(codeInvalid, "ply %d: plies count from 0", ply)
	case ply < e.g.Ply:
		if e.isResend(seat, text, ply) {
			return nil
		}
		return fail(codeWrongPly, "ply %d was played already; the game is at ply %d", ply, e.g.Ply)
	}
	_, err := e.ss.MoveAt(game.Player(seat), ply, text)
	return err
}

// isResend reports whether seat played text at ply already. e.mu is held.
func (e *entry) isResend(seat int, text string, ply int) bool {
	st := e.ss.State()
	for i := e.g.Ply; i > ply; i-- {
		st.Undo()
	}
	if int(st.ToMove()) != seat {
		return false
	}
	m, err := game.ParseRuleMove(st, text)
	return err == nil && m.Text(st.Game().Board()) == e.g.Moves[ply].Text
}

// seatRequest reads the token of a command on a game and finds its seat.
func (s *Server) seatCommand(w http.ResponseWriter, r *http.Request, body any) (token string, ok bool) {
	token = bearer(r)
	if token == "" {
		writeError(w, fail(codeUnauthorized, "no token; send the seat's token as Authorization: Bearer TOKEN"))
		return "", false
	}
	if body != nil {
		if err := s.decode(w, r, body); err != nil {
			writeError(w, err)
			return "", false
		}
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return "", false
	}
	return token, true
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	token, ok := s.seatCommand(w, r, nil)
	if !ok {
		return
	}
	s.answerCommand(w, r, token, func(e *entry, seat game.Player) error { return e.ss.Resign(seat) })
}

// answerCommand runs a seat's command on the game's session and answers
// the game after it.
func (s *Server) answerCommand(w http.ResponseWriter, r *http.Request, token string, do func(e *entry, seat game.Player) error) {
	var v gameView
	err := s.withGame(r, func(e *entry) error {
		seat := seatOf(e.g.Seats, token)
		if seat < 0 {
			return fail(codeForbidden, "that token is not one of this game's seats")
		}
		if err := s.decide(r.Context(), e, func() error { return do(e, game.Player(seat)) }); err != nil {
			return asRefusal(err)
		}
		s.afterChange(e)
		v = s.view(e)
		return nil
	})
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// drawRequest is POST /api/games/{id}/draw.
type drawRequest struct {
	Action string `json:"action"` // offer, accept or decline
}

// handleDraw offers, accepts or declines a draw. Offering when the other
// seat offers already accepts; offering again changes nothing; declining
// withdraws one's own offer or refuses the other seat's.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	var req drawRequest
	token, ok := s.seatCommand(w, r, &req)
	if !ok {
		return
	}
	actions := map[string]func(ss *session.Session, seat game.Player) error{
		"offer": func(ss *session.Session, seat game.Player) error {
			_, err := ss.OfferDraw(seat)
			return err
		},
		"accept":  (*session.Session).AcceptDraw,
		"decline": (*session.Session).DeclineDraw,
	}
	act, ok := actions[req.Action]
	if !ok {
		writeError(w, fail(codeInvalid, "action %q: want offer, accept or decline", req.Action))
		return
	}
	s.answerCommand(w, r, token, func(e *entry, seat game.Player) error { return act(e.ss, seat) })
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
	if len(req.Name) > maxNameLength || strings.ContainsFunc(req.Name, func(r rune) bool { return r < ' ' }) {
		writeError(w, fail(codeInvalid, "name: at most %d characters, no control characters", maxNameLength))
		return
	}
	var invite seatInvite
	err := s.withGame(r, func(e *entry) error {
		for attempt := 0; ; attempt++ {
			err := s.join(r.Context(), e, req, &invite)
			if errors.Is(err, store.ErrConflict) && attempt < 2 {
				continue
			}
			return err
		}
	})
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, invite)
}

// join gives an open seat to whoever asks first. e.mu is held.
func (s *Server) join(ctx context.Context, e *entry, req joinRequest, invite *seatInvite) error {
	if req.Seat < 0 || req.Seat >= len(e.g.Seats) {
		return fail(codeInvalid, "seat %d: this game has seats 0 to %d", req.Seat, len(e.g.Seats)-1)
	}
	if res := e.ss.Result(); res.Over() {
		return fail(codeGameOver, "%s (%s)", session.ErrOver, res.Describe(e.ss.Game()))
	}
	if !e.g.Seats[req.Seat].Open {
		return fail(codeConflict, "seat %d is not open", req.Seat)
	}
	next := e.next(s.now())
	token, hash := newToken()
	next.Seats[req.Seat] = store.Seat{Player: "human", Name: req.Name, TokenHash: hash}
	if err := s.store.Update(ctx, next); err != nil {
		if errors.Is(err, store.ErrConflict) {
			e.loaded = false
			if rerr := s.refresh(ctx, e); rerr != nil {
				return rerr
			}
		}
		return err
	}
	e.g.Header = next
	*invite = seatInvite{Seat: req.Seat, Token: token, URL: inviteURL(e.id, req.Seat, token)}
	s.broadcast(e, nil)
	return nil
}

// lobbyGame is a game as the lobby lists it.
type lobbyGame struct {
	ID      string            `json:"id"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   []seatView        `json:"seats"`
	Ply     int               `json:"ply"`
	Version int64             `json:"version"`
	URL     string            `json:"url"`
	Updated time.Time         `json:"updated"`
}

func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	open, err := s.store.List(r.Context(), store.Filter{Ongoing: true, OpenSeats: true, Limit: 50})
	if err == nil {
		var live []store.Header
		live, err = s.store.List(r.Context(), store.Filter{Ongoing: true, Limit: 50})
		if err == nil {
			writeJSON(w, http.StatusOK, map[string][]lobbyGame{"open": lobby(open), "live": lobby(live)})
			return
		}
	}
	s.log.Error("lobby", "err", err)
	writeError(w, asAPIError(err))
}

func lobby(hs []store.Header) []lobbyGame {
	out := []lobbyGame{}
	for _, h := range hs {
		rules, err := game.New(h.Game, h.Options)
		if err != nil {
			continue
		}
		lg := lobbyGame{ID: h.ID, Game: h.Game, Options: h.Options, Ply: h.Ply, Version: h.Version,
			URL: spectatorURL(h.ID), Updated: h.Updated}
		for p, seat := range h.Seats {
			lg.Seats = append(lg.Seats, seatView{Seat: p, Player: seat.Player, Name: seat.Name,
				Side: rules.PlayerName(game.Player(p)), Open: seat.Open})
		}
		out = append(out, lg)
	}
	return out
}

func (s *Server) handleEffects(w http.ResponseWriter, r *http.Request) {
	var effects game.Effects
	err := s.withGame(r, func(e *entry) error {
		ply, err := strconv.Atoi(r.URL.Query().Get("ply"))
		if err != nil || ply < 0 || ply >= e.g.Ply {
			return fail(codeInvalid, "ply %q: want the ply of a move played, 0 to %d", r.URL.Query().Get("ply"), e.g.Ply-1)
		}
		effects, err = moveEffects(e, ply)
		return err
	})
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, effects)
}

func (s *Server) handleBoard(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("board")
	turn := 0
	if t := r.URL.Query().Get("turn"); t != "" {
		var err error
		if turn, err = strconv.Atoi(t); err != nil {
			writeError(w, fail(codeInvalid, "turn %q: want a rotation in degrees, such as 0 or 180", t))
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
	writeError(w, fail(codeNotFound, "no board %q; the boards are %s", name, strings.Join(dedupe(boards), ", ")))
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

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := s.store.Check(ctx); err != nil {
		s.log.Error("health check", "err", err)
		writeError(w, fail(codeUnavailable, "the store cannot be read and written: %s", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
