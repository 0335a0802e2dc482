package hall

import (
	"context"
	"errors"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/store"
)

// Move plays a person's move, given as text, for the seat of who at
// ply, and answers the game after it. A move already stored for that ply
// by that seat is a resend and answers the game as it is.
func (h *Hall) Move(ctx context.Context, id string, who Who, text string, ply int) (View, error) {
	return h.command(ctx, id, who, func(e *entry, seat game.Player) error {
		return h.playMove(e, seat, text, ply)
	})
}

// Resign resigns the seat of who.
func (h *Hall) Resign(ctx context.Context, id string, who Who) (View, error) {
	return h.command(ctx, id, who, func(e *entry, seat game.Player) error { return e.pg.Resign(seat) })
}

// DrawAction is what a seat does about a draw.
type DrawAction string

// The draw actions. Offering when the other seat offers already accepts;
// offering again changes nothing; declining withdraws one's own offer or
// refuses the other seat's.
const (
	Offer   DrawAction = "offer"
	Accept  DrawAction = "accept"
	Decline DrawAction = "decline"
)

// Draw offers, accepts or declines a draw for the seat of who.
func (h *Hall) Draw(ctx context.Context, id string, who Who, action DrawAction) (View, error) {
	var act func(pg *play.Game, seat game.Player) error
	switch action {
	case Offer:
		act = func(pg *play.Game, seat game.Player) error { return offerDraw(ctx, pg, seat) }
	case Accept:
		act = (*play.Game).AcceptDraw
	case Decline:
		act = (*play.Game).DeclineDraw
	default:
		return View{}, Errorf(Invalid, "action %s: want offer, accept or decline", quote(string(action)))
	}
	return h.command(ctx, id, who, func(e *entry, seat game.Player) error { return act(e.pg, seat) })
}

// offerDraw offers seat's draw; an AI on the other side answers at once,
// by the rule the terminal's AI answers with (ai.AcceptsDraw).
func offerDraw(ctx context.Context, pg *play.Game, seat game.Player) error {
	drawn, err := pg.OfferDraw(seat)
	if err != nil || drawn {
		return err
	}
	seats := pg.Seats()
	if len(seats) != 2 || seats[1-seat].Person() {
		return nil
	}
	other := 1 - seat
	if ai.AcceptsDraw(ctx, pg.State(), seat) {
		return pg.AcceptDraw(other)
	}
	return pg.DeclineDraw(other)
}

// TakebackAction is what a seat does about a take-back.
type TakebackAction string

// The take-back actions (see package play for the rules): asking takes
// back at once against the AI, and accepts the other seat's request when
// one is on the table; declining withdraws one's own request or refuses
// the other seat's.
const (
	AskTakeback     TakebackAction = "request"
	AcceptTakeback  TakebackAction = "accept"
	DeclineTakeback TakebackAction = "decline"
)

// Takeback asks for, accepts or declines a take-back for the seat of who.
func (h *Hall) Takeback(ctx context.Context, id string, who Who, action TakebackAction) (View, error) {
	var act func(pg *play.Game, seat game.Player) error
	switch action {
	case AskTakeback:
		act = func(pg *play.Game, seat game.Player) error {
			_, err := pg.RequestTakeback(seat)
			return err
		}
	case AcceptTakeback:
		act = (*play.Game).AcceptTakeback
	case DeclineTakeback:
		act = (*play.Game).DeclineTakeback
	default:
		return View{}, Errorf(Invalid, "action %s: want request, accept or decline", quote(string(action)))
	}
	return h.command(ctx, id, who, func(e *entry, seat game.Player) error { return act(e.pg, seat) })
}

// maxPremove bounds a premove's text, in bytes: a long chain of captures
// fits.
const maxPremove = 200

// SetPremove sets the premove of the seat of who (text "" clears it).
func (h *Hall) SetPremove(ctx context.Context, id string, who Who, text string) (View, error) {
	if len(text) > maxPremove {
		return View{}, Errorf(Invalid, "a premove of %d bytes: at most %d", len(text), maxPremove)
	}
	return h.command(ctx, id, who, func(e *entry, seat game.Player) error { return e.pg.SetPremove(seat, text) })
}

// PremoveView is what a seat is told of its premoves: the premove set
// ("" for none) and the ply of the turn it is for, and the premove
// dropped at the game's ply, no longer legal when its turn came ("" for
// none), so that a page opened after it went still says so.
type PremoveView struct {
	Move    string
	Ply     int
	Dropped string
}

// Premove is the premoves of the seat of who: only its own seat is told
// them.
func (h *Hall) Premove(ctx context.Context, id string, who Who) (PremoveView, error) {
	var v PremoveView
	err := h.read(ctx, id, func(e *entry) error {
		seat := seatOf(e.g.Seats, who)
		if seat < 0 {
			return notASeat(who)
		}
		if pm := e.pg.Premove(); pm != nil && int(pm.Seat) == seat {
			v.Move, v.Ply = pm.Move, pm.Ply
		}
		if pm := e.pg.Dropped(); pm != nil && int(pm.Seat) == seat {
			v.Dropped = pm.Move
		}
		return nil
	})
	return v, err
}

// command runs a seat's command on the game in play, stores what it
// changed, and answers the game after it.
func (h *Hall) command(ctx context.Context, id string, who Who, do func(e *entry, seat game.Player) error) (View, error) {
	if err := h.refuseWhileClosing(); err != nil {
		return View{}, err
	}
	var v View
	err := h.loaded(ctx, id, func(e *entry) (err error) {
		defer h.contain(e, "command", &err)
		seat := seatOf(e.g.Seats, who)
		if seat < 0 {
			return notASeat(who)
		}
		e.answering = true
		defer func() { e.answering, e.published = false, nil }()
		// A conditional reply due goes first: it was the seat's move
		// before anything the command asks (see playDue).
		err = h.decide(ctx, e, func() error {
			if _, err := e.pg.PlayDue(); err != nil {
				return err
			}
			return do(e, game.Player(seat))
		})
		if err != nil {
			return asRefusal(err)
		}
		h.afterChange(e)
		v = h.viewAfter(e)
		return nil
	})
	return v, err
}

// viewAfter is the game after a command: the view its watchers were sent
// when it is still the game's (no second view of the same version, as
// each move would otherwise build), or a new one. e.mu is held.
func (h *Hall) viewAfter(e *entry) View {
	if p := e.published; p != nil && p.Version == e.g.Version {
		return *p
	}
	return h.view(e)
}

// playMove plays seat's move for ply. e.mu is held.
func (h *Hall) playMove(e *entry, seat game.Player, text string, ply int) error {
	switch {
	case ply < 0:
		return Errorf(Invalid, "ply %d: plies count from 0", ply)
	case ply < e.g.Ply:
		if e.isResend(seat, text, ply) {
			return nil
		}
		return Errorf(WrongPly, "ply %d was played already; the game is at ply %d", ply, e.g.Ply)
	}
	_, err := e.pg.MoveAt(seat, ply, text)
	return err
}

// isResend reports whether seat played text at ply already. e.mu is held.
func (e *entry) isResend(seat game.Player, text string, ply int) bool {
	st := e.pg.State()
	for i := e.g.Ply; i > ply; i-- {
		st.Undo()
	}
	if st.ToMove() != seat {
		return false
	}
	m, err := game.ParseRuleMove(st, text)
	return err == nil && m.Text(st.Game().Board()) == e.g.Moves[ply].Text
}

// notASeat is the refusal of a command from someone without a seat.
func notASeat(who Who) error {
	if who.Token == "" {
		return Errorf(Forbidden, "your account holds no seat of this game")
	}
	return Errorf(Forbidden, "that token is not one of this game's seats")
}

// Seat is the seat of who in the game, or a Forbidden refusal.
func (h *Hall) Seat(ctx context.Context, id string, who Who) (int, error) {
	seat := -1
	err := h.read(ctx, id, func(e *entry) error {
		if seat = seatOf(e.g.Seats, who); seat < 0 {
			return notASeat(who)
		}
		return nil
	})
	return seat, err
}

// Arrive marks the seat of who arrived (store.Seat.Arrived), the first
// time: its player opened the game, which the other players are told (a
// new version) before the seat's first move. It answers the game.
func (h *Hall) Arrive(ctx context.Context, id string, who Who) (View, error) {
	if err := h.refuseWhileClosing(); err != nil {
		return View{}, err
	}
	var v View
	err := h.read(ctx, id, func(e *entry) error {
		seat := seatOf(e.g.Seats, who)
		if seat < 0 {
			return notASeat(who)
		}
		for attempt := 0; ; attempt++ {
			err := h.arrive(ctx, e, seat)
			if errors.Is(err, store.ErrConflict) && attempt < 2 {
				continue
			}
			if err == nil {
				v = h.view(e)
			}
			return err
		}
	})
	return v, err
}

// arrive marks seat's player arrived, unless they are already or the
// game is over. e.mu is held.
func (h *Hall) arrive(ctx context.Context, e *entry, seat int) error {
	if e.g.Seats[seat].Arrived || e.pg.Result().Over() {
		return nil
	}
	next := e.next(h.now())
	next.Seats[seat].Arrived = true
	if err := h.store.Update(ctx, next); err != nil {
		if errors.Is(err, store.ErrConflict) {
			e.loaded = false
			if rerr := h.refresh(ctx, e); rerr != nil {
				return rerr
			}
		}
		return err
	}
	e.g.Header = next
	h.broadcast(e, nil)
	return nil
}

// Join gives an open seat to whoever asks first, under name, and answers
// the seat's invite.
func (h *Hall) Join(ctx context.Context, id string, seat int, name string) (Invite, error) {
	if err := h.refuseWhileClosing(); err != nil {
		return Invite{}, err
	}
	name, err := h.checkAnonymousName(ctx, "name", name)
	if err != nil {
		return Invite{}, err
	}
	var invite Invite
	err = h.read(ctx, id, func(e *entry) error {
		for attempt := 0; ; attempt++ {
			err := h.join(ctx, e, seat, name, &invite)
			if errors.Is(err, store.ErrConflict) && attempt < 2 {
				continue
			}
			return err
		}
	})
	return invite, err
}

// join gives the open seat to name. e.mu is held.
func (h *Hall) join(ctx context.Context, e *entry, seat int, name string, invite *Invite) error {
	if seat < 0 || seat >= len(e.g.Seats) {
		return Errorf(Invalid, "seat %d: this game has seats 0 to %d", seat, len(e.g.Seats)-1)
	}
	if res := e.pg.Result(); res.Over() {
		return Errorf(GameOver, "%s (%s)", play.ErrOver, res.Describe(e.pg.Game()))
	}
	if !e.g.Seats[seat].Open {
		return Errorf(Conflict, "seat %d is not open", seat)
	}
	next := e.next(h.now())
	token, hash := newToken()
	next.Seats[seat] = store.Seat{Player: "human", Name: name, TokenHash: hash, Arrived: true}
	if err := h.store.Update(ctx, next); err != nil {
		if errors.Is(err, store.ErrConflict) {
			e.loaded = false
			if rerr := h.refresh(ctx, e); rerr != nil {
				return rerr
			}
		}
		return err
	}
	e.g.Header = next
	*invite = Invite{Seat: seat, Token: token, URL: InviteURL(e.id, seat, token)}
	h.broadcast(e, nil)
	return nil
}
