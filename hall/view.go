package hall

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/store"
)

// View is a game as its players and watchers are shown it: what the
// transport's wire form of a game is made from (it carries no tags: the
// transport owns the wire). It holds no token nor hash.
type View struct {
	ID   string
	Game string
	// Name is the game's name for people ("Checkers 2011").
	Name     string
	Options  map[string]string
	FEN      string
	Moves    []string
	Ply      int
	ToMove   int
	Legal    []string
	Result   *store.Result
	Version  int64
	StartFEN string
	Seats    []SeatView
	// Rated games change their accounts' ratings.
	Rated bool
	// Accounts are the seats' account ids ("" for none), for the
	// transport: ids are not shown, names are.
	Accounts []string
	// Movers are the seats that made the moves, one for each move.
	Movers []int
	// DrawOffer is the seat offering a draw, or -1; Takeback the seat
	// asking to take its last move back, or -1.
	DrawOffer, Takeback int
	// Takebacks says whether the game allows take-backs at all (an option
	// at its creation).
	Takebacks bool
	Clock     *ClockView
	// Description says how the game ended, in words; "" while it goes on.
	Description string
	// Attention, when not empty, says what went wrong with the game on
	// this server (its AI failed): the game needs the operator.
	Attention string
	URL       string
	Created   time.Time
	Updated   time.Time
}

// SeatView is a seat as its game's View shows it.
type SeatView struct {
	Seat   int
	Player string // "human" or the engine's spec
	Name   string
	// Side is the seat's colour as the rules name it ("White").
	Side string
	Open bool
	// Account is the name of the account holding the seat, if any.
	Account string
	// Arrived: the seat's player has opened the game (store.Seat.Arrived).
	Arrived bool
	// Bot: the seat's account is a bot, an engine played through the bot
	// API (store.Seat.Bot).
	Bot bool
}

// ClockView is a clock as its game's View shows it, in milliseconds.
type ClockView struct {
	Kind        string // "fischer" or "correspondence"
	Control     string
	BaseMs      int64
	IncrementMs int64
	PerMoveMs   int64
	LeftMs      []int64
	Running     bool
}

// SpectatorURL is where anyone may watch a game.
func SpectatorURL(id string) string { return "/games/" + id }

// view is the game as the API shows it. e.mu is held.
func (h *Hall) view(e *entry) (v View) {
	e.pg.Read(func(snap play.Snapshot) { v = h.viewOf(e, snap) })
	return v
}

// viewOf is the game as the API shows it, its play.Game read as snap
// (whose position is the play.Game's own: only read). e.mu is held.
func (h *Hall) viewOf(e *entry, snap play.Snapshot) View {
	rules := e.pg.Game()
	moves := snap.Moves // the snapshot's own copy
	if moves == nil {
		moves = []string{}
	}
	v := View{ID: e.id, Game: e.g.Game, Options: e.g.Options, FEN: snap.State.FEN(),
		Moves: moves, Ply: e.g.Ply, ToMove: int(snap.State.ToMove()), Legal: []string{},
		Movers:  append([]int{}, e.movers...),
		Version: e.g.Version, StartFEN: e.g.StartFEN, DrawOffer: int(snap.Offer), URL: SpectatorURL(e.id),
		Takeback: int(snap.Takeback), Takebacks: !e.g.NoTakebacks,
		Attention: e.attention, Created: e.g.Created, Updated: e.g.Updated}
	if d, ok := game.Lookup(e.g.Game); ok {
		v.Name = d.Name
	}
	if v.Options == nil {
		v.Options = map[string]string{}
	}
	if snap.Result.Over() {
		v.Result = StoredResult(snap.Result, rules.Players())
		v.Description = snap.Result.Describe(rules)
	} else {
		if legal := snap.MoveTexts(); legal != nil {
			v.Legal = legal
		}
	}
	v.Seats = seatViews(e.g.Seats, rules)
	v.Rated = e.g.Rated
	for _, seat := range e.g.Seats {
		v.Accounts = append(v.Accounts, seat.Account)
	}
	v.Clock = viewClock(snap)
	return v
}

func seatViews(seats []store.Seat, rules game.Game) []SeatView {
	out := make([]SeatView, 0, len(seats))
	for p, seat := range seats {
		sv := SeatView{Seat: p, Player: seat.Player, Name: seat.Name,
			Side: rules.PlayerName(game.Player(p)), Open: seat.Open, Arrived: seat.Arrived, Bot: seat.Bot}
		if seat.Account != "" {
			sv.Account = cmp.Or(seat.Name, seat.Account) // an AI level's id is its name
		}
		out = append(out, sv)
	}
	return out
}

func viewClock(snap play.Snapshot) *ClockView {
	tc := snap.Control
	if tc == nil {
		return nil
	}
	v := &ClockView{Kind: "fischer", Control: tc.String(), BaseMs: tc.Base.Milliseconds(),
		IncrementMs: tc.Increment.Milliseconds(), PerMoveMs: tc.PerMove.Milliseconds(), Running: snap.Running}
	if tc.Correspondence() {
		v.Kind = "correspondence"
	}
	for _, left := range snap.Left {
		v.LeftMs = append(v.LeftMs, left.Milliseconds())
	}
	return v
}

// record is the game as a record in the project's PDN style, each seat
// named as it is now (a seat joined from the lobby has its name). e.mu is
// held.
func (e *entry) record() *record.Record {
	rec := e.pg.Record()
	for p, seat := range e.g.Seats {
		rec.Set(e.pg.Game().PlayerName(game.Player(p)), cmp.Or(seat.Name, seat.Player))
	}
	return rec
}

// loaded runs f on the game, locked, read from the store only if this
// process does not hold it: a change made on it is checked by the store
// (a conditional write), and one made on a stale copy is decided again
// on the stored game (decide).
func (h *Hall) loaded(ctx context.Context, id string, f func(e *entry) error) error {
	e := h.lock(id)
	defer e.mu.Unlock()
	if err := h.load(ctx, e); err != nil {
		return err
	}
	return f(e)
}

// read runs f on the game, locked and read again from the store, so that
// what it answers is the truth even when another process changed it.
func (h *Hall) read(ctx context.Context, id string, f func(e *entry) error) error {
	e := h.lock(id)
	defer e.mu.Unlock()
	if err := h.refresh(ctx, e); err != nil {
		return err
	}
	return f(e)
}

// Get is the game as it is now.
func (h *Hall) Get(ctx context.Context, id string) (View, error) {
	var v View
	err := h.read(ctx, id, func(e *entry) error {
		v = h.view(e)
		return nil
	})
	return v, err
}

// Record is the game's record.
func (h *Hall) Record(ctx context.Context, id string) (*record.Record, error) {
	var rec *record.Record
	err := h.read(ctx, id, func(e *entry) error {
		rec = e.record()
		return nil
	})
	return rec, err
}

// Effects is what the move of ply did (pieces moved, taken, promoted).
func (h *Hall) Effects(ctx context.Context, id string, ply int) (game.Effects, error) {
	var effects game.Effects
	err := h.read(ctx, id, func(e *entry) error {
		if ply < 0 || ply >= e.g.Ply {
			return Errorf(Invalid, "ply %d: want the ply of a move played, 0 to %d", ply, e.g.Ply-1)
		}
		var err error
		effects, err = moveEffects(e, ply)
		return err
	})
	return effects, err
}

// LobbyGame is a game as the lobby lists it.
type LobbyGame struct {
	ID      string
	Game    string
	Options map[string]string
	Seats   []SeatView
	Ply     int
	Version int64
	URL     string
	Updated time.Time
}

// lobbySize bounds each list of the lobby.
const lobbySize = 50

// Lobby lists the newest ongoing games with an open seat, and the newest
// ongoing games.
func (h *Hall) Lobby(ctx context.Context) (open, live []LobbyGame, err error) {
	openHeaders, err := h.store.List(ctx, store.Filter{Ongoing: true, OpenSeats: true, Limit: lobbySize})
	if err != nil {
		return nil, nil, err
	}
	liveHeaders, err := h.store.List(ctx, store.Filter{Ongoing: true, Limit: lobbySize})
	if err != nil {
		return nil, nil, err
	}
	now := h.now()
	liveHeaders = slices.DeleteFunc(liveHeaders, func(g store.Header) bool { return abandoned(g, now) })
	return lobby(openHeaders), lobby(liveHeaders), nil
}

// AbandonedAfter is how long an untimed game against the computer may go
// without a move and still be live: after it the game is taken for
// abandoned (its player closed the page) and leaves the lobby's live
// games, while it stays open to its player and in their lists.
const AbandonedAfter = 15 * time.Minute

// abandoned tells whether g, an ongoing game, is an untimed game with a
// seat of the computer's that has not changed for AbandonedAfter: a
// person playing the computer without a clock who stopped. A game with
// a clock ends by itself; a game between people has someone waiting.
func abandoned(g store.Header, now time.Time) bool {
	if g.Clock != nil || now.Sub(g.Updated) < AbandonedAfter {
		return false
	}
	return slices.ContainsFunc(g.Seats, func(s store.Seat) bool { return s.Player != "human" })
}

func lobby(hs []store.Header) []LobbyGame {
	out := []LobbyGame{}
	for _, h := range hs {
		rules, err := game.New(h.Game, h.Options)
		if err != nil {
			continue
		}
		out = append(out, LobbyGame{ID: h.ID, Game: h.Game, Options: h.Options, Ply: h.Ply, Version: h.Version,
			URL: SpectatorURL(h.ID), Updated: h.Updated, Seats: seatViews(h.Seats, rules)})
	}
	return out
}

// StateAt is the position of the game before the move of ply (the
// current position for a negative ply), and the ply it is at.
func (h *Hall) StateAt(ctx context.Context, id string, ply int) (game.State, int, error) {
	var st game.State
	err := h.read(ctx, id, func(e *entry) error {
		if ply > e.g.Ply {
			return Errorf(Invalid, "ply %d: want a ply of this game, 0 to %d", ply, e.g.Ply)
		}
		if ply < 0 {
			ply = e.g.Ply
		}
		st = e.pg.State()
		for i := e.g.Ply; i > ply; i-- {
			st.Undo()
		}
		return nil
	})
	return st, ply, err
}
