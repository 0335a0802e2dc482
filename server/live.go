package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/community"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
)

// A websocket watches one game: it receives the game after every change
// (the hall's watch), and a player's socket sends moves. It keeps its own
// deadlines, since the HTTP server's do not reach a hijacked connection:
// a ping every Timeouts.Ping, which the client must answer within
// Timeouts.Pong, and writeWait for each event written.
const writeWait = 10 * time.Second

// event is what a socket receives: the game after each change, with its
// version, its position (what GET .../position answers, so that the page
// draws the change without asking) and the effects of the move that made
// it, if one did; the answer to an auth; the acknowledgement of a move
// sent with an id (its id, the game's version and ply once it is
// stored); or a refusal, with the id of the move refused (if it had one)
// and the HTTP status POST would have answered.
type event struct {
	Type     string        `json:"type"` // "game", "auth", "ack", "chat" or "error"
	ID       string        `json:"id,omitempty"`
	Version  int64         `json:"version,omitempty"`
	Ply      *int          `json:"ply,omitempty"`
	Game     *gameView     `json:"game,omitempty"`
	Position *positionView `json:"position,omitempty"`
	Effects  *game.Effects `json:"effects,omitempty"`
	Seat     *int          `json:"seat,omitempty"`
	Status   int           `json:"status,omitempty"`
	Error    *apiError     `json:"error,omitempty"`
	// Chat is a chat message (Type "chat") of a room the socket reads.
	Chat *chatMessageView `json:"chat,omitempty"`
	// live, when set and Position is not, is the position to write as
	// Position: read from the state as the event is written by hand,
	// with no positionView (a map of the stacks) made for each move.
	live *liveState
}

// liveState is a position not yet read into a positionView.
type liveState struct {
	st  game.State
	ply int
}

// withPosition is ev with its live position read into Position, as
// json.Marshal writes it.
func (ev event) withPosition() event {
	if ev.live != nil && ev.Position == nil {
		if pos, err := position(ev.live.st, ev.live.ply); err == nil {
			ev.Position = &pos
		}
	}
	ev.live = nil
	return ev
}

// refusalEvent is the event of a refused command: err as POST would
// answer it, status and all, with the id of the move it refuses.
func refusalEvent(id string, err error) event {
	ae := asAPIError(err)
	return event{Type: "error", ID: id, Status: status(ae), Error: ae}
}

// gameEvent is the event of a game's state v, its position st.
func gameEvent(v *hall.View, st game.State, effects *game.Effects) event {
	gv := gameViewOf(*v)
	ev := event{Type: "game", Version: v.Version, Game: &gv, Effects: effects}
	if st != nil {
		ev.live = &liveState{st: st, ply: v.Ply}
	}
	return ev
}

// encodeEvent is the wire form of a hall's event, encoded once for every
// socket watching the game (eventWires).
func encodeEvent(ev *hall.Event) []byte {
	return marshalGameEvent(gameEvent(&ev.Game, ev.State, ev.Effects))
}

// marshalGameEvent is json.Marshal of a game's event, written by hand
// (appendGameEvent) when it can be.
func marshalGameEvent(ev event) []byte {
	if msg, ok := appendGameEvent(make([]byte, 0, 2048), &ev); ok {
		return msg
	}
	msg, _ := json.Marshal(ev.withPosition())
	return msg
}

// command is what a player's socket sends: "auth" with a seat's token,
// then "move" with a move and its ply, and an id of the client's choice
// to be acknowledged by. A move may carry a seat's token of its own,
// which speaks for that move alone, as a POST's Authorization does: so a
// client holding several seats plays them all over one socket. A socket
// without a token watches only.
type command struct {
	Type  string `json:"type"`
	Token string `json:"token"`
	Move  string `json:"move"`
	Ply   *int   `json:"ply"`
	ID    string `json:"id"`
	// Room and Text are a chat command's ("type":"chat"), written by the
	// account whose session opened the socket.
	Room string `json:"room"`
	Text string `json:"text"`
}

// maxCommandID bounds a move's id, which its acknowledgement echoes.
const maxCommandID = 100

// socket is one open websocket: its connection, the replies waiting to
// be written beside the game's events, and the signal that the server
// stops. Only its writer (writeEvents) closes it, so that the close
// handshake is never cut short by another goroutine.
type socket struct {
	conn     *websocket.Conn
	id, key  string
	replies  chan []byte
	stopping chan struct{}
	once     sync.Once
	// account and session are the account and the session (its token's
	// hash) of the cookie that opened the socket, "" and nil for none;
	// revoked closes when that session ends.
	account     string
	session     []byte
	revoked     chan struct{}
	revokedOnce sync.Once
	// presence signals that the game's presence changed, for a socket
	// that listens to it; seats are the seats its auths hold, both kept
	// by Server.presence (presence.go).
	presence chan struct{}
	seats    map[int]bool
	// chat is the socket's listener of the game's chat, nil for none;
	// banned is the reason a moderator banned the socket's account, ""
	// for none: it watches and reads, and neither plays nor chats.
	chat   *community.Listener
	banned string
}

// goingAway tells the socket's writer that the server stops.
func (sk *socket) goingAway() { sk.once.Do(func() { close(sk.stopping) }) }

// revoke tells the socket's writer that its session ended.
func (sk *socket) revoke() { sk.revokedOnce.Do(func() { close(sk.revoked) }) }

// endSessions closes at once the sockets opened under the sessions that
// ended: every session of owner but keep, or (owner "") the session
// keep alone. Other servers sharing the store find out at their socket's
// next command or ping (sessionLives).
func (ss *socketSet) endSessions(owner string, keep []byte) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for sk := range ss.open {
		if sk.session == nil {
			continue
		}
		same := bytes.Equal(sk.session, keep)
		if owner == "" && same || owner != "" && sk.account == owner && !same {
			sk.revoke()
		}
	}
}

// sessionsEnded closes the sockets of the sessions of owner (but keep)
// that were just deleted; owner "" names the session keep alone.
func (s *Server) sessionsEnded(owner string, keep []byte) { s.sockets.endSessions(owner, keep) }

// sessionLives tells whether the session that opened the socket still
// lives (a socket opened without one has nothing to lose); when it does
// not, the socket is revoked.
func (s *Server) sessionLives(ctx context.Context, sk *socket) bool {
	select {
	case <-sk.revoked: // ended on this server: the store need not be asked
		return false
	default:
	}
	if sk.session == nil || s.accounts.SessionHolds(ctx, sk.session, sk.account) {
		return true
	}
	sk.revoke()
	return false
}

// socketSlot admits the opening of a websocket under the client's read
// limit and its cap of open sockets, answering a refusal itself; release
// frees the slot when the socket ends.
func (s *Server) socketSlot(w http.ResponseWriter, r *http.Request) (key string, release func(), ok bool) {
	key = clientKey(r)
	if err := s.admit(r, s.clients.allowRead); err != nil {
		writeError(w, err)
		return key, nil, false
	}
	if !s.clients.openSocket(key) {
		writeError(w, fail(codeRateLimited, "too many open sockets from this client (at most %d)", s.limits.Sockets))
		return key, nil, false
	}
	return key, func() { s.clients.closeSocket(key) }, true
}

func (s *Server) handleSocket(w http.ResponseWriter, r *http.Request) {
	key, release, ok := s.socketSlot(w, r)
	if !ok {
		return
	}
	var watch *hall.Watch
	var first hall.View
	var err error
	if failed := s.stacks.do(func() { watch, first, err = s.hall.Watch(r.Context(), r.PathValue("id")) }); failed != nil {
		err = failed
	}
	if err != nil {
		release()
		s.writeFailure(w, err)
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.Origins})
	if err != nil {
		s.hall.Stop(watch)
		release()
		return // Accept answered already (403 for a foreign origin)
	}
	sk := &socket{conn: conn, id: r.PathValue("id"), key: key, replies: make(chan []byte, 8), stopping: make(chan struct{}),
		revoked: make(chan struct{}), presence: make(chan struct{}, 1)}
	if a, ok := s.session(r); ok {
		sk.account, sk.session = a.ID, account.HashSessionToken(sessionToken(r))
		if a.Standing.Banned {
			sk.banned = a.Standing.BanReason
		}
	}
	// The socket lives on two goroutines of its own, started small: this
	// handler's, whose stack grew through the HTTP server, its
	// middleware and the handshake (to 16 KiB and more, and kept), ends
	// here, as a hijacked connection allows.
	go s.runSocket(sk, watch, first, r.URL.Query().Get("presence") == "on", release)
}

// runSocket serves an open socket until it ends: its first message the
// game first, then its commands (readCommands) and its events
// (writeEvents). release frees its slot.
func (s *Server) runSocket(sk *socket, watch *hall.Watch, first hall.View, presence bool, release func()) {
	defer release()
	defer s.hall.Stop(watch)
	sk.conn.SetReadLimit(s.limits.Body)
	s.metrics.sockets.Inc()
	defer s.metrics.sockets.Dec()
	if !s.sockets.add(sk) {
		sk.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	defer s.sockets.remove(sk)
	defer s.presence.leave(sk)
	var hello []byte
	s.stacks.do(func() { hello = marshalGameEvent(gameEvent(&first, nil, nil)) })
	sk.replies <- hello // the socket's first message: the queue is empty
	if presence {
		s.presence.listen(sk)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if l, err := s.community.Listen(ctx, sk.id, sk.account); err == nil {
		sk.chat = l
		defer s.community.Unlisten(l)
	}
	go s.readCommands(ctx, cancel, sk)
	s.writeEvents(ctx, sk, watch)
}

// writeEvents writes the game's events and the socket's replies, and
// pings, until the socket, the watch or the server ends.
func (s *Server) writeEvents(ctx context.Context, sk *socket, watch *hall.Watch) {
	ping := time.NewTicker(s.timeouts.Ping)
	defer ping.Stop()
	var deadline writeDeadline
	defer deadline.stop()
	// The game comes first (the hello, in replies): presence is only
	// written after it.
	var presence chan struct{}
	var chat <-chan community.Message
	if sk.chat != nil {
		chat = sk.chat.Messages()
	}
	for {
		var msg []byte
		select {
		case m := <-chat:
			view := chatMessageViewOf(m)
			msg, _ = json.Marshal(event{Type: "chat", Chat: &view})
		case ev, ok := <-watch.Events():
			if !ok {
				s.endWatch(sk, watch)
				return
			}
			if s.stacks.do(func() { msg = s.events.wire(ev) }) != nil {
				sk.conn.CloseNow()
				return
			}
		case msg = <-sk.replies:
		case <-presence:
			msg = s.presenceWire(sk.id)
		case <-sk.stopping:
			sk.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
			return
		case <-sk.revoked:
			sk.conn.Close(websocket.StatusPolicyViolation, "the session ended; sign in again")
			return
		case <-ping.C:
			if !s.pinged(ctx, sk) {
				return
			}
			// Another server may have ended the session: a socket that
			// only watches finds out here, and closes at the next turn.
			s.sessionLives(ctx, sk)
			continue
		case <-ctx.Done():
			sk.conn.CloseNow()
			return
		}
		if err := sk.conn.Write(deadline.context(ctx), websocket.MessageText, msg); err != nil {
			sk.conn.CloseNow()
			return
		}
		presence = sk.presence
	}
}

// writeDeadline bounds a socket's writes: each must end within writeWait,
// and may be given as little as half of it. One context serves the writes
// of half a writeWait, where a context for each write cost a timer, and
// the websocket's own stop function, each time (a few per cent of the
// server's time under load).
type writeDeadline struct {
	ctx    context.Context
	cancel context.CancelFunc
	until  time.Time
}

// context is a context that ends at least writeWait/2 from now, within
// parent.
func (d *writeDeadline) context(parent context.Context) context.Context {
	now := time.Now()
	if d.ctx == nil || d.until.Sub(now) < writeWait/2 {
		d.stop()
		d.until = now.Add(writeWait)
		d.ctx, d.cancel = context.WithDeadline(parent, d.until)
	}
	return d.ctx
}

func (d *writeDeadline) stop() {
	if d.cancel != nil {
		d.cancel()
	}
}

// pinged pings the socket's client and closes the socket when no answer
// comes within the pong timeout; it reports whether the socket lives.
func (s *Server) pinged(ctx context.Context, sk *socket) bool {
	pctx, cancel := context.WithTimeout(ctx, s.timeouts.Pong)
	defer cancel()
	if err := sk.conn.Ping(pctx); err != nil {
		sk.conn.Close(websocket.StatusPolicyViolation, "no answer to a ping")
		return false
	}
	return true
}

// endWatch closes a socket whose watch ended: it fell behind, or the
// server stops.
func (s *Server) endWatch(sk *socket, watch *hall.Watch) {
	if watch.Lagged() {
		sk.conn.Close(websocket.StatusPolicyViolation, "too far behind; read the game with GET and reconnect")
		return
	}
	sk.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
}

// reply queues an event for one socket. A client that sends faster than
// it reads its replies waits: its commands are read no faster.
func (s *Server) reply(ctx context.Context, sk *socket, ev event) {
	msg, _ := json.Marshal(ev)
	select {
	case sk.replies <- msg:
	case <-ctx.Done():
	}
}

// readCommands reads the socket's commands until it closes. Moves are
// played as POST .../moves plays them: the game's event goes to every
// watcher, and a move sent with an id is acknowledged to its socket.
func (s *Server) readCommands(ctx context.Context, done context.CancelFunc, sk *socket) {
	defer done()
	var who hall.Who
	for {
		_, data, err := sk.conn.Read(ctx)
		if err != nil {
			return
		}
		if s.stacks.do(func() { who = s.runCommand(ctx, sk, who, data) }) != nil {
			s.reply(ctx, sk, refusalEvent("", fail(codeInternal, "the server failed on that command; it is logged")))
		}
	}
}

// runCommand runs one command a socket sent, and gives who the socket
// plays for after it.
func (s *Server) runCommand(ctx context.Context, sk *socket, who hall.Who, data []byte) hall.Who {
	var cmd command
	if err := json.Unmarshal(data, &cmd); err != nil {
		s.reply(ctx, sk, refusalEvent("", fail(codeBadRequest, "a command is a JSON object such as {\"type\":\"move\",\"move\":\"a1-a3\",\"ply\":0,\"id\":\"m1\"}")))
		return who
	}
	if cmd.Type == "chat" {
		s.socketChat(ctx, sk, cmd)
		return who
	}
	if cmd.Type == "auth" {
		asked := hall.Who{Token: cmd.Token}
		if cmd.Token == "" {
			asked = hall.Who{Account: sk.account}
		}
		return s.authSocket(ctx, sk, asked, who)
	}
	s.socketCommand(ctx, sk, who, cmd)
	return who
}

// authSocket finds the seat of a socket's token, or of the account whose
// session cookie opened it (an auth without a token), within the
// client's move limit (so that tokens cannot be guessed at socket speed);
// it returns who the socket plays for after it.
func (s *Server) authSocket(ctx context.Context, sk *socket, who, current hall.Who) hall.Who {
	if who == (hall.Who{}) {
		s.reply(ctx, sk, refusalEvent("", fail(codeUnauthorized, "no token and no session; send {\"type\":\"auth\",\"token\":TOKEN}, or sign in")))
		return current
	}
	if !s.clients.allowMove(sk.key) {
		s.reply(ctx, sk, refusalEvent("", fail(codeRateLimited, "too many requests from this client; slow down")))
		return current
	}
	seat, err := s.hall.Seat(ctx, sk.id, who)
	if err != nil {
		s.reply(ctx, sk, refusalEvent("", err))
		return current
	}
	s.reply(ctx, sk, event{Type: "auth", Seat: &seat})
	s.presence.hold(sk, seat)
	return who
}

// socketCommand runs a player's command, for the socket's seat or the
// seat of the command's own token; a spectator's socket refuses it. It
// checks what POST .../moves checks, in the same words, and plays the
// move through the same hall call.
func (s *Server) socketCommand(ctx context.Context, sk *socket, who hall.Who, cmd command) {
	start := time.Now()
	if cmd.Token != "" {
		who = hall.Who{Token: cmd.Token}
	}
	v, err := s.socketMove(ctx, sk, who, cmd)
	if err != nil {
		s.reply(ctx, sk, refusalEvent(echoedID(cmd.ID), err))
		return
	}
	s.metrics.moveLatency.Observe(time.Since(start).Seconds())
	if cmd.ID != "" {
		ply := v.Ply
		s.reply(ctx, sk, event{Type: "ack", ID: cmd.ID, Version: v.Version, Ply: &ply})
	}
}

// socketMove admits a socket's move and plays it, answering the game
// after it.
func (s *Server) socketMove(ctx context.Context, sk *socket, who hall.Who, cmd command) (hall.View, error) {
	var err error
	switch {
	case who == (hall.Who{}):
		err = fail(codeForbidden, "this socket only watches; send {\"type\":\"auth\",\"token\":TOKEN} first, or a move with its seat's token, to play")
	case cmd.Type != "move":
		err = fail(codeBadRequest, "command %s: want auth or move", quote(cmd.Type))
	case len(cmd.ID) > maxCommandID:
		err = fail(codeInvalid, "id of %d bytes: at most %d", len(cmd.ID), maxCommandID)
	case cmd.Ply == nil:
		err = fail(codeInvalid, "no ply; send the ply the move is for")
	case s.closing.Load() || s.hall.Closing():
		err = fail(codeShutdown, "the server is shutting down; try again in a moment")
	case !s.clients.allowMove(sk.key):
		err = fail(codeRateLimited, "too many requests from this client; slow down")
	case who.Account != "" && !s.sessionLives(ctx, sk):
		err = fail(codeUnauthorized, "the session ended; sign in again")
	case who.Account != "" && sk.banned != "":
		err = fail(codeBanned, "your account is banned: %s", sk.banned)
	}
	if err != nil {
		return hall.View{}, err
	}
	return s.hall.Move(ctx, sk.id, who, cmd.Move, *cmd.Ply)
}

// socketChat writes a chat message for the account whose session opened
// the socket; the message reaches this socket as every reader's, and a
// refusal is answered with the command's id.
func (s *Server) socketChat(ctx context.Context, sk *socket, cmd command) {
	var err error
	switch {
	case sk.account == "":
		err = fail(codeUnauthorized, "sign in to chat")
	case len(cmd.ID) > maxCommandID:
		err = fail(codeInvalid, "id of %d bytes: at most %d", len(cmd.ID), maxCommandID)
	case !s.clients.allowMove(sk.key):
		err = fail(codeRateLimited, "too many requests from this client; slow down")
	case !s.sessionLives(ctx, sk):
		err = fail(codeUnauthorized, "the session ended; sign in again")
	}
	if err == nil {
		_, err = s.community.Say(ctx, sk.id, cmd.Room, sk.account, cmd.Text)
	}
	if err != nil {
		s.reply(ctx, sk, refusalEvent(echoedID(cmd.ID), err))
		return
	}
	if cmd.ID != "" {
		s.reply(ctx, sk, event{Type: "ack", ID: cmd.ID})
	}
}

// echoedID is a refused move's id as its refusal echoes it: none when it
// is over maxCommandID (the refusal says so).
func echoedID(id string) string {
	if len(id) > maxCommandID {
		return ""
	}
	return id
}
