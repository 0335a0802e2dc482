package hall

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// Levels is how many AI levels play as accounts: ai:level=1 to 6, each
// as the account ai-level-N.
const Levels = 6

// LevelAccount is the id and name of AI level n's account.
func LevelAccount(n int) string { return "ai-level-" + strconv.Itoa(n) }

// isLevelAccount reports whether id is an AI level's account.
func isLevelAccount(id string) bool {
	for n := 1; n <= Levels; n++ {
		if id == LevelAccount(n) {
			return true
		}
	}
	return false
}

// levelOf is the level of a seat's spec when it is exactly ai:level=N,
// the spec that plays as an account; 0 for any other.
func levelOf(spec string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(spec, "ai:level="))
	if !strings.HasPrefix(spec, "ai:level=") || err != nil || n < 1 || n > Levels {
		return 0
	}
	return n
}

// SeatAccount is the account a transport seats in a new game: the
// person who asked for it, after the transport checked their session, or
// the players of a seek.
type SeatAccount struct {
	Seat int
	ID   string
	Name string
	// Bot: the account is a bot (store.AccountKind Bot), as its seat
	// shows for good.
	Bot bool
}

// ensureLevels makes the AI levels' accounts, each seeded with its
// measured rating in every game id where it has none yet. The six writes
// go at once, so that SQLite's writer commits them together.
func (h *Hall) ensureLevels(ctx context.Context) error {
	measured, err := rating.MeasuredLevels()
	if err != nil {
		return fmt.Errorf("hall: the AI levels' measured ratings: %w", err)
	}
	errs := make([]error, Levels)
	var wg sync.WaitGroup
	for n := 1; n <= Levels; n++ {
		wg.Go(func() {
			var seed []store.Rating
			for _, d := range game.All() {
				if g, ok := measured.Level(d.ID, n); ok {
					seed = append(seed, store.Rating{Game: d.ID, Rating: g.Rating, RD: g.RD, Volatility: g.Volatility, Updated: h.now()})
				}
			}
			level := store.Account{ID: LevelAccount(n), Name: LevelAccount(n), Kind: store.AILevel, Created: h.now()}
			if err := h.store.EnsureLevel(ctx, level, seed); err != nil {
				errs[n-1] = fmt.Errorf("hall: the account of AI level %d: %w", n, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// seatAccounts gives the prepared seats their accounts: the people the
// transport named, and every ai:level=N seat its level's account. A rated
// game needs an account at every seat, a clock, the game's start, and
// no account twice.
func seatAccounts(req NewGame, seats []store.Seat) error {
	for _, a := range req.Accounts {
		if a.Seat < 0 || a.Seat >= len(seats) || seats[a.Seat].Player != "human" || seats[a.Seat].Open {
			return Errorf(Invalid, "seat %d cannot be an account's: it is not a person's seat", a.Seat)
		}
		if accountSeat(seats, a.ID) >= 0 {
			return Errorf(Invalid, "one account cannot hold two seats of a game")
		}
		seats[a.Seat].Account, seats[a.Seat].Name, seats[a.Seat].Bot = a.ID, a.Name, a.Bot
	}
	for i, s := range seats {
		if n := levelOf(s.Player); n > 0 {
			// A level's seat goes by its level, never by a name the
			// request gave it (that name would link to the level's
			// profile).
			seats[i].Account, seats[i].Name = LevelAccount(n), ""
		}
	}
	if !req.Rated {
		return nil
	}
	return ratedSeats(req, seats)
}

// ratedSeats checks the seats of a rated game: an account at every seat,
// each account at one seat only (an AI level's too: a level playing
// itself would move the ratings that place new players, and rate one
// account twice in one game), a person's account at one seat at least
// (the AI levels alone would rate each other at will), a clock and the
// game's start.
func ratedSeats(req NewGame, seats []store.Seat) error {
	person := false
	for i, s := range seats {
		if s.Account == "" {
			return Errorf(Invalid, "seat %d has no account: a rated game is between accounts (sign in, and play ai:level=1..6 or a seek)", i)
		}
		if first := accountSeat(seats, s.Account); first != i {
			return Errorf(Invalid, "seats %d and %d are both %s: in a rated game an account holds one seat", first, i, quote(s.Account))
		}
		person = person || !isLevelAccount(s.Account)
	}
	switch {
	case !person:
		return Errorf(Invalid, "a rated game needs a person at one seat at least: sign in and take a seat; AI levels alone play unrated")
	case req.Clock == "" && req.Days == 0:
		return Errorf(Invalid, "a rated game needs a clock (clock or days)")
	case req.FEN != "":
		return Errorf(Invalid, "a rated game starts from the game's start: send no fen")
	}
	return nil
}

// Claim makes the anonymous seat of token the account's: a person who
// signs up or logs in keeps the games their browser played.
func (h *Hall) Claim(ctx context.Context, id, token string, account SeatAccount) error {
	if err := h.refuseWhileClosing(); err != nil {
		return err
	}
	if token == "" {
		return Errorf(Invalid, "no token")
	}
	return h.read(ctx, id, func(e *entry) error {
		seat := seatOf(e.g.Seats, Who{Token: token})
		switch {
		case seat < 0:
			return notASeat(Who{Token: token})
		case e.g.Seats[seat].Account == account.ID:
			return nil
		case e.g.Seats[seat].Account != "":
			return Errorf(Conflict, "seat %d is another account's", seat)
		case accountSeat(e.g.Seats, account.ID) >= 0:
			return Errorf(Conflict, "your account holds another seat of this game")
		}
		next := e.next(h.now())
		next.Seats[seat].Account, next.Seats[seat].Name = account.ID, account.Name
		if err := h.store.Update(ctx, next); err != nil {
			if errors.Is(err, store.ErrConflict) {
				e.loaded = false
			}
			return err
		}
		e.g.Header = next
		h.broadcast(e, nil)
		return nil
	})
}

// Turn is a game waiting for an account's move.
type Turn struct {
	View
	Seat int
}

// Turns lists the ongoing games of account where it is to move, oldest
// wait first.
func (h *Hall) Turns(ctx context.Context, account string) ([]Turn, error) {
	headers, err := h.store.PlayerGames(ctx, account, store.GameFilter{Ongoing: true, Limit: 200})
	if err != nil {
		return nil, err
	}
	var turns []Turn
	for _, hd := range headers {
		seat := accountSeat(hd.Seats, account)
		v, err := h.Get(ctx, hd.ID)
		if err != nil {
			h.log.Warn("turns", "game", hd.ID, "err", err)
			continue
		}
		if v.Result == nil && v.ToMove == seat {
			turns = append(turns, Turn{View: v, Seat: seat})
		}
	}
	slices.SortFunc(turns, func(a, b Turn) int { return a.Updated.Compare(b.Updated) })
	return turns, nil
}

// ResignAll resigns account in every game it is playing: an account
// being deleted leaves no game hanging.
func (h *Hall) ResignAll(ctx context.Context, account string) error {
	headers, err := h.store.PlayerGames(ctx, account, store.GameFilter{Ongoing: true, Limit: 1000})
	if err != nil {
		return err
	}
	for _, hd := range headers {
		if _, err := h.Resign(ctx, hd.ID, Who{Account: account}); err != nil && !isGameOver(err) {
			return err
		}
	}
	return nil
}

func isGameOver(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == GameOver
}

// StartSeek starts the game of a seek taken: the seeker and those who
// accepted, seated in random order, with the seek's game, options,
// clock, rating and take-backs.
func (h *Hall) StartSeek(ctx context.Context, sk store.Seek, players []SeatAccount) (Created, error) {
	order := rand.Perm(len(players))
	req := NewGame{Game: sk.Game, Options: sk.Options, Rated: sk.Rated, NoTakebacks: sk.NoTakebacks}
	for seat, i := range order {
		req.Seats = append(req.Seats, "human")
		req.Accounts = append(req.Accounts, SeatAccount{Seat: seat, ID: players[i].ID, Name: players[i].Name, Bot: players[i].Bot})
	}
	// The seek's control is given as a create request gives it, and
	// checked again as every new game's is.
	if c := sk.Clock; c != nil && c.Correspondence() {
		req.Days = int(c.PerMove / timecontrol.Day)
	} else if c != nil {
		req.Clock = c.String() // "3m+2s", as timecontrol.Parse reads it
	}
	return h.Create(ctx, req)
}
