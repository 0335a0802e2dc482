package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/lobby"
)

// The lobby's rules, its seeks and its subscribers are package lobby's;
// this file is its HTTP: the routes, the requests decoded, the lobby's
// socket, and its refusals answered (errors.go maps their codes).

func (s *Server) lobbyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/seeks", s.handleSeek)
	mux.HandleFunc("GET /api/seeks", s.reads(s.handleSeeks))
	mux.HandleFunc("POST /api/seeks/{id}/accept", s.handleAccept)
	mux.HandleFunc("DELETE /api/seeks/{id}", s.handleWithdraw)
	mux.HandleFunc("GET /api/lobby/ws", s.handleLobbySocket)
}

// handleSeek is POST /api/seeks: a seekRequest from the signed-in
// account (or an API token's), bounded per client address as well as
// per account.
func (s *Server) handleSeek(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	var req seekRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	id, err := s.lobby.Post(r.Context(), a.ID, clientKey(r), req.seek())
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id})
}

// handleSeeks is GET /api/seeks, filtered by ?game=, ?kind=, ?before=
// and ?limit=.
func (s *Server) handleSeeks(w http.ResponseWriter, r *http.Request) {
	q, aerr := seekQuery(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	q.Viewer = s.sessionAccountID(r)
	list, err := s.lobby.List(r.Context(), q)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, seekViews(list))
}

// seekQuery reads the query of GET /api/seeks, each parameter given at
// most once (the lobby checks their values).
func seekQuery(r *http.Request) (lobby.Query, *apiError) {
	q := r.URL.Query()
	for key, values := range q {
		if len(values) > 1 {
			return lobby.Query{}, fail(codeBadRequest, "%s given %d times; give it once", quote(key), len(values))
		}
	}
	return lobby.Query{Game: q.Get("game"), Kind: q.Get("kind"), Before: q.Get("before"), Limit: q.Get("limit")}, nil
}

// handleAccept takes a seek for the signed-in account (or an API
// token's: a bot accepts its challenges so, as POST
// /api/challenge/{id}/accept): 202 while it waits for more players, 201
// with the game once it is full.
func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowGame); err != nil {
		writeError(w, err)
		return
	}
	taken, err := s.lobby.Accept(r.Context(), r.PathValue("id"), a.ID)
	switch {
	case err != nil:
		s.writeFailure(w, err)
	case taken.Game == "":
		writeJSON(w, http.StatusAccepted, map[string]any{"id": taken.ID, "joined": taken.Joined})
	default:
		writeJSON(w, http.StatusCreated, map[string]string{"game": taken.Game})
	}
}

func (s *Server) handleWithdraw(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	if err := s.lobby.Withdraw(r.Context(), r.PathValue("id"), a.ID); err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleLobbySocket streams the lobby: the seeks, the starts of my seeks'
// games and the count of my games waiting for my move. While it is open,
// my real-time seeks stay open.
func (s *Server) handleLobbySocket(w http.ResponseWriter, r *http.Request) {
	key, release, ok := s.socketSlot(w, r)
	if !ok {
		return
	}
	defer release()
	a, _ := s.session(r)
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.Origins})
	if err != nil {
		return
	}
	conn.SetReadLimit(512)
	s.metrics.sockets.Inc()
	defer s.metrics.sockets.Dec()
	sk := &socket{conn: conn, key: key, replies: make(chan []byte, 8), stopping: make(chan struct{})}
	if !s.sockets.add(sk) {
		conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	defer s.sockets.remove(sk)
	sub := s.lobby.Subscribe(r.Context(), a.ID)
	defer s.lobby.Unsubscribe(sub)
	ctx := conn.CloseRead(context.Background())
	s.writeLobby(ctx, sk, sub)
}

// writeLobby writes the lobby's messages to one socket until it closes.
func (s *Server) writeLobby(ctx context.Context, sk *socket, sub *lobby.Sub) {
	if list, err := s.lobby.Open(ctx, sub.Account()); err == nil {
		s.writeLobbyMessage(ctx, sk, lobbyMessage{Type: "seeks", Seeks: seekViews(list)})
	}
	// Every keep: a ping, the seeker's real-time seeks kept open, the
	// count of games waiting for a move read again.
	keep := time.NewTicker(min(lobby.SeekHold/4, s.timeouts.Ping))
	defer keep.Stop()
	turns := -1
	s.sendTurns(ctx, sk, sub, &turns)
	for {
		var msg lobby.Message
		select {
		case msg = <-sub.Messages():
		case <-keep.C:
			if !s.pinged(ctx, sk) {
				return
			}
			s.lobby.Keep(ctx, sub.Account())
			s.sendTurns(ctx, sk, sub, &turns)
			continue
		case <-sk.stopping:
			sk.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
			return
		case <-ctx.Done():
			sk.conn.CloseNow()
			return
		}
		if !s.writeLobbyMessage(ctx, sk, lobbyMessageOf(msg)) {
			return
		}
		if msg.Type == "started" {
			s.sendTurns(ctx, sk, sub, &turns)
		}
	}
}

// sendTurns sends the count of my games waiting for me when it changed.
func (s *Server) sendTurns(ctx context.Context, sk *socket, sub *lobby.Sub, last *int) {
	if sub.Account() == "" {
		return
	}
	turns, err := s.hall.Turns(ctx, sub.Account())
	if err != nil || len(turns) == *last {
		return
	}
	*last = len(turns)
	n := len(turns)
	s.writeLobbyMessage(ctx, sk, lobbyMessage{Type: "turn", Count: &n})
}

func (s *Server) writeLobbyMessage(ctx context.Context, sk *socket, msg lobbyMessage) bool {
	data, _ := json.Marshal(msg)
	wctx, cancel := context.WithTimeout(ctx, writeWait)
	defer cancel()
	if err := sk.conn.Write(wctx, websocket.MessageText, data); err != nil {
		sk.conn.CloseNow()
		return false
	}
	return true
}
