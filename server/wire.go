package server

// The wire: the JSON the API and its sockets answer and read, for what
// the hall and the lobby hold. Their types carry no tags: the shapes the
// browser's pages read (web/src) are made here, from theirs, so that a
// change in the hall cannot change the wire unseen. The golden files under
// testdata/wire hold the bytes (TestWireGolden).

import (
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/reviews"
)

// gameView is a game (GET /api/games/{id}), as hall.View holds it: the
// contract's fields first, then the server's own.
type gameView struct {
	ID          string            `json:"id"`
	Game        string            `json:"game"`
	Name        string            `json:"name"`
	Options     map[string]string `json:"options"`
	FEN         string            `json:"fen"`
	Moves       []string          `json:"moves"`
	Ply         int               `json:"ply"`
	ToMove      int               `json:"toMove"`
	Legal       []string          `json:"legal"`
	Result      *resultView       `json:"result"`
	Version     int64             `json:"version"`
	StartFEN    string            `json:"startFen,omitempty"`
	Seats       []seatView        `json:"seats"`
	Rated       bool              `json:"rated"`
	Movers      []int             `json:"movers"`
	DrawOffer   int               `json:"drawOffer"`
	Takeback    int               `json:"takeback"`
	Takebacks   bool              `json:"takebacks"`
	Clock       *clockView        `json:"clock,omitempty"`
	Description string            `json:"description,omitempty"`
	Attention   string            `json:"attention,omitempty"`
	URL         string            `json:"url"`
	Created     time.Time         `json:"created"`
	Updated     time.Time         `json:"updated"`
}

// seatView is a seat; Rating and Provisional are the transport's, read
// from the store for a seat an account holds (withAccounts).
type seatView struct {
	Seat        int      `json:"seat"`
	Player      string   `json:"player"`
	Name        string   `json:"name,omitempty"`
	Side        string   `json:"side"`
	Open        bool     `json:"open"`
	Account     string   `json:"account,omitempty"`
	Arrived     bool     `json:"arrived,omitempty"`
	Rating      *float64 `json:"rating,omitempty"`
	Provisional bool     `json:"provisional,omitempty"`
	// Bot: an engine plays the seat's account, through the bot API.
	Bot bool `json:"bot,omitempty"`
}

// clockView is a clock, in milliseconds.
type clockView struct {
	Kind        string  `json:"kind"`
	Control     string  `json:"control"`
	BaseMs      int64   `json:"baseMs,omitempty"`
	IncrementMs int64   `json:"incrementMs,omitempty"`
	PerMoveMs   int64   `json:"perMoveMs,omitempty"`
	LeftMs      []int64 `json:"leftMs"`
	Running     bool    `json:"running"`
}

// resultView is how a game ended. It is the wire's own, not the store's
// saved form, though the two are alike today.
type resultView struct {
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
	Scores  []int  `json:"scores,omitempty"`
}

// inviteView is a person's seat and its token (POST .../join).
type inviteView struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	URL   string `json:"url"`
}

// createdView is a game just made (POST /api/games).
type createdView struct {
	ID    string       `json:"id"`
	Seats []inviteView `json:"seats"`
	URL   string       `json:"url"`
	Game  gameView     `json:"game"`
}

// lobbyGameView is a game as GET /api/lobby lists it.
type lobbyGameView struct {
	ID      string            `json:"id"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   []seatView        `json:"seats"`
	Ply     int               `json:"ply"`
	Version int64             `json:"version"`
	URL     string            `json:"url"`
	Updated time.Time         `json:"updated"`
}

// newGameRequest is the body of POST /api/games (hall.NewGame without
// what the transport adds).
type newGameRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   []string          `json:"seats"`
	Names   []string          `json:"names"`
	Clock   string            `json:"clock"`
	Days    int               `json:"days"`
	FEN     string            `json:"fen"`
	Rated   bool              `json:"rated"`
	// Takebacks false turns take-backs off; absent, they are allowed.
	Takebacks *bool `json:"takebacks"`
}

// seekClockView is a seek's clock, asked for and listed.
type seekClockView struct {
	Initial   int `json:"initial,omitempty"`
	Increment int `json:"increment,omitempty"`
	Days      int `json:"days,omitempty"`
}

// seekRequest is the body of POST /api/seeks.
type seekRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Rated   bool              `json:"rated"`
	// Takebacks false turns take-backs off in the game the seek starts;
	// absent, they are allowed (as for POST /api/games).
	Takebacks *bool          `json:"takebacks"`
	Clock     *seekClockView `json:"clock"`
	To        string         `json:"to"`
}

// seekView is a seek as GET /api/seeks and the lobby's socket list it.
type seekView struct {
	ID          string            `json:"id"`
	Game        string            `json:"game"`
	Options     map[string]string `json:"options"`
	Rated       bool              `json:"rated"`
	Takebacks   bool              `json:"takebacks"`
	Clock       *seekClockView    `json:"clock"`
	By          string            `json:"by"`
	Rating      float64           `json:"rating"`
	Provisional bool              `json:"provisional"`
	To          *string           `json:"to"`
	// ToBot: the challenged account is a bot.
	ToBot   bool      `json:"toBot,omitempty"`
	Seats   int       `json:"seats"`
	Joined  []string  `json:"joined"`
	Created time.Time `json:"created"`
	Kind    string    `json:"kind"`
	Cursor  string    `json:"cursor"`
}

// lobbyMessage is what the lobby's socket sends: the lobby's messages
// (lobby.Message), and the count of my games waiting for my move (Type
// "turn"), which the transport reads from the hall.
type lobbyMessage struct {
	Type  string     `json:"type"`
	Seeks []seekView `json:"seeks,omitempty"`
	Seek  string     `json:"seek,omitempty"`
	Game  string     `json:"game,omitempty"`
	Count *int       `json:"count,omitempty"`
}

func gameViewOf(v hall.View) gameView {
	return gameView{ID: v.ID, Game: v.Game, Name: v.Name, Options: v.Options, FEN: v.FEN, Moves: v.Moves,
		Ply: v.Ply, ToMove: v.ToMove, Legal: v.Legal, Result: resultViewOf(v.Result), Version: v.Version,
		StartFEN: v.StartFEN, Seats: seatViews(v.Seats), Rated: v.Rated, Movers: v.Movers,
		DrawOffer: v.DrawOffer, Takeback: v.Takeback, Takebacks: v.Takebacks,
		Clock: clockViewOf(v.Clock), Description: v.Description,
		Attention: v.Attention, URL: v.URL, Created: v.Created, Updated: v.Updated}
}

// seatViews keeps a nil list nil (null), as the hall's was encoded.
func seatViews(seats []hall.SeatView) []seatView {
	if seats == nil {
		return nil
	}
	out := make([]seatView, 0, len(seats))
	for _, s := range seats {
		out = append(out, seatView{Seat: s.Seat, Player: s.Player, Name: s.Name, Side: s.Side,
			Open: s.Open, Account: s.Account, Arrived: s.Arrived, Bot: s.Bot})
	}
	return out
}

func clockViewOf(c *hall.ClockView) *clockView {
	if c == nil {
		return nil
	}
	return &clockView{Kind: c.Kind, Control: c.Control, BaseMs: c.BaseMs, IncrementMs: c.IncrementMs,
		PerMoveMs: c.PerMoveMs, LeftMs: c.LeftMs, Running: c.Running}
}

func resultViewOf(r *hall.Result) *resultView {
	if r == nil {
		return nil
	}
	return &resultView{Winners: r.Winners, Reason: r.Reason, Scores: r.Scores}
}

func inviteViewOf(inv hall.Invite) inviteView {
	return inviteView{Seat: inv.Seat, Token: inv.Token, URL: inv.URL}
}

func createdViewOf(c hall.Created) createdView {
	out := createdView{ID: c.ID, URL: c.URL, Game: gameViewOf(c.Game)}
	if c.Seats != nil {
		out.Seats = make([]inviteView, 0, len(c.Seats))
	}
	for _, inv := range c.Seats {
		out.Seats = append(out.Seats, inviteViewOf(inv))
	}
	return out
}

// lobbyGameViews is never nil: an empty list is [].
func lobbyGameViews(games []hall.LobbyGame) []lobbyGameView {
	out := make([]lobbyGameView, 0, len(games))
	for _, g := range games {
		out = append(out, lobbyGameView{ID: g.ID, Game: g.Game, Options: g.Options, Seats: seatViews(g.Seats),
			Ply: g.Ply, Version: g.Version, URL: g.URL, Updated: g.Updated})
	}
	return out
}

// game is the request as the hall takes it; the transport adds the
// client and the accounts it checked.
func (req newGameRequest) game() hall.NewGame {
	return hall.NewGame{Game: req.Game, Options: req.Options, Seats: req.Seats, Names: req.Names,
		Clock: req.Clock, Days: req.Days, FEN: req.FEN, Rated: req.Rated,
		NoTakebacks: req.Takebacks != nil && !*req.Takebacks}
}

// takebackRequest is POST /api/games/{id}/takeback.
type takebackRequest struct {
	Action string `json:"action"` // request, accept or decline
}

// premoveRequest is POST /api/games/{id}/premove; premoveView its answer
// and GET's.
type premoveRequest struct {
	Move *string `json:"move"` // "" clears the premove
}

type premoveView struct {
	Premove string `json:"premove"`
	// Ply is the premove's turn, with a premove; Dropped the premove
	// dropped at the game's ply, no longer legal when its turn came.
	Ply     int    `json:"ply,omitempty"`
	Dropped string `json:"dropped,omitempty"`
}

// conditionalRequest is POST /api/games/{id}/conditional; conditionalView
// its answer and GET's.
type conditionalRequest struct {
	Moves *[]string `json:"moves"` // [] clears them
}

type conditionalView struct {
	// Moves alternate the opponent's expected move and the seat's reply,
	// in the game's notation; Ply is the ply of the first, with a line.
	Moves []string `json:"moves"`
	Ply   int      `json:"ply,omitempty"`
}

func (req seekRequest) seek() lobby.SeekRequest {
	out := lobby.SeekRequest{Game: req.Game, Options: req.Options, Rated: req.Rated, To: req.To,
		NoTakebacks: req.Takebacks != nil && !*req.Takebacks}
	if req.Clock != nil {
		out.Clock = &lobby.SeekControl{Initial: req.Clock.Initial, Increment: req.Clock.Increment, Days: req.Clock.Days}
	}
	return out
}

func seekClockViewOf(c *lobby.SeekControl) *seekClockView {
	if c == nil {
		return nil
	}
	return &seekClockView{Initial: c.Initial, Increment: c.Increment, Days: c.Days}
}

// seekViews keeps a nil list nil (null, or absent from a message), as the
// lobby's was encoded.
func seekViews(seeks []lobby.SeekView) []seekView {
	if seeks == nil {
		return nil
	}
	out := make([]seekView, 0, len(seeks))
	for _, s := range seeks {
		out = append(out, seekView{ID: s.ID, Game: s.Game, Options: s.Options, Rated: s.Rated, Takebacks: !s.NoTakebacks,
			Clock: seekClockViewOf(s.Clock), By: s.By, Rating: s.Rating, Provisional: s.Provisional, To: s.To, ToBot: s.ToBot,
			Seats: s.Seats, Joined: s.Joined, Created: s.Created, Kind: s.Kind, Cursor: s.Cursor})
	}
	return out
}

func lobbyMessageOf(msg lobby.Message) lobbyMessage {
	return lobbyMessage{Type: msg.Type, Seeks: seekViews(msg.Seeks), Seek: msg.Seek, Game: msg.Game}
}

// eventWires encodes each of the hall's events once however many sockets
// watch its game (hall.Event.Encoded): the first socket to write an event
// encodes it, the others write the same bytes.
type eventWires struct {
	// encoded counts the events encoded, for the tests.
	encoded atomic.Int64
}

// wire is ev's wire form, encoded the first time any socket asks.
func (c *eventWires) wire(ev *hall.Event) []byte {
	return ev.Encoded(func(ev *hall.Event) []byte {
		c.encoded.Add(1)
		return encodeEvent(ev)
	})
}

// reviewView is a game's computer review (GET /api/games/{id}/review), as
// reviews.Review holds it: the contract's fields (state, moves,
// accuracy) first. Moves and accuracy are empty until it is done.
type reviewView struct {
	Game     string             `json:"game"`
	State    string             `json:"state"`
	Moves    []reviewMoveView   `json:"moves"`
	Accuracy []float64          `json:"accuracy"`
	Counts   []reviewCountsView `json:"counts"`
	Nodes    int64              `json:"nodes,omitempty"`
	Error    string             `json:"error,omitempty"`
	// Puzzles are the ids of the puzzles found in the game, when the
	// server finds them (serve --review-puzzles).
	Puzzles []string `json:"puzzles,omitempty"`
}

// reviewMoveView is one move's review: score from the mover's point of
// view (hundredths of a piece, as the analysis gives it), mark null when
// none.
type reviewMoveView struct {
	Ply       int      `json:"ply"`
	Seat      int      `json:"seat"`
	Move      string   `json:"move"`
	Score     int      `json:"score"`
	ScoreText string   `json:"scoreText"`
	Best      string   `json:"best"`
	Line      []string `json:"line"`
	Mark      *string  `json:"mark"`
	WinChance float64  `json:"winChance"`
	After     float64  `json:"after"`
	Drop      float64  `json:"drop"`
	Loss      int      `json:"loss"`
	Forced    bool     `json:"forced,omitempty"`
	Exact     string   `json:"exact,omitempty"`
}

// reviewCountsView is one seat's marks.
type reviewCountsView struct {
	Inaccuracy int `json:"inaccuracy"`
	Mistake    int `json:"mistake"`
	Blunder    int `json:"blunder"`
}

func reviewViewOf(r reviews.Review) reviewView {
	v := reviewView{Game: r.Game, State: string(r.State), Moves: []reviewMoveView{}, Accuracy: []float64{},
		Counts: []reviewCountsView{}, Error: r.Error}
	if r.Result == nil {
		return v
	}
	res := r.Result
	v.Nodes = res.Nodes
	for _, m := range res.Moves {
		mv := reviewMoveView{Ply: m.Ply, Seat: m.Seat, Move: m.Move, Score: m.Score, ScoreText: m.ScoreText, Best: m.Best,
			Line: m.Line, WinChance: m.WinChance, After: m.After, Drop: m.Drop, Loss: m.Loss, Forced: m.Forced, Exact: m.Exact}
		if mv.Line == nil {
			mv.Line = []string{}
		}
		if m.Mark != "" {
			mark := m.Mark
			mv.Mark = &mark
		}
		v.Moves = append(v.Moves, mv)
	}
	v.Accuracy = append(v.Accuracy, res.Accuracy...)
	for _, c := range res.Counts {
		v.Counts = append(v.Counts, reviewCountsView{Inaccuracy: c.Inaccuracy, Mistake: c.Mistake, Blunder: c.Blunder})
	}
	for _, p := range res.Puzzles {
		v.Puzzles = append(v.Puzzles, p.ID)
	}
	return v
}
