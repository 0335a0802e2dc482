package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/lobby"
)

// The bot API, as lichess's: an engine's author makes an API token, turns
// the account into a bot (once, before it plays), and their program
// follows two kinds of NDJSON stream with that token: the bot's events
// (challenges to it, its games starting and ending) and each of its
// games (the game whole, then its state after every change), and plays
// with plain POSTs. The accounts, the lobby and the hall keep the rules;
// this file is their HTTP. A stream is one JSON object a line, with an
// empty line every Timeouts.KeepAlive so that a client (and any proxy
// between) knows it lives.

func (s *Server) botRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/account/tokens", s.handleNewToken)
	mux.HandleFunc("GET /api/account/tokens", s.reads(s.handleTokens))
	mux.HandleFunc("DELETE /api/account/tokens/{id}", s.handleRevokeToken)
	mux.HandleFunc("POST /api/bot/account/upgrade", s.handleUpgrade)
	mux.HandleFunc("GET /api/bot/account", s.reads(s.handleBotAccount))
	mux.HandleFunc("GET /api/bot/stream/event", s.handleBotEvents)
	mux.HandleFunc("GET /api/bot/game/stream/{id}", s.handleBotGame)
	mux.HandleFunc("POST /api/bot/game/{id}/move/{move}", s.handleBotMove)
	mux.HandleFunc("POST /api/bot/game/{id}/resign", s.handleBotResign)
	mux.HandleFunc("POST /api/bot/game/{id}/draw/{answer}", s.handleBotDraw)
	mux.HandleFunc("POST /api/challenge/{id}/accept", s.handleAccept)
	mux.HandleFunc("POST /api/challenge/{id}/decline", s.handleDecline)
}

// apiTokenRequest is POST /api/account/tokens.
type apiTokenRequest struct {
	Description string `json:"description"`
}

// tokenView is an API token as its owner lists it; Token, its secret,
// only in the answer that made it.
type tokenView struct {
	Token       string    `json:"token,omitempty"`
	ID          string    `json:"id"`
	Description string    `json:"description"`
	Created     time.Time `json:"created"`
}

func tokenViewOf(t accounts.Token) tokenView {
	return tokenView{ID: t.ID, Description: t.Description, Created: t.Created}
}

func (s *Server) handleNewToken(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	var req apiTokenRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	secret, t, err := s.accounts.NewToken(r.Context(), a, req.Description)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	v := tokenViewOf(t)
	v.Token = secret
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) handleTokens(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	list, err := s.accounts.Tokens(r.Context(), a)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	out := make([]tokenView, 0, len(list))
	for _, t := range list {
		out = append(out, tokenViewOf(t))
	}
	writeJSON(w, http.StatusOK, map[string][]tokenView{"tokens": out})
}

func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	if err := s.accounts.RevokeToken(r.Context(), a, r.PathValue("id")); err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// botAccountView is what the bot API says of its account.
type botAccountView struct {
	Name string `json:"name"`
	Bot  bool   `json:"bot"`
}

// handleUpgrade turns the caller's account into a bot: its sessions end
// (and the sockets they opened), this browser's cookie with them.
func (s *Server) handleUpgrade(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowGame); err != nil {
		writeError(w, err)
		return
	}
	a, err := s.accounts.BecomeBot(r.Context(), a)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.sessionsEnded(a.ID, nil)
	s.lobby.Nudge() // its seeks were withdrawn
	if sessionToken(r) != "" {
		endCookie(w, r)
	}
	writeJSON(w, http.StatusOK, botAccountView{Name: a.Name, Bot: true})
}

// handleBotAccount answers who the token is: a program checks its token
// with it before it follows the streams.
func (s *Server) handleBotAccount(w http.ResponseWriter, r *http.Request) {
	if a, ok := s.caller(w, r); ok {
		writeJSON(w, http.StatusOK, botAccountView{Name: a.Name, Bot: a.IsBot()})
	}
}

// botCaller is the bot whose API token the request carries, or answers
// the refusal itself: the bot API takes an API token of a bot's account,
// never a cookie.
func (s *Server) botCaller(w http.ResponseWriter, r *http.Request) (accounts.Account, bool) {
	if bearer(r) == "" {
		writeError(w, fail(codeUnauthorized, "the bot API takes an API token: send it as Authorization: Bearer TOKEN"))
		return accounts.Account{}, false
	}
	a, ok := s.caller(w, r)
	if !ok {
		return a, false
	}
	if !a.IsBot() {
		writeError(w, fail(codeForbidden, "%s is not a bot: the bot API is for bot accounts (POST /api/bot/account/upgrade, while the account has played no game)", a.Name))
		return a, false
	}
	if err := bannedRefusal(a); err != nil {
		writeError(w, err)
		return a, false
	}
	return a, true
}

// handleDecline withdraws a challenge to the caller; its sender's lobby
// socket is sent the seeks without it.
func (s *Server) handleDecline(w http.ResponseWriter, r *http.Request) {
	a, ok := s.caller(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	if err := s.lobby.Decline(r.Context(), r.PathValue("id"), a.ID); err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// maxBotMove bounds a move's text in the bot API's path, in bytes: a
// long chain of captures fits.
const maxBotMove = 200

// handleBotMove plays the bot's move, given in the path in the game's
// notation, at ?ply=N (the ply the move is for, so that a move sent
// again after a lost answer is known for a resend), or at the game's
// ply now when none is given. It answers the game's state after it.
func (s *Server) handleBotMove(w http.ResponseWriter, r *http.Request) {
	a, ok := s.botCaller(w, r)
	if !ok {
		return
	}
	move := r.PathValue("move")
	if len(move) > maxBotMove {
		writeError(w, fail(codeInvalid, "a move of %d bytes: at most %d", len(move), maxBotMove))
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	ply, err := s.botPly(r)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	start := time.Now()
	v, err := s.hall.Move(r.Context(), r.PathValue("id"), hall.Who{Account: a.ID}, move, ply)
	if err == nil {
		s.metrics.moveLatency.Observe(time.Since(start).Seconds())
	}
	s.answer(w, botStateOf(v), err)
}

// botPly is the ply of a bot's move: ?ply=N, or the game's ply now.
func (s *Server) botPly(r *http.Request) (int, error) {
	q := r.URL.Query()
	if !q.Has("ply") {
		v, err := s.hall.Get(r.Context(), r.PathValue("id"))
		return v.Ply, err
	}
	text := q.Get("ply")
	ply, err := strconv.Atoi(text)
	if err != nil || ply < 0 {
		return 0, fail(codeInvalid, "ply %s: want the ply the move is for, a whole number from 0", quote(text))
	}
	return ply, nil
}

func (s *Server) handleBotResign(w http.ResponseWriter, r *http.Request) {
	a, ok := s.botCaller(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.hall.Resign(r.Context(), r.PathValue("id"), hall.Who{Account: a.ID})
	s.answer(w, botStateOf(v), err)
}

// handleBotDraw offers or accepts a draw (yes), or declines one (no), as
// lichess's bot API takes them.
func (s *Server) handleBotDraw(w http.ResponseWriter, r *http.Request) {
	a, ok := s.botCaller(w, r)
	if !ok {
		return
	}
	actions := map[string]hall.DrawAction{"yes": hall.Offer, "no": hall.Decline}
	action, known := actions[r.PathValue("answer")]
	if !known {
		writeError(w, fail(codeInvalid, "draw %s: want yes (offer, or accept the offer made) or no (decline)", quote(r.PathValue("answer"))))
		return
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.hall.Draw(r.Context(), r.PathValue("id"), hall.Who{Account: a.ID}, action)
	s.answer(w, botStateOf(v), err)
}

// botEventLine is one line of a bot's event stream.
type botEventLine struct {
	Type      string        `json:"type"` // challenge, challengeGone, gameStart, gameFinish
	Challenge *seekView     `json:"challenge,omitempty"`
	Game      *botGameEvent `json:"game,omitempty"`
}

// botGameEvent is a game a bot's event stream names: its id and game,
// and once it ended its result.
type botGameEvent struct {
	ID     string      `json:"id"`
	Game   string      `json:"game"`
	Result *resultView `json:"result,omitempty"`
}

// botGameFull is the first line of a game's stream: the game as GET
// /api/games/{id} gives it to its player (seats, accounts, ratings,
// clock, moves, position, "you"), and its state as later lines give it.
type botGameFull struct {
	Type  string       `json:"type"` // gameFull
	Game  gameAnswer   `json:"game"`
	State botGameState `json:"state"`
}

// botGameState is the game's state after a change: its moves, position,
// legal moves and clock, who is to move, and how it stands.
type botGameState struct {
	Type    string      `json:"type,omitempty"` // gameState; none inside gameFull and a command's answer
	Version int64       `json:"version"`
	Ply     int         `json:"ply"`
	Moves   []string    `json:"moves"`
	FEN     string      `json:"fen"`
	ToMove  int         `json:"toMove"`
	Legal   []string    `json:"legal"`
	Clock   *clockView  `json:"clock"`
	Status  string      `json:"status"` // started, ended or aborted
	Result  *resultView `json:"result"`
	// Description says how the game ended, in words.
	Description string `json:"description,omitempty"`
	// DrawOffer and Takeback are the seats offering a draw and asking to
	// take a move back, or -1.
	DrawOffer int `json:"drawOffer"`
	Takeback  int `json:"takeback"`
}

func botStateOf(v hall.View) botGameState {
	st := botGameState{Version: v.Version, Ply: v.Ply, Moves: v.Moves, FEN: v.FEN, ToMove: v.ToMove, Legal: v.Legal,
		Clock: clockViewOf(v.Clock), Status: "started", Result: resultViewOf(v.Result), Description: v.Description,
		DrawOffer: v.DrawOffer, Takeback: v.Takeback}
	if st.Moves == nil {
		st.Moves = []string{}
	}
	if st.Legal == nil {
		st.Legal = []string{}
	}
	switch {
	case v.Result != nil && v.Result.Reason == game.Aborted.String():
		st.Status = "aborted"
	case v.Result != nil:
		st.Status = "ended"
	}
	return st
}

// handleBotEvents streams a bot's events: every challenge open to it and
// every game of its in play at once, then each new one, each challenge
// that is gone, and each game that ended. The lobby's messages (a seek
// posted, a game started here) bring them within a moment; a read every
// keep-alive catches what other servers did.
func (s *Server) handleBotEvents(w http.ResponseWriter, r *http.Request) {
	a, ok := s.botCaller(w, r)
	if !ok {
		return
	}
	ctx, release, ok := s.streamSlot(w, r, a.ID)
	if !ok {
		return
	}
	defer release()
	sub := s.lobby.Subscribe(ctx, a.ID)
	defer s.lobby.Unsubscribe(sub)
	out := startStream(w)
	ev := &botEvents{s: s, bot: a, out: out, challenges: map[string]bool{}, games: map[string]string{},
		watches: map[string]*hall.Watch{}, ended: make(chan struct{}, 1)}
	defer ev.stopWatches()
	if !ev.refresh(ctx) {
		return
	}
	tick := time.NewTicker(s.timeouts.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case msg := <-sub.Messages():
			if ev.concerns(msg) && !ev.refresh(ctx) {
				return
			}
		case <-ev.ended:
			if !ev.refresh(ctx) {
				return
			}
		case <-tick.C:
			if !ev.refresh(ctx) || out.keepAlive() != nil {
				return
			}
		}
	}
}

// botEvents is one event stream's state: the challenges and the games
// in play it has told of, and a watch of each of those games, which
// signals ended when one ends, so that its gameFinish is written at once.
type botEvents struct {
	s          *Server
	bot        accounts.Account
	out        *ndjson
	challenges map[string]bool
	games      map[string]string // id: game id
	watches    map[string]*hall.Watch
	ended      chan struct{}
}

// watch follows game id until it ends (or the watch is stopped); a game
// that cannot be watched is found ended at a later read.
func (ev *botEvents) watch(ctx context.Context, id string) {
	w, v, err := ev.s.hall.Watch(ctx, id)
	if err != nil {
		return
	}
	ev.watches[id] = w
	over := v.Result != nil
	go func() {
		for e := range w.Events() {
			over = over || e.Game.Result != nil
			if over {
				break
			}
		}
		if over {
			select {
			case ev.ended <- struct{}{}:
			default:
			}
		}
	}()
}

// stopWatches ends the stream's watches.
func (ev *botEvents) stopWatches() {
	for id, w := range ev.watches {
		ev.s.hall.Stop(w)
		delete(ev.watches, id)
	}
}

// concerns tells whether a lobby message may change what the stream
// shows: a game of the bot's started, or the seeks changed when one is
// a challenge to it or a challenge it was told of may be gone.
func (ev *botEvents) concerns(msg lobby.Message) bool {
	if msg.Type != "seeks" {
		return true
	}
	if len(ev.challenges) > 0 {
		return true
	}
	for _, sk := range msg.Seeks {
		if sk.To != nil && *sk.To == ev.bot.Name {
			return true
		}
	}
	return false
}

// refresh reads the bot's challenges and games in play and writes what
// changed since the last read; false once the stream cannot be written.
// A failed read is logged and tried again at the next.
func (ev *botEvents) refresh(ctx context.Context) bool {
	challenges, err := ev.s.lobby.Challenges(ctx, ev.bot.ID)
	if err != nil {
		ev.s.log.Warn("bot events: challenges", "err", err)
		return ctx.Err() == nil
	}
	games, err := ev.s.accounts.Games(ctx, ev.bot.ID, accounts.GameFilter{Ongoing: true, Limit: 100})
	if err != nil {
		ev.s.log.Warn("bot events: games", "err", err)
		return ctx.Err() == nil
	}
	var lines []botEventLine
	open := map[string]bool{}
	for _, v := range seekViews(challenges) {
		open[v.ID] = true
		if !ev.challenges[v.ID] {
			lines = append(lines, botEventLine{Type: "challenge", Challenge: &v})
		}
	}
	for id := range ev.challenges {
		if !open[id] {
			lines = append(lines, botEventLine{Type: "challengeGone", Challenge: &seekView{ID: id}})
		}
	}
	ev.challenges = open
	playing := map[string]string{}
	for _, g := range games {
		playing[g.ID] = g.Game
		if _, known := ev.games[g.ID]; !known {
			lines = append(lines, botEventLine{Type: "gameStart", Game: &botGameEvent{ID: g.ID, Game: g.Game}})
			ev.watch(ctx, g.ID)
		}
	}
	for id, gameID := range ev.games {
		if _, still := playing[id]; !still {
			if w := ev.watches[id]; w != nil {
				ev.s.hall.Stop(w)
				delete(ev.watches, id)
			}
			end := &botGameEvent{ID: id, Game: gameID}
			if v, err := ev.s.hall.Get(ctx, id); err == nil {
				end.Result = resultViewOf(v.Result)
			}
			lines = append(lines, botEventLine{Type: "gameFinish", Game: end})
		}
	}
	ev.games = playing
	for _, l := range lines {
		if ev.out.line(l) != nil {
			return false
		}
	}
	return true
}

// handleBotGame streams one game of the bot's: gameFull, then a
// gameState after every change (a move, a draw offer, a flag, the end),
// until the game ends (its last state written) or the bot falls too far
// behind (it reads the game again by opening the stream anew). While it
// is open, the bot's seat shows present, as a player's open page does.
func (s *Server) handleBotGame(w http.ResponseWriter, r *http.Request) {
	a, ok := s.botCaller(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	seat, err := s.hall.Seat(r.Context(), id, hall.Who{Account: a.ID})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	ctx, release, ok := s.streamSlot(w, r, a.ID)
	if !ok {
		return
	}
	defer release()
	watch, first, err := s.hall.Watch(ctx, id)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	defer s.hall.Stop(watch)
	here := &socket{id: id, presence: make(chan struct{}, 1)}
	s.presence.hold(here, seat)
	defer s.presence.leave(here)
	out := startStream(w)
	if out.line(botGameFull{Type: "gameFull", Game: s.withAccounts(r, first, a.ID, true), State: botStateOf(first)}) != nil || first.Result != nil {
		return
	}
	tick := time.NewTicker(s.timeouts.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-watch.Events():
			if !ok {
				return
			}
			st := botStateOf(e.Game)
			st.Type = "gameState"
			if out.line(st) != nil || e.Game.Result != nil {
				return
			}
		case <-tick.C:
			if out.keepAlive() != nil {
				return
			}
		}
	}
}

// ndjson writes a stream of JSON lines, each flushed at once and written
// within writeWait.
type ndjson struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// startStream begins an NDJSON answer. The connection's write deadline
// (Timeouts.Write, which bounds a plain answer) is moved on at each
// line: a stream lasts as long as its game, each line written within
// writeWait. (Its read deadline is none already: net/http lifts it once
// the request is read.)
func startStream(w http.ResponseWriter) *ndjson {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no") // a proxy in front passes each line on at once
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(writeWait)) // not every writer has deadlines (a test's recorder)
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	return &ndjson{w: w, rc: rc}
}

// line writes v as one line.
func (n *ndjson) line(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return n.write(append(data, '\n'))
}

// keepAlive writes an empty line.
func (n *ndjson) keepAlive() error { return n.write([]byte{'\n'}) }

func (n *ndjson) write(data []byte) error {
	_ = n.rc.SetWriteDeadline(time.Now().Add(writeWait))
	if _, err := n.w.Write(data); err != nil {
		return err
	}
	return n.rc.Flush()
}

// streamSlot admits a stream of the bot API under the client's socket
// slots (a stream holds a connection as a socket does), the account's
// own bound and the server's; release frees them. The context ends with
// the request, or when the server stops.
func (s *Server) streamSlot(w http.ResponseWriter, r *http.Request, account string) (ctx context.Context, release func(), ok bool) {
	_, freeSocket, ok := s.socketSlot(w, r)
	if !ok {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(r.Context())
	st := &stream{account: account, cancel: cancel}
	if err := s.streams.add(st, s.limits); err != nil {
		cancel()
		freeSocket()
		writeError(w, err)
		return nil, nil, false
	}
	return ctx, func() {
		s.streams.remove(st)
		cancel()
		freeSocket()
	}, true
}

// stream is one open stream of the bot API: its account, and what ends
// it.
type stream struct {
	account string
	cancel  context.CancelFunc
}

// streamSet holds the open streams of the bot API, counted per account,
// and ends them all when the server stops.
type streamSet struct {
	mu        sync.Mutex
	closed    bool
	open      map[*stream]struct{}
	byAccount map[string]int
}

// add admits st under the bounds of l.
func (ss *streamSet) add(st *stream, l Limits) *apiError {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	switch {
	case ss.closed:
		return fail(codeShutdown, "the server is shutting down; try again in a moment")
	case ss.byAccount[st.account] >= l.BotStreams:
		return fail(codeRateLimited, "too many open streams of this account (at most %d)", l.BotStreams)
	case len(ss.open) >= l.Streams:
		return fail(codeRateLimited, "too many open streams on this server (at most %d); try again later", l.Streams)
	}
	if ss.open == nil {
		ss.open, ss.byAccount = map[*stream]struct{}{}, map[string]int{}
	}
	ss.open[st] = struct{}{}
	ss.byAccount[st.account]++
	return nil
}

// remove forgets st, which ended.
func (ss *streamSet) remove(st *stream) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if _, ok := ss.open[st]; !ok {
		return
	}
	delete(ss.open, st)
	if ss.byAccount[st.account]--; ss.byAccount[st.account] == 0 {
		delete(ss.byAccount, st.account)
	}
}

// closeAll ends every stream: the server stops.
func (ss *streamSet) closeAll() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.closed = true
	for st := range ss.open {
		st.cancel()
	}
}
