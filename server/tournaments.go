package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/timecontrol"
	"github.com/arbiter-games/arbiter/tournament"
)

// The tournaments are package tournament's; this file is their HTTP.

func (s *Server) tournamentRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/tournaments", s.handleCreateTournament)
	mux.HandleFunc("GET /api/tournaments", s.reads(s.handleTournaments))
	mux.HandleFunc("GET /api/tournaments/{id}", s.reads(s.handleTournament))
	mux.HandleFunc("GET /api/tournaments/{id}/games.pdn", s.reads(s.handleTournamentPDN))
	mux.HandleFunc("GET /api/tournaments/{id}/ws", s.handleTournamentSocket)
	for _, action := range []string{"join", "withdraw", "start", "berserk", "pause", "invite"} {
		mux.HandleFunc("POST /api/tournaments/{id}/"+action, func(w http.ResponseWriter, r *http.Request) {
			s.handleTournamentAction(w, r, action)
		})
	}
}

// tournamentClock is a tournament's clock on the wire, a seek's.
type tournamentClock struct {
	Initial   int `json:"initial"`
	Increment int `json:"increment"`
	Days      int `json:"days"`
}

// newTournamentRequest is POST /api/tournaments.
type newTournamentRequest struct {
	Name      string            `json:"name"`
	Kind      string            `json:"kind"`
	Game      string            `json:"game"`
	Options   map[string]string `json:"options"`
	Clock     *tournamentClock  `json:"clock"`
	Rated     bool              `json:"rated"`
	Rounds    int               `json:"rounds"`
	Minutes   int               `json:"minutes"`
	Start     string            `json:"start"` // RFC 3339; "" to start by hand
	Invite    bool              `json:"invite"`
	MinRating int               `json:"minRating"`
	MaxRating int               `json:"maxRating"`
}

// maxOptions bounds a tournament's options, as many and as long.
const maxOptions, maxOptionLength = 16, 100

func (s *Server) tournaments(w http.ResponseWriter) (*tournament.Service, bool) {
	if s.cfg.Tournaments == nil {
		writeError(w, fail(codeUnavailable, "this server runs no tournaments"))
		return nil, false
	}
	return s.cfg.Tournaments, true
}

func (s *Server) handleCreateTournament(w http.ResponseWriter, r *http.Request) {
	ts, ok := s.tournaments(w)
	if !ok {
		return
	}
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var body newTournamentRequest
	if err := s.decode(w, r, &body); err != nil {
		writeError(w, err)
		return
	}
	req, bad := tournamentRequestOf(body)
	if bad != nil {
		writeError(w, bad)
		return
	}
	id, err := ts.Create(r.Context(), a.ID, req)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id, "url": "/tournaments/" + id})
}

// tournamentRequestOf checks what the service cannot: the wire's own
// forms (a time's text, the options' sizes).
func tournamentRequestOf(b newTournamentRequest) (tournament.Request, *apiError) {
	req := tournament.Request{Name: b.Name, Kind: b.Kind, Game: b.Game, Options: b.Options, Rated: b.Rated, Rounds: b.Rounds,
		Minutes: b.Minutes, Invite: b.Invite, MinRating: b.MinRating, MaxRating: b.MaxRating}
	if len(b.Options) > maxOptions {
		return req, fail(codeInvalid, "%d options; at most %d", len(b.Options), maxOptions)
	}
	for k, v := range b.Options {
		if len(k) > maxOptionLength || len(v) > maxOptionLength {
			return req, fail(codeInvalid, "option %s: names and values of at most %d bytes", quote(k), maxOptionLength)
		}
	}
	if b.Clock != nil {
		req.Clock = &tournament.Clock{Initial: b.Clock.Initial, Increment: b.Clock.Increment, Days: b.Clock.Days}
	}
	if b.Start != "" {
		t, err := time.Parse(time.RFC3339, b.Start)
		if err != nil || len(b.Start) > 40 {
			return req, fail(codeInvalid, "start %s: want a time such as 2026-05-01T18:00:00Z, or none to start by hand", quote(b.Start))
		}
		req.Start = t
	}
	return req, nil
}

// tournamentSummary is a tournament in the lists.
type tournamentSummary struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Game  string `json:"game"`
	State string `json:"state"`
	Clock string `json:"clock"`
	// Control is the clock as a seek's: initial and increment seconds,
	// or days a move.
	Control *tournamentClock `json:"control,omitempty"`
	Rated   bool             `json:"rated"`
	Rounds  int              `json:"rounds,omitempty"`
	Minutes int              `json:"minutes,omitempty"`
	Invite  bool             `json:"invite,omitempty"`
	Starts  int64            `json:"starts,omitempty"` // ms since 1970; 0: by hand
	Started int64            `json:"started,omitempty"`
	Ended   int64            `json:"ended,omitempty"`
	// Round counts the rounds paired (an arena's waves of pairings);
	// Winner is a finished tournament's first.
	Round  int    `json:"round"`
	Winner string `json:"winner,omitempty"`
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	ts, ok := s.tournaments(w)
	if !ok {
		return
	}
	lists, err := ts.List(r.Context())
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	out := map[string][]tournamentSummary{}
	for name, list := range map[string]int{"upcoming": 0, "running": 1, "finished": 2} {
		out[name] = []tournamentSummary{}
		for _, v := range [][]tournament.View{lists.Upcoming, lists.Running, lists.Finished}[list] {
			out[name] = append(out[name], summaryOf(v))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// tableLineView is a line of a tournament's table.
type tableLineView struct {
	Rank      int       `json:"rank"`
	Name      string    `json:"name"`
	Rating    int       `json:"rating"`
	Score     float64   `json:"score"`
	Tiebreaks []float64 `json:"tiebreaks"`
	Points    []int     `json:"points,omitempty"`
	Fire      bool      `json:"fire,omitempty"`
	Games     int       `json:"games"`
	Withdrawn bool      `json:"withdrawn,omitempty"`
	Paused    bool      `json:"paused,omitempty"`
	Berserk   bool      `json:"berserk,omitempty"`
}

// boardView is a game of a round.
type boardView struct {
	Board   int      `json:"board"`
	ID      string   `json:"id"`
	Seats   []string `json:"seats"`
	Result  string   `json:"result"`
	Berserk []bool   `json:"berserk,omitempty"`
}

type roundView struct {
	Round int         `json:"round"`
	Games []boardView `json:"games"`
}

// tournamentView is GET /api/tournaments/{id}.
type tournamentView struct {
	tournamentSummary
	Creator     string            `json:"creator"`
	Options     map[string]string `json:"options"`
	MinRating   int               `json:"minRating,omitempty"`
	MaxRating   int               `json:"maxRating,omitempty"`
	TotalRounds int               `json:"totalRounds,omitempty"`
	Ends        int64             `json:"ends,omitempty"`
	Now         int64             `json:"now"`
	Standings   []tableLineView   `json:"standings"`
	Rounds      []roundView       `json:"rounds"`
	Podium      []string          `json:"podium"`
	Invited     []string          `json:"invited,omitempty"`
	// You are the asker's standing, when it plays; Playing the id of
	// its game going on.
	You     *tableLineView `json:"you,omitempty"`
	Playing string         `json:"playing,omitempty"`
}

func summaryOf(v tournament.View) tournamentSummary {
	out := tournamentSummary{ID: v.ID, Name: v.Name, Kind: v.Kind, Game: v.Game, State: v.State, Rated: v.Rated,
		Rounds: v.Tournament.Rounds, Minutes: v.Minutes, Invite: v.Invite, Starts: millis(v.Starts), Started: millis(v.Started), Ended: millis(v.Ended),
		Round: v.Round}
	if v.Clock != nil {
		out.Clock = v.Clock.String()
		out.Control = &tournamentClock{Initial: int(v.Clock.Base / time.Second), Increment: int(v.Clock.Increment / time.Second)}
		if v.Clock.Correspondence() {
			out.Control = &tournamentClock{Days: int(v.Clock.PerMove / timecontrol.Day)}
		}
	}
	if len(v.Podium) > 0 {
		out.Winner = v.Podium[0]
	}
	return out
}

func standingOf(sd tournament.Standing) tableLineView {
	tb := sd.Tiebreaks
	if tb == nil {
		tb = []float64{}
	}
	return tableLineView{Rank: sd.Rank, Name: sd.Name, Rating: int(sd.Rating + 0.5), Score: sd.Score, Tiebreaks: tb, Points: sd.Points,
		Fire: sd.Fire, Games: sd.Games, Withdrawn: sd.Withdrawn, Paused: sd.Paused, Berserk: sd.Berserk}
}

func (s *Server) handleTournament(w http.ResponseWriter, r *http.Request) {
	ts, ok := s.tournaments(w)
	if !ok {
		return
	}
	v, err := ts.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.tournamentViewOf(v, s.sessionAccountID(r)))
}

// tournamentViewOf is v as the account me ("" for none) is shown it.
func (s *Server) tournamentViewOf(v tournament.View, me string) tournamentView {
	out := tournamentView{tournamentSummary: summaryOf(v), Creator: v.CreatorName, Options: v.Options, MinRating: v.MinRating,
		MaxRating: v.MaxRating, TotalRounds: v.TotalRounds, Ends: millis(v.Ends), Now: s.now().UnixMilli(),
		Standings: []tableLineView{}, Rounds: []roundView{}, Podium: v.Podium, Invited: v.Invited}
	if out.Podium == nil {
		out.Podium = []string{}
	}
	for _, sd := range v.Standings {
		out.Standings = append(out.Standings, standingOf(sd))
		if me != "" && sd.Account == me {
			you := standingOf(sd)
			out.You = &you
		}
	}
	for _, rd := range v.Played {
		rv := roundView{Round: rd.Round, Games: []boardView{}}
		for _, g := range rd.Games {
			rv.Games = append(rv.Games, boardView{Board: g.Board, ID: g.ID, Seats: g.Seats, Result: g.Result, Berserk: g.Berserk})
			if me != "" && g.ID != "" && !g.Ended && slices.Contains(g.Accounts, me) {
				out.Playing = g.ID
			}
		}
		out.Rounds = append(out.Rounds, rv)
	}
	return out
}

// handleTournamentSocket streams a tournament's view, as GET
// /api/tournaments/{id} answers it, each time it changes: the first at
// once, then the view of the tournament's one watcher (package
// tournament), shared by every socket on it. It counts in the client's
// open sockets.
func (s *Server) handleTournamentSocket(w http.ResponseWriter, r *http.Request) {
	ts, ok := s.tournaments(w)
	if !ok {
		return
	}
	key, release, ok := s.socketSlot(w, r)
	if !ok {
		return
	}
	defer release()
	watch, first, err := ts.Watch(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	defer ts.Unwatch(watch)
	me := s.sessionAccountID(r)
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.Origins})
	if err != nil {
		return // Accept answered already (403 for a foreign origin)
	}
	conn.SetReadLimit(512)
	s.metrics.sockets.Inc()
	defer s.metrics.sockets.Dec()
	sk := &socket{conn: conn, key: key, stopping: make(chan struct{})}
	if !s.sockets.add(sk) {
		conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	defer s.sockets.remove(sk)
	ctx := conn.CloseRead(context.Background())
	ping := time.NewTicker(s.timeouts.Ping)
	defer ping.Stop()
	v := first
	for {
		data, _ := json.Marshal(s.tournamentViewOf(v, me))
		wctx, cancel := context.WithTimeout(ctx, writeWait)
		err := conn.Write(wctx, websocket.MessageText, data)
		cancel()
		if err != nil {
			conn.CloseNow()
			return
		}
		if v, ok = s.nextTournamentView(ctx, sk, watch, ping); !ok {
			return
		}
	}
}

// nextTournamentView waits for the watch's next view, pinging the
// client meanwhile; ok is false once the socket closed.
func (s *Server) nextTournamentView(ctx context.Context, sk *socket, watch *tournament.Watch, ping *time.Ticker) (tournament.View, bool) {
	for {
		select {
		case v := <-watch.Views():
			return v, true
		case <-ping.C:
			if !s.pinged(ctx, sk) {
				return tournament.View{}, false
			}
		case <-sk.stopping:
			sk.conn.Close(websocket.StatusGoingAway, "the server is shutting down")
			return tournament.View{}, false
		case <-ctx.Done():
			sk.conn.CloseNow()
			return tournament.View{}, false
		}
	}
}

// tournamentActionRequest is the body of /berserk, /pause and /invite
// (the others take none).
type tournamentActionRequest struct {
	On   *bool  `json:"on"`
	Name string `json:"name"`
}

func (s *Server) handleTournamentAction(w http.ResponseWriter, r *http.Request, action string) {
	ts, ok := s.tournaments(w)
	if !ok {
		return
	}
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var body tournamentActionRequest
	if action == "berserk" || action == "pause" || action == "invite" {
		if err := s.decode(w, r, &body); err != nil {
			writeError(w, err)
			return
		}
		if action != "invite" && body.On == nil {
			writeError(w, fail(codeInvalid, "send {\"on\": true} or {\"on\": false}"))
			return
		}
		if action == "invite" && (body.Name == "" || len(body.Name) > 100) {
			writeError(w, fail(codeInvalid, "send {\"name\": NAME} of the account to invite"))
			return
		}
	}
	id, ctx := r.PathValue("id"), r.Context()
	var err error
	switch action {
	case "join":
		err = ts.Join(ctx, id, a.ID)
	case "withdraw":
		err = ts.Withdraw(ctx, id, a.ID)
	case "start":
		err = ts.Start(ctx, id, a.ID)
	case "berserk":
		err = ts.Berserk(ctx, id, a.ID, *body.On)
	case "pause":
		err = ts.Pause(ctx, id, a.ID, *body.On)
	case "invite":
		err = ts.Invite(ctx, id, a.ID, body.Name)
	}
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleTournamentPDN writes every game of a tournament that was played
// as one PDN file, each with the tournament's name as its Event and its
// round as its Round.
func (s *Server) handleTournamentPDN(w http.ResponseWriter, r *http.Request) {
	ts, ok := s.tournaments(w)
	if !ok {
		return
	}
	v, err := ts.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="`+v.ID+`.pdn"`)
	for _, rd := range v.Played {
		for _, g := range rd.Games {
			if g.ID == "" {
				continue
			}
			rec, err := s.hall.Record(r.Context(), g.ID)
			if err != nil {
				s.log.Warn("tournament record", "game", g.ID, "err", err)
				continue
			}
			rec.Set("Event", v.Name)
			rec.Set("Round", strconv.Itoa(rd.Round)+"."+strconv.Itoa(g.Board))
			if err := record.Write(w, rec); err != nil {
				return
			}
			fmt.Fprintln(w)
		}
	}
}
