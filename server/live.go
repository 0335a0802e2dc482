package server

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/game"
)

// hub holds the open websockets of every game.
type hub struct {
	mu      sync.Mutex
	viewers map[string]map[*viewer]struct{}
	closed  bool
}

// viewer is one open websocket: the events waiting to be written, and the
// connection to close when the viewer falls too far behind.
type viewer struct {
	conn *websocket.Conn
	send chan []byte
}

// sendBuffer is how many events a viewer may fall behind before the
// server closes its socket; the client then resyncs with GET.
const sendBuffer = 64

func newHub() *hub { return &hub{viewers: map[string]map[*viewer]struct{}{}} }

func (h *hub) add(id string, v *viewer) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	if h.viewers[id] == nil {
		h.viewers[id] = map[*viewer]struct{}{}
	}
	h.viewers[id][v] = struct{}{}
	return true
}

func (h *hub) remove(id string, v *viewer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.viewers[id], v)
	if len(h.viewers[id]) == 0 {
		delete(h.viewers, id)
	}
}

// watched reports whether a socket watches the game.
func (h *hub) watched(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.viewers[id]) > 0
}

// publish queues msg for every viewer of the game, never waiting: a
// viewer whose queue is full is closed.
func (h *hub) publish(id string, msg []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for v := range h.viewers[id] {
		select {
		case v.send <- msg:
		default:
			go v.conn.Close(websocket.StatusPolicyViolation, "too far behind; read the game with GET and reconnect")
		}
	}
}

// closeAll tells every viewer the server is going away.
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, vs := range h.viewers {
		for v := range vs {
			go v.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		}
	}
}

// event is what a socket receives: the game after each change, with its
// version, and the effects of the move that made it, if one did.
type event struct {
	Type    string        `json:"type"` // "game", "auth" or "error"
	Version int64         `json:"version,omitempty"`
	Game    *gameView     `json:"game,omitempty"`
	Effects *game.Effects `json:"effects,omitempty"`
	Seat    *int          `json:"seat,omitempty"`
	Error   *apiError     `json:"error,omitempty"`
}

// broadcast sends the game to its viewers; called after the change is
// stored. e.mu is held, so events go out in version order.
func (s *Server) broadcast(e *entry, effects *game.Effects) {
	v := s.view(e)
	msg, err := json.Marshal(event{Type: "game", Version: v.Version, Game: &v, Effects: effects})
	if err != nil {
		s.log.Error("broadcast", "game", e.id, "err", err)
		return
	}
	s.hub.publish(e.id, msg)
}

// command is what a player's socket sends: "auth" with a seat's token,
// then "move" with a move and its ply. A socket without a token watches
// only.
type command struct {
	Type  string `json:"type"`
	Token string `json:"token"`
	Move  string `json:"move"`
	Ply   *int   `json:"ply"`
}

func (s *Server) handleSocket(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var first event
	if err := s.withGame(r, func(e *entry) error {
		v := s.view(e)
		first = event{Type: "game", Version: v.Version, Game: &v}
		return nil
	}); err != nil {
		writeError(w, asAPIError(err))
		return
	}
	key := clientKey(r)
	if s.closing.Load() {
		writeError(w, fail(codeShutdown, "the server is shutting down; try again in a moment"))
		return
	}
	if !s.clients.openSocket(key) {
		writeError(w, fail(codeRateLimited, "too many open sockets from this client (at most %d)", s.limits.Sockets))
		return
	}
	defer s.clients.closeSocket(key)
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.Origins})
	if err != nil {
		return // Accept answered already (403 for a foreign origin)
	}
	conn.SetReadLimit(s.limits.Body)
	s.metrics.sockets.Inc()
	defer s.metrics.sockets.Dec()
	v := &viewer{conn: conn, send: make(chan []byte, sendBuffer)}
	if !s.hub.add(id, v) {
		conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	defer s.hub.remove(id, v)
	s.reply(v, first)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	go s.readCommands(ctx, cancel, id, v, key)
	s.writeEvents(ctx, v)
}

// writeEvents writes the queued events until the socket or the server
// ends.
func (s *Server) writeEvents(ctx context.Context, v *viewer) {
	for {
		select {
		case msg := <-v.send:
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := v.conn.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				v.conn.CloseNow()
				return
			}
		case <-ctx.Done():
			v.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
			return
		}
	}
}

// reply queues an event for one socket.
func (s *Server) reply(v *viewer, ev event) {
	msg, _ := json.Marshal(ev)
	select {
	case v.send <- msg:
	default:
	}
}

// readCommands reads the socket's commands until it closes. Moves are
// played as POST .../moves plays them, so their answers come as the
// broadcast every viewer receives.
func (s *Server) readCommands(ctx context.Context, done context.CancelFunc, id string, v *viewer, key string) {
	defer done()
	token := ""
	for {
		_, data, err := v.conn.Read(ctx)
		if err != nil {
			return
		}
		var cmd command
		if err := json.Unmarshal(data, &cmd); err != nil {
			s.reply(v, event{Type: "error", Error: fail(codeBadRequest, "a command is a JSON object such as {\"type\":\"move\",\"move\":\"a1-a3\",\"ply\":0}")})
			continue
		}
		if cmd.Type == "auth" {
			seat, err := s.authSocket(ctx, id, cmd.Token)
			if err != nil {
				s.reply(v, event{Type: "error", Error: asAPIError(err)})
				continue
			}
			token = cmd.Token
			s.reply(v, event{Type: "auth", Seat: &seat})
			continue
		}
		s.socketCommand(ctx, id, token, key, cmd, v)
	}
}

// socketCommand runs a player's command; a spectator's socket refuses it.
func (s *Server) socketCommand(ctx context.Context, id, token, key string, cmd command, v *viewer) {
	var err error
	switch {
	case token == "":
		err = fail(codeForbidden, "this socket only watches; send {\"type\":\"auth\",\"token\":TOKEN} first to play")
	case cmd.Type != "move":
		err = fail(codeBadRequest, "command %q: want auth or move", cmd.Type)
	case cmd.Ply == nil:
		err = fail(codeInvalid, "no ply; send the ply the move is for")
	case s.closing.Load():
		err = fail(codeShutdown, "the server is shutting down; try again in a moment")
	case !s.clients.allowMove(key):
		err = fail(codeRateLimited, "too many requests from this client; slow down")
	default:
		_, err = s.move(ctx, id, token, cmd.Move, *cmd.Ply)
	}
	if err != nil {
		s.reply(v, event{Type: "error", Error: asAPIError(err)})
	}
}

// authSocket finds the seat of a token.
func (s *Server) authSocket(ctx context.Context, id, token string) (int, error) {
	e := s.lock(id)
	defer e.mu.Unlock()
	if err := s.load(ctx, e); err != nil {
		return 0, err
	}
	seat := seatOf(e.g.Seats, token)
	if seat < 0 {
		return 0, fail(codeForbidden, "that token is not one of this game's seats")
	}
	return seat, nil
}
