package server

import (
	"cmp"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/store"
)

// gameView is a game as GET /api/games/{id} answers it: the fields of the
// contract first, then the server's own. It holds no token nor hash.
type gameView struct {
	ID       string            `json:"id"`
	Game     string            `json:"game"`
	Options  map[string]string `json:"options"`
	FEN      string            `json:"fen"`
	Moves    []string          `json:"moves"`
	Ply      int               `json:"ply"`
	ToMove   int               `json:"toMove"`
	Legal    []string          `json:"legal"`
	Result   *store.Result     `json:"result"`
	Version  int64             `json:"version"`
	StartFEN string            `json:"startFen,omitempty"`
	Seats    []seatView        `json:"seats"`
	// DrawOffer is the seat offering a draw, or -1.
	DrawOffer int        `json:"drawOffer"`
	Clock     *clockView `json:"clock,omitempty"`
	// Description says how the game ended, in words; "" while it goes on.
	Description string    `json:"description,omitempty"`
	URL         string    `json:"url"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

type seatView struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"` // "human" or the engine's spec
	Name   string `json:"name,omitempty"`
	// Side is the seat's colour as the rules name it ("White").
	Side string `json:"side"`
	Open bool   `json:"open"`
}

// spectatorURL is where anyone may watch a game.
func spectatorURL(id string) string { return "/games/" + id }

// view is the game as the API shows it. e.mu is held.
func (s *Server) view(e *entry) gameView {
	snap := e.ss.Snapshot()
	rules := e.ss.Game()
	v := gameView{ID: e.id, Game: e.g.Game, Options: e.g.Options, FEN: snap.State.FEN(),
		Moves: append([]string{}, snap.Moves...), Ply: e.g.Ply, ToMove: int(snap.State.ToMove()), Legal: []string{},
		Version: e.g.Version, StartFEN: e.g.StartFEN, DrawOffer: int(snap.Offer), URL: spectatorURL(e.id),
		Created: e.g.Created, Updated: e.g.Updated}
	if v.Options == nil {
		v.Options = map[string]string{}
	}
	if snap.Result.Over() {
		v.Result = storedResult(snap.Result, rules.Players())
		v.Description = snap.Result.Describe(rules)
	} else {
		v.Legal = append(v.Legal, game.MoveTexts(snap.State)...)
	}
	for p, seat := range e.g.Seats {
		v.Seats = append(v.Seats, seatView{Seat: p, Player: seat.Player, Name: seat.Name,
			Side: rules.PlayerName(game.Player(p)), Open: seat.Open})
	}
	v.Clock = viewClock(snap)
	return v
}

// record is the game as a record in the project's PDN style, each seat
// named as it is now (a seat joined from the lobby has its name). e.mu is
// held.
func (e *entry) record() *record.Record {
	rec := e.ss.Record()
	for p, seat := range e.g.Seats {
		rec.Set(e.ss.Game().PlayerName(game.Player(p)), cmp.Or(seat.Name, seat.Player))
	}
	return rec
}
