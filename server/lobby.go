package server

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
)

// The lobby's limits and pace.
const (
	maxSeeksPerAccount = 5
	// maxSeeksPerAddress bounds the open seeks of one client address,
	// whatever their accounts: a hundred accounts made from one address
	// still fill no more of the lobby than ten seeks.
	maxSeeksPerAddress = 10
	// seekPage is how many seeks of each kind the lobby lists at once
	// (newest first, more by ?before=), and maxSeekPage the most ?limit=
	// asks; real-time and correspondence seeks are listed each to their
	// own limit, so that neither pushes the other out.
	seekPage    = 50
	maxSeekPage = 100
	// A real-time seek lasts while its seeker's lobby socket is open,
	// and seekHold after it closes; a correspondence seek lasts
	// correspondenceHold.
	seekHold           = 2 * time.Minute
	correspondenceHold = 7 * 24 * time.Hour
	// lobbyTick is how often the lobby reads the seeks again (changes
	// made by this process are sent at once; other processes' within a
	// tick).
	lobbyTick = 2 * time.Second
	// maxFischerSeconds bounds a seek's clock.
	maxFischerSeconds = 3 * 60 * 60
	maxDays           = 14
)

func (s *Server) lobbyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/seeks", s.handleSeek)
	mux.HandleFunc("GET /api/seeks", s.reads(s.handleSeeks))
	mux.HandleFunc("POST /api/seeks/{id}/accept", s.handleAccept)
	mux.HandleFunc("DELETE /api/seeks/{id}", s.handleWithdraw)
	mux.HandleFunc("GET /api/lobby/ws", s.handleLobbySocket)
}

// seekRequest is POST /api/seeks.
type seekRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Rated   bool              `json:"rated"`
	Clock   *store.SeekClock  `json:"clock"`
	To      string            `json:"to"`
}

// seekView is a seek as GET /api/seeks lists it.
type seekView struct {
	ID          string            `json:"id"`
	Game        string            `json:"game"`
	Options     map[string]string `json:"options"`
	Rated       bool              `json:"rated"`
	Clock       *store.SeekClock  `json:"clock"`
	By          string            `json:"by"`
	Rating      float64           `json:"rating"`
	Provisional bool              `json:"provisional"`
	To          *string           `json:"to"`
	Seats       int               `json:"seats"`
	Joined      []string          `json:"joined"`
	Created     time.Time         `json:"created"`
	// Kind is realtime or correspondence; Cursor, given as ?before=,
	// lists the seeks after this one.
	Kind   string `json:"kind"`
	Cursor string `json:"cursor"`
}

// checkSeek checks a seek's game, options and clock by the rules a game
// is created by, and gives its number of seats.
func checkSeek(req seekRequest) (int, *apiError) {
	if _, ok := game.Lookup(req.Game); !ok {
		return 0, fail(codeInvalid, "unknown game %s; want one of %s", quote(req.Game), gameIDs())
	}
	rules, err := game.New(req.Game, maps.Clone(req.Options))
	if err != nil {
		return 0, fail(codeInvalid, "%s", err)
	}
	c := req.Clock
	switch {
	case c == nil && req.Rated:
		return 0, fail(codeInvalid, "a rated game needs a clock: {\"initial\": SECONDS, \"increment\": SECONDS} or {\"days\": N}")
	case c == nil:
	case c.Days != 0 && (c.Initial != 0 || c.Increment != 0):
		return 0, fail(codeInvalid, "clock: give initial and increment (real time) or days (correspondence), not both")
	case c.Days < 0 || c.Days > maxDays:
		return 0, fail(codeInvalid, "clock: days %d; want 1 to %d", c.Days, maxDays)
	case c.Days == 0 && (c.Initial < 1 || c.Initial > maxFischerSeconds || c.Increment < 0 || c.Increment > 60):
		return 0, fail(codeInvalid, "clock: initial %d s and increment %d s; want 1 to %d s and 0 to 60 s", c.Initial, c.Increment, maxFischerSeconds)
	}
	return rules.Players(), nil
}

func (s *Server) handleSeek(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req seekRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	seats, aerr := checkSeek(req)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	sk := store.Seek{ID: newAccountID()[1:], Account: a.ID, Game: req.Game, Options: req.Options, Rated: req.Rated,
		Clock: req.Clock, Seats: seats, Address: clientKey(r), Created: s.now(), Expires: s.now().Add(seekHold)}
	if sk.Options == nil {
		sk.Options = map[string]string{}
	}
	if req.Clock != nil && req.Clock.Days > 0 {
		sk.Expires = s.now().Add(correspondenceHold)
	}
	if req.To != "" {
		target, err := s.cfg.Store.AccountByName(r.Context(), req.To)
		switch {
		case errors.Is(err, store.ErrNoAccount) || err == nil && (target.Deleted || target.Bot):
			writeError(w, fail(codeInvalid, "no player %s to challenge", quote(req.To)))
			return
		case err != nil:
			s.writeFailure(w, err)
			return
		case target.ID == a.ID:
			writeError(w, fail(codeInvalid, "you cannot challenge yourself"))
			return
		}
		sk.Target = target.ID
	}
	err := s.cfg.Store.CreateSeek(r.Context(), sk, maxSeeksPerAccount, maxSeeksPerAddress)
	switch {
	case errors.Is(err, store.ErrTooManySeeks):
		writeError(w, fail(codeRateLimited, "you have %d open seeks; withdraw one first", maxSeeksPerAccount))
		return
	case errors.Is(err, store.ErrTooManyAddressSeeks):
		writeError(w, fail(codeRateLimited, "%d open seeks come from your address already; wait for one to be taken or to expire", maxSeeksPerAddress))
		return
	case err != nil:
		s.writeFailure(w, err)
		return
	}
	s.lobby.nudge()
	writeJSON(w, http.StatusCreated, map[string]string{"id": sk.ID})
}

func (s *Server) handleSeeks(w http.ResponseWriter, r *http.Request) {
	f, aerr := seekFilter(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	seeks, err := s.listSeeks(r.Context(), f)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	list, err := s.seekViews(r.Context(), seeks)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// seekFilter reads ?game=, ?kind=, ?before= and ?limit= of the seeks; a
// malformed one is a bad request (400).
func seekFilter(r *http.Request) (store.SeekFilter, *apiError) {
	q := r.URL.Query()
	for key, values := range q {
		if len(values) > 1 {
			return store.SeekFilter{}, fail(codeBadRequest, "%s given %d times; give it once", quote(key), len(values))
		}
	}
	f := store.SeekFilter{Game: q.Get("game"), Kind: q.Get("kind"), Limit: seekPage}
	if f.Game != "" {
		if _, ok := game.Lookup(f.Game); !ok {
			return f, fail(codeBadRequest, "unknown game %s; want one of %s", quote(f.Game), gameIDs())
		}
	}
	if f.Kind != "" && f.Kind != store.RealTime && f.Kind != store.Correspondence {
		return f, fail(codeBadRequest, "kind %s: want %s or %s", quote(f.Kind), store.RealTime, store.Correspondence)
	}
	if b := q.Get("before"); b != "" {
		c, ok := parseSeekCursor(b)
		if !ok {
			return f, fail(codeBadRequest, "before %s: want a seek's cursor, as the list gives it", quote(b))
		}
		f.Before = c
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxSeekPage {
			return f, fail(codeBadRequest, "limit %s: want 1 to %d", quote(l), maxSeekPage)
		}
		f.Limit = n
	}
	return f, nil
}

// seekCursor is where the list goes on after sk: its time in
// milliseconds and its id ("1764633600000.abc...").
func seekCursor(sk store.Seek) string {
	return strconv.FormatInt(sk.Created.UnixMilli(), 10) + "." + sk.ID
}

// parseSeekCursor reads a seekCursor: digits, a dot, and an id of
// lowercase letters and digits, no longer than a real one could be.
func parseSeekCursor(text string) (store.SeekCursor, bool) {
	ms, id, ok := strings.Cut(text, ".")
	if !ok || len(ms) == 0 || len(ms) > 15 || len(id) == 0 || len(id) > 40 {
		return store.SeekCursor{}, false
	}
	for _, c := range ms {
		if c < '0' || c > '9' {
			return store.SeekCursor{}, false
		}
	}
	for _, c := range id {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return store.SeekCursor{}, false
		}
	}
	n, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return store.SeekCursor{}, false
	}
	return store.SeekCursor{Created: time.UnixMilli(n), ID: id}, true
}

// listSeeks reads the open seeks f keeps, newest first: with no kind,
// f.Limit of each kind, so that a lobby full of correspondence seeks
// still shows the newest real-time ones.
func (s *Server) listSeeks(ctx context.Context, f store.SeekFilter) ([]store.Seek, error) {
	if f.Kind != "" {
		return s.cfg.Store.Seeks(ctx, s.now(), f)
	}
	var all []store.Seek
	for _, kind := range []string{store.RealTime, store.Correspondence} {
		f.Kind = kind
		seeks, err := s.cfg.Store.Seeks(ctx, s.now(), f)
		if err != nil {
			return nil, err
		}
		all = append(all, seeks...)
	}
	slices.SortStableFunc(all, func(a, b store.Seek) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return all, nil
}

// openSeeks lists the seeks as the lobby's socket shows them: the first
// page of each kind, every game.
func (s *Server) openSeeks(ctx context.Context) ([]seekView, error) {
	seeks, err := s.listSeeks(ctx, store.SeekFilter{Limit: seekPage})
	if err != nil {
		return nil, err
	}
	return s.seekViews(ctx, seeks)
}

// seekViews gives seeks with their seekers' names and ratings.
func (s *Server) seekViews(ctx context.Context, seeks []store.Seek) ([]seekView, error) {
	names := map[string]store.Account{}
	nameOf := func(id string) string {
		if a, ok := names[id]; ok {
			return a.Name
		}
		a, err := s.cfg.Store.Account(ctx, id)
		if err != nil {
			return "?"
		}
		names[id] = a
		return a.Name
	}
	// One read of each seeker's ratings, however many seeks they have.
	ratings := map[string][]store.Rating{}
	ratingIn := func(account, game string) (store.Rating, bool) {
		list, ok := ratings[account]
		if !ok {
			list, _ = s.cfg.Store.Ratings(ctx, account)
			ratings[account] = list
		}
		for _, x := range list {
			if x.Game == game {
				return x, true
			}
		}
		return store.Rating{}, false
	}
	list := []seekView{}
	for _, sk := range seeks {
		v := seekView{ID: sk.ID, Game: sk.Game, Options: sk.Options, Rated: sk.Rated, Clock: sk.Clock, By: nameOf(sk.Account),
			Seats: sk.Seats, Joined: []string{}, Created: sk.Created, Rating: 1500, Provisional: true,
			Kind: store.RealTime, Cursor: seekCursor(sk)}
		if sk.Correspondence() {
			v.Kind = store.Correspondence
		}
		if sk.Target != "" {
			to := nameOf(sk.Target)
			v.To = &to
		}
		for _, id := range sk.Joined {
			v.Joined = append(v.Joined, nameOf(id))
		}
		if x, ok := ratingIn(sk.Account, sk.Game); ok {
			rv := viewRating(x)
			v.Rating, v.Provisional = rv.Rating, rv.Provisional
		}
		list = append(list, v)
	}
	return list, nil
}

// handleAccept takes a seek for the signed-in account: a full seek
// starts its game at once, for everyone seated, in random order.
func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowGame); err != nil {
		writeError(w, err)
		return
	}
	sk, full, err := s.cfg.Store.TakeSeek(r.Context(), r.PathValue("id"), a.ID, s.now())
	switch {
	case errors.Is(err, store.ErrOwnSeek):
		writeError(w, fail(codeOwnSeek, "that seek is your own; wait for someone else to accept it"))
		return
	case errors.Is(err, store.ErrNotForYou):
		writeError(w, fail(codeForbidden, "that challenge is for another player"))
		return
	case errors.Is(err, store.ErrNoSeek):
		writeError(w, fail(codeNotFound, "no open seek %s: it was taken, withdrawn or expired", quote(r.PathValue("id"))))
		return
	case errors.Is(err, store.ErrConflict):
		writeError(w, fail(codeConflict, "someone joined that seek at the same moment; try again"))
		return
	case err != nil:
		s.writeFailure(w, err)
		return
	}
	s.lobby.nudge()
	if !full {
		writeJSON(w, http.StatusAccepted, map[string]any{"id": sk.ID, "joined": sk.Joined})
		return
	}
	created, err := s.startSeek(r.Context(), sk)
	if err != nil {
		if rerr := s.cfg.Store.RestoreSeek(context.WithoutCancel(r.Context()), sk); rerr != nil {
			s.log.Warn("restoring a seek", "seek", sk.ID, "err", rerr)
		}
		s.writeFailure(w, err)
		return
	}
	s.lobby.started(sk, created.ID)
	writeJSON(w, http.StatusCreated, map[string]string{"game": created.ID})
}

// startSeek starts the game of a full seek.
func (s *Server) startSeek(ctx context.Context, sk store.Seek) (hall.Created, error) {
	players := []hall.SeatAccount{}
	for _, id := range append([]string{sk.Account}, sk.Joined...) {
		a, err := s.cfg.Store.Account(ctx, id)
		if err != nil {
			return hall.Created{}, err
		}
		players = append(players, hall.SeatAccount{ID: a.ID, Name: a.Name})
	}
	return s.hall.StartSeek(ctx, sk, players)
}

func (s *Server) handleWithdraw(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	err := s.cfg.Store.DeleteSeek(r.Context(), r.PathValue("id"), a.ID)
	if errors.Is(err, store.ErrNoSeek) {
		writeError(w, fail(codeNotFound, "you have no open seek %s", quote(r.PathValue("id"))))
		return
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.lobby.nudge()
	w.WriteHeader(http.StatusNoContent)
}

// lobbyMessage is what the lobby's socket sends.
type lobbyMessage struct {
	Type  string     `json:"type"` // seeks, started or turn
	Seeks []seekView `json:"seeks,omitempty"`
	Seek  string     `json:"seek,omitempty"`
	Game  string     `json:"game,omitempty"`
	Count *int       `json:"count,omitempty"`
}

// lobby sends the seeks to the lobby's sockets whenever they change,
// and tells the players of a seek taken that its game started: at once
// when this process started it, within a tick when another did (a seek
// that vanished while its player's socket is here is looked up in their
// newest game).
type lobby struct {
	mu    sync.Mutex
	subs  map[*lobbySub]struct{}
	poke  chan struct{}
	last  string                // seeksKey of the seeks last sent
	known map[string]store.Seek // the seeks of the last read, by id
}

// lobbySub is one open lobby socket.
type lobbySub struct {
	account string
	out     chan lobbyMessage
}

func newLobby() *lobby {
	return &lobby{subs: map[*lobbySub]struct{}{}, poke: make(chan struct{}, 1), known: map[string]store.Seek{}}
}

// nudge asks for the seeks to be read again now.
func (l *lobby) nudge() {
	select {
	case l.poke <- struct{}{}:
	default:
	}
}

func (l *lobby) add(sub *lobbySub) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs[sub] = struct{}{}
}

func (l *lobby) remove(sub *lobbySub) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.subs, sub)
}

// send gives msg to the subscribers f picks; one too slow to take it
// misses it (the next full list catches it up).
func (l *lobby) send(msg lobbyMessage, f func(*lobbySub) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for sub := range l.subs {
		if f(sub) {
			select {
			case sub.out <- msg:
			default:
			}
		}
	}
}

// started tells the seek's players here that its game started.
func (l *lobby) started(sk store.Seek, gameID string) {
	players := append([]string{sk.Account}, sk.Joined...)
	l.mu.Lock()
	delete(l.known, sk.ID)
	l.mu.Unlock()
	l.send(lobbyMessage{Type: "started", Seek: sk.ID, Game: gameID}, func(sub *lobbySub) bool {
		for _, p := range players {
			if p == sub.account {
				return true
			}
		}
		return false
	})
	l.nudge()
}

// run reads the seeks on every nudge and tick, until ctx ends.
func (s *Server) runLobby(ctx context.Context) {
	tick := time.NewTicker(lobbyTick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.lobby.poke:
		}
		s.lobbyRound(ctx)
	}
}

// lobbyRound reads the seeks the socket shows (the first page of each
// kind); when they changed (a seek made, joined, taken, withdrawn or
// expired), sends them with their seekers' names and ratings to every
// socket, and looks up the game of each seek that vanished. It reads them
// even with no socket open, so that a seeker who connects between a
// seek's making and its taking still hears of its game; an unchanged
// lobby costs two queries a tick.
func (s *Server) lobbyRound(ctx context.Context) {
	l := s.lobby
	seeks, err := s.listSeeks(ctx, store.SeekFilter{Limit: seekPage})
	if err != nil {
		s.log.Warn("lobby", "err", err)
		return
	}
	key := seeksKey(seeks)
	l.mu.Lock()
	changed := key != l.last
	l.last = key
	idle := len(l.subs) == 0
	l.mu.Unlock()
	if !changed {
		return
	}
	if !idle {
		list, err := s.seekViews(ctx, seeks)
		if err != nil {
			s.log.Warn("lobby", "err", err)
			return
		}
		l.send(lobbyMessage{Type: "seeks", Seeks: list}, func(*lobbySub) bool { return true })
	}
	s.findStarted(ctx, seeks)
}

// seeksKey is what the lobby shows of a list of seeks, to tell a change.
func seeksKey(seeks []store.Seek) string {
	var b strings.Builder
	for _, sk := range seeks {
		b.WriteString(sk.ID)
		for _, j := range sk.Joined {
			b.WriteString("," + j)
		}
		b.WriteString(";")
	}
	return b.String()
}

// findStarted tells the players here of each seek that vanished whose
// game another process started. A seek pushed off the first page by
// newer ones looks vanished too: its seeker has no newer game, so is
// told nothing (and a game another process starts from it later shows
// in the seeker's count of games waiting, not as a start).
func (s *Server) findStarted(ctx context.Context, seeks []store.Seek) {
	l := s.lobby
	now := map[string]store.Seek{}
	for _, sk := range seeks {
		now[sk.ID] = sk
	}
	l.mu.Lock()
	gone := []store.Seek{}
	for id, sk := range l.known {
		if _, ok := now[id]; !ok {
			gone = append(gone, sk)
		}
	}
	l.known = now
	here := map[string]bool{}
	for sub := range l.subs {
		here[sub.account] = true
	}
	l.mu.Unlock()
	for _, sk := range gone {
		if !here[sk.Account] {
			continue
		}
		games, err := s.cfg.Store.PlayerGames(ctx, sk.Account, store.GameFilter{Game: sk.Game, Limit: 1})
		if err == nil && len(games) == 1 && !games[0].Created.Before(sk.Created) {
			s.lobby.send(lobbyMessage{Type: "started", Seek: sk.ID, Game: games[0].ID}, func(sub *lobbySub) bool {
				return sub.account == sk.Account
			})
		}
	}
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
	sub := &lobbySub{account: a.ID, out: make(chan lobbyMessage, 16)}
	s.lobby.add(sub)
	defer s.lobby.remove(sub)
	ctx := conn.CloseRead(context.Background())
	s.writeLobby(ctx, sk, sub)
}

// writeLobby writes the lobby's messages to one socket until it closes.
func (s *Server) writeLobby(ctx context.Context, sk *socket, sub *lobbySub) {
	if list, err := s.openSeeks(ctx); err == nil {
		s.writeLobbyMessage(ctx, sk, lobbyMessage{Type: "seeks", Seeks: list})
	}
	// Every keep: a ping, the seeker's real-time seeks kept open, the
	// count of games waiting for a move read again.
	keep := time.NewTicker(min(seekHold/4, s.timeouts.Ping))
	defer keep.Stop()
	turns := -1
	s.sendTurns(ctx, sk, sub, &turns)
	for {
		var msg lobbyMessage
		select {
		case msg = <-sub.out:
		case <-keep.C:
			if !s.pinged(ctx, sk) {
				return
			}
			if sub.account != "" {
				if err := s.cfg.Store.ExtendSeeks(ctx, sub.account, s.now(), s.now().Add(seekHold)); err != nil {
					s.log.Warn("keeping seeks", "err", err)
				}
			}
			s.sendTurns(ctx, sk, sub, &turns)
			continue
		case <-sk.stopping:
			sk.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
			return
		case <-ctx.Done():
			sk.conn.CloseNow()
			return
		}
		if !s.writeLobbyMessage(ctx, sk, msg) {
			return
		}
		if msg.Type == "started" {
			s.sendTurns(ctx, sk, sub, &turns)
		}
	}
}

// sendTurns sends the count of my games waiting for me when it changed.
func (s *Server) sendTurns(ctx context.Context, sk *socket, sub *lobbySub, last *int) {
	if sub.account == "" {
		return
	}
	turns, err := s.hall.Turns(ctx, sub.account)
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
