package server

import (
	"net/http"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/community"
)

// The chats, blocks, reports and the moderators' actions are package
// community's; this file is their HTTP (the chat's socket commands are in
// live.go).

func (s *Server) communityRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/games/{id}/chat", s.reads(s.handleChat))
	mux.HandleFunc("POST /api/games/{id}/chat", s.handleSay)
	mux.HandleFunc("GET /api/blocks", s.reads(s.handleBlocks))
	mux.HandleFunc("POST /api/blocks", s.handleBlock)
	mux.HandleFunc("DELETE /api/blocks/{name}", s.handleUnblock)
	mux.HandleFunc("POST /api/reports", s.handleReport)
	mux.HandleFunc("GET /api/mod/reports", s.reads(s.handleModReports))
	mux.HandleFunc("POST /api/mod/actions", s.handleModAction)
	mux.HandleFunc("GET /api/mod/log", s.reads(s.handleModLog))
}

// bannedRefusal refuses an account a moderator banned, with the reason
// it was given; nil for any other (and for no account).
func bannedRefusal(a accounts.Account) *apiError {
	if a.Standing.Banned {
		return fail(codeBanned, "your account is banned: %s", a.Standing.BanReason)
	}
	return nil
}

// chatMessageView is a chat message as the API gives it.
type chatMessageView struct {
	ID   string `json:"id"`
	Room string `json:"room"`
	By   string `json:"by"`
	Text string `json:"text"`
	At   int64  `json:"at"`
	// Links says that the page may make the links in the text
	// clickable (not for a new account's).
	Links bool `json:"links"`
}

func chatMessageViewOf(m community.Message) chatMessageView {
	return chatMessageView{ID: m.ID, Room: m.Room, By: m.Name, Text: m.Text, At: m.At, Links: m.Links}
}

// chatRoomView is one room of a game's chat as its reader may use it.
type chatRoomView struct {
	Room     string            `json:"room"`
	Write    bool              `json:"write"`
	Why      string            `json:"why,omitempty"`
	Messages []chatMessageView `json:"messages"`
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	rooms, err := s.community.Rooms(r.Context(), r.PathValue("id"), s.sessionAccountID(r))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	out := make([]chatRoomView, len(rooms))
	for i, room := range rooms {
		out[i] = chatRoomView{Room: room.Name, Write: room.Write, Why: room.Why, Messages: []chatMessageView{}}
		for _, m := range room.Messages {
			out[i].Messages = append(out[i].Messages, chatMessageViewOf(m))
		}
	}
	writeJSON(w, http.StatusOK, map[string][]chatRoomView{"rooms": out})
}

// sayRequest is POST /api/games/{id}/chat, and the socket's chat command.
type sayRequest struct {
	Room string `json:"room"`
	Text string `json:"text"`
}

func (s *Server) handleSay(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req sayRequest
	if !s.readRequest(w, r, &req, s.clients.allowMove) {
		return
	}
	m, err := s.community.Say(r.Context(), r.PathValue("id"), req.Room, a.ID, req.Text)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, chatMessageViewOf(m))
}

// blockRequest is POST /api/blocks.
type blockRequest struct {
	Name string `json:"name"`
}

// blockedView is one account of GET /api/blocks.
type blockedView struct {
	Name string    `json:"name"`
	At   time.Time `json:"at"`
}

func (s *Server) handleBlocks(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	list, err := s.community.Blocks(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	out := make([]blockedView, len(list))
	for i, b := range list {
		out[i] = blockedView{Name: b.Name, At: b.At}
	}
	writeJSON(w, http.StatusOK, map[string][]blockedView{"blocks": out})
}

func (s *Server) handleBlock(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req blockRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	other, err := s.community.Block(r.Context(), a.ID, req.Name)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	s.lobby.Blocked(r.Context(), a.ID, other)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleUnblock(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if err := s.admit(r, s.clients.allowGame); err != nil {
		writeError(w, err)
		return
	}
	if err := s.community.Unblock(r.Context(), a.ID, r.PathValue("name")); err != nil {
		s.writeFailure(w, err)
		return
	}
	s.lobby.Blocked(r.Context(), a.ID, "")
	w.WriteHeader(http.StatusNoContent)
}

// reportRequest is POST /api/reports: an account by name, and, if it is
// of one, the game or the chat message reported.
type reportRequest struct {
	Account string `json:"account"`
	Game    string `json:"game"`
	Message string `json:"message"`
	Reason  string `json:"reason"`
}

func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req reportRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	id, err := s.community.Report(r.Context(), a.ID, community.ReportRequest{Account: req.Account, Game: req.Game,
		Message: req.Message, Reason: req.Reason})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": id})
}

// standingView is what moderators decided of an account, as their page
// shows it.
type standingView struct {
	Admin      bool   `json:"admin,omitempty"`
	MutedUntil int64  `json:"mutedUntil,omitempty"`
	Banned     bool   `json:"banned,omitempty"`
	Closed     bool   `json:"closed,omitempty"`
	Engine     bool   `json:"engine,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// reportView is an open report on the moderators' page.
type reportView struct {
	ID       string           `json:"id"`
	Reporter string           `json:"reporter"`
	Account  string           `json:"account"`
	Game     string           `json:"game,omitempty"`
	Message  *chatMessageView `json:"message,omitempty"`
	Reason   string           `json:"reason"`
	Created  time.Time        `json:"created"`
	Standing standingView     `json:"standing"`
}

func (s *Server) handleModReports(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	list, err := s.community.Reports(r.Context(), a.ID)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	out := make([]reportView, len(list))
	for i, rep := range list {
		st := rep.Standing
		out[i] = reportView{ID: rep.ID, Reporter: rep.ReporterName, Account: rep.AccountName, Game: rep.Game,
			Reason: rep.Reason, Created: rep.Created,
			Standing: standingView{Admin: st.Admin, Banned: st.Banned, Closed: st.Closed, Engine: st.Engine}}
		if st.Muted(s.now()) {
			out[i].Standing.MutedUntil = st.MutedUntil.UnixMilli()
		}
		if m := rep.Message; m != nil {
			out[i].Message = &chatMessageView{ID: m.ID, Room: m.Room, By: m.Name, Text: m.Text, At: m.At.UnixMilli()}
		}
	}
	writeJSON(w, http.StatusOK, map[string][]reportView{"reports": out})
}

// modActionRequest is POST /api/mod/actions.
type modActionRequest struct {
	Account string  `json:"account"`
	Action  string  `json:"action"`
	Reason  string  `json:"reason"`
	Minutes float64 `json:"minutes"`
	Report  string  `json:"report"`
	Message string  `json:"message"`
}

func (s *Server) handleModAction(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req modActionRequest
	if !s.readRequest(w, r, &req, s.clients.allowGame) {
		return
	}
	done, err := s.community.Act(r.Context(), a.ID, community.Action{Account: req.Account, Action: req.Action,
		Reason: req.Reason, Minutes: req.Minutes, Report: req.Report, Message: req.Message})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	if done.SessionsEnded {
		s.sessionsEnded(done.Account, nil)
		s.lobby.Nudge() // its seeks were withdrawn
		// Its games in play end at once, resigned: its opponents are not
		// left waiting for a clock (days, in correspondence) to run out.
		if err := s.hall.ResignAll(r.Context(), done.Account); err != nil {
			s.log.Warn("resigning a banned account's games", "err", err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// modLogView is one line of the audit log.
type modLogView struct {
	At        time.Time `json:"at"`
	Moderator string    `json:"moderator"`
	Account   string    `json:"account"`
	Action    string    `json:"action"`
	Reason    string    `json:"reason"`
	Until     int64     `json:"until,omitempty"`
	Report    string    `json:"report,omitempty"`
}

func (s *Server) handleModLog(w http.ResponseWriter, r *http.Request) {
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	log, err := s.community.Log(r.Context(), a.ID, r.URL.Query().Get("account"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	out := make([]modLogView, len(log))
	for i, e := range log {
		mod := e.ModeratorName
		if e.Moderator == "" {
			mod = "(command line)"
		}
		out[i] = modLogView{At: e.At, Moderator: mod, Account: e.AccountName, Action: e.Action, Reason: e.Reason, Report: e.Report}
		if !e.Until.IsZero() {
			out[i].Until = e.Until.UnixMilli()
		}
	}
	writeJSON(w, http.StatusOK, map[string][]modLogView{"log": out})
}
